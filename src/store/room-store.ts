// The state store: the room in room.json in the data directory, behind the room
// service's persistence port. Edits of the running order are on disk before
// record() resolves (the HTTP answer waits for it); transport, message, switch
// and setting changes are coalesced into one write within a second, to spare the
// SD card. Nothing ticks: a timer is armed only while something is unsaved.
import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Clock, Scheduler } from '../app/clock.js';
import type { Persistence, RoomChange } from '../app/room-service.js';
import type { Command, Room } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import { AtomicFile, nodeFileOps, removeLeftoverTemps, type AtomicFileOps, type FileContent } from './atomic-file.js';
import { parseDocument, SCHEMA_VERSION, serializeDocument, toDocument, type RoomDocument } from './room-document.js';

export const STATE_FILE = 'room.json';
/** Longest a transport, message, switch or setting change waits to be written. */
export const COALESCE_MS = 1_000;
/** After a failed write, the next try; slower than COALESCE_MS so a dead card is not hammered. */
export const RETRY_MS = 5_000;
/**
 * Each save reserves this many seq numbers ahead. A change is written at once when
 * it uses up half the reserve, so what a console saw is always below the reserve on
 * disk, and a restart after a crash resumes above it: seq never goes back.
 */
export const SEQ_RESERVE = 100;

/**
 * Running-order edits must survive `kill -9` once acknowledged. `timer.select` is
 * not one: it is navigation, like next/previous, and is coalesced with them.
 */
export function isRunningOrderEdit(cause: Command | 'zero'): boolean {
  if (cause === 'zero') return false;
  switch (cause.type) {
    case 'timer.create':
    case 'timer.update':
    case 'timer.delete':
    case 'timer.move':
      return true;
    case 'timer.select':
    case 'start':
    case 'pause':
    case 'toggle':
    case 'reset':
    case 'next':
    case 'previous':
    case 'adjust':
    case 'message.set':
    case 'message.clear':
    case 'blackout.set':
    case 'blackout.toggle':
    case 'onair.set':
    case 'onair.toggle':
    case 'settings.set':
      return false;
    default: {
      const unknown: never = cause;
      throw new Error(`unhandled command ${JSON.stringify(unknown)}`);
    }
  }
}

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
  #closed = false;
  /** Set when a file we must not overwrite (a newer schema) could not be moved aside. */
  #refusal: string | null = null;

  constructor(deps: RoomStoreDeps) {
    this.#deps = deps;
    this.file = path.join(deps.dataDir, STATE_FILE);
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
      text = await readFile(this.file, 'utf8');
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
    const kept = path.join(this.#deps.dataDir, `room.${kind}-${stamp(this.#deps.clock.wallMs())}.json`);
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
    }
    return null;
  }

  /** Adopts the room the service starts with and saves it with a fresh seq reserve; never throws. */
  async start(room: Room): Promise<void> {
    this.#latest = room;
    await this.#writeNow().catch(() => {
      // Logged by #writeNow; the service runs on and edits answer 503 until writes work.
    });
  }

  record(change: RoomChange): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the state store is closed: the service is shutting down'));
    this.#latest = change.room;
    if (isRunningOrderEdit(change.cause) || change.room.seq > this.#reservedOnDisk - SEQ_RESERVE / 2) return this.#writeNow();
    this.#arm(this.#coalesceMs);
    return Promise.resolve();
  }

  /**
   * Writes whatever is unsaved, marking the file clean (no seq past the saved one
   * was published), and refuses changes from then on. For the orderly shutdown.
   */
  async close(): Promise<void> {
    if (this.#closed) return this.#atomic.idle();
    this.#closed = true;
    this.#cancelTimer();
    if (this.#latest === null || this.#refusal !== null) return this.#atomic.idle();
    await this.#atomic.write(() => this.#content(0));
  }

  #arm(delayMs: number): void {
    if (this.#timer !== null) return;
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
      () => {
        if (this.#failing) this.#deps.logger.info({ file: this.file }, 'the state file is being written again');
        this.#failing = false;
      },
      (error: unknown) => {
        if (!this.#failing) {
          const code = (error as NodeJS.ErrnoException).code;
          this.#deps.logger.error(
            { file: this.file, err: { code, message: error instanceof Error ? error.message : String(error) } },
            `cannot write the state file ${this.file}; changes are kept in memory and retried every ${RETRY_MS / 1000} s, running-order edits answer 503 meanwhile`,
          );
        }
        this.#failing = true;
        if (!this.#closed) this.#arm(RETRY_MS);
        throw error;
      },
    );
  }

  /** The file's next content, made when the write starts so the latest room wins; null if the disk has it already. */
  #content(reserve: number): FileContent | null {
    const room = this.#latest;
    if (room === null) return null;
    const reservedTo = room.seq + reserve;
    const key = JSON.stringify([room, reservedTo]);
    if (key === this.#diskKey) return null;
    const { clock } = this.#deps;
    const document = toDocument(room, { monoMs: clock.monoMs(), wallMs: clock.wallMs() }, reservedTo);
    return {
      text: serializeDocument(document),
      written: () => {
        this.#diskKey = key;
        this.#reservedOnDisk = reservedTo;
      },
    };
  }
}
