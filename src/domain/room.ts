// Creating a room and reading from it. Pure: the caller passes ids and time in.
import { DURATION_DEFAULT_MS, WARN_AT_DEFAULT_MS } from './limits.js';
import type { Room, Timer, TimerFields } from './types.js';

export function newTimer(id: string, fields: TimerFields, position: number): Timer {
  return {
    id,
    label: fields.label ?? `Timer ${position}`,
    speaker: fields.speaker ?? '',
    duration: fields.duration ?? DURATION_DEFAULT_MS,
    warnAt: fields.warnAt ?? WARN_AT_DEFAULT_MS,
    appearance: fields.appearance ?? 'countdown',
    tagId: null,
    scheduledAt: null,
  };
}

/** A new room (empty data directory): one default timer, paused at its duration, seq 1. */
export function createRoom(firstTimerId: string): Room {
  const timer = newTimer(firstTimerId, {}, 1);
  return {
    seq: 1,
    timers: [timer],
    activeTimerId: timer.id,
    transport: { running: false, remainingMs: timer.duration },
    message: null,
    blackout: false,
    onAir: false,
    settings: { zeroBehavior: 'continue', autoAdvance: false },
  };
}

export function activeIndex(room: Room): number {
  const index = room.timers.findIndex((t) => t.id === room.activeTimerId);
  if (index < 0) throw new Error(`room invariant broken: active timer ${room.activeTimerId} is not in the running order`);
  return index;
}

export function activeTimer(room: Room): Timer {
  return room.timers[activeIndex(room)] as Timer;
}

/** Remaining ms of the active timer at `nowMonoMs`; negative is overrun. */
export function remainingAt(room: Room, nowMonoMs: number): number {
  return room.transport.running ? room.transport.endMonoMs - nowMonoMs : room.transport.remainingMs;
}
