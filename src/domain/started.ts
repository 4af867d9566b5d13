// Whether the active timer has run since it was made active (or set back to its
// duration): what tells READY from PAUSED on every screen. Remaining time cannot:
// a timer started, given a minute and paused has its full duration left, or
// more, and a speaker reading READY takes it for "not started" (issue 31).
import type { Room } from './types.js';

/**
 * The flag after a change from `before` to `after`: running, it has run; another
 * timer made active (and not running) has not; `rearmed` (reset, select, a new
 * run of the show, an import) sets it back; anything else keeps it.
 */
export function markStarted(before: Room, after: Room, rearmed: boolean): Room {
  const started = after.transport.running ? true : after.activeTimerId !== before.activeTimerId || rearmed ? false : before.started;
  return started === after.started ? after : { ...after, started };
}

/**
 * The flag after time alone changed the room (zero events, scheduled starts):
 * every timer made active by time ran (auto-advance and a scheduled start run it;
 * `stop` holds one that ran at zero), so a new active timer has started.
 */
export function markStartedByTime(before: Room, after: Room): Room {
  const started = after.transport.running || after.activeTimerId !== before.activeTimerId ? true : before.started;
  return started === after.started ? after : { ...after, started };
}
