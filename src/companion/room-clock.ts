// The last snapshot, the server's time as this machine estimates it, and the one
// local timer that wakes the module at the next server second boundary (or
// warning/zero instant) while a timer runs: never a timer per key, never an
// interval. While paused it wakes only when what the keys show moves with the
// clock anyway: the schedule's offset and projected end (a paused show runs
// later every second), and the aux timer while it runs (room-view.ts).
//
// The clock is the display's (src/client/server-clock.ts), fed only with hints: every
// snapshot re-anchors the offset as serverNow minus this machine's monotonic
// time at arrival. The module never polls a time endpoint (it has only the API
// key's quota), and re-anchoring on each snapshot follows a step of the box's
// wall clock (a Pi that got network time late) with the next snapshot, since
// endAt and serverNow step together. The error is the push delay, milliseconds
// on a LAN; the computer's own wall clock plays no part.
import type { Snapshot } from '../domain/snapshot.js';
import { createServerClock, type ServerClock } from '../client/server-clock.js';
import { viewAt, type RoomView } from './room-view.js';

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RoomClockOptions {
  /** This machine's monotonic clock, ms. */
  readonly perfNow?: () => number;
  readonly timers?: Timers;
}

export class RoomClock {
  readonly #onChange: (state: Snapshot | null, view: RoomView | null) => void;
  readonly #timers: Timers;
  readonly #perfNow: () => number;
  #clock: ServerClock;
  #state: Snapshot | null = null;
  #pending: unknown = null;

  /** `onChange` runs after each new snapshot and at each instant the view changes by time. */
  constructor(onChange: (state: Snapshot | null, view: RoomView | null) => void, opts: RoomClockOptions = {}) {
    this.#onChange = onChange;
    this.#timers = opts.timers ?? REAL_TIMERS;
    this.#perfNow = opts.perfNow ?? (() => performance.now());
    this.#clock = this.#newClock();
  }

  #newClock(): ServerClock {
    return createServerClock('', { perfNow: this.#perfNow });
  }

  get state(): Snapshot | null {
    return this.#state;
  }

  /** Estimated server time now, ms since epoch; null before a snapshot. */
  serverNow(): number | null {
    return this.#clock.now();
  }

  view(): RoomView | null {
    const nowMs = this.#clock.now();
    return this.#state === null || nowMs === null ? null : viewAt(this.#state, nowMs);
  }

  /**
   * Takes a snapshot. `present`: the first of a new connection, taken as it is
   * (seq may start elsewhere after a box restarted); otherwise one older than
   * the last is ignored (a command's answer overtaken by the push). True if taken.
   */
  accept(snapshot: Snapshot, present: boolean): boolean {
    if (!present && this.#state !== null && snapshot.seq < this.#state.seq) return false;
    this.#clock.hint(snapshot.serverNow);
    this.#state = snapshot;
    this.refresh();
    return true;
  }

  /** Tells the listener and sets the one timer for the next change. */
  refresh(): void {
    if (this.#pending !== null) {
      this.#timers.clear(this.#pending);
      this.#pending = null;
    }
    const nowMs = this.#clock.now();
    const view = this.#state === null || nowMs === null ? null : viewAt(this.#state, nowMs);
    this.#onChange(this.#state, view);
    const next = view?.nextChangeAt ?? null;
    // A timer that fires a hair early changes nothing and lands here again for the rest.
    if (next !== null && nowMs !== null) this.#pending = this.#timers.set(() => this.refresh(), Math.max(0, Math.ceil(next - nowMs)));
  }

  /** Forgets the room (another box, or the module stops). */
  clear(): void {
    this.stop();
    this.#state = null;
    this.#clock = this.#newClock();
  }

  stop(): void {
    if (this.#pending !== null) this.#timers.clear(this.#pending);
    this.#pending = null;
  }
}
