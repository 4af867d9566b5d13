// `showclock key --rotate-*` that cannot be done: nothing changes, one line on
// stderr, and a non-zero exit a script can see (64 for a key the environment
// fixes, 73 for a data directory that cannot be written). Run as a process, from
// a bundle of the current sources made for this file (dist/ may be older).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runKeyCommand } from '../../src/cli/key-command.js';
import { EXIT_DATA_DIR, loadConfig } from '../../src/config/config.js';
import { generateKey, readKeys, writeKeys } from '../../src/keys/key-file.js';
import { serviceBundleOptions } from '../../scripts/build.mjs';
import { ROOT } from '../e2e/service-process.js';

let work: string;
let bundle: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'showclock-key-command-'));
  bundle = path.join(work, 'showclock.cjs');
  // As scripts/build.mjs makes dist/showclock.cjs, without minifying or the code cache.
  await build({ ...serviceBundleOptions({ sourceRoot: ROOT, outfile: bundle, minify: false }), logLevel: 'error' });
}, 60_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function freshDataDir(): { dir: string; keys: { apiKey: string; viewerKey: string; audienceKey: string } } {
  const dir = mkdtempSync(path.join(work, 'data-'));
  const keys = { apiKey: generateKey(), viewerKey: generateKey(), audienceKey: generateKey() };
  writeKeys(dir, keys);
  return { dir, keys };
}

