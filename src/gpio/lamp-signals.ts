// What each lamp shows, read from the room at a monotonic instant. Pure.
// `onAir`, `running` and `blackout` change only with the room; `warning` and
// `overrun` also change with time while a timer runs, so nextSignalChangeMonoMs
// says when to look again: one timeout, never a polling interval.
import type { LampSignal } from '../config/gpio-config.js';
import { FLASH_PERIOD_MS } from '../domain/limits.js';
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
    case 'danger': {
      const dangerAt = activeTimer(room).dangerAt;
      return dangerAt > 0 && remainingAt(room, nowMonoMs) <= dangerAt;
    }
    case 'overrun':
      return remainingAt(room, nowMonoMs) < 0;
    case 'flash':
      return flashLit(room, nowMonoMs);
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
  let next: number | null = null;
  const consider = (atMonoMs: number) => {
    if (atMonoMs > nowMonoMs && (next === null || atMonoMs < next)) next = atMonoMs;
  };
  const list = [...signals];
  if (list.includes('flash')) {
    const change = nextFlashChangeMonoMs(room, nowMonoMs);
    if (change !== null) consider(change);
  }
  if (!room.transport.running) return next;
  const endMonoMs = room.transport.endMonoMs;
  for (const signal of list) {
    // warning: remaining = end - now <= warnAt from now = end - warnAt on.
    if (signal === 'warning') consider(endMonoMs - activeTimer(room).warnAt);
    // overrun: remaining < 0 from the first millisecond past the end.
    if (signal === 'overrun') consider(endMonoMs + 1);
    if (signal === 'danger' && activeTimer(room).dangerAt > 0) consider(endMonoMs - activeTimer(room).dangerAt);
  }
  return next;
}

/** In a lit half of a screen flash: the same instants as the screens' inversions. */
export function flashLit(room: Room, nowMonoMs: number): boolean {
  const flash = room.flash;
  if (flash === null || nowMonoMs < flash.startMonoMs) return false;
  const sinceMs = nowMonoMs - flash.startMonoMs;
  return sinceMs < flash.count * FLASH_PERIOD_MS && sinceMs % FLASH_PERIOD_MS < FLASH_PERIOD_MS / 2;
}

/** The next instant a flash switches the lamps over, or null when no flash is to come. */
function nextFlashChangeMonoMs(room: Room, nowMonoMs: number): number | null {
  const flash = room.flash;
  if (flash === null) return null;
  const endMonoMs = flash.startMonoMs + flash.count * FLASH_PERIOD_MS;
  if (nowMonoMs >= endMonoMs) return null;
  if (nowMonoMs < flash.startMonoMs) return flash.startMonoMs;
  const half = FLASH_PERIOD_MS / 2;
  return Math.min(endMonoMs, flash.startMonoMs + (Math.floor((nowMonoMs - flash.startMonoMs) / half) + 1) * half);
}
