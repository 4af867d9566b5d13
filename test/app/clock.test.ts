// timeoutScheduler: turns a monotonic instant into one setTimeout. Driven with
// vitest's fake timers and a fake clock, so nothing here waits for real time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock, timeoutScheduler, type Clock } from '../../src/app/clock.js';

describe('timeoutScheduler', () => {
  let nowMonoMs = 0;
  const clock: Clock = { monoMs: () => nowMonoMs, wallMs: () => 0 };

  beforeEach(() => {
    vi.useFakeTimers();
    nowMonoMs = 1_000;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at the instant, not before', () => {
    const run = vi.fn();
    timeoutScheduler(clock).schedule(3_500, run);
    vi.advanceTimersByTime(2_499);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs an instant already past on the next turn', () => {
    const run = vi.fn();
    timeoutScheduler(clock).schedule(500, run);
    vi.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('cancel prevents the run', () => {
    const run = vi.fn();
    timeoutScheduler(clock).schedule(2_000, run).cancel();
    vi.advanceTimersByTime(10_000);
    expect(run).not.toHaveBeenCalled();
  });

  it('caps a far instant at the longest setTimeout delay instead of firing at once', () => {
    const run = vi.fn();
    timeoutScheduler(clock).schedule(1_000 + 3_000_000_000, run);
    vi.advanceTimersByTime(1_000);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_147_483_647);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('systemClock', () => {
  it('reads whole monotonic milliseconds that never go back', () => {
    const a = systemClock.monoMs();
    const b = systemClock.monoMs();
    expect(Number.isInteger(a)).toBe(true);
    expect(b).toBeGreaterThanOrEqual(a);
    expect(Math.abs(systemClock.wallMs() - Date.now())).toBeLessThan(1_000);
  });
});
