// The room service: the one stateful piece. It owns the room, is the only caller
// of the engine, and is the one dispatch that every input (HTTP v0/v1, GPIO
// buttons, the console) goes through. It wakes at the next zero instant on the
// monotonic clock, and only then: nothing ticks while nothing is due. A scheduled
// start (and the end of a countdown to a time of day) is a wall-clock instant,
// which a wall-clock step (NTP after a Pi booted without a real-time clock) moves:
// while the room watches the wall clock, the wake-up is at most STEP_CHECK_MS
// away, so a step is seen within a second and the instant placed again.
import { applyCommand, nextDueMonoMs, settleWithEvents, watchesWallClock, type Outcome, type TimeEvents } from '../domain/engine.js';
import { WALL_STEP_TOLERANCE_MS } from '../domain/limits.js';
import { toSnapshot, type Snapshot } from '../domain/snapshot.js';
import type { Command, CommandError, Now, Room } from '../domain/types.js';
import type { Clock, Scheduler } from './clock.js';

/** Where a command came from: kept for the log line, never changes behaviour. */
export type CommandSource = 'http-v0' | 'http-v1' | 'gpio' | 'console' | 'system' | 'osc' | 'udp-text' | 'audience' | 'tally' | 'mqtt' | 'cec';

export interface RoomChange {
  readonly room: Room;
  readonly previous: Room;
  /** `zero`: a change time made by itself (zero events, scheduled starts). */
  readonly cause: Command | 'zero';
  readonly source: CommandSource;
}

/** What the service tells the log about time: why a timer started by itself, or did not. */
export type TimeNotice =
  | { readonly kind: 'scheduled-start'; readonly timerId: string; readonly scheduledAt: number; readonly seq: number }
  | { readonly kind: 'scheduled-start-missed'; readonly timerId: string; readonly scheduledAt: number }
  | { readonly kind: 'wall-clock-step'; readonly stepMs: number };

/** How often the two clocks are compared while a scheduled start is armed. */
export const STEP_CHECK_MS = 1_000;
/** A change of (wall - monotonic) larger than this is a step, not drift or the rounding of two readings. */
export const STEP_TOLERANCE_MS = WALL_STEP_TOLERANCE_MS;

export type RoomListener = (change: RoomChange) => void;

export interface DispatchResult {
  /**
   * The command's outcome. For a change that must be saved before it happens
   * (see `durable`), the outcome it will have if it can be saved.
   */
  readonly outcome: Outcome;
  /** The room after the command; for a change still waiting to be saved, the room before it. */
  readonly room: Room;
  /**
   * Resolves once the change has happened and is as durable as it must be.
   * Most changes happen at once and this is already resolved. A running-order
   * edit (or any change while the seq reserve on disk is used up) happens only
   * after it is on disk: this rejects with `NotDone` when it cannot be, and then
   * nothing happened: not applied, not pushed, never written later.
   */
  readonly durable: Promise<void>;
}

/** Why a change that was accepted for saving did not happen; nothing of it remains. */
export class NotDone extends Error {
  constructor(
    readonly kind: 'storage' | 'stopping' | 'refused',
    message: string,
    /** For `refused`: the engine's verdict when the change's turn came (another edit came first). */
    readonly error?: CommandError,
  ) {
    super(message);
  }
}

/**
 * A change that is saved before it happens (see Persistence.saveFirst). The store
 * asks for the room to write when its write starts, so the file gets the room as
 * it is then, with this change; and it lets the change happen the moment that
 * file is on disk, before any other write starts: so no later write can hold a
 * room without it, and no write ever holds a room older than an earlier write.
 */
export interface SaveFirst {
  /** The room with the change applied to the room as it is now; null when the change would no longer change anything. */
  prepare(): Room | null;
  /** The prepared room is on disk: the change happens now, synchronously. */
  commit(): void;
}

