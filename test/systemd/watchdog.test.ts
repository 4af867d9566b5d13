// The watchdog pings: three per WatchdogSec= while the event loop turns, none
// where systemd asks for none (no WATCHDOG_USEC, no NOTIFY_SOCKET, or the pings
// are for another process); a failing ping is one warning. Whether systemd then
// restarts a hung service is tested on the booted box (scripts/box-vm.sh).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWatchdog, watchdogPeriodMs } from '../../src/systemd/watchdog.js';
import { captureLog, LEVEL } from '../store/log-capture.js';

afterEach(() => vi.useRealTimers());

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ NOTIFY_SOCKET: '/run/systemd/notify', WATCHDOG_USEC: '10000000', ...extra });

describe('the watchdog', () => {
  it('pings at once and then six times a WatchdogSec, only while timers run', async () => {
    vi.useFakeTimers();
    const { logger } = captureLog();
    let pings = 0;
    const watchdog = startWatchdog(logger, env(), () => {
      pings += 1;
      return Promise.resolve();
    });
    expect(watchdog).not.toBeNull();
    expect(pings).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pings).toBe(7);
    watchdog?.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pings).toBe(7);
  });

  it.each([
    ['no WATCHDOG_USEC', { WATCHDOG_USEC: undefined }],
    ['no NOTIFY_SOCKET', { NOTIFY_SOCKET: undefined }],
    ['pings asked of another process', { WATCHDOG_PID: String(process.pid + 1) }],
    ['a period that is not a number', { WATCHDOG_USEC: 'soon' }],
  ])('%s: no pings', (_name, extra) => {
    expect(watchdogPeriodMs(env(extra))).toBeNull();
    const { logger } = captureLog();
    expect(startWatchdog(logger, env(extra), () => Promise.reject(new Error('must not ping')))).toBeNull();
  });

  it('the pings asked of this process: the period is a sixth of WATCHDOG_USEC', () => {
    expect(watchdogPeriodMs(env({ WATCHDOG_PID: String(process.pid) }))).toBe(1_666);
  });

  it('pings that fail are one warning, not one a ping', async () => {
    vi.useFakeTimers();
    const { logger, lines } = captureLog();
    const watchdog = startWatchdog(logger, env(), () => Promise.reject(new Error('spawn systemd-notify ENOENT')));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(lines.filter((l) => l.level === LEVEL.warn)).toHaveLength(1);
    watchdog?.close();
  });
});
