// The config file and the environment: defaults, overrides, and every mistake
// named by its path and the file it is in; the bundle exits 78 on one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import * as z from '../../src/schema/zod.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS, describeConfigIssues, EXIT_CONFIG, loadConfig, oscConfigured } from '../../src/config/config.js';
import { BUNDLE, ensureBundle, ROOT, serviceEnv } from '../e2e/service-process.js';
import { useConfigDir } from './config-dir.js';

const configDir = useConfigDir('showclock-config-');
const configFile = (content: unknown): string => configDir.file(content);
const configError = (env: NodeJS.ProcessEnv): string => configDir.error(env);



describe('loadConfig', () => {
  it('without a file or environment: the defaults, data directory resolved', () => {
    const config = loadConfig({}, configDir.path());
    expect(config).toMatchObject({ port: DEFAULTS.port, host: DEFAULTS.host, rateLimit: 100, logLevel: 'info', gpioMode: 'auto', dataDir: path.join(configDir.path(), 'data') });
    expect(config.apiKey).toBeUndefined();
    expect(config.configPath).toBeUndefined();
  });

  it('reads the file, and environment variables override it', () => {
    const file = configFile({ port: 9000, host: '127.0.0.1', dataDir: '/var/lib/showclock', rateLimit: 50, logLevel: 'warn' });
    expect(loadConfig({ SHOWCLOCK_CONFIG: file }, configDir.path())).toMatchObject({ port: 9000, host: '127.0.0.1', dataDir: '/var/lib/showclock', rateLimit: 50, logLevel: 'warn', configPath: file });
    const overridden = loadConfig(
      { SHOWCLOCK_CONFIG: file, PORT: '9100', HOST: '0.0.0.0', SHOWCLOCK_DATA_DIR: '/srv/showclock', SHOWCLOCK_RATE_LIMIT: '500', LOG_LEVEL: 'debug', SHOWCLOCK_GPIO: 'sim' },
      configDir.path(),
    );
    expect(overridden).toMatchObject({ port: 9100, host: '0.0.0.0', dataDir: '/srv/showclock', rateLimit: 500, logLevel: 'debug', gpioMode: 'sim' });
  });

  it('names each bad field by its path, and the file, in one message', () => {
    const file = configFile({ port: 'eighty', host: '', rateLimit: 0, logLevel: 'loud', dataDir: 7 });
    const message = configError({ SHOWCLOCK_CONFIG: file });
    expect(message).toContain(`config file ${file}`);
    expect(message).toContain('5 problems');
    for (const expected of ['port: expected a number', 'host: expected a host name or address', 'rateLimit: expected at least 1', 'logLevel: expected one of', 'dataDir: expected a string']) {
      expect(message).toContain(expected);
    }
  });

  it('reports an unknown key, at the top and inside a section', () => {
    const file = configFile({ prot: 8080, gpio: { lamp: { pin: 17, colour: 'red' } } });
    const message = configError({ SHOWCLOCK_CONFIG: file });
    expect(message).toContain('prot: unknown key');
    expect(message).toContain('gpio.lamp.colour: unknown key');
  });

  it('names a bad field of the gpio section by its full path', () => {
    const file = configFile({ gpio: { lamp: { pin: 'seventeen' } } });
    expect(configError({ SHOWCLOCK_CONFIG: file })).toMatch(/gpio\.lamp\.pin: expected a/);
  });

  it('a file that is not JSON, not an object, or missing is named with the reason', () => {
    expect(configError({ SHOWCLOCK_CONFIG: configFile('{ "port": 80, }') })).toMatch(/config file .*showclock\.json: not valid JSON/);
    expect(configError({ SHOWCLOCK_CONFIG: configFile('[1, 2]') })).toMatch(/showclock\.json: 1 problem:\n {2}expected an object/);
    expect(configError({ SHOWCLOCK_CONFIG: path.join(configDir.path(), 'nope.json') })).toMatch(/config file .*nope\.json: cannot be read \(ENOENT\)/);
  });

  it('a bad environment variable is named', () => {
    expect(configError({ PORT: 'http' })).toMatch(/environment PORT: expected a whole number/);
    expect(configError({ PORT: '70000' })).toMatch(/environment PORT: expected 0 to 65535/);
    expect(configError({ SHOWCLOCK_RATE_LIMIT: '0' })).toMatch(/environment SHOWCLOCK_RATE_LIMIT: expected at least 1/);
    expect(configError({ LOG_LEVEL: 'loud' })).toMatch(/environment LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace/);
    expect(configError({ SHOWCLOCK_GPIO: 'yes' })).toMatch(/environment SHOWCLOCK_GPIO: expected one of auto, onoff, sim, off/);
    expect(configError({ SHOWCLOCK_API_KEY: 'short' })).toMatch(/environment SHOWCLOCK_API_KEY/);
    const same = 'SameKeyForBoth_0123456789';
    expect(configError({ SHOWCLOCK_API_KEY: same, SHOWCLOCK_VIEWER_KEY: same })).toMatch(/must differ/);
  });
});