/** Where changes go to be kept; see src/store. */
export interface Persistence {
  /** True when a change with this seq may be published before anything more is written. */
  canPublish(seq: number): boolean;
  /**
   * Puts a change that has not happened yet on disk and then makes it happen
   * (`commit`). The change happened if and only if `commit` ran; when it did not,
   * the promise rejects and the change is never written later.
   */
  saveFirst(change: SaveFirst): Promise<void>;
  /** A change that happened; the store keeps it in its own time and reports its own failures. */
  record(change: RoomChange): void;
}

/**
 * The `durable` of every change that happened at once (and of a command that
 * changed nothing): already resolved, so a caller may answer at once rather than
 * wait a turn of the microtask queue for it (src/api/api-routes.ts does).
 */
export const DONE: Promise<void> = Promise.resolve();

type Applied = ReturnType<typeof applyCommand>;

function refusedError(outcome: Outcome): NotDone {
  if (outcome.ok) throw new Error('a refusal was asked of an outcome that is ok');
  return new NotDone('refused', outcome.error.message, outcome.error);
}

function stoppingError(): NotDone {
  return new NotDone('stopping', 'the service is stopping: nothing was changed; try again once it is back');
}

/** A rejected promise that nobody awaiting it is also fine with (a button press logs, HTTP answers 503). */
function stopping(): Promise<void> {
  const refused = Promise.reject(stoppingError());
  refused.catch(() => {});
  return refused;
}

const nothingToKeep: Persistence = {
  canPublish: () => true,
  saveFirst: (change) => {
    if (change.prepare() !== null) change.commit();
    return Promise.resolve();
  },
  record: () => {},
};

/**
 * Running-order edits and audience questions must be on disk before they are
 * acknowledged (and so before they happen): a question a person was told was
 * received, or a moderator's decision on it, survives a power cut. `timer.select`
 * is not one: it is navigation, like next/previous.
 */
export function mustBeSavedFirst(command: Command): boolean {
  switch (command.type) {
    case 'timer.create':
    case 'timer.import':
    case 'timer.update':
    case 'timer.delete':
    case 'timer.move':
    case 'tag.create':
    case 'tag.update':
    case 'tag.delete':
    case 'question.submit':
    case 'question.approve':
    case 'question.hide':
    case 'question.show':
    case 'question.unshow':
    case 'question.answered':
    case 'question.delete':
    case 'question.clearAnswered':
    // Clearing what the show recorded is not taken back by a power cut.
    case 'show.reset':
      return true;
    case 'timer.select':
    case 'timer.start':
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
    case 'tally.set':
    case 'screen.report':
    case 'flash':
    case 'chime.test':
    case 'settings.set':
    case 'display.set':
    case 'display.logo':
    case 'aux.start':
    case 'aux.pause':
    case 'aux.toggle':
    case 'aux.reset':
    case 'aux.adjust':
    case 'aux.set':
      return false;
    default: {
      const unknown: never = command;
      throw new Error(`unhandled command ${JSON.stringify(unknown)}`);
    }
  }
}

export class RoomService {
  #room: Room;
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #listeners = new Set<RoomListener>();
  /** Changes waiting for the listeners; see #deliver. */
  readonly #outbox: RoomChange[] = [];
  #delivering = false;
  #pending: { cancel(): void } | null = null;
  #pendingAtMonoMs: number | null = null;
  #stopped = true;
  /** False once a stop has begun: every change is refused, so the final save is the last word. */
  #accepting = true;
  /** Changes that are saved before they happen, one at a time, in the order they came. */
  #saveQueue: Promise<void> = Promise.resolve();

  readonly #onListenerError: (error: unknown) => void;
  readonly #onTimeNotice: (notice: TimeNotice) => void;
  readonly #persistence: Persistence;
  /** wall - monotonic when the last wake-up was armed; null when the room does not watch the wall clock. */
  #armedOffsetMs: number | null = null;

  constructor(deps: {
    initialRoom: Room;
    clock: Clock;
    scheduler: Scheduler;
    /** A failing listener (lamp, stream) is reported here and never undoes or blocks the change. */
    onListenerError?: (error: unknown) => void;
    /** Scheduled starts that happened or were missed, and wall-clock steps: for the log. */
    onTimeNotice?: (notice: TimeNotice) => void;
    persistence?: Persistence;
  }) {
    this.#persistence = deps.persistence ?? nothingToKeep;
    this.#room = deps.initialRoom;
    this.#clock = deps.clock;
    this.#scheduler = deps.scheduler;
    this.#onListenerError = deps.onListenerError ?? (() => {});
    this.#onTimeNotice = deps.onTimeNotice ?? (() => {});
  }

