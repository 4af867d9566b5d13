// Uploaded logos, kept beside the room file as logo-<version> (the version names
// the content). Files beside the room follow the room: a logo file is written (and
// synced) before the room names it, and removed only once a room that no longer
// names it is on disk, so after a crash at any instant the room on disk names a
// logo whose file is there. At start, logo files the room does not name are
// removed, and a room that names a missing file falls back to no logo.
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LOGO_VERSION_PATTERN } from '../domain/display-settings.js';
import type { Room } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import { AtomicFile, nodeFileOps, type AtomicFileOps } from './atomic-file.js';

const PREFIX = 'logo-';

/** Where rooms are saved: logos wait for it before a file is removed. */
export interface SavedRooms {
  onSaved(listener: (saved: Room, current: Room) => void): void;
}

export class LogoFiles {
  readonly #dataDir: string;
  readonly #ops: AtomicFileOps;
  readonly #logger: Logger | undefined;
  /** Versions no longer named by the room in memory, removed once a saved room does not name them either. */
  readonly #retired = new Set<string>();
  /** Without a store (nothing is saved) a retired file goes at once. */
  readonly #waitForSave: boolean;
  /** One writer per file: two uploads of the same logo at once take turns (and never share a temp file). */
  readonly #writers = new Map<string, AtomicFile>();
  /** Uploads under way per version (saved or being saved, their room change not made yet): never removed meanwhile. */
  readonly #uploading = new Map<string, number>();
  /** Removals in flight: an upload of the same version waits for its file's removal before writing it again. */
  readonly #removing = new Map<string, Promise<void>>();

  constructor(deps: { dataDir: string; saved?: SavedRooms; ops?: AtomicFileOps; logger?: Logger }) {
    this.#dataDir = deps.dataDir;
    this.#ops = deps.ops ?? nodeFileOps;
    this.#logger = deps.logger;
    this.#waitForSave = deps.saved !== undefined;
    deps.saved?.onSaved((saved, current) => this.#afterSave(saved, current));
  }

  #file(version: string): string {
    return join(this.#dataDir, `${PREFIX}${version}`);
  }

  /**
   * Writes the logo's file, synced; resolves once it is on disk, rejects when it
   * cannot be written. The file is the upload's until `uploaded` is called (after
   * the room change, or the refusal): it is not removed before.
   */
  async save(version: string, bytes: Uint8Array): Promise<void> {
    this.#uploading.set(version, (this.#uploading.get(version) ?? 0) + 1);
    this.#retired.delete(version);
    await this.#removing.get(version);
    let writer = this.#writers.get(version);
    if (writer === undefined) {
      writer = new AtomicFile(this.#file(version), { ops: this.#ops, mode: 0o644 });
      this.#writers.set(version, writer);
    }
    await writer.write(() => ({ text: bytes }));
  }

  /** The logo's bytes; null when there is no such file. */
  async read(version: string): Promise<Buffer | null> {
    try {
      return await readFile(this.#file(version));
    } catch {
      return null;
    }
  }

  /** The upload of `version` is over (its room change made, or refused): like any file, it goes once no room names it. */
  uploaded(version: string, current: Room): Promise<void> {
    const left = (this.#uploading.get(version) ?? 1) - 1;
    if (left > 0) this.#uploading.set(version, left);
    else this.#uploading.delete(version);
    return left > 0 ? Promise.resolve() : this.retire(version, current);
  }

  /**
   * The room in memory no longer names `version` (replaced or deleted): its file
   * goes once the room on disk does not name it either. Resolves at once, or,
   * where nothing is saved, once the file is removed.
   */
  retire(version: string | null, current: Room): Promise<void> {
    if (version === null || current.display.logo === version || this.#uploading.has(version)) return Promise.resolve();
    // Nothing is saved: nothing to wait for (resolves once the file is gone).
    if (!this.#waitForSave) return this.#remove(version);
    this.#retired.add(version);
    return Promise.resolve();
  }

  #afterSave(saved: Room, current: Room): void {
    for (const version of this.#retired) {
      // Named by the room on disk, or uploaded again meanwhile: kept (an upload ends with `uploaded`, which retires it again if need be).
      if (saved.display.logo === version || this.#uploading.has(version)) continue;
      this.#retired.delete(version);
      // Uploaded again meanwhile: named in memory, it stays.
      if (current.display.logo === version) continue;
      void this.#remove(version);
    }
  }

  #remove(version: string): Promise<void> {
    this.#writers.delete(version);
    // A leftover is harmless (never served, removed at the next start), so a failure is only logged.
    const removal = this.#ops.unlink(this.#file(version)).then(
      () => {},
      (error: unknown) => {
        this.#logger?.warn({ version, code: (error as NodeJS.ErrnoException).code }, 'could not remove a logo file the room no longer names; it is removed at the next start');
      },
    );
    this.#removing.set(version, removal);
    return removal.finally(() => {
      if (this.#removing.get(version) === removal) this.#removing.delete(version);
    });
  }

  /**
   * At start, with the room as restored: removes logo files it does not name
   * (left by a crash between a save and a removal) and returns the room, with no
   * logo if the one it names has no file (one warning says so).
   */
  async reconcile(room: Room): Promise<Room> {
    let names: string[];
    try {
      names = await readdir(this.#dataDir);
    } catch {
      return room;
    }
    const named = room.display.logo;
    for (const name of names) {
      if (!name.startsWith(PREFIX) || !LOGO_VERSION_PATTERN.test(name.slice(PREFIX.length))) continue;
      if (name.slice(PREFIX.length) === named) continue;
      await this.#ops.unlink(join(this.#dataDir, name)).catch(() => {});
    }
    if (named === null || names.includes(`${PREFIX}${named}`)) return room;
    this.#logger?.warn(
      { version: named, file: this.#file(named) },
      `the room names the logo ${named}, whose file is missing from the data directory: showing no logo; upload it again in the console`,
    );
    return { ...room, seq: room.seq + 1, display: { ...room.display, logo: null } };
  }
}
