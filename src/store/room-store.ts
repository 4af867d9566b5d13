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
import type { Persistence, RoomChange, SaveFirst } from '../app/room-service.js';
import type { Room } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import { AtomicFile, nodeFileOps, removeAllLeftoverTemps, tempFileFor, type AtomicFileOps, type FileContent } from './atomic-file.js';
import { parseDocument, SCHEMA_VERSION, serializeDocument, toDocument, type RoomDocument } from './room-document.js';

export const STATE_FILE = 'room.json';
/**
 * The room file's previous generation: a hard link to the file each write
 * replaces, read at start when room.json is damaged (garbage written into it, a
 * card that corrupted it), so the room, and seq, survive that too.
 */
export const PREVIOUS_FILE = 'room.previous.json';
/** The file the write check makes and removes when nothing else was written for a while. */
const WRITE_CHECK_FILE = 'write-check';
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

/** A problem and when it began. */
interface Problem {
  readonly problem: string;
  readonly sinceWallMs: number;
}

/** Told after each write that reached the disk: the room the file holds, and the room in memory now. */
export type SavedListener = (saved: Room, current: Room) => void;

type Read =
  | { readonly kind: 'ok'; readonly document: RoomDocument; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'damaged'; readonly reason: string }
  | { readonly kind: 'newer'; readonly schemaVersion: number };

