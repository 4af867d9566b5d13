// Restoring the room from its document: pure, the clock reading passed in.
// A running timer continues as if the box had never stopped (remaining = saved
// end - now, zero behaviour and auto-advance applied by the engine's settle),
// unless the wall clock is earlier than the last save: a Pi that booted without
// network time cannot say how long it was off, so the timer comes back paused.
// A scheduled start that fell due while the box was off is applied the same way
// (engine.ts, applyDueSchedules): running with its end at scheduledAt + duration
// if that end is still ahead, else left alone and named in the warning.
import { settleWithEvents, type TimeEvents } from '../domain/engine.js';
import type { Room, Transport } from '../domain/types.js';
import type { ClockReading, RoomDocument, StoredRoom } from './room-document.js';

export interface Restored {
  readonly room: Room;
  /** Set when the room could not be restored as it was; says why, for the log. */
  readonly warning: string | null;
  /** How long the box was off by the wall clock; null when the clock cannot be trusted. */
  readonly downMs: number | null;
  /** Scheduled starts that fell due while the box was off: the one that started, those missed. */
  readonly scheduled: TimeEvents;
}

const NOTHING_SCHEDULED: TimeEvents = { started: null, missed: [] };

function missedWarning(time: TimeEvents): string | null {
  if (time.missed.length === 0) return null;
  const names = time.missed.map((m) => `"${m.timerId}" at ${new Date(m.scheduledAt).toISOString()}`).join(', ');
  return (
    `scheduled start${time.missed.length === 1 ? '' : 's'} ${names} fell due while the box was off and ` +
    `would already have ended${time.started === null ? '' : ' or been followed by a later one'}: the room was left as it was for ${time.missed.length === 1 ? 'it' : 'them'}`
  );
}

/** Settles `room` at `now` and says what scheduled starts did. */
function settled(room: Room, now: ClockReading, downMs: number): Restored {
  const result = settleWithEvents(room, now);
  return { room: result.room, warning: missedWarning(result.time), downMs, scheduled: result.time };
}

/**
 * A kept transport on this run's monotonic clock: running on from its wall-clock
 * end when the clock can be trusted, else paused at what it had left at the save.
 */
function restoredTransport(stored: StoredRoom['transport'], now: ClockReading, savedAtWallMs: number): Transport {
  if (!stored.running) return { running: false, remainingMs: stored.remainingMs };
  if (now.wallMs < savedAtWallMs) return { running: false, remainingMs: stored.endWallMs - savedAtWallMs };
  return { running: true, endMonoMs: now.monoMs + (stored.endWallMs - now.wallMs) };
}

/**
 * Whether the active timer had run, for a file written before the room kept it: it
 * was running, or paused with less than its duration left (the rule the screens
 * used until then).
 */
function startedBefore(stored: StoredRoom): boolean {
  if (stored.transport.running) return true;
  const active = stored.timers.find((t) => t.id === stored.activeTimerId);
  return active !== undefined && stored.transport.remainingMs < active.duration;
}

export function restoreRoom(document: RoomDocument, now: ClockReading): Restored {
  const { room: stored, savedAtWallMs, seqReservedTo } = document;
  // Both timers follow the same rule: on through the restart, or paused when the clock is not trusted.
  const transport = restoredTransport(stored.transport, now, savedAtWallMs);
  const aux = { ...stored.aux, transport: restoredTransport(stored.aux.transport, now, savedAtWallMs) };
  // After a crash, changes past the last save may have been published: resume above all of them.
  const base: Room = {
    ...stored,
    seq: Math.max(stored.seq, seqReservedTo),
    flash: null,
    chimeTestMonoMs: null,
    // Not kept: the sources repeat their state, and the first report after the start sets it.
    tally: {},
    // Not kept: the screen adapter asks the screen again after a start.
    screen: null,
    transport,
    aux,
    // A running timer has started, whatever the file says.
    started: stored.transport.running || (stored.started ?? startedBefore(stored)),
  };
  const clockBack = now.wallMs < savedAtWallMs;
  if (!clockBack || (!stored.transport.running && !stored.aux.transport.running)) return settled(base, now, Math.max(0, now.wallMs - savedAtWallMs));
  // Only the main timer's pause is named when it ran: it is the one the show runs on; a running aux timer is paused the same way.
  const heldAt = (kept: StoredRoom['transport']): number => (kept.running ? kept.endWallMs - savedAtWallMs : kept.remainingMs);
  const paused = stored.transport.running
    ? `the running timer was restored paused at ${heldAt(stored.transport)} ms, its remaining time at the last save; press start when ready`
    : `the running aux timer was restored paused at ${heldAt(stored.aux.transport)} ms, its remaining time at the last save`;
  return {
    // Running -> paused is a change of state, so seq moves on.
    room: { ...base, seq: base.seq + 1 },
    warning:
      `the wall clock (${new Date(now.wallMs).toISOString()}) is earlier than the last save (${new Date(savedAtWallMs).toISOString()}), ` +
      `so the time the box was off is unknown (no network time yet?): ${paused}`,
    downMs: null,
    scheduled: NOTHING_SCHEDULED,
  };
}
