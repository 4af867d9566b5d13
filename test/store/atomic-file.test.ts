// The atomic file against a real temp directory: whole replacements, one write in
// flight, later content wins, and a write cut off before the rename leaves the
// old file as it was.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtomicFile, nodeFileOps, removeAllLeftoverTemps, type AtomicFileOps } from '../../src/store/atomic-file.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-atomic-'));
  file = path.join(dir, 'room.json');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const text = (value: string) => () => ({ text: value });

/** Real file operations, counted, with one step made to fail on demand. */
function countingOps(failAt: { step: keyof AtomicFileOps | null } = { step: null }) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const guard = async <T>(step: keyof AtomicFileOps, run: () => Promise<T>): Promise<T> => {
    calls.push(step);
    if (failAt.step === step) throw Object.assign(new Error(`${step} failed (test)`), { code: 'EIO' });
    return run();
  };
  const ops: AtomicFileOps = {
    writeSynced: async (f, t, mode) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        // Yield a few times so overlapping writes would show.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await guard('writeSynced', () => nodeFileOps.writeSynced(f, t, mode));
      } finally {
        inFlight -= 1;
      }
    },
    rename: (from, to) => guard('rename', () => nodeFileOps.rename(from, to)),
    syncDirectory: (d) => guard('syncDirectory', () => nodeFileOps.syncDirectory(d)),
    unlink: (f) => nodeFileOps.unlink(f),
  };
  return { ops, calls, maxInFlight: () => maxInFlight };
}

describe('AtomicFile', () => {
  it('writes the whole file with mode 0600 and leaves no temp file', async () => {
    const atomic = new AtomicFile(file);
    await atomic.write(text('first\n'));
    await atomic.write(text('second\n'));
    expect(readFileSync(file, 'utf8')).toBe('second\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['room.json']);
    expect(atomic.writes).toBe(2);
  });

  it('keeps one write in flight and folds asks that wait into one write of the latest content', async () => {
    const { ops, maxInFlight } = countingOps();
    const atomic = new AtomicFile(file, { ops });
    const first = atomic.write(text('v0'));
    // Let the first write start, then ask ten more times while it is in flight.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const waiting = Array.from({ length: 10 }, (_, i) => atomic.write(text(`v${i + 1}`)));
    await Promise.all([first, ...waiting]);
    expect(readFileSync(file, 'utf8')).toBe('v10');
    expect(maxInFlight()).toBe(1);
    expect(atomic.writes).toBe(2);
  });

  it('asks made in the same tick become one write', async () => {
    const atomic = new AtomicFile(file);
    await Promise.all(['a', 'b', 'c'].map((v) => atomic.write(text(v))));
    expect(readFileSync(file, 'utf8')).toBe('c');
    expect(atomic.writes).toBe(1);
  });

  it('skips the write when the producer says nothing changed', async () => {
    const atomic = new AtomicFile(file);
    await atomic.write(() => null);
    expect(atomic.writes).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a write cut off before the rename rejects, keeps the old file whole and removes its temp file', async () => {
    writeFileSync(file, 'old and whole');
    const failAt: { step: keyof AtomicFileOps | null } = { step: 'rename' };
    const { ops } = countingOps(failAt);
    const atomic = new AtomicFile(file, { ops });
    await expect(atomic.write(text('new'))).rejects.toThrow(/rename failed/);
    expect(readFileSync(file, 'utf8')).toBe('old and whole');
    expect(readdirSync(dir)).toEqual(['room.json']);
    // The next write goes through once the disk behaves.
    failAt.step = null;
    await atomic.write(text('new'));
    expect(readFileSync(file, 'utf8')).toBe('new');
  });

  it('runs `written` only after the content is on disk', async () => {
    const atomic = new AtomicFile(file);
    let seen: string | null = null;
    await atomic.write(() => ({ text: 'landed', written: () => (seen = readFileSync(file, 'utf8')) }));
    expect(seen).toBe('landed');
  });
});

describe('removeAllLeftoverTemps', () => {
  it('removes temp files of every kind a crash left (room, keys, logos, the write check) and nothing else', async () => {
    writeFileSync(file, '{}');
    const temps = ['room.json.tmp-123-4', 'keys.json.tmp-77', 'logo-0123456789abcdef.png.tmp-9-1', 'write-check.tmp-5-0'];
    for (const name of temps) writeFileSync(path.join(dir, name), '{"half":');
    const kept = ['keys.json', 'room.damaged-2025.json', 'room.previous.json', 'logo-0123456789abcdef.png', 'notes.tmp-draft'];
    for (const name of kept) writeFileSync(path.join(dir, name), 'x');
    expect((await removeAllLeftoverTemps(dir)).sort()).toEqual([...temps].sort());
    expect(readdirSync(dir).sort()).toEqual([...kept, 'room.json'].sort());
  });
});
