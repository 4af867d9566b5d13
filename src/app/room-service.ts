// The room service: the one stateful piece. It owns the room, is the only caller
// of the engine, and is the one dispatch that every input (HTTP v0/v1, GPIO
// buttons, the console) goes through. It wakes at the next zero instant on the
// monotonic clock, and only then: nothing ticks while nothing is due.
import { applyCommand, nextDueMonoMs, settle, type Outcome } from '../domain/engine.js';
import { toSnapshot, type Snapshot } from '../domain/snapshot.js';
import type { Command, Room } from '../domain/types.js';
import type { Clock, Scheduler } from './clock.js';

/** Where a command came from: kept for the log line, never changes behaviour. */
export type CommandSource = 'http-v0' | 'http-v1' | 'gpio' | 'console' | 'system';

export interface RoomChange {
  readonly room: Room;
  readonly previous: Room;
  readonly cause: Command | 'zero';
  readonly source: CommandSource;
}

export type RoomListener = (change: RoomChange) => void;

export interface DispatchResult {
  readonly outcome: Outcome;
  readonly room: Room;
  /**
   * Settles when the change is as durable as the persistence port requires
   * (running-order edits on disk); the HTTP answer waits for it, buttons need not.
   */
  readonly durable: Promise<void>;
}

/** Where changes go to be kept; see src/store. */
export interface Persistence {
  record(change: RoomChange): Promise<void>;
}

const nothingToKeep: Persistence = { record: () => Promise.resolve() };

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

  readonly #onListenerError: (error: unknown) => void;
  readonly #persistence: Persistence;

  constructor(deps: {
    initialRoom: Room;
    clock: Clock;
    scheduler: Scheduler;
    /** A failing listener (store, lamp, stream) is reported here and never undoes or blocks the change. */
    onListenerError?: (error: unknown) => void;
    persistence?: Persistence;
  }) {
    this.#persistence = deps.persistence ?? nothingToKeep;
    this.#room = deps.initialRoom;
    this.#clock = deps.clock;
    this.#scheduler = deps.scheduler;
    this.#onListenerError = deps.onListenerError ?? (() => {});
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
  }

  get room(): Room {
    return this.#room;
  }

  /** Listeners run synchronously after every change, in seq order. */
  subscribe(listener: RoomListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  snapshot(): Snapshot {
    this.#settle();
    return toSnapshot(this.#room, this.#clock.monoMs(), this.#clock.wallMs());
  }

  dispatch(command: Command, source: CommandSource): DispatchResult {
    const nowMonoMs = this.#clock.monoMs();
    const previous = this.#room;
    const applied = applyCommand(previous, command, nowMonoMs);
    const durable = this.#commit(applied.room, previous, command, source);
    return { outcome: applied.outcome, room: this.#room, durable };
  }

  #settle(): void {
    const previous = this.#room;
    const durable = this.#commit(settle(previous, this.#clock.monoMs()), previous, 'zero', 'system');
    durable.catch((error: unknown) => this.#onListenerError(error));
  }

  #commit(next: Room, previous: Room, cause: Command | 'zero', source: CommandSource): Promise<void> {
    this.#room = next;
    let durable = Promise.resolve();
    if (next.seq !== previous.seq) {
      const change: RoomChange = { room: next, previous, cause, source };
      durable = this.#persistence.record(change);
      this.#deliver(change);
    }
    this.#arm();
    return durable;
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
    const dueMonoMs = nextDueMonoMs(this.#room);
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
