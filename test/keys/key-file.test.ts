// keys.json in a real temp directory: made at first start (mode 0600), kept
// across starts, never destroyed. An unusable data directory or an unreadable
// keys.json is a DataDirError naming the path (exit 73 in main) and leaves every
// file as it is; a damaged one is kept aside before new keys are made; temp files
// are cleaned up; a read-only directory is fine while nothing has to be saved.
// The tests run as root, which ignores file permissions, so EACCES, EROFS and
// failed renames are injected into node:fs for the one path they concern.
import { chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keysPath, loadOrCreateKeys, readKeys, writeKeys, type KeysReport } from '../../src/keys/key-file.js';
import { DataDirError } from '../../src/store/data-dir.js';

type Fault = { readonly code: string; readonly when: (args: unknown[]) => boolean };
const faults = vi.hoisted(() => new Map<string, Fault>());

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const faulty =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      const fault = faults.get(name);
      if (fault?.when(args)) throw Object.assign(new Error(`${fault.code}: injected into ${name}`), { code: fault.code });
      return fn(...args);
    };
  const mocked = {
    ...fs,
    accessSync: faulty('accessSync', fs.accessSync),
    chmodSync: faulty('chmodSync', fs.chmodSync),
    mkdirSync: faulty('mkdirSync', fs.mkdirSync),
    openSync: faulty('openSync', fs.openSync),
    renameSync: faulty('renameSync', fs.renameSync),
  };
  return { ...mocked, default: mocked };
});

let dataDir: string;
const none = { apiKey: undefined, viewerKey: undefined, audienceKey: undefined };
const ENV_API = 'EnvironmentApiKey_0123456789';
const ENV_VIEWER = 'EnvironmentViewerKey_0123456789';
const ENV_AUDIENCE = 'EnvironmentAudienceKey_0123456789';
const GOOD = `${JSON.stringify({ version: 1, apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) }, null, 2)}\n`;
/** keys.json as written before audience questions: no audience key. */
const OLD = `${JSON.stringify({ version: 1, apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) }, null, 2)}\n`;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-keys-'));
});

afterEach(() => {
  faults.clear();
  rmSync(dataDir, { recursive: true, force: true });
});

function recorder() {
  const lines: { level: string; message: string; path: string }[] = [];
  const report: KeysReport = (level, message, detail) => lines.push({ level, message, path: detail.path });
  return { lines, report };
}

/** What loadOrCreateKeys threw: a DataDirError, checked to be one. */
function startError(run: () => unknown): DataDirError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DataDirError);
    return error as DataDirError;
  }
  throw new Error('expected a DataDirError, but nothing was thrown');
}

const temps = (dir: string) => readdirSync(dir).filter((name) => name.includes('.tmp-'));
/** The data directory made read-only, as a read-only mount reports it. */
const readOnly = (dir: string) =>
  faults.set('accessSync', { code: 'EROFS', when: ([p, mode]) => p === dir && ((mode as number) & constants.W_OK) !== 0 });

