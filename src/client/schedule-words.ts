// The schedule as a button or a panel shows it (the Companion module's keys, OSC
// feedback): the offset in its three forms, the show's projected and planned end
// and the next planned start as times of day in the room's zone and format, and
// when any of them next reads differently. Pure, one place for both adapters, so a
// Stream Deck key and an OSC label say the same thing on the same second.
import { scheduleOf, type Schedule, type ScheduleInput } from '../domain/schedule.js';
import { offsetSeconds, offsetSignedText, offsetState, offsetText, type OffsetState } from '../domain/schedule-text.js';
import { scheduleChangeAt } from './schedule-changes.js';
import { formatShortTimeOfDay, type TimeOfDaySettings } from './time-of-day.js';

export interface ScheduleWords {
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

const timeOfDay = (ms: number | null, settings: TimeOfDaySettings): string => (ms === null ? '' : formatShortTimeOfDay(ms, settings));

/** The words at `nowMs`; `schedule` is scheduleOf(input, nowMs) when the caller has it already (a snapshot's own). */
export function scheduleWordsAt(input: ScheduleInput, settings: TimeOfDaySettings, nowMs: number, schedule?: Schedule): ScheduleWords {
  const now = schedule ?? scheduleOf(input, nowMs);
  const offset = now.offset;
  return {
    offsetMs: offset,
    // `|| 0`: an offset just under half a second early rounds to -0, which reads as 0.
    offsetSeconds: offset === null ? null : offsetSeconds(offset) || 0,
    offsetSigned: offsetSignedText(offset),
    offsetText: offsetText(offset),
    offsetState: offsetState(offset),
    showEnd: formatShortTimeOfDay(now.projectedEnd, settings),
    plannedEnd: timeOfDay(now.plannedEnd, settings),
    nextStart: timeOfDay(now.nextPlannedStart, settings),
    nextChangeAt: scheduleChangeAt(input, nowMs, { offset: true, projectedEnd: true }, now),
  };
}
