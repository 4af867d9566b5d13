// The two clocks the service reads. Monotonic for counting, wall only to label
// snapshots (decisions.md, "Clock and time"). Tests pass their own.
export interface Clock {
  /** Monotonic milliseconds, whole numbers; never goes back. */
  monoMs(): number;
  /** Wall-clock milliseconds since the epoch. */
  wallMs(): number;
}

export const systemClock: Clock = {
  monoMs: () => Math.round(performance.now()),
  wallMs: () => Date.now(),
};

/** Runs a callback once at a monotonic instant; the service keeps at most one pending. */
export interface Scheduler {
  schedule(atMonoMs: number, run: () => void): { cancel(): void };
}

// setTimeout caps its delay at 2^31-1 ms; the service re-checks on wake-up, so a capped wait is safe.
const MAX_TIMEOUT_MS = 2_147_483_647;

export function timeoutScheduler(clock: Clock): Scheduler {
  return {
    schedule(atMonoMs, run) {
      const delayMs = Math.min(Math.max(0, atMonoMs - clock.monoMs()), MAX_TIMEOUT_MS);
      const handle = setTimeout(run, delayMs);
      return { cancel: () => clearTimeout(handle) };
    },
  };
}

/**
 * Timers that never hold the process open (a stopping service, a test run): for work
 * worth no wait at a stop, such as a pending summary line of the log.
 */
export function unrefScheduler(monoMs: () => number): Scheduler {
  return {
    schedule(atMonoMs, run) {
      const handle = setTimeout(run, Math.max(0, atMonoMs - monoMs()));
      handle.unref();
      return { cancel: () => clearTimeout(handle) };
    },
  };
}
