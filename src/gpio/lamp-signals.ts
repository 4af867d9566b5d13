// What each lamp shows, read from the room at a monotonic instant. Pure.
// `onAir`, `running` and `blackout` change only with the room; `warning` and
// `overrun` also change with time while a timer runs, so nextSignalChangeMonoMs
// says when to look again: one timeout, never a polling interval.
import type { LampSignal } from '../config/gpio-config.js';
import { activeTimer, remainingAt } from '../domain/room.js';
import type { Room } from '../domain/types.js';

export function signalOn(signal: LampSignal, room: Room, nowMonoMs: number): boolean {
  switch (signal) {
    case 'onAir':
      return room.onAir;
    case 'running':
      return room.transport.running;
    case 'blackout':
      return room.blackout;
    case 'warning':
      return remainingAt(room, nowMonoMs) <= activeTimer(room).warnAt;
    case 'overrun':
      return remainingAt(room, nowMonoMs) < 0;
    default: {
      const unknown: never = signal;
      throw new Error(`unknown lamp signal ${String(unknown)}`);
    }
  }
}

/**
 * The next instant after `nowMonoMs` at which one of `signals` changes by time
 * alone, or null when none will (paused, or nothing time-bound is wired).
 */
export function nextSignalChangeMonoMs(signals: Iterable<LampSignal>, room: Room, nowMonoMs: number): number | null {
  if (!room.transport.running) return null;
  const endMonoMs = room.transport.endMonoMs;
  let next: number | null = null;
  const consider = (atMonoMs: number) => {
    if (atMonoMs > nowMonoMs && (next === null || atMonoMs < next)) next = atMonoMs;
  };
  for (const signal of signals) {
    // warning: remaining = end - now <= warnAt from now = end - warnAt on.
    if (signal === 'warning') consider(endMonoMs - activeTimer(room).warnAt);
    // overrun: remaining < 0 from the first millisecond past the end.
    if (signal === 'overrun') consider(endMonoMs + 1);
  }
  return next;
}