function keyCommand(env: Record<string, string>, args: readonly string[], prefix: readonly string[] = []) {
  const command = [...prefix, process.execPath, bundle, 'key', ...args];
  return spawnSync(command[0]!, command.slice(1), { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
}

function storedKeys(dir: string) {
  const read = readKeys(dir);
  if (read.kind !== 'ok') throw new Error(`keys.json: ${read.kind}`);
  return read.keys;
}

const ENV_API_KEY = 'EnvironmentApiKey_0123456789abcdef';
const ENV_VIEWER_KEY = 'EnvironmentViewerKey_0123456789abc';

describe('the links printed', () => {
  it('add the venue overview only for a box with a venue key', () => {
    const { dir, keys } = freshDataDir();
    const plain = keyCommand({ SHOWCLOCK_DATA_DIR: dir, PORT: '8123', HOST: '127.0.0.1' }, []);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain(`Viewers:      http://127.0.0.1:8123/view/${keys.viewerKey}\n`);
    expect(plain.stdout).not.toContain('Venue:');
    const venueKey = 'KeyCommandVenueKey_0123456789';
    const withVenue = keyCommand({ SHOWCLOCK_DATA_DIR: dir, PORT: '8123', HOST: '127.0.0.1', SHOWCLOCK_VENUE_KEY: venueKey }, []);
    expect(withVenue.status).toBe(0);
    expect(withVenue.stdout).toContain(`API base:     http://127.0.0.1:8123/api/v1/${keys.apiKey}\nVenue:        http://127.0.0.1:8123/venue/${venueKey}\n`);
  });
});

describe('a refused key rotation', () => {
  it('with the API key fixed in the environment: exit 64, one line on stderr, nothing printed or changed', () => {
    const { dir, keys } = freshDataDir();
    const refused = keyCommand({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: ENV_API_KEY }, ['--rotate-api']);
    expect(refused.status).toBe(64);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^showclock key: not rotated, nothing changed: SHOWCLOCK_API_KEY is set in the environment/);
    expect(refused.stderr).not.toContain(ENV_API_KEY);
    expect(storedKeys(dir)).toEqual(keys);
  });

  it('all or nothing: with the viewer key fixed, --rotate-api --rotate-viewer rotates neither', () => {
    const { dir, keys } = freshDataDir();
    const refused = keyCommand({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_VIEWER_KEY: ENV_VIEWER_KEY }, ['--rotate-api', '--rotate-viewer']);
    expect(refused.status).toBe(64);
    expect(refused.stderr).toMatch(/SHOWCLOCK_VIEWER_KEY is set/);
    expect(storedKeys(dir)).toEqual(keys);
    // Printing the links with a key fixed there is no rotation: it still works.
    const printed = keyCommand({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_VIEWER_KEY: ENV_VIEWER_KEY }, []);
    expect(printed.status).toBe(0);
    expect(printed.stdout).toContain(`/view/${ENV_VIEWER_KEY}`);
  });

  it('a rotation that is not refused still exits 0 and changes the key', () => {
    const { dir, keys } = freshDataDir();
    const rotated = keyCommand({ SHOWCLOCK_DATA_DIR: dir }, ['--rotate-viewer']);
    expect(rotated.status).toBe(0);
    expect(rotated.stderr).toBe('');
    expect(storedKeys(dir).viewerKey).not.toBe(keys.viewerKey);
    expect(storedKeys(dir).apiKey).toBe(keys.apiKey);
  });

  it('--rotate-audience changes only the audience key and prints the new audience link', () => {
    const { dir, keys } = freshDataDir();
    const rotated = keyCommand({ SHOWCLOCK_DATA_DIR: dir }, ['--rotate-audience']);
    expect(rotated.status).toBe(0);
    const after = storedKeys(dir);
    expect(after.audienceKey).not.toBe(keys.audienceKey);
    expect({ apiKey: after.apiKey, viewerKey: after.viewerKey }).toEqual({ apiKey: keys.apiKey, viewerKey: keys.viewerKey });
    expect(rotated.stdout).toContain(`Audience:     `);
    expect(rotated.stdout).toContain(`/ask/${after.audienceKey}`);
    expect(rotated.stdout).toMatch(/The audience key is new/);
  });

  it('with the audience key fixed in the environment: exit 64 naming SHOWCLOCK_AUDIENCE_KEY, nothing changed', () => {
    const { dir, keys } = freshDataDir();
    const refused = keyCommand({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_AUDIENCE_KEY: 'EnvironmentAudienceKey_0123456789' }, ['--rotate-audience']);
    expect(refused.status).toBe(64);
    expect(refused.stderr).toMatch(/SHOWCLOCK_AUDIENCE_KEY is set in the environment/);
    expect(storedKeys(dir)).toEqual(keys);
  });

  const readOnlyUnavailable = (() => {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root on Linux for a read-only bind mount';
    const probe = mkdtempSync(path.join(tmpdir(), 'showclock-ro-probe-'));
    try {
      const tried = spawnSync('unshare', ['-m', 'sh', '-c', `mount --bind "${probe}" "${probe}" && mount -o remount,bind,ro "${probe}" && ! touch "${probe}/x" 2>/dev/null`]);
      return tried.status === 0 ? null : 'unshare -m with a read-only bind mount is not permitted here';
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  })();
  if (readOnlyUnavailable !== null) console.warn(`SKIPPED: rotation on a read-only data directory: ${readOnlyUnavailable}`);

  it.skipIf(readOnlyUnavailable !== null)('on a read-only data directory: exit 73, one line on stderr, nothing changed', () => {
    const { dir, keys } = freshDataDir();
    const readOnly = ['unshare', '-m', 'sh', '-c', `mount --bind "${dir}" "${dir}" && mount -o remount,bind,ro "${dir}" && exec "$0" "$@"`];
    const refused = keyCommand({ SHOWCLOCK_DATA_DIR: dir }, ['--rotate-api'], readOnly);
    expect(refused.status).toBe(EXIT_DATA_DIR);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^showclock key: not rotated, nothing changed: data directory .* is read-only \(EROFS\)/);
    expect(storedKeys(dir)).toEqual(keys);
  });
});

describe('a rotation whose keys.json cannot be written (in process)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('exits 73 with one line saying nothing changed', () => {
    const { dir, keys } = freshDataDir();
    // The temp file the write goes through is taken by a directory: the write fails (EISDIR).
    mkdirSync(path.join(dir, `keys.json.tmp-${process.pid}`, 'blocker'), { recursive: true });
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
      throw new Error(`exit ${String(code)}`);
    });
    expect(() => runKeyCommand(loadConfig({ SHOWCLOCK_DATA_DIR: dir }), ['--rotate-api'])).toThrow(`exit ${EXIT_DATA_DIR}`);
    expect(stdout).not.toHaveBeenCalled();
    const lines = stderr.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^showclock key: not rotated, nothing changed: cannot save the keys in .*keys\.json \(EISDIR\)/);
    expect(storedKeys(dir)).toEqual(keys);
  });
});
