// The state store: the room in room.json in the data directory, behind the room
// service's persistence port. Edits of the running order are written before they
// happen (saveFirst); transport, message, switch and setting changes happen at
// once and are coalesced into one write within a second, to spare the SD card.
// When writes fail the store says so (health, one log line a minute) and keeps
// trying every few seconds; nothing refused is ever written. Nothing ticks: a
// timer is armed only while something is unsaved.
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, Scheduler } from '../app/clock.js';
import type { Persistence, RoomChange } from '../app/room-service.js';
import type { Room } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import { AtomicFile, nodeFileOps, removeLeftoverTemps, type AtomicFileOps, type FileContent } from './atomic-file.js';
import { parseDocument, SCHEMA_VERSION, serializeDocument, toDocument, type RoomDocument } from './room-document.js';

export const STATE_FILE = 'room.json';
/** Longest a transport, message, switch or setting change waits to be written. */
export const COALESCE_MS = 1_000;
/** After a failed write, the next try; slower than COALESCE_MS so a dead card is not hammered. */
export const RETRY_MS = 5_000;
/**
 * Each save reserves this many seq numbers ahead: no change is published with a
 * seq above the reserve on disk (one that would be is saved first, or refused),
 * and a restart resumes above it, so seq never goes back, even after a crash
 * while writes were failing. Half used up, the reserve is renewed in the
 * background. A start that cannot write may use one reserve above what it found,
 * so every start that can write resumes one reserve higher. Large enough that a
 * card failing mid-show rarely runs out: at the rate limit, over 50 minutes.
 */
export const SEQ_RESERVE = 10_000;
/** While writes fail, the log says so again at most this often. */
export const FAILURE_LOG_MS = 60_000;
/** A room file larger than this is no room this service wrote (a full one is about 1 MB): set aside unread. */
export const STATE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** Whether the room is being saved; for /healthz, a header on every answer and the console. */
export type StorageHealth =
  | { readonly saving: true }
  | { readonly saving: false; readonly problem: string; readonly sinceWallMs: number };

/** A file name stamp without characters some file systems refuse. */
function stamp(wallMs: number): string {
  return new Date(wallMs).toISOString().replace(/[:.]/g, '-');
}

export interface RoomStoreDeps {
  readonly dataDir: string;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly ops?: AtomicFileOps;
  readonly coalesceMs?: number;
}

export class RoomStore implements Persistence {
  readonly file: string;
  readonly #deps: RoomStoreDeps;
  readonly #atomic: AtomicFile;
  readonly #coalesceMs: number;
  #latest: Room | null = null;
  /** What the file on disk holds (the room in monotonic form and the reserve); null: unknown. */
  #diskKey: string | null = null;
  #reservedOnDisk = 0;
  #timer: { cancel(): void } | null = null;
  #failing = false;
  #failedWrites = 0;
  #loggedFailureAtMs = 0;
  #health: StorageHealth = { saving: true };
  readonly #healthListeners: ((health: StorageHealth) => void)[] = [];
  /** A change that is saved before it happens; see saveFirst and #content. */
  #candidate: Room | null = null;
  #closed = false;
  /** Set when a file we must not overwrite (a newer schema) could not be moved aside. */
  #refusal: string | null = null;

  constructor(deps: RoomStoreDeps) {
    this.#deps = deps;
    this.file = join(deps.dataDir, STATE_FILE);
    this.#atomic = new AtomicFile(this.file, { ops: deps.ops ?? nodeFileOps });
    this.#coalesceMs = deps.coalesceMs ?? COALESCE_MS;
  }

  /** Resolves when no write is queued or in flight (an armed coalesce timer is not a write yet). */
  idle(): Promise<void> {
    return this.#atomic.idle();
  }

  /** Files replaced since start, for the write-rate figures. */
  get writes(): number {
    return this.#atomic.writes;
  }

