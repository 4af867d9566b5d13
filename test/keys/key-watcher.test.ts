// The key watcher on a real directory: a replaced keys.json is picked up by the
// file-system event (no polling), a damaged one keeps the keys in use.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKey, keysPath, loadOrCreateKeys, writeKeys, type FixedKeys, type RoomKeys } from '../../src/keys/key-file.js';
import { KeyWatcher } from '../../src/keys/key-watcher.js';

let dataDir: string;
let watcher: KeyWatcher | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-keywatch-'));
});

afterEach(() => {
  watcher?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function watch(fixed: FixedKeys = { apiKey: undefined, viewerKey: undefined, audienceKey: undefined }) {
  let keys = loadOrCreateKeys(dataDir, fixed);
  const changes: { keys: RoomKeys; rotated: { api: boolean; viewer: boolean; audience: boolean } }[] = [];
  const problems: string[] = [];
  let notify: (() => void) | null = null;
  watcher = new KeyWatcher({
    dataDir,
    fixed,
    current: () => keys,
    onChange: (next, rotated) => {
      keys = next;
      changes.push({ keys: next, rotated });
      notify?.();
    },
    onProblem: (message) => {
      problems.push(message);
      notify?.();
    },
  });
  watcher.start();
  /** Waits for the watcher to report something, or gives up after `ms`. */
  const next = (ms = 3_000) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      notify = () => {
        clearTimeout(timer);
        notify = null;
        resolve();
      };
    });
  return { keys: () => keys, changes, problems, next };
}

describe('KeyWatcher', () => {
  it('picks up a rotated API key as soon as keys.json is replaced', async () => {
    const w = watch();
    const before = w.keys();
    const rotated = { ...before, apiKey: generateKey() };
    const reported = w.next();
    writeKeys(dataDir, rotated);
    await reported;
    expect(w.keys()).toEqual(rotated);
    expect(w.changes[0]?.rotated).toEqual({ api: true, viewer: false, audience: false });
  });

  it('picks up a rotated audience key, and only that one', async () => {
    const w = watch();
    const rotated = { ...w.keys(), audienceKey: generateKey() };
    const reported = w.next();
    writeKeys(dataDir, rotated);
    await reported;
    expect(w.keys()).toEqual(rotated);
    expect(w.changes[0]?.rotated).toEqual({ api: false, viewer: false, audience: true });
  });

  it('picks up a rotated viewer key, and each rotation after it', async () => {
    const w = watch();
    for (let i = 0; i < 3; i += 1) {
      const rotated = { ...w.keys(), viewerKey: generateKey() };
      const reported = w.next();
      writeKeys(dataDir, rotated);
      await reported;
      expect(w.keys()).toEqual(rotated);
    }
    expect(w.changes.every((c) => c.rotated.viewer && !c.rotated.api)).toBe(true);
  });

  it('a damaged keys.json keeps the keys in use and is reported', async () => {
    const w = watch();
    const before = w.keys();
    const reported = w.next();
    const temp = path.join(dataDir, 'elsewhere');
    writeFileSync(temp, '{"version":1,"apiKey":');
    renameSync(temp, keysPath(dataDir));
    await reported;
    expect(w.keys()).toEqual(before);
    expect(w.problems[0]).toMatch(/keys\.json not valid JSON; keeping the keys in use/);
  });

  it('a deleted keys.json keeps the keys in use', async () => {
    const w = watch();
    const before = w.keys();
    rmSync(keysPath(dataDir));
    await w.next(300);
    expect(w.keys()).toEqual(before);
    expect(w.changes).toEqual([]);
  });

  it('a key fixed by the environment is not replaced by the file', async () => {
    const fixedApi = 'EnvironmentApiKey_0123456789';
    const w = watch({ apiKey: fixedApi, viewerKey: undefined, audienceKey: undefined });
    const viewerKey = generateKey();
    const reported = w.next();
    writeKeys(dataDir, { apiKey: generateKey(), viewerKey, audienceKey: w.keys().audienceKey });
    await reported;
    expect(w.keys()).toEqual({ apiKey: fixedApi, viewerKey, audienceKey: w.keys().audienceKey });
  });

  it('other files in the data directory do not trigger a reload', async () => {
    const w = watch();
    writeFileSync(path.join(dataDir, 'room.json'), '{}');
    writeFileSync(path.join(dataDir, 'keys.json.tmp-1'), 'garbage');
    await w.next(300);
    expect(w.changes).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('a data directory that cannot be watched is reported, not thrown', () => {
    const problems: string[] = [];
    const missing = new KeyWatcher({
      dataDir: path.join(dataDir, 'does-not-exist'),
      fixed: { apiKey: undefined, viewerKey: undefined, audienceKey: undefined },
      current: () => ({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) }),
      onChange: () => {},
      onProblem: (message) => problems.push(message),
    });
    expect(() => missing.start()).not.toThrow();
    expect(problems[0]).toMatch(/rotated keys take effect after a restart/);
    missing.close();
  });

  it('after close, a rotation is no longer applied', async () => {
    const w = watch();
    const before = w.keys();
    watcher?.close();
    writeKeys(dataDir, { apiKey: generateKey(), viewerKey: generateKey(), audienceKey: generateKey() });
    await w.next(300);
    expect(w.keys()).toEqual(before);
  });
});
