// Where the show stands, as the keys show it at a server instant: the schedule of
// src/domain/schedule.ts (the push stream carries none: it is computed here at the
// module's estimate of the server's time), in the words every surface uses
// (schedule-text.ts), with times of day in the room's zone and format. Pure.
//
// While a projection follows the clock (paused, in overrun, waiting past a planned
// start) the offset and the show's end move with it, so this also says when they
// next read differently: the module wakes then, and only then.
import type { Snapshot } from '../domain/snapshot.js';
import { scheduleOf, type ScheduleInput } from '../domain/schedule.js';
import { offsetSeconds, offsetSignedText, offsetState, offsetText, type OffsetState } from '../domain/schedule-text.js';
import { scheduleChangeAt } from '../client/schedule-changes.js';
import { formatShortTimeOfDay } from '../client/time-of-day.js';

export interface ScheduleView {
  /** Projected end minus planned end of the active timer, ms (+ is behind); null without a plan. */
  readonly offsetMs: number | null;
  /** Whole seconds, signed (+ behind); null without a plan. */
  readonly offsetSeconds: number | null;
  /** `+4:20`, `-1:05`, `0:00`; empty without a plan. */
  readonly offsetSigned: string;
  /** `4:20 behind`, `1:05 ahead`, `on time`; empty without a plan. */
  readonly offsetText: string;
  readonly offsetState: OffsetState | null;
  /** When the show ends as things stand, `17:42` in the room's zone and format. */
  readonly showEnd: string;
  /** When the last timer was planned to end; empty while unknown. */
  readonly plannedEnd: string;
  /** The planned start of the timer after the active one; empty when none or unknown. */
  readonly nextStart: string;
  /** The next server instant at which any of these reads differently; null when none will by time alone. */
  readonly nextChangeAt: number | null;
}

/** The schedule at `serverNowMs`, as the keys show it. */
export function scheduleViewAt(state: Snapshot, serverNowMs: number): ScheduleView {
  const input = scheduleInput(state);
  const now = scheduleOf(input, serverNowMs);
  const times = state.settings;
  const offset = now.offset;
  return {
    offsetMs: offset,
    offsetSeconds: offset === null ? null : offsetSeconds(offset) || 0,
    offsetSigned: offsetSignedText(offset),
    offsetText: offsetText(offset),
    offsetState: offsetState(offset),
    showEnd: formatShortTimeOfDay(now.projectedEnd, times),
    plannedEnd: timeOfDay(now.plannedEnd, state),
    nextStart: timeOfDay(now.nextPlannedStart, state),
    nextChangeAt: scheduleChangeAt(input, serverNowMs, { offset: true, projectedEnd: true }, now),
  };
}

/** A box from before issue 29 sends no actual times and no planned start: a schedule without a plan, then. */
function scheduleInput(state: Snapshot): ScheduleInput {
  const actuals: Snapshot['actuals'] | undefined = state.actuals;
  const plannedStart: number | null | undefined = state.settings.plannedStart;
  return { ...state, actuals: actuals ?? [], settings: { plannedStart: plannedStart ?? null } };
}

function timeOfDay(ms: number | null, state: Snapshot): string {
  return ms === null ? '' : formatShortTimeOfDay(ms, state.settings);
}
