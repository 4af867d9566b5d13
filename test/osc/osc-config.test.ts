// The `osc` section of the config file and SHOWCLOCK_OSC_PORT: off by default,
// every mistake named by its path, and the install script's commented example
// valid once its // are removed.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { useConfigDir, installScriptExample } from '../config/config-dir.js';

const configs = useConfigDir('showclock-osc-config-');
const withFile = (content: unknown, env: NodeJS.ProcessEnv = {}) => configs.load(content, env);
const problemOf = (content: unknown, env: NodeJS.ProcessEnv = {}): string => configs.problem(content, env);

describe('osc config', () => {
  it('is off by default: no port, no feedback, no replies', () => {
    expect(loadConfig({}, configs.path()).osc).toEqual({ port: undefined, host: '0.0.0.0', textPort: undefined, reply: false, feedback: [] });
  });

  it('reads the section, and SHOWCLOCK_OSC_PORT turns OSC on or moves it', () => {
    const section = { port: 7350, host: '127.0.0.1', textPort: 7351, reply: true, feedback: [{ host: 'touchosc.local', port: 9000 }] };
    expect(withFile({ osc: section }).osc).toEqual(section);
    expect(withFile({ osc: section }, { SHOWCLOCK_OSC_PORT: '9123' }).osc.port).toBe(9123);
    expect(loadConfig({ SHOWCLOCK_OSC_PORT: '7350' }, configs.path()).osc).toMatchObject({ port: 7350, host: '0.0.0.0' });
    expect(loadConfig({ SHOWCLOCK_OSC_PORT: '' }, configs.path()).osc.port).toBeUndefined();
  });

  it('names each bad field by its path', () => {
    const message = problemOf({
      osc: { port: 'seven', host: '', textPort: 70000, reply: 'yes', feedback: [{ host: 'a', port: 0 }, { host: 7, port: 9000, via: 'tcp' }] },
    });
    for (const expected of [
      'osc.port: expected a number',
      'osc.host: expected a host name or address',
      'osc.textPort: expected 0 to 65535',
      'osc.reply: expected true or false',
      'osc.feedback[0].port: expected a port 1 to 65535 to send to',
      'osc.feedback[1].host: expected a string',
      'osc.feedback[1].via: unknown key',
    ]) {
      expect(message).toContain(expected);
    }
    expect(problemOf({ osc: { prot: 7350 } })).toContain('osc.prot: unknown key');
    expect(problemOf({ osc: { feedback: { host: 'a', port: 1 } } })).toContain('osc.feedback: expected a list of { "host": ..., "port": ... }');
    expect(problemOf({ osc: { feedback: Array.from({ length: 33 }, () => ({ host: 'a', port: 1 })) } })).toContain('osc.feedback: expected at most 32 targets');
    expect(problemOf({ osc: { port: 7350, textPort: 7350 } })).toContain('osc.textPort: must differ from osc.port');
  });

  it('names the variable when SHOWCLOCK_OSC_PORT is wrong', () => {
    expect(() => loadConfig({ SHOWCLOCK_OSC_PORT: 'osc' }, configs.path())).toThrow('environment SHOWCLOCK_OSC_PORT: expected a whole number, got "osc"');
    expect(() => loadConfig({ SHOWCLOCK_OSC_PORT: '65536' }, configs.path())).toThrow('environment SHOWCLOCK_OSC_PORT: expected 0 to 65535');
  });

  it("the install script's commented osc example is valid once uncommented", () => {
    const block = installScriptExample('osc');
    expect(withFile(block).osc).toEqual({
      port: 7350,
      host: '0.0.0.0',
      textPort: 7351,
      reply: false,
      feedback: [{ host: '192.168.1.50', port: 9000 }],
    });
  });
});
