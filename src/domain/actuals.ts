// What actually happened during the show (issue 29): each timer's first start and
// the moment it was last left for another timer or stopped at zero, on the wall
// clock, since those are times of day a stage manager reads back ("we started the
// keynote at 14:07"). Pure: the engine says when, as a wall-clock instant.
import type { Actual, Room } from './types.js';

function withActual(room: Room, timerId: string, change: (existing: Actual | undefined) => Actual | undefined): Room {
  const index = room.actuals.findIndex((a) => a.timerId === timerId);
  const existing = index < 0 ? undefined : room.actuals[index];
  const next = change(existing);
  if (next === existing) return room;
  if (next === undefined) return { ...room, actuals: room.actuals.filter((a) => a.timerId !== timerId) };
  if (index < 0) return { ...room, actuals: [...room.actuals, next] };
  return { ...room, actuals: room.actuals.map((a, i) => (i === index ? next : a)) };
}

/** The timer ended at `atWallMs` (left for another, or stopped at zero); nothing if it never ran or has ended already. */
export function endActual(room: Room, timerId: string, atWallMs: number): Room {
  return withActual(room, timerId, (a) => (a === undefined || a.endedAt !== null ? a : { ...a, endedAt: Math.round(atWallMs) }));
}

/** The timer runs from `atWallMs`: its first start is kept; one that had ended is on again (its end comes when it is left). */
function startActual(room: Room, timerId: string, atWallMs: number): Room {
  return withActual(room, timerId, (a) =>
    a === undefined ? { timerId, startedAt: Math.round(atWallMs), endedAt: null } : a.endedAt === null ? a : { ...a, endedAt: null },
  );
}

/** A deleted timer takes its actual times with it. */
export function dropActual(room: Room, timerId: string): Room {
  return withActual(room, timerId, () => undefined);
}

/**
 * The actual times after a change from `before` to `after` at `atWallMs`: the
 * timer that was on is ended when another becomes active, and the active one is
 * started when it runs and did not before. Pausing is not an end (the segment goes
 * on after it), nor is a reset.
 */
export function recordTransition(before: Room, after: Room, atWallMs: number): Room {
  let room = after;
  const moved = before.activeTimerId !== after.activeTimerId;
  if (moved) room = endActual(room, before.activeTimerId, atWallMs);
  if (after.transport.running && (moved || !before.transport.running)) room = startActual(room, after.activeTimerId, atWallMs);
  return room;
}
