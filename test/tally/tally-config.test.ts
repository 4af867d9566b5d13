// The `tally` section of the config file and its environment variables: off by
// default, every mistake named by its path, and the install script's commented
// example valid once its // are removed.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { tallyConfigured } from '../../src/config/tally-config.js';
import { useConfigDir, installScriptExample, configCommandOutput } from '../config/config-dir.js';

const configs = useConfigDir('showclock-tally-config-');
const withFile = (content: unknown, env: NodeJS.ProcessEnv = {}) => configs.load(content, env);
const problemOf = (content: unknown, env: NodeJS.ProcessEnv = {}): string => configs.problem(content, env);

describe('tally config', () => {
  it('is off by default', () => {
    const { tally } = loadConfig({}, configs.path());
    expect(tally).toEqual({ tsl: { port: undefined, host: '0.0.0.0', indices: [], on: 'program' }, obs: { url: undefined, password: undefined, on: 'stream' } });
    expect(tallyConfigured(tally)).toBe(false);
  });

  it('reads the section; the environment turns it on or moves it', () => {
    const tsl = { port: 8900, host: '127.0.0.1', indices: [1, 4], on: 'both' };
    expect(withFile({ tally: { tsl } }).tally.tsl).toEqual(tsl);
    expect(withFile({ tally: { tsl } }, { SHOWCLOCK_TALLY_TSL_PORT: '8901', SHOWCLOCK_TALLY_TSL_INDICES: ' 2, 3 ' }).tally.tsl).toMatchObject({ port: 8901, indices: [2, 3] });
    const fromEnv = loadConfig({ SHOWCLOCK_TALLY_TSL_PORT: '8900', SHOWCLOCK_TALLY_TSL_INDICES: '1' }, configs.path()).tally;
    expect(fromEnv.tsl).toEqual({ port: 8900, host: '0.0.0.0', indices: [1], on: 'program' });
    expect(tallyConfigured(fromEnv)).toBe(true);
  });

  it('names each bad field by its path', () => {
    const message = problemOf({ tally: { tsl: { port: 'eight', host: '', indices: [1, 1, -2, 65535, 1.5], on: 'red', screen: 1 }, obs: { url: 'http://obs:4455', password: 7, on: 'live' }, mqtt: {} } });
    for (const expected of [
      'tally.tsl.port: expected a number',
      'tally.tsl.host: expected a host name or address',
      'tally.tsl.indices[2]: expected 0 to 65534',
      'tally.tsl.indices[3]: expected 0 to 65534',
      'tally.tsl.indices[4]: expected a whole number',
      'tally.tsl.on: expected one of program, preview, both',
      'tally.tsl.screen: unknown key',
      'tally.obs.url: expected ws:// or wss:// (OBS\'s WebSocket server), got http://',
      'tally.obs.password: expected a string',
      'tally.obs.on: expected one of stream, record, both',
      'tally.mqtt: unknown key',
    ]) {
      expect(message).toContain(expected);
    }
    expect(problemOf({ tally: { tsl: { port: 8900, indices: [1, 1] } } })).toContain('tally.tsl.indices: expected each index once');
    expect(problemOf({ tally: { tsl: { port: 8900, indices: [] } } })).toContain('tally.tsl.indices: expected at least one display index');
    expect(problemOf({ tally: { tsl: { port: 8900, indices: 1 } } })).toContain('tally.tsl.indices: expected a list of display indices');
    expect(problemOf({ tally: { tsl: { port: 8900 } } })).toContain('tally.tsl.indices: required with tally.tsl.port');
    expect(problemOf({ port: 8900, tally: { tsl: { port: 8900, indices: [1] } } })).toContain('tally.tsl.port: 8900 is the HTTP port');
    expect(problemOf({ osc: { port: 7350 }, tally: { tsl: { port: 7350, indices: [1] } } })).toContain('tally.tsl.port: 7350 is an OSC port');
  });

  it('reads OBS from the file and the environment; the password is never printed by `showclock config`', () => {
    const obs = { url: 'ws://192.168.1.20:4455', password: 'p4ss', on: 'both' };
    const config = withFile({ tally: { obs } });
    expect(config.tally.obs).toEqual(obs);
    expect(tallyConfigured(config.tally)).toBe(true);
    expect(loadConfig({ SHOWCLOCK_TALLY_OBS_URL: 'wss://obs.local:4455', SHOWCLOCK_TALLY_OBS_PASSWORD: 'x' }, configs.path()).tally.obs).toEqual({ url: 'wss://obs.local:4455', password: 'x', on: 'stream' });
    expect(() => loadConfig({ SHOWCLOCK_TALLY_OBS_URL: 'obs.local' }, configs.path())).toThrow('environment SHOWCLOCK_TALLY_OBS_URL: expected a WebSocket address such as ws://127.0.0.1:4455');
  });

  it('names the variable when one is wrong', () => {
    expect(() => loadConfig({ SHOWCLOCK_TALLY_TSL_PORT: 'tsl' }, configs.path())).toThrow('environment SHOWCLOCK_TALLY_TSL_PORT: expected a whole number, got "tsl"');
    expect(() => loadConfig({ SHOWCLOCK_TALLY_TSL_PORT: '8900', SHOWCLOCK_TALLY_TSL_INDICES: 'one' }, configs.path())).toThrow(
      'environment SHOWCLOCK_TALLY_TSL_INDICES: expected whole numbers separated by commas (1 or 1,2), got "one"',
    );
    expect(() => loadConfig({ SHOWCLOCK_TALLY_TSL_PORT: '8900', SHOWCLOCK_TALLY_TSL_INDICES: '1,70000' }, configs.path())).toThrow(
      'environment SHOWCLOCK_TALLY_TSL_INDICES: [1]: expected 0 to 65534',
    );
    expect(() => loadConfig({ SHOWCLOCK_TALLY_TSL_PORT: '8900' }, configs.path())).toThrow('tally.tsl.indices: required with tally.tsl.port');
  });

  it("the install script's commented tally example is valid once uncommented", () => {
    const block = installScriptExample('tally');
    expect(withFile(block).tally.tsl).toEqual({ port: 8900, host: '0.0.0.0', indices: [1], on: 'program' });
  });
});

describe('showclock config', () => {
  it('says the OBS password is set and never prints it', () => {
    const config = withFile({ tally: { obs: { url: 'ws://127.0.0.1:4455', password: 'do-not-print-me' } } });
    const written = configCommandOutput(config, [], ['tally']);
    expect(written.join('')).not.toContain('do-not-print-me');
    expect(JSON.parse(written[1] ?? '')).toMatchObject({ obs: { url: 'ws://127.0.0.1:4455', password: '(set)', on: 'stream' } });
  });
});