  #now(): Now {
    return { monoMs: this.#clock.monoMs(), wallMs: this.#clock.wallMs() };
  }

  /** Applies whatever fell due while stopped and arms the zero-instant wake-up. */
  start(): void {
    this.#stopped = false;
    this.#settle();
  }

  close(): void {
    this.#stopped = true;
    this.#pending?.cancel();
    this.#pending = null;
    this.#pendingAtMonoMs = null;
    this.#armedOffsetMs = null;
  }

  /**
   * The first step of a stop: from now on every change is refused (nothing
   * happens, the answer says so) and nothing changes by itself. Resolves when the
   * changes already waiting for their save have happened or been refused, so the
   * room is final and can be written one last time.
   */
  stopAccepting(): Promise<void> {
    this.#accepting = false;
    this.close();
    return this.#saveQueue;
  }

  get room(): Room {
    return this.#room;
  }

  /** Listeners run synchronously after every change, in seq order. */
  subscribe(listener: RoomListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The server's wall-clock time as every snapshot's `serverNow` gives it, without making a snapshot (the screens' clock sync asks often). */
  serverNow(): number {
    return Math.round(this.#clock.wallMs());
  }

  snapshot(): Snapshot {
    this.#settle();
    const now = this.#now();
    return toSnapshot(this.#room, now.monoMs, now.wallMs);
  }

  dispatch(command: Command, source: CommandSource): DispatchResult {
    const previous = this.#room;
    const applied = applyCommand(previous, command, this.#now());
    const changes = applied.outcome.ok && applied.room.seq !== previous.seq;
    if (!this.#accepting) {
      // Stopping: the room stays as it will be written; a refusal or a no-op is answered as usual.
      return { outcome: applied.outcome, room: previous, durable: changes ? stopping() : DONE };
    }
    if (!changes) {
      // Refused or a no-op: only zero events and scheduled starts that fell due change the room.
      this.#commit(applied.room, previous, command, source);
      this.#tell(applied.time, applied.room);
      return { outcome: applied.outcome, room: this.#room, durable: DONE };
    }
    if (!mustBeSavedFirst(command) && this.#persistence.canPublish(applied.room.seq)) {
      this.#commit(applied.room, previous, command, source);
      this.#tell(applied.time, applied.room);
      return { outcome: applied.outcome, room: this.#room, durable: DONE };
    }
    return { outcome: applied.outcome, room: previous, durable: this.#saveThenApply(command, source) };
  }

  /**
   * A change that must be on disk before it happens, one at a time in the order
   * they came. Transport, messages and switches never wait for it: the store
   * applies the command to the room as it is when the write starts, and once that
   * is on disk the command is applied to the room as it is then (the same room
   * unless something came in during the write; the running order, the only thing
   * such a change touches, cannot have moved: only these changes touch it, one at
   * a time). A refusal is found before anything is written.
   */
  #saveThenApply(command: Command, source: CommandSource): Promise<void> {
    const turn = this.#saveQueue.then(async () => {
      if (!this.#accepting) throw stoppingError();
      const checked = applyCommand(this.#room, command, this.#now());
      if (!checked.outcome.ok) throw refusedError(checked.outcome);
      if (checked.room.seq === this.#room.seq) return;
      let prepared: { readonly base: Room; readonly applied: Applied } | null = null;
      let refusedAtWrite: Outcome | null = null;
      let committed = false;
      const change: SaveFirst = {
        prepare: () => {
          const base = this.#room;
          const applied = applyCommand(base, command, this.#now());
          prepared = null;
          refusedAtWrite = applied.outcome.ok ? null : applied.outcome;
          if (!applied.outcome.ok || applied.room.seq === base.seq) return null;
          prepared = { base, applied };
          return applied.room;
        },
        commit: () => {
          if (prepared === null) return;
          // On disk: it happens now, even if a stop began meanwhile (the stop waits for this queue).
          const now = this.#room;
          const applied = now === prepared.base ? prepared.applied : applyCommand(now, command, this.#now());
          // Cannot happen (what such a change touches moves only in this queue); were it to, it is refused, not answered 2xx.
          if (!applied.outcome.ok) {
            refusedAtWrite = applied.outcome;
            return;
          }
          committed = true;
          this.#commit(applied.room, now, command, source);
          this.#tell(applied.time, applied.room);
        },
      };
      try {
        await this.#persistence.saveFirst(change);
      } catch (error) {
        // Only a change that did not happen is refused: one whose file stayed when a later step failed did happen.
        if (!committed) throw new NotDone('storage', `the change could not be saved, so it was not made (${error instanceof Error ? error.message : String(error)})`);
      }
      if (!committed && refusedAtWrite !== null) throw refusedError(refusedAtWrite);
    });
    this.#saveQueue = turn.catch(() => {});
    return turn;
  }

  #settle(): void {
    if (!this.#accepting) return;
    const previous = this.#room;
    const settled = settleWithEvents(previous, this.#now());
    this.#commit(settled.room, previous, 'zero', 'system');
    this.#tell(settled.time, settled.room);
  }

  #tell(time: TimeEvents, room: Room): void {
    for (const missed of time.missed) this.#onTimeNotice({ kind: 'scheduled-start-missed', ...missed });
    if (time.started !== null) this.#onTimeNotice({ kind: 'scheduled-start', ...time.started, seq: room.seq });
  }

  #commit(next: Room, previous: Room, cause: Command | 'zero', source: CommandSource): void {
    this.#room = next;
    if (next.seq !== previous.seq) {
      const change: RoomChange = { room: next, previous, cause, source };
      try {
        this.#persistence.record(change);
      } catch (error) {
        this.#onListenerError(error);
      }
      this.#deliver(change);
    }
    this.#arm();
  }

  /**
   * A listener may dispatch (an automation reacting to a change). Its change is
   * queued behind the one being delivered, so every listener still sees the
   * changes in seq order; the outermost call empties the queue before returning.
   */
  #deliver(change: RoomChange): void {
    this.#outbox.push(change);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let next = this.#outbox.shift(); next !== undefined; next = this.#outbox.shift()) {
        for (const listener of this.#listeners) {
          try {
            listener(next);
          } catch (error) {
            this.#onListenerError(error);
          }
        }
      }
    } finally {
      this.#delivering = false;
    }
  }

  #arm(): void {
    if (this.#stopped) return;
    const now = this.#now();
    const offsetMs = now.wallMs - now.monoMs;
    const scheduled = watchesWallClock(this.#room);
    // Compared whenever a scheduled start was armed at the last look, also when the step just made it fire.
    if (this.#armedOffsetMs !== null && Math.abs(offsetMs - this.#armedOffsetMs) > STEP_TOLERANCE_MS) {
      // The wake-up below is placed by the new reading, so the scheduled instant is re-armed where the wall clock now puts it.
      this.#onTimeNotice({ kind: 'wall-clock-step', stepMs: offsetMs - this.#armedOffsetMs });
    }
    this.#armedOffsetMs = scheduled ? offsetMs : null;
    const due = nextDueMonoMs(this.#room, now);
    // Only a wall-clock instant needs the clocks compared meanwhile; a zero instant is monotonic.
    const dueMonoMs = scheduled ? Math.min(due ?? Number.POSITIVE_INFINITY, now.monoMs + STEP_CHECK_MS) : due;
    if (dueMonoMs === this.#pendingAtMonoMs) return;
    this.#pending?.cancel();
    this.#pending = null;
    this.#pendingAtMonoMs = dueMonoMs;
    if (dueMonoMs === null) return;
    this.#pending = this.#scheduler.schedule(dueMonoMs, () => {
      this.#pending = null;
      this.#pendingAtMonoMs = null;
      // A timer can fire a little early; settle() applies only what is due and re-arms.
      this.#settle();
    });
  }
}
