// A fake monotonic clock with a fake timer queue, for the module's Timers and
// perfNow: time moves only when a test says so, firing the timers due in order.
import type { Timers } from '../../src/companion/room-clock.js';

export interface FakeTime {
  readonly timers: Timers;
  readonly perfNow: () => number;
  pendingCount(): number;
  /** When the earliest pending timer is due. */
  nextAt(): number;
  /** Moves the clock on by `ms`, firing due timers in order. */
  advance(ms: number): void;
}

export function fakeTime(startPerf: number): FakeTime {
  let perf = startPerf;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      set(fn, ms) {
        const id = nextId++;
        pending.set(id, { at: perf + ms, fn });
        return id;
      },
      clear(handle) {
        pending.delete(handle as number);
      },
    },
    perfNow: () => perf,
    pendingCount: () => pending.size,
    nextAt: () => Math.min(...[...pending.values()].map((p) => p.at)),
    advance(ms) {
      const until = perf + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, p]) => p.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        pending.delete(due[0]);
        perf = due[1].at;
        due[1].fn();
      }
      perf = until;
    },
  };
}
