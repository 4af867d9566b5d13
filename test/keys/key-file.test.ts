// keys.json in a real temp directory: made at first start (mode 0600), kept
// across starts, replaced (and reported) when missing or damaged.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keysPath, loadOrCreateKeys, readKeys, writeKeys } from '../../src/keys/key-file.js';

let dataDir: string;
const none = { apiKey: undefined, viewerKey: undefined };

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-keys-'));
});

afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('keys.json', () => {
  it('missing: two distinct URL-safe keys of at least 128 bits are made and saved with mode 0600', () => {
    const damaged: string[] = [];
    const keys = loadOrCreateKeys(dataDir, none, (reason) => damaged.push(reason));
    expect(damaged).toEqual([]);
    for (const key of [keys.apiKey, keys.viewerKey]) {
      expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(key, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
    expect(keys.apiKey).not.toBe(keys.viewerKey);
    expect(statSync(keysPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
  });

  it('kept across starts', () => {
    const first = loadOrCreateKeys(dataDir, none);
    expect(loadOrCreateKeys(dataDir, none)).toEqual(first);
  });

  it('the data directory is made when missing', () => {
    const nested = path.join(dataDir, 'var', 'lib', 'showclock');
    const keys = loadOrCreateKeys(nested, none);
    expect(readKeys(nested)).toEqual({ kind: 'ok', keys });
  });

  for (const [name, content, reason] of [
    ['not JSON', '{"version":1,"apiKey":"abc', /not valid JSON/],
    ['empty', '', /not valid JSON/],
    ['the wrong shape', JSON.stringify({ version: 2, apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) }), /not a keys file of version 1/],
    ['keys too short to be safe', JSON.stringify({ version: 1, apiKey: 'short', viewerKey: 'b'.repeat(32) }), /not a keys file/],
  ] as const) {
    it(`corrupt (${name}): reported, replaced by new keys, and the service can start`, () => {
      writeFileSync(keysPath(dataDir), content, { mode: 0o600 });
      const damaged: string[] = [];
      const keys = loadOrCreateKeys(dataDir, none, (r) => damaged.push(r));
      expect(damaged).toHaveLength(1);
      expect(damaged[0]).toMatch(reason);
      expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
    });
  }

  it('unreadable (a directory in its place) is reported as damaged, not as missing', () => {
    rmSync(dataDir, { recursive: true });
    writeKeys(path.join(dataDir, 'keys.json'), { apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) });
    expect(readKeys(dataDir)).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/cannot be read \(EISDIR\)/) });
  });

  it('keys fixed by the environment win, and are written so `npm run key` prints what the service uses', () => {
    const stored = loadOrCreateKeys(dataDir, none);
    const fixed = { apiKey: 'EnvironmentApiKey_0123456789', viewerKey: undefined };
    const keys = loadOrCreateKeys(dataDir, fixed);
    expect(keys).toEqual({ apiKey: fixed.apiKey, viewerKey: stored.viewerKey });
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
  });

  it('writes atomically: no temp file is left and the content is whole', () => {
    writeKeys(dataDir, { apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) });
    expect(readdirSync(dataDir)).toEqual(['keys.json']);
    expect(JSON.parse(readFileSync(keysPath(dataDir), 'utf8'))).toEqual({ version: 1, apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) });
  });
});
