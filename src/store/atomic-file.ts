// Replacing one file as if the power could go at any instant: write a temp file
// beside it, fsync it, rename it over the target, fsync the directory. A crash
// leaves either the old file or the new one, never a mix; a leftover temp file is
// ignored (and cleaned on the next start). One write in flight per file: asks
// that arrive meanwhile are folded into one next write of the latest content.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, unlink, readdir } from 'node:fs/promises';
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

export function isTempFileOf(file: string, name: string): boolean {
  return name.startsWith(`${basename(file)}${TEMP_MARK}`);
}

/** Removes temp files a crash left behind; returns their names. */
export async function removeLeftoverTemps(file: string, ops: AtomicFileOps = nodeFileOps): Promise<string[]> {
  const names = (await readdir(dirname(file))).filter((name) => isTempFileOf(file, name));
  for (const name of names) await ops.unlink(join(dirname(file), name)).catch(() => {});
  return names;
}

/** What to write; `written` runs once it is on disk, before the next write starts. */
export interface FileContent {
  readonly text: string | Uint8Array;
  readonly written?: () => void;
}

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
  #queued: Queued | null = null;
  #draining: Promise<void> | null = null;
  #counter = 0;
  /** Set by writeSync: the last write was made, no other starts after it. */
  #closed = false;
  /** Files actually replaced, for the write-rate figures. */
  writes = 0;

  constructor(file: string, opts: { ops?: AtomicFileOps; mode?: number } = {}) {
    this.file = file;
    this.#ops = opts.ops ?? nodeFileOps;
    this.#mode = opts.mode ?? 0o600;
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
    const temp = `${this.file}${TEMP_MARK}${process.pid}-${this.#counter}`;
    try {
      // The encoding applies to text only; bytes are written as they are.
      writeFileSync(temp, content.text, { encoding: 'utf8', mode: this.#mode });
      syncPathSync(temp);
      renameSync(temp, this.file);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // It may never have been made.
      }
      throw error;
    }
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
          await this.#replace(content.text);
          content.written?.();
        }
        entry.resolve();
      } catch (error) {
        entry.reject(error);
      }
    }
    this.#draining = null;
  }

  async #replace(text: string | Uint8Array): Promise<void> {
    this.#counter += 1;
    const temp = `${this.file}${TEMP_MARK}${process.pid}-${this.#counter}`;
    try {
      await this.#ops.writeSynced(temp, text, this.#mode);
      await this.#ops.rename(temp, this.file);
    } catch (error) {
      await this.#ops.unlink(temp).catch(() => {});
      throw error;
    }
    await this.#ops.syncDirectory(dirname(this.file));
    this.writes += 1;
  }
}
