// The schedule in the console's words: the header line ("Show ends 17:42 · 4:20
// behind"), each running-order row's planned and actual/projected start, and the
// order's running time. Pure: the schedule (scheduleOf at the server's time) and
// the room's zone and clock format come in. The offset's words are the domain's
// (offsetText), the same on every surface, so they agree to the second.
// Page code: no destructuring (esbuild targets old browsers).
import type { TimeOfDaySettings } from '../../client/time-of-day.js';
import { formatShortTimeOfDay } from '../../client/time-of-day.js';
import { formatDurationText } from '../../domain/duration-text.js';
import type { Schedule, ScheduledTimer } from '../../domain/schedule.js';
import { offsetState, offsetText, type OffsetState } from '../../domain/schedule-text.js';

/** Written where a time is not known (no planned start of the show, a timer skipped). */
export const NO_TIME = '—';
/** Before a projected time: it is where things stand now, not what happened. */
export const PROJECTED_MARK = '~';

export interface ShowLine {
  readonly text: string;
  /** Null without a plan to be on time against. */
  readonly state: OffsetState | null;
}

/** "Show ends 17:42 · 4:20 behind", "Show ends 17:42 · on time", or "Show ends 17:42" without a plan. */
export function showLineOf(schedule: Schedule, settings: TimeOfDaySettings): ShowLine {
  const ends = `Show ends ${formatShortTimeOfDay(schedule.projectedEnd, settings)}`;
  const offset = offsetText(schedule.offset);
  return { text: offset === '' ? ends : `${ends} · ${offset}`, state: offsetState(schedule.offset) };
}

/** Whether a row's start happened (`actual`), is where things stand (`projected`), or is not known. */
export type StartKind = 'actual' | 'projected' | 'none';

export interface StartCells {
  /** The planned start as a time of day, or NO_TIME. */
  readonly planned: string;
  readonly start: string;
  readonly kind: StartKind;
}

/**
 * A row's starts. The timer on (begun) shows its actual start; the one about to begin
 * and those after it their projected start; the ones before it what actually happened,
 * or NO_TIME for one that was skipped.
 */
export function startCellsOf(row: ScheduledTimer, settings: TimeOfDaySettings): StartCells {
  const planned = row.plannedStart === null ? NO_TIME : formatShortTimeOfDay(row.plannedStart, settings);
  // The active timer's projected start is its actual one once it has begun: shown as what happened.
  if (row.projectedStart !== null && row.projectedStart !== row.actualStart) {
    return { planned, start: PROJECTED_MARK + formatShortTimeOfDay(row.projectedStart, settings), kind: 'projected' };
  }
  if (row.actualStart !== null) return { planned, start: formatShortTimeOfDay(row.actualStart, settings), kind: 'actual' };
  return { planned, start: NO_TIME, kind: 'none' };
}

/** "Running time 1:20:00 · planned 17:00 to 18:20", without the plan when there is none. */
export function orderTotalOf(schedule: Schedule, settings: TimeOfDaySettings): string {
  const total = `Running time ${formatDurationText(schedule.totalDuration)}`;
  if (schedule.plannedStart === null || schedule.plannedEnd === null) return total;
  return `${total} · planned ${formatShortTimeOfDay(schedule.plannedStart, settings)} to ${formatShortTimeOfDay(schedule.plannedEnd, settings)}`;
}
