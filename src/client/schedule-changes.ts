// When the schedule next reads differently by time alone, for every surface that
// wakes only when something it shows changes (the display's extras, the Companion
// module's keys, OSC feedback). Pure; page code too (no destructuring).
//
// Every projected instant of scheduleOf(), as a function of the moment t, is held
// at a value c and then follows the clock one to one: max(c, t + k) (a max of
// such terms, plus constants, keeps that form). So its values now and at a far
// horizon say exactly when it starts (or started) to move, and so when it reaches
// the next value that reads differently: no polling, and no change missed.
import { scheduleOf, type Schedule, type ScheduleInput } from '../domain/schedule.js';
import { offsetSeconds } from '../domain/schedule-text.js';

/** Further than any show is planned: a projection still held there never moves (the last timer ended). */
const HORIZON_MS = 400 * 24 * 3_600_000;
const MINUTE_MS = 60_000;

/** The next offset above `offsetMs` that offsetSeconds() reads differently (to the nearest second, halves away from zero). */
export function nextOffsetStep(offsetMs: number): number {
  const seconds = offsetSeconds(offsetMs);
  // Late, |o| rounds up at .5; early, |o| reads one less only once under .5 (1 ms past it).
  return seconds >= 0 ? (seconds + 0.5) * 1000 : (seconds + 0.5) * 1000 + 1;
}

/** The next instant above `ms` at which a time of day without seconds reads differently (zones are whole minutes off UTC). */
export function nextMinute(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
}

/** When a value held at `atNow` now (and at `atHorizon` at the horizon) reaches `target`; null when it holds past the horizon. */
function reachedAt(atNow: number, atHorizon: number, target: number, nowMs: number): number | null {
  const moved = atHorizon - atNow;
  if (moved <= 0) return null;
  const movesFrom = nowMs + HORIZON_MS - moved;
  return Math.max(movesFrom, nowMs) + (target - atNow);
}

export interface ScheduleWatch {
  /** The offset's words (schedule-text.ts). */
  readonly offset: boolean;
  /** The projected end of the show, as a time of day without seconds. */
  readonly projectedEnd: boolean;
}

/**
 * The next server instant after `nowMs` at which what `watch` names reads
 * differently, or null when time alone will not change it. `schedule` is
 * scheduleOf(input, nowMs), when the caller has it already.
 */
export function scheduleChangeAt(input: ScheduleInput, nowMs: number, watch: ScheduleWatch, schedule?: Schedule): number | null {
  const now = schedule ?? scheduleOf(input, nowMs);
  const later = scheduleOf(input, nowMs + HORIZON_MS);
  let next: number | null = null;
  const consider = (at: number | null): void => {
    if (at !== null && (next === null || at < next)) next = at;
  };
  if (watch.projectedEnd) consider(reachedAt(now.projectedEnd, later.projectedEnd, nextMinute(now.projectedEnd), nowMs));
  const offset = now.offset;
  if (watch.offset && offset !== null && later.offset !== null) consider(reachedAt(offset, later.offset, nextOffsetStep(offset), nowMs));
  return next;
}