  /**
   * Reads the saved room. Null means start fresh: no file yet, or a damaged,
   * unreadable or newer-schema file, which is moved aside (never overwritten)
   * and named in one error line. Leftover temp files are removed.
   */
  async load(): Promise<RoomDocument | null> {
    const { logger } = this.#deps;
    await mkdir(this.#deps.dataDir, { recursive: true });
    const leftovers = await removeLeftoverTemps(this.file, this.#deps.ops ?? nodeFileOps).catch(() => []);
    if (leftovers.length > 0) logger.info({ files: leftovers }, 'removed temp files left by a write that was cut off; the state file itself is whole');
    let text: string;
    try {
      const { size } = await stat(this.file);
      if (size > STATE_FILE_MAX_BYTES) return this.#setAside('damaged', `is ${size} bytes, more than any room (${STATE_FILE_MAX_BYTES} at most)`);
      // An editor may have saved it with a byte-order mark, which JSON.parse refuses.
      text = (await readFile(this.file, 'utf8')).replace(/^\uFEFF/, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      return this.#setAside('damaged', `cannot be read (${code ?? String(error)})`);
    }
    const read = parseDocument(text);
    switch (read.kind) {
      case 'ok':
        return read.document;
      case 'damaged':
        return this.#setAside('damaged', read.reason);
      case 'newer':
        return this.#setAside(`schema-v${read.schemaVersion}`, `written by a newer Showclock (schema version ${read.schemaVersion}); this one reads version ${SCHEMA_VERSION}`);
      default: {
        const unknown: never = read;
        throw new Error(`unhandled read ${JSON.stringify(unknown)}`);
      }
    }
  }

  async #setAside(kind: string, reason: string): Promise<null> {
    const kept = join(this.#deps.dataDir, `room.${kind}-${stamp(this.#deps.clock.wallMs())}.json`);
    try {
      await rename(this.file, kept);
      this.#deps.logger.error(
        { file: this.file, keptAs: kept, reason },
        `state file ${this.file} ${reason}: kept it as ${kept} and started with a fresh room (running order, message and settings are back to defaults)`,
      );
    } catch (error) {
      this.#refusal = `${this.file} could not be moved aside (${(error as NodeJS.ErrnoException).code ?? String(error)}), so it is not overwritten`;
      this.#deps.logger.error(
        { file: this.file, reason },
        `state file ${this.file} ${reason}; ${this.#refusal}: running with a fresh room that is NOT saved until the file is moved away and the service restarted`,
      );
      this.#failing = true;
      this.#setHealth({ saving: false, problem: `${STATE_FILE} could not be moved aside and is not overwritten`, sinceWallMs: this.#deps.clock.wallMs() });
    }
    return null;
  }

  /**
   * Adopts the room the service starts with and saves it with a fresh reserve.
   * Returns the room to serve: a restored room resumes one reserve above what it
   * was saved with (a start that could not write may have used that much). When
   * the start cannot write, the room is served from memory at the seq it was
   * found with, and may use one reserve. Never throws.
   */
  async start(room: Room, opts: { restored: boolean } = { restored: false }): Promise<Room> {
    const resumed = opts.restored ? { ...room, seq: room.seq + SEQ_RESERVE } : room;
    this.#latest = resumed;
    try {
      await this.#writeNow();
      return resumed;
    } catch {
      // Logged by #writeNow. Served from memory; the next start that can write resumes above this one's reserve.
      this.#latest = room;
      this.#diskKey = null;
      this.#reservedOnDisk = room.seq + SEQ_RESERVE;
      return room;
    }
  }

  health(): StorageHealth {
    return this.#health;
  }

  /** Called whenever saving stops or starts working again. */
  onHealthChange(listener: (health: StorageHealth) => void): void {
    this.#healthListeners.push(listener);
  }

  canPublish(seq: number): boolean {
    return seq <= this.#reservedOnDisk;
  }

  saveFirst(room: Room): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the state store is closed: the service is stopping'));
    if (this.#refusal !== null) return Promise.reject(new Error(this.#refusal));
    this.#candidate = room;
    return this.#writeNow();
  }

  record(change: RoomChange): void {
    if (this.#closed) return;
    this.#latest = change.room;
    // Half the reserve used: renew it now, in the background (no answer waits for it). Not while
    // writes fail: the retry timer is already armed, and each change must not hammer a dead card.
    if (!this.#failing && change.room.seq > this.#reservedOnDisk - SEQ_RESERVE / 2) {
      this.#writeNow().catch(() => {
        // Logged by #writeNow, which also arms the retry.
      });
      return;
    }
    this.#arm(this.#coalesceMs);
  }