describe('keys.json', () => {
  it('missing: two distinct URL-safe keys of at least 128 bits are made and saved with mode 0600', () => {
    const { lines, report } = recorder();
    const keys = loadOrCreateKeys(dataDir, none, report);
    expect(lines).toEqual([]);
    for (const key of [keys.apiKey, keys.viewerKey]) {
      expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(key, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
    expect(keys.apiKey).not.toBe(keys.viewerKey);
    expect(statSync(keysPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
  });

  it('missing beside a saved room (lost while the box was off): new keys, and an error line that says panels need the new key', () => {
    writeFileSync(path.join(dataDir, 'room.json'), '{}');
    const { lines, report } = recorder();
    loadOrCreateKeys(dataDir, none, report);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', message: expect.stringMatching(/is missing, but the data directory holds a saved room: made new keys/) });
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
    it(`damaged (${name}): kept aside as keys.damaged-<time>.json, reported in one error line, then new keys`, () => {
      writeFileSync(keysPath(dataDir), content, { mode: 0o600 });
      const { lines, report } = recorder();
      const keys = loadOrCreateKeys(dataDir, none, report);
      expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
      const kept = readdirSync(dataDir).filter((file) => file !== 'keys.json');
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatch(/^keys\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/);
      expect(readFileSync(path.join(dataDir, kept[0]!), 'utf8')).toBe(content);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'error', path: keysPath(dataDir) });
      expect(lines[0]!.message).toMatch(reason);
      expect(lines[0]!.message).toContain(path.join(dataDir, kept[0]!));
      expect(lines[0]!.message).toContain('made new keys');
    });
  }

  it('damaged and cannot be moved aside: a start error, and the file is not overwritten', () => {
    writeFileSync(keysPath(dataDir), 'not json', { mode: 0o600 });
    faults.set('renameSync', { code: 'EXDEV', when: ([from]) => from === keysPath(dataDir) });
    const error = startError(() => loadOrCreateKeys(dataDir, none));
    expect(error.message).toBe(`${keysPath(dataDir)} is damaged (not valid JSON) and cannot be kept aside (EXDEV): move it away by hand and start again; it is not overwritten`);
    expect(readFileSync(keysPath(dataDir), 'utf8')).toBe('not json');
    expect(readdirSync(dataDir)).toEqual(['keys.json']);
  });

  it('a directory in its place: a start error naming it, nothing replaced', () => {
    mkdirSync(keysPath(dataDir));
    const error = startError(() => loadOrCreateKeys(dataDir, none));
    expect(error.path).toBe(keysPath(dataDir));
    expect(error.message).toBe(`${keysPath(dataDir)} is a directory, not the keys file: move it away and start again (new keys are made then)`);
    expect(statSync(keysPath(dataDir)).isDirectory()).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['keys.json']);
    expect(readKeys(dataDir)).toMatchObject({ kind: 'unreadable', code: 'EISDIR' });
  });

  for (const code of ['EACCES', 'EIO']) {
    it(`cannot be read (${code}): a start error, never called damaged, the file untouched`, () => {
      writeFileSync(keysPath(dataDir), GOOD, { mode: 0o600 });
      faults.set('openSync', { code, when: ([p]) => p === keysPath(dataDir) });
      const error = startError(() => loadOrCreateKeys(dataDir, none));
      expect(error.path).toBe(keysPath(dataDir));
      expect(error.message).toContain(`${keysPath(dataDir)} cannot be read (${code}): `);
      expect(error.message).toContain('the keys are not replaced');
      if (code === 'EACCES') expect(error.message).toContain(`chown showclock ${keysPath(dataDir)}`);
      faults.clear();
      expect(readFileSync(keysPath(dataDir), 'utf8')).toBe(GOOD);
      expect(readdirSync(dataDir)).toEqual(['keys.json']);
    });
  }

  it('open to other users: set back to 0600 with a warning naming the file', () => {
    writeFileSync(keysPath(dataDir), GOOD);
    chmodSync(keysPath(dataDir), 0o644);
    const { lines, report } = recorder();
    const keys = loadOrCreateKeys(dataDir, none, report);
    expect(keys).toEqual({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) });
    expect(statSync(keysPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(lines).toEqual([{ level: 'warn', message: `${keysPath(dataDir)} was open to other users (mode 0644): set it to 0600`, path: keysPath(dataDir) }]);
    expect(readFileSync(keysPath(dataDir), 'utf8')).toBe(GOOD);
  });

  it('open to other users and chmod fails: a warning only, the keys are used', () => {
    writeFileSync(keysPath(dataDir), GOOD);
    chmodSync(keysPath(dataDir), 0o640);
    faults.set('chmodSync', { code: 'EPERM', when: () => true });
    const { lines, report } = recorder();
    expect(loadOrCreateKeys(dataDir, none, report)).toEqual({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('warn');
    expect(lines[0]!.message).toContain(`could not be set to 0600 (EPERM): run chmod 600 ${keysPath(dataDir)}`);
  });

  it('temp files left by a cut-off write (they hold both keys) are removed at start', () => {
    writeFileSync(keysPath(dataDir), GOOD, { mode: 0o600 });
    writeFileSync(`${keysPath(dataDir)}.tmp-4242`, GOOD, { mode: 0o600 });
    writeFileSync(`${keysPath(dataDir)}.tmp-17`, '{"vers', { mode: 0o600 });
    const { lines, report } = recorder();
    expect(loadOrCreateKeys(dataDir, none, report)).toEqual({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) });
    expect(readdirSync(dataDir)).toEqual(['keys.json']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', path: keysPath(dataDir) });
  });

  it('a write that fails removes its temp file and is a start error naming the file', () => {
    faults.set('renameSync', { code: 'EIO', when: ([from]) => String(from).includes('.tmp-') });
    const error = startError(() => writeKeys(dataDir, { apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) }));
    expect(error.message).toBe(`cannot save the keys in ${keysPath(dataDir)} (EIO): make ${dataDir} writable for the service user`);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('a first start whose write fails: a start error and no temp file', () => {
    faults.set('renameSync', { code: 'ENOSPC', when: ([from]) => String(from).includes('.tmp-') });
    const error = startError(() => loadOrCreateKeys(dataDir, none));
    expect(error.message).toContain('(ENOSPC)');
    expect(error.message).toContain('free some space');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('keys fixed by the environment win, and are written so `npm run key` prints what the service uses', () => {
    const stored = loadOrCreateKeys(dataDir, none);
    const fixed = { apiKey: ENV_API, viewerKey: undefined, audienceKey: undefined };
    const keys = loadOrCreateKeys(dataDir, fixed);
    expect(keys).toEqual({ apiKey: fixed.apiKey, viewerKey: stored.viewerKey, audienceKey: stored.audienceKey });
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
  });

  it('writes atomically: no temp file is left and the content is whole', () => {
    writeKeys(dataDir, { apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) });
    expect(readdirSync(dataDir)).toEqual(['keys.json']);
    expect(JSON.parse(readFileSync(keysPath(dataDir), 'utf8'))).toEqual({ version: 1, apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) });
  });
});

describe('the data directory at start', () => {
  it('a file, not a directory: a start error naming it, the file untouched', () => {
    const file = path.join(dataDir, 'showclock');
    writeFileSync(file, 'something else');
    const error = startError(() => loadOrCreateKeys(file, none));
    expect(error.path).toBe(file);
    expect(error.message).toBe(`data directory ${file} is a file, not a directory: remove it, or set SHOWCLOCK_DATA_DIR to a directory`);
    expect(readFileSync(file, 'utf8')).toBe('something else');
  });

  it('under a file (ENOTDIR): a start error naming it', () => {
    writeFileSync(path.join(dataDir, 'file'), '');
    const dir = path.join(dataDir, 'file', 'showclock');
    const error = startError(() => loadOrCreateKeys(dir, none));
    expect(error.message).toBe(`cannot create the data directory ${dir} (ENOTDIR: a part of its path is a file, not a directory): fix the path, or set SHOWCLOCK_DATA_DIR to a directory`);
  });

  it('cannot be created (EACCES): a start error that says to create it', () => {
    const dir = path.join(dataDir, 'var', 'lib', 'showclock');
    faults.set('mkdirSync', { code: 'EACCES', when: ([p]) => p === dir });
    const error = startError(() => loadOrCreateKeys(dir, none));
    expect(error.path).toBe(dir);
    expect(error.message).toBe(`cannot create the data directory ${dir} (EACCES): create it and give the service user write access, or set SHOWCLOCK_DATA_DIR`);
  });

  it('a relative path is named as the absolute one, so the line says which directory', () => {
    const file = path.join(dataDir, 'data');
    writeFileSync(file, '');
    const error = startError(() => loadOrCreateKeys(path.relative(process.cwd(), file), none));
    expect(error.path).toBe(file);
    expect(error.message).toContain(`data directory ${file} is a file`);
  });

  it('a keys.json from before audience questions gets an audience key, saved beside the two it had', () => {
    writeFileSync(keysPath(dataDir), OLD, { mode: 0o600 });
    const keys = loadOrCreateKeys(dataDir, none);
    expect(keys).toMatchObject({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) });
    expect(keys.audienceKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys });
    // The next start reads the same three.
    expect(loadOrCreateKeys(dataDir, none)).toEqual(keys);
  });

  it('SHOWCLOCK_AUDIENCE_KEY wins over the file, like the other two', () => {
    writeFileSync(keysPath(dataDir), GOOD, { mode: 0o600 });
    expect(loadOrCreateKeys(dataDir, { ...none, audienceKey: ENV_AUDIENCE })).toEqual({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: ENV_AUDIENCE });
  });

  describe('read-only', () => {
    it('with a keys.json from before audience questions: it starts, with an unsaved audience key, and the warning says so', () => {
      writeFileSync(keysPath(dataDir), OLD, { mode: 0o600 });
      readOnly(dataDir);
      const { lines, report } = recorder();
      const keys = loadOrCreateKeys(dataDir, none, report);
      expect(keys).toMatchObject({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32) });
      expect(keys.audienceKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(readFileSync(keysPath(dataDir), 'utf8')).toBe(OLD);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.message).toContain('the audience link (questions) has a key that is new at every start');
    });

    it('with both keys from the environment: they are used, nothing is written, one warning', () => {
      readOnly(dataDir);
      const { lines, report } = recorder();
      expect(loadOrCreateKeys(dataDir, { apiKey: ENV_API, viewerKey: ENV_VIEWER, audienceKey: ENV_AUDIENCE }, report)).toEqual({
        apiKey: ENV_API,
        viewerKey: ENV_VIEWER,
        audienceKey: ENV_AUDIENCE,
      });
      expect(readdirSync(dataDir)).toEqual([]);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'warn', path: dataDir });
      expect(lines[0]!.message).toContain(`data directory ${dataDir} is read-only (EROFS)`);
    });

    it('with a good keys.json: its keys are used, nothing is written, one warning', () => {
      writeFileSync(keysPath(dataDir), GOOD, { mode: 0o600 });
      readOnly(dataDir);
      const { lines, report } = recorder();
      expect(loadOrCreateKeys(dataDir, none, report)).toEqual({ apiKey: 'a'.repeat(32), viewerKey: 'b'.repeat(32), audienceKey: 'c'.repeat(32) });
      expect(readFileSync(keysPath(dataDir), 'utf8')).toBe(GOOD);
      expect(lines.map((line) => line.level)).toEqual(['warn']);
    });

    it('with an environment key that differs from the file: it is used, the file is left as it is', () => {
      writeFileSync(keysPath(dataDir), GOOD, { mode: 0o600 });
      readOnly(dataDir);
      const { lines, report } = recorder();
      expect(loadOrCreateKeys(dataDir, { apiKey: ENV_API, viewerKey: undefined, audienceKey: undefined }, report)).toEqual({
        apiKey: ENV_API,
        viewerKey: 'b'.repeat(32),
        audienceKey: 'c'.repeat(32),
      });
      expect(readFileSync(keysPath(dataDir), 'utf8')).toBe(GOOD);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.message).toContain('not saved');
    });

    it('on a first start without environment keys: a start error, nothing written', () => {
      readOnly(dataDir);
      const error = startError(() => loadOrCreateKeys(dataDir, none));
      expect(error.path).toBe(dataDir);
      expect(error.message).toBe(
        `data directory ${dataDir} is read-only (EROFS) and holds no keys.json, so new keys cannot be saved: make it writable for the service user, or set SHOWCLOCK_API_KEY, SHOWCLOCK_VIEWER_KEY and SHOWCLOCK_AUDIENCE_KEY`,
      );
      expect(readdirSync(dataDir)).toEqual([]);
    });

    it('with a damaged keys.json and no environment keys: a start error, the file left as it is', () => {
      writeFileSync(keysPath(dataDir), 'not json', { mode: 0o600 });
      readOnly(dataDir);
      const error = startError(() => loadOrCreateKeys(dataDir, none));
      expect(error.path).toBe(keysPath(dataDir));
      expect(error.message).toContain('is damaged (not valid JSON) and the data directory is read-only (EROFS)');
      expect(readdirSync(dataDir)).toEqual(['keys.json']);
      expect(readFileSync(keysPath(dataDir), 'utf8')).toBe('not json');
    });

    it('temp files are left for the next writable start (nothing can be removed)', () => {
      writeFileSync(keysPath(dataDir), GOOD, { mode: 0o600 });
      writeFileSync(`${keysPath(dataDir)}.tmp-9`, GOOD, { mode: 0o600 });
      readOnly(dataDir);
      loadOrCreateKeys(dataDir, none);
      expect(existsSync(`${keysPath(dataDir)}.tmp-9`)).toBe(true);
    });
  });
});