describe('oscConfigured', () => {
  const off = loadConfig({}).osc;
  it('is off with no osc section, and on with any one of its parts', () => {
    expect(oscConfigured(off)).toBe(false);
    expect(oscConfigured({ ...off, port: 0 })).toBe(true);
    expect(oscConfigured({ ...off, textPort: 9001 })).toBe(true);
    expect(oscConfigured({ ...off, feedback: [{ host: '127.0.0.1', port: 9002 }] })).toBe(true);
  });

  it('is on with SHOWCLOCK_OSC_PORT alone', () => {
    expect(oscConfigured(loadConfig({ SHOWCLOCK_OSC_PORT: '8000' }).osc)).toBe(true);
  });
});

describe('describeConfigIssues', () => {
  const schema = z.strictObject({
    gpio: z.strictObject({ lamp: z.strictObject({ pin: z.number() }), buttons: z.array(z.strictObject({ pin: z.number() })) }),
  });

  it('turns zod wording into what the field should hold, path first', () => {
    const result = schema.safeParse({ gpio: { lamp: { pin: '17' }, buttons: [{ pin: 4 }, { pin: null, action: 'x' }] } });
    expect(result.success).toBe(false);
    expect(describeConfigIssues((result as { error: z.core.$ZodError }).error)).toEqual([
      'gpio.lamp.pin: expected a number',
      'gpio.buttons[1].pin: expected a number',
      'gpio.buttons[1].action: unknown key (misspelt, or not a setting of this version)',
    ]);
  });
});

describe('the bundle with a bad config file', () => {
  beforeAll(() => ensureBundle());

  it('exits with 78 and one message naming each bad field and the file', () => {
    const file = configFile({ port: 'eighty', rateLimt: 10, gpio: { lamp: { pin: 'x' } } });
    const run = spawnSync(process.execPath, [BUNDLE], { cwd: ROOT, env: serviceEnv({ SHOWCLOCK_CONFIG: file, SHOWCLOCK_DATA_DIR: configDir.path() }), encoding: 'utf8', timeout: 15_000 });
    expect(run.status).toBe(EXIT_CONFIG);
    expect(run.stderr).toContain(`config file ${file}`);
    expect(run.stderr).toContain('port: expected a number');
    expect(run.stderr).toContain('rateLimt: unknown key');
    expect(run.stderr).toMatch(/gpio\.lamp\.pin: expected a/);
    // It stopped before touching the data directory.
    expect(run.stdout).toBe('');
  });

  it('`key` with a bad environment exits 78 too', () => {
    const run = spawnSync(process.execPath, [BUNDLE, 'key'], { cwd: ROOT, env: serviceEnv({ PORT: 'abc', SHOWCLOCK_DATA_DIR: configDir.path() }), encoding: 'utf8', timeout: 15_000 });
    expect(run.status).toBe(EXIT_CONFIG);
    expect(run.stderr).toMatch(/environment PORT/);
  });
});