  /**
   * Writes whatever is unsaved, marking the file clean (no seq past the saved one
   * was published), and refuses changes from then on. For the orderly shutdown,
   * after the room service stopped accepting changes.
   */
  async close(): Promise<void> {
    if (this.#closed) return this.#atomic.idle();
    this.#closed = true;
    this.#cancelTimer();
    if (this.#latest === null || this.#refusal !== null) return this.#atomic.idle();
    await this.#atomic.write(() => this.#content(0));
  }

  /**
   * The last write of a stop that cannot wait (a deliberate second signal, the
   * time limit): synchronous, so it is on disk before the process exits. Does
   * nothing when the disk already has the room. Never throws.
   */
  closeSync(): void {
    this.#closed = true;
    this.#cancelTimer();
    if (this.#latest === null || this.#refusal !== null) return;
    try {
      this.#atomic.writeSync(() => this.#content(0));
    } catch (error) {
      this.#deps.logger.error({ file: this.file, err: { code: (error as NodeJS.ErrnoException).code, message: errorMessage(error) } }, 'the last write of the room failed');
    }
  }

  #arm(delayMs: number): void {
    if (this.#timer !== null || this.#closed) return;
    this.#timer = this.#deps.scheduler.schedule(this.#deps.clock.monoMs() + delayMs, () => {
      this.#timer = null;
      this.#writeNow().catch(() => {
        // Logged by #writeNow, which also arms the retry.
      });
    });
  }

  #cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }

  #writeNow(): Promise<void> {
    this.#cancelTimer();
    if (this.#refusal !== null) return Promise.reject(new Error(this.#refusal));
    return this.#atomic.write(() => this.#content(SEQ_RESERVE)).then(
      () => this.#succeeded(),
      (error: unknown) => {
        this.#failed(error);
        if (!this.#closed) this.#arm(RETRY_MS);
        throw error;
      },
    );
  }

  #succeeded(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#deps.logger.info({ file: this.file, failedWrites: this.#failedWrites }, `the state file ${this.file} is being written again; the room is saved`);
    this.#failedWrites = 0;
    this.#setHealth({ saving: true });
  }

  #failed(error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code;
    const nowMs = this.#deps.clock.monoMs();
    this.#failedWrites += 1;
    const problem = `cannot write ${STATE_FILE} in the data directory (${code ?? errorMessage(error)})`;
    if (!this.#failing || nowMs - this.#loggedFailureAtMs >= FAILURE_LOG_MS) {
      this.#loggedFailureAtMs = nowMs;
      this.#deps.logger.error(
        { file: this.file, failedWrites: this.#failedWrites, err: { code, message: errorMessage(error) } },
        `cannot write the state file ${this.file}: the room is NOT being saved. The show goes on (transport, messages, switches); ` +
          `running-order edits are refused until it can be written; retrying every ${RETRY_MS / 1000} s. Check the SD card and free space`,
      );
    }
    if (!this.#failing) this.#setHealth({ saving: false, problem, sinceWallMs: this.#deps.clock.wallMs() });
    this.#failing = true;
  }

  #setHealth(health: StorageHealth): void {
    this.#health = health;
    for (const listener of this.#healthListeners) listener(health);
  }

  /**
   * The file's next content, made when the write starts so the latest room wins;
   * null if the disk has it already. A change waiting to be saved first is what
   * is written then, and only that once: if its write fails it is never written.
   */
  #content(reserve: number): FileContent | null {
    const room = this.#candidate ?? this.#latest;
    this.#candidate = null;
    if (room === null) return null;
    const reservedTo = room.seq + reserve;
    const key = JSON.stringify([room, reservedTo]);
    // While writes fail, a retry writes anyway: it is how the store finds out the disk works again.
    if (key === this.#diskKey && !this.#failing) return null;
    const { clock } = this.#deps;
    const document = toDocument(room, { monoMs: clock.monoMs(), wallMs: clock.wallMs() }, reservedTo);
    return {
      text: serializeDocument(document),
      written: () => {
        this.#diskKey = key;
        this.#reservedOnDisk = Math.max(this.#reservedOnDisk, reservedTo);
      },
    };
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
