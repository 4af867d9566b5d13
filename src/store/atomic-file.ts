// Replacing one file as if the power could go at any instant: write a temp file
// beside it, fsync it, rename it over the target, fsync the directory. A crash
// leaves either the old file or the new one, never a mix; a leftover temp file is
// ignored (and cleaned on the next start). One write in flight per file: asks
// that arrive meanwhile are folded into one next write of the latest content.
//   A step that fails after the rename (the directory sync: a card that fails with
// EIO) leaves the new content in the file. Content that must not stay unless its
// write succeeded whole (a change that is answered only once it is saved) says
// what to put back; anything else stays, since it holds nothing that did not happen.
//   The file may keep its previous generation under a second name (a hard link of
// the old file, made just before the rename: no data is copied), for the day the
// current one is found damaged; only a file this writer made is kept that way.
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { link, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file-system calls a write makes; tests pass a wrapper to fail one on purpose. */
export interface AtomicFileOps {
  /** Text is written as UTF-8; bytes (an uploaded image) as they are. */
  writeSynced(file: string, text: string | Uint8Array, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  syncDirectory(dir: string): Promise<void>;
  unlink(file: string): Promise<void>;
}

export const nodeFileOps: AtomicFileOps = {
  async writeSynced(file, text, mode) {
    const handle = await open(file, 'w', mode);
    try {
      if (typeof text === 'string') await handle.writeFile(text, 'utf8');
      else await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  async syncDirectory(dir) {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  unlink: (file) => unlink(file),
};

const TEMP_MARK = '.tmp-';
/** `<name>.tmp-<pid>` or `<name>.tmp-<pid>-<n>`: every temp file this service makes (room, keys, logos, the write check). */
const ANY_TEMP = /\.tmp-\d+(?:-\d+)?$/;

export function isTempFileOf(file: string, name: string): boolean {
  return name.startsWith(`${basename(file)}${TEMP_MARK}`);
}

/** The name of a temp file this process makes for `file`. */
export function tempFileFor(file: string, counter: number): string {
  return `${file}${TEMP_MARK}${process.pid}-${counter}`;
}

/** Removes every temp file of any kind a crash left in `dir` (they are never read); returns their names. */
export async function removeAllLeftoverTemps(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => ANY_TEMP.test(name));
  const removed: string[] = [];
  for (const name of names) {
    try {
      await unlink(join(dir, name));
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: it is never read either way.
    }
  }
  return removed;
}

/** What to write; `written` runs once the file holds it, before the next write starts. */
export interface FileContent {
  readonly text: string | Uint8Array;
  readonly written?: () => void;
  /**
   * For content that must not stay in the file unless its write succeeded whole:
   * what to put back when a step after the rename fails (null: leave it). When
   * the putting back fails too, the content stays and `written` runs, since the
   * file holds it. Without `revert` the content stays and `written` runs.
   */
  readonly revert?: () => FileContent | null;
}

/** A write whose rename happened but whose directory sync failed: the file holds the new content, perhaps not durably. */
export class UnsyncedWrite extends Error {
  override readonly name = 'UnsyncedWrite';
  readonly code: string | undefined;

  constructor(readonly failure: unknown) {
    super(`the directory could not be synced after the rename (${errorText(failure)})`);
    this.code = (failure as NodeJS.ErrnoException).code;
  }
}

function errorText(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/** What the file looked like when this writer last made it: to tell it from a file changed by anyone else. */
export interface Fingerprint {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** sha256 of the content, hex. */
  readonly sha256: string;
}

export function sha256Of(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** How the file on disk compares with what this writer last made. */
export type FileCheck =
  | { readonly kind: 'same' }
  /** Changed by someone else, or gone; `found` says what was found instead. */
  | { readonly kind: 'changed'; readonly found: string }
  /** A write is queued or in flight, or nothing was written yet: nothing to compare. */
  | { readonly kind: 'unknown' };

type Produce = () => FileContent | null;

interface Queued {
  produce: Produce;
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** fsync of a file or a directory, synchronously (for writes that must land before the process goes on or exits). */
export function syncPathSync(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class AtomicFile {
  readonly file: string;
  readonly #ops: AtomicFileOps;
  readonly #mode: number;
  /** Where the previous generation is kept (a hard link), or null. */
  readonly #previous: string | null;
  #queued: Queued | null = null;
  #draining: Promise<void> | null = null;
  #counter = 0;
  /** Set by writeSync: the last write was made, no other starts after it. */
  #closed = false;
  /** The file as this writer last made it (or found it whole at start); null: unknown. */
  #fingerprint: Fingerprint | null = null;
  /** Files actually replaced, for the write-rate figures. */
  writes = 0;

  constructor(file: string, opts: { ops?: AtomicFileOps; mode?: number; previous?: string } = {}) {
    this.file = file;
    this.#ops = opts.ops ?? nodeFileOps;
    this.#mode = opts.mode ?? 0o600;
    this.#previous = opts.previous ?? null;
  }

  /** True while a write is queued or in flight. */
  get busy(): boolean {
    return this.#draining !== null;
  }

  /** The file as read at start is whole and ours: it may become the previous generation, and is what `check` compares with. */
  adopt(content: string | Uint8Array): void {
    try {
      this.#fingerprint = fingerprintOf(statSync(this.file), content);
    } catch {
      this.#fingerprint = null;
    }
  }

  /**
   * Compares the file on disk with what this writer last made: its size, then the
   * hash of its content. For a periodic check: a file changed by hand, by a tool,
   * or by a card that corrupts it, is `changed`.
   */
  async check(maxBytes: number): Promise<FileCheck> {
    const expected = this.#fingerprint;
    if (expected === null || this.busy) return { kind: 'unknown' };
    const writesBefore = this.writes;
    let found: FileCheck;
    try {
      const now = await stat(this.file);
      if (now.size !== expected.size) found = { kind: 'changed', found: `${now.size} bytes where ${expected.size} were written` };
      else if (now.size > maxBytes) found = { kind: 'changed', found: `${now.size} bytes` };
      else found = sha256Of(await readFile(this.file)) === expected.sha256 ? { kind: 'same' } : { kind: 'changed', found: 'other content of the same size' };
    } catch (error) {
      found = { kind: 'changed', found: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no file' : `a file that cannot be read (${errorText(error)})` };
    }
    // A write that started meanwhile makes the comparison meaningless.
    return this.busy || this.writes !== writesBefore ? { kind: 'unknown' } : found;
  }

  /**
   * Writes what `produce` returns when the write starts (null: nothing to write).
   * Resolves once a write begun after this call is on disk; rejects if it failed.
   * A later call made before that write starts replaces `produce`: later state wins.
   */
  write(produce: Produce): Promise<void> {
    if (this.#queued !== null) {
      this.#queued.produce = produce;
      return this.#queued.promise;
    }
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#queued = { produce, promise, resolve, reject };
    this.#draining ??= this.#drain();
    return promise;
  }

  /**
   * The last write, made synchronously with what `produce` returns now, for a
   * process about to exit; no write starts after it (queued ones are rejected).
   * A write already in flight may still finish after it, older but whole: the
   * one rename the thread pool may be running at this instant.
   */
  writeSync(produce: Produce): void {
    this.#closed = true;
    const content = produce();
    if (content === null) return;
    this.#counter += 1;
    const temp = tempFileFor(this.file, this.#counter);
    let made: Fingerprint;
    try {
      // The encoding applies to text only; bytes are written as they are.
      writeFileSync(temp, content.text, { encoding: 'utf8', mode: this.#mode });
      syncPathSync(temp);
      made = fingerprintOf(statSync(temp), content.text);
      renameSync(temp, this.file);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // It may never have been made.
      }
      throw error;
    }
    this.#fingerprint = made;
    syncPathSync(dirname(this.file));
    this.writes += 1;
    content.written?.();
  }

  /** Resolves when nothing is queued or in flight. */
  async idle(): Promise<void> {
    while (this.#draining !== null) await this.#draining;
  }

  async #drain(): Promise<void> {
    // Start on a later tick: asks made in the same tick fold into one write, and
    // #draining is set before this can finish.
    await Promise.resolve();
    while (this.#queued !== null) {
      const entry = this.#queued;
      this.#queued = null;
      try {
        if (this.#closed) throw new Error(`${this.file} was written for the last time: the service is stopping`);
        const content = entry.produce();
        if (content !== null) {
          try {
            await this.#replace(content.text);
          } catch (error) {
            if (error instanceof UnsyncedWrite) await this.#afterUnsynced(content);
            throw error;
          }
          content.written?.();
        }
        entry.resolve();
      } catch (error) {
        entry.reject(error);
      }
    }
    this.#draining = null;
  }

  /** The file holds `content`, not durably: put back what it says, or let it stay. */
  async #afterUnsynced(content: FileContent): Promise<void> {
    const back = content.revert?.() ?? null;
    if (back !== null) {
      // What is to be taken back never becomes the previous generation.
      this.#fingerprint = null;
      try {
        await this.#replace(back.text);
        back.written?.();
        return;
      } catch (error) {
        // The directory sync failed again: the content put back is in the file all the same.
        if (error instanceof UnsyncedWrite) {
          back.written?.();
          return;
        }
        // It could not be put back: the file holds `content`, which stays.
      }
    }
    content.written?.();
  }

  /** Throws UnsyncedWrite when only the directory sync failed (the file holds `text` then). */
  async #replace(text: string | Uint8Array): Promise<void> {
    this.#counter += 1;
    const temp = tempFileFor(this.file, this.#counter);
    let made: Fingerprint;
    try {
      await this.#ops.writeSynced(temp, text, this.#mode);
      made = fingerprintOf(await stat(temp), text);
      await this.#keepPrevious();
      await this.#ops.rename(temp, this.file);
    } catch (error) {
      await this.#ops.unlink(temp).catch(() => {});
      throw error;
    }
    this.#fingerprint = made;
    this.writes += 1;
    try {
      await this.#ops.syncDirectory(dirname(this.file));
    } catch (error) {
      throw new UnsyncedWrite(error);
    }
  }

  /**
   * Links the file about to be replaced as the previous generation, if it is the
   * one this writer made (a file changed by anyone else is not kept: the previous
   * generation stays as it was). Best effort: the write goes on without it.
   */
  async #keepPrevious(): Promise<void> {
    const expected = this.#fingerprint;
    if (this.#previous === null || expected === null) return;
    try {
      const now = await stat(this.file);
      if (now.ino !== expected.ino || now.size !== expected.size || now.mtimeMs !== expected.mtimeMs) return;
      await unlink(this.#previous).catch(() => {});
      await link(this.file, this.#previous);
    } catch {
      // No file yet, or a file system without hard links: there is just no previous generation.
    }
  }
}

function fingerprintOf(found: { ino: number; size: number; mtimeMs: number }, content: string | Uint8Array): Fingerprint {
  return { ino: found.ino, size: found.size, mtimeMs: found.mtimeMs, sha256: sha256Of(content) };
}
