// `publicUrl` / SHOWCLOCK_PUBLIC_URL: the address every link the box gives out
// starts with. Only an http(s) scheme, a host and a port; anything else (a path,
// a query, a user name, another scheme) stops the service with the field named.
import { describe, expect, it } from 'vitest';
import { roomUrls } from '../../src/app/urls.js';
import { loadConfig } from '../../src/config/config.js';
import { checkPublicUrl } from '../../src/config/public-url.js';
import { useConfigDir } from './config-dir.js';

const configDir = useConfigDir('showclock-public-url-');
const configFile = (content: unknown): string => configDir.file(content);
const configError = (env: NodeJS.ProcessEnv): string => configDir.error(env);



const GOOD: readonly (readonly [string, string])[] = [
  ['http://showclock.local:8080', 'http://showclock.local:8080'],
  ['http://showclock.local:8080/', 'http://showclock.local:8080'],
  ['HTTP://ShowClock.Local:8080/', 'http://showclock.local:8080'],
  ['https://timer.example.org', 'https://timer.example.org'],
  ['https://timer.example.org:443/', 'https://timer.example.org'],
  ['http://192.168.1.50:8080', 'http://192.168.1.50:8080'],
  ['http://[fd00::2]:8080/', 'http://[fd00::2]:8080'],
  ['http://box', 'http://box'],
];

const BAD: readonly (readonly [string, RegExp])[] = [
  ['showclock.local:8080', /must start with http:\/\/ or https:\/\//],
  ['ftp://showclock.local', /must start with http:\/\/ or https:\/\//],
  ['javascript:alert(1)', /must start with http:\/\/ or https:\/\//],
  ['//showclock.local', /must start with/],
  ['http://showclock.local:8080/timer', /no path \(\/timer\)/],
  ['http://showclock.local/control/', /no path/],
  ['http://showclock.local:8080/?x=1', /no query/],
  ['http://showclock.local:8080/?', /no query/],
  ['http://showclock.local:8080#top', /fragment/],
  ['http://user:pw@showclock.local', /no user name or password/],
  ['http://showclock.local:99999', /not a valid address/],
  ['http://', /not a valid address/],
  ['http://show clock.local', /no spaces/],
  [' http://showclock.local', /must start with/],
  ['http://a"b.example', /host must be a name or an address/],
  ['http://a<b>.example', /not a valid address|host must be/],
];

describe('checkPublicUrl', () => {
  it('takes a scheme, a host and a port, and gives the origin links start with', () => {
    for (const [raw, origin] of GOOD) expect(checkPublicUrl(raw), raw).toEqual({ ok: true, origin });
  });

  it('refuses anything else, saying what is wrong and what it wants', () => {
    for (const [raw, why] of BAD) {
      const checked = checkPublicUrl(raw);
      expect(checked.ok, raw).toBe(false);
      const problem = checked.ok ? '' : checked.problem;
      expect(problem, raw).toMatch(why);
      expect(problem).toMatch(/^expected an http:\/\/ or https:\/\/ address such as http:\/\/showclock\.local:8080/);
    }
  });
});

describe('publicUrl in the configuration', () => {
  it("is unset by default: links use the box's own address", () => {
    expect(loadConfig({}, configDir.path()).publicUrl).toBeUndefined();
  });

  it('comes from the file (key publicUrl) and from SHOWCLOCK_PUBLIC_URL, which wins', () => {
    const file = configFile({ publicUrl: 'http://ShowClock.local:8080/' });
    expect(loadConfig({ SHOWCLOCK_CONFIG: file }, configDir.path()).publicUrl).toBe('http://showclock.local:8080');
    expect(loadConfig({ SHOWCLOCK_CONFIG: file, SHOWCLOCK_PUBLIC_URL: 'https://timer.example.org' }, configDir.path()).publicUrl).toBe('https://timer.example.org');
    expect(loadConfig({ SHOWCLOCK_PUBLIC_URL: '' }, configDir.path()).publicUrl).toBeUndefined();
  });

  it('a bad one in the file is named by its field and the file, with the other problems', () => {
    const file = configFile({ publicUrl: 'http://showclock.local:8080/timer', port: 'eighty' });
    const message = configError({ SHOWCLOCK_CONFIG: file });
    expect(message).toContain(`config file ${file}: 2 problems`);
    expect(message).toMatch(/^ {2}publicUrl: expected an http:\/\/ or https:\/\/ address .*no path \(\/timer\)/m);
    expect(message).toContain('port: expected a number');
  });

  it('a value of the wrong type in the file is named too', () => {
    const file = configFile({ publicUrl: 8080 });
    expect(configError({ SHOWCLOCK_CONFIG: file })).toMatch(/publicUrl: expected a string/);
  });

  it('a bad one in the environment names the variable', () => {
    expect(configError({ SHOWCLOCK_PUBLIC_URL: 'showclock.local' })).toMatch(/^environment SHOWCLOCK_PUBLIC_URL: expected an http:\/\/ or https:\/\/ address.*must start with/);
    expect(configError({ SHOWCLOCK_PUBLIC_URL: 'http://showclock.local/?a' })).toMatch(/^environment SHOWCLOCK_PUBLIC_URL: .*no query/);
  });

  it('is what `npm run key` and `npm start` print the links with', () => {
    const keys = { apiKey: 'A'.repeat(20), viewerKey: 'V'.repeat(20), audienceKey: 'Q'.repeat(20) };
    const config = loadConfig({ SHOWCLOCK_PUBLIC_URL: 'https://timer.example.org/' }, configDir.path());
    expect(roomUrls(config.host, config.port, keys, config.publicUrl)).toEqual({
      control: `https://timer.example.org/control/${keys.apiKey}`,
      viewer: `https://timer.example.org/view/${keys.viewerKey}`,
      audience: `https://timer.example.org/ask/${keys.audienceKey}`,
      api: `https://timer.example.org/api/v1/${keys.apiKey}`,
    });
    // Unset: the box's own address and the port, as before.
    expect(roomUrls('127.0.0.1', 9000, keys).viewer).toBe(`http://127.0.0.1:9000/view/${keys.viewerKey}`);
  });
});
