// Where the show stands, as the keys show it at a server instant: the schedule of
// src/domain/schedule.ts (the push stream carries none: it is computed here at the
// module's estimate of the server's time) in the words OSC uses too
// (src/client/schedule-words.ts). Pure.
//
// While a projection follows the clock (paused, in overrun, waiting past a planned
// start) the offset and the show's end move with it, so this also says when they
// next read differently: the module wakes then, and only then.
import type { Snapshot } from '../domain/snapshot.js';
import type { ScheduleInput } from '../domain/schedule.js';
import { scheduleWordsAt, type ScheduleWords } from '../client/schedule-words.js';

export type ScheduleView = ScheduleWords;

/** The schedule at `serverNowMs`, as the keys show it. */
export function scheduleViewAt(state: Snapshot, serverNowMs: number): ScheduleView {
  return scheduleWordsAt(scheduleInput(state), state.settings, serverNowMs);
}

/** A box from before issue 29 sends no actual times and no planned start: a schedule without a plan, then. */
function scheduleInput(state: Snapshot): ScheduleInput {
  const actuals: Snapshot['actuals'] | undefined = state.actuals;
  const plannedStart: number | null | undefined = state.settings.plannedStart;
  return { ...state, actuals: actuals ?? [], settings: { plannedStart: plannedStart ?? null } };
}