/**
 * What the store promises about the file (the invariant every write keeps):
 * writes happen one at a time, and each writes the room as it is when the write
 * starts (with the change being saved first, if one is waiting). A change saved
 * first happens the moment its write is on disk, before the next write starts.
 * So a write never holds a room older than an earlier write did, and never lacks
 * a change that was answered 2xx after being saved first. A change that is
 * refused (its write failed) is never in the file: when only the directory sync
 * failed after the rename, the room without it is put back before the refusal.
 */
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
  /** Why writes fail, while they do. */
  #writeProblem: Problem | null = null;
  /** A problem found beside the room file (the data directory gone, keys.json not written back); see storage-watch.ts. */
  #outsideProblem: Problem | null = null;
  #health: StorageHealth = { saving: true };
  readonly #healthListeners: ((health: StorageHealth) => void)[] = [];
  readonly #savedListeners: SavedListener[] = [];
  /** A change that is saved before it happens; see saveFirst and #content. */
  #candidate: SaveFirst | null = null;
  #closed = false;
  /** Set when a file we must not overwrite (a newer schema) could not be moved aside. */
  #refusal: string | null = null;
  /** When something last reached the disk (a write, or the write check), monotonic. */
  #lastOnDiskMs = Number.NEGATIVE_INFINITY;

  constructor(deps: RoomStoreDeps) {
    this.#deps = deps;
    this.file = join(deps.dataDir, STATE_FILE);
    this.#atomic = new AtomicFile(this.file, { ops: deps.ops ?? nodeFileOps, previous: join(deps.dataDir, PREVIOUS_FILE) });
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
   * and named in one error line; a damaged one is replaced by the previous
   * generation when that is whole. Temp files of every kind a crash left in the
   * data directory are removed.
   */
  async load(): Promise<RoomDocument | null> {
    const { logger, dataDir } = this.#deps;
    await mkdir(dataDir, { recursive: true });
    const leftovers = await removeAllLeftoverTemps(dataDir).catch(() => []);
    if (leftovers.length > 0) logger.info({ files: leftovers }, 'removed temp files left by writes that were cut off; the files they were for are whole');
    const read = await readRoomFile(this.file);
    switch (read.kind) {
      case 'ok':
        this.#atomic.adopt(read.text);
        return read.document;
      case 'missing':
        return null;
      case 'damaged':
        await this.#setAside('damaged', read.reason);
        return this.#refusal === null ? this.#previousGeneration() : null;
      case 'newer':
        return this.#setAside(`schema-v${read.schemaVersion}`, `written by a newer Showclock (schema version ${read.schemaVersion}); this one reads version ${SCHEMA_VERSION}`);
      default: {
        const unknown: never = read;
        throw new Error(`unhandled read ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * The room of the previous generation, when room.json was damaged. It may be a
   * write or two older than the damaged file, whose seq reserve it does not know:
   * it resumes two reserves higher, so seq still never goes back.
   */
  async #previousGeneration(): Promise<RoomDocument | null> {
    const previous = join(this.#deps.dataDir, PREVIOUS_FILE);
    const read = await readRoomFile(previous);
    if (read.kind !== 'ok') return null;
    this.#deps.logger.warn(
      { file: previous, seq: read.document.room.seq },
      `restored the room from ${previous}, the state file's previous generation: changes of the last write before the damage may be missing`,
    );
    return { ...read.document, seqReservedTo: Math.max(read.document.room.seq, read.document.seqReservedTo) + 2 * SEQ_RESERVE };
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
      this.#writeProblem = { problem: `${STATE_FILE} could not be moved aside and is not overwritten`, sinceWallMs: this.#deps.clock.wallMs() };
      this.#publishHealth();
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

  /** Called after every write that reached the disk; see SavedListener. For files kept beside the room (logos). */
  onSaved(listener: SavedListener): void {
    this.#savedListeners.push(listener);
  }

  /**
   * A problem beside the room file, for health (null: fixed). Reported like a
   * failing write while the room file itself is written fine.
   */
  setOutsideProblem(problem: string | null): void {
    if ((this.#outsideProblem?.problem ?? null) === problem) return;
    this.#outsideProblem = problem === null ? null : { problem, sinceWallMs: this.#deps.clock.wallMs() };
    this.#publishHealth();
  }

  canPublish(seq: number): boolean {
    return seq <= this.#reservedOnDisk;
  }

  saveFirst(change: SaveFirst): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the state store is closed: the service is stopping'));
    if (this.#refusal !== null) return Promise.reject(new Error(this.#refusal));
    this.#candidate = change;
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

  /** Writes the room from memory at once, whatever the disk was last known to hold (the file was changed or lost). */
  rewrite(): Promise<void> {
    this.#diskKey = null;
    return this.#writeNow();
  }

  /**
   * The periodic look at the card (storage-watch.ts). The room file must still be
   * what this service wrote: if not (garbage written into it, removed, corrupted),
   * that is logged and the file written again from memory. When nothing reached
   * the disk for `quietMs`, a small file is written, synced and removed, so a card
   * that fails while the room is at rest is seen within that time. Never throws.
   */
  async check(quietMs: number): Promise<void> {
    if (this.#closed || this.#refusal !== null || this.#latest === null || this.#failing) return;
    const { logger, clock } = this.#deps;
    const found = await this.#atomic.check(STATE_FILE_MAX_BYTES);
    if (found.kind === 'changed') {
      logger.error({ file: this.file, found: found.found }, `the state file ${this.file} is not what this service wrote (found ${found.found}): writing it again from memory`);
      await this.rewrite().catch(() => {
        // Logged by #writeNow, which also arms the retry.
      });
      return;
    }
    if (clock.monoMs() - this.#lastOnDiskMs < quietMs || this.#atomic.busy) return;
    const ops = this.#deps.ops ?? nodeFileOps;
    const probe = tempFileFor(join(this.#deps.dataDir, WRITE_CHECK_FILE), 0);
    try {
      await ops.writeSynced(probe, 'showclock write check\n', 0o600);
      await ops.unlink(probe);
      await ops.syncDirectory(this.#deps.dataDir);
      this.#lastOnDiskMs = clock.monoMs();
    } catch (error) {
      await ops.unlink(probe).catch(() => {});
      if (this.#failing || this.#closed) return;
      this.#failed(error, 'cannot write in the data directory');
      this.#arm(RETRY_MS);
    }
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
   * nothing when the disk already has the room. A change still waiting to be
   * saved first is not written: its answer is never sent. Never throws.
   */
  closeSync(): void {
    this.#closed = true;
    this.#cancelTimer();
    this.#candidate = null;
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
        this.#failed(error, `cannot write ${STATE_FILE} in the data directory`);
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
    this.#writeProblem = null;
    this.#publishHealth();
  }

  #failed(error: unknown, what: string): void {
    const code = (error as NodeJS.ErrnoException).code;
    const nowMs = this.#deps.clock.monoMs();
    this.#failedWrites += 1;
    if (!this.#failing || nowMs - this.#loggedFailureAtMs >= FAILURE_LOG_MS) {
      this.#loggedFailureAtMs = nowMs;
      this.#deps.logger.error(
        { file: this.file, failedWrites: this.#failedWrites, err: { code, message: errorMessage(error) } },
        `${what}: the room is NOT being saved. The show goes on (transport, messages, switches); ` +
          `running-order edits are refused until it can be written; retrying every ${RETRY_MS / 1000} s. Check the SD card and free space`,
      );
    }
    if (!this.#failing) this.#writeProblem = { problem: `${what} (${code ?? errorMessage(error)})`, sinceWallMs: this.#deps.clock.wallMs() };
    this.#failing = true;
    this.#publishHealth();
  }

  /** Health is the write problem, else the problem beside the file, else saving; listeners hear of each change. */
  #publishHealth(): void {
    const problem = this.#writeProblem ?? this.#outsideProblem;
    const health: StorageHealth = problem === null ? { saving: true } : { saving: false, problem: problem.problem, sinceWallMs: problem.sinceWallMs };
    const before = this.#health;
    if (before.saving === health.saving && (before.saving || (!health.saving && before.problem === health.problem))) return;
    this.#health = health;
    for (const listener of this.#healthListeners) listener(health);
  }

  /**
   * The file's next content, made when the write starts so the latest room wins;
   * null if the disk has it already. A change waiting to be saved first is
   * applied to the room as it is now and written then, only that once: if its
   * write fails it is never written (and is taken back out of the file if only
   * the directory sync failed).
   */
  #content(reserve: number): FileContent | null {
    const change = this.#candidate;
    this.#candidate = null;
    const prepared = change === null ? null : change.prepare();
    if (change === null || prepared === null) return this.#roomContent(this.#latest, reserve, { force: false });
    return {
      ...this.#roomContent(prepared, reserve, { force: true, commit: change }),
      // The room as it is without the change: what the file held, or newer.
      revert: () => this.#roomContent(this.#latest, reserve, { force: true }),
    };
  }

  #roomContent(room: Room | null, reserve: number, opts: { force: true; commit?: SaveFirst }): FileContent;
  #roomContent(room: Room | null, reserve: number, opts: { force: boolean; commit?: SaveFirst }): FileContent | null;
  #roomContent(room: Room | null, reserve: number, opts: { force: boolean; commit?: SaveFirst }): FileContent | null {
    if (room === null) return null;
    const reservedTo = room.seq + reserve;
    const key = JSON.stringify([room, reservedTo]);
    // While writes fail, a retry writes anyway: it is how the store finds out the disk works again.
    if (!opts.force && key === this.#diskKey && !this.#failing) return null;
    const { clock } = this.#deps;
    const document = toDocument(room, { monoMs: clock.monoMs(), wallMs: clock.wallMs() }, reservedTo);
    return {
      text: serializeDocument(document),
      written: () => {
        this.#diskKey = key;
        this.#reservedOnDisk = Math.max(this.#reservedOnDisk, reservedTo);
        this.#lastOnDiskMs = clock.monoMs();
        opts.commit?.commit();
        for (const listener of this.#savedListeners) {
          try {
            listener(room, this.#latest ?? room);
          } catch (error) {
            this.#deps.logger.error({ err: { message: errorMessage(error) } }, 'a listener of saved rooms failed');
          }
        }
      },
    };
  }
}

/** Reads one room file; never throws. */
async function readRoomFile(file: string): Promise<Read> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > STATE_FILE_MAX_BYTES) return { kind: 'damaged', reason: `is ${size} bytes, more than any room (${STATE_FILE_MAX_BYTES} at most)` };
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'damaged', reason: `cannot be read (${code ?? String(error)})` };
  }
  // An editor may have saved it with a byte-order mark, which JSON.parse refuses.
  const read = parseDocument(text.replace(/^\uFEFF/, ''));
  switch (read.kind) {
    case 'ok':
      return { kind: 'ok', document: read.document, text };
    case 'damaged':
      return { kind: 'damaged', reason: read.reason };
    case 'newer':
      return { kind: 'newer', schemaVersion: read.schemaVersion };
    default: {
      const unknown: never = read;
      throw new Error(`unhandled read ${JSON.stringify(unknown)}`);
    }
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
