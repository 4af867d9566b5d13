// The display's optional elements beside the time (issue 29): how far ahead or
// behind the show is, when it is projected to end, and the second timer (aux).
// Pure, like face.ts: the snapshot and the estimated server time come in. The push
// streams carry no schedule, so it is derived here with the one implementation
// every surface uses (scheduleOf, schedule-text), at the page's estimate of the
// server's time, and it follows the clock between events.
// Page code: no destructuring (esbuild targets old browsers).
import type { AuxSnapshot } from '../domain/snapshot.js';
import { scheduleOf, type ScheduleInput } from '../domain/schedule.js';
import { offsetState, offsetText, type OffsetState } from '../domain/schedule-text.js';
import { scheduleChangeAt } from './schedule-changes.js';
import { auxDisplayState } from './aux-display.js';
import { faceAt, type DisplayState, type Hold, type Tone } from './face.js';
import { formatShortTimeOfDay, type TimeOfDaySettings } from './time-of-day.js';

/** What the extras are made from: the fields of a snapshot (the viewer's and the kiosk's carry them all). */
export type ExtrasState = DisplayState &
  ScheduleInput & {
    readonly aux: AuxSnapshot;
    readonly settings: TimeOfDaySettings & { readonly plannedStart: number | null };
  };

/** Which extras this screen shows: the room's display settings, less what the screen's own link takes for its main time. */
export interface ExtrasChoice {
  readonly overUnder: boolean;
  readonly showEnd: boolean;
  readonly aux: boolean;
}

export interface OverUnder {
  /** `4:20 behind`, `1:05 ahead`, `on time` (schedule-text.ts). */
  readonly text: string;
  readonly state: OffsetState;
}

/** The aux timer in its small area: its label and the digits the main time would show for it. */
export interface AuxBadge {
  readonly label: string;
  readonly time: string;
  readonly tone: Tone;
  readonly hold: Hold;
}

export interface ScreenExtras {
  /** Null when off, or while there is no plan to be on time against (no planned start and nothing run yet). */
  readonly overUnder: OverUnder | null;
  /** `Ends 17:42` in the room's zone and format; '' when off. */
  readonly showEnd: string;
  readonly aux: AuxBadge | null;
}

export interface ExtrasAt {
  readonly extras: ScreenExtras;
  /** The next server instant at which the extras may change; null when none is shown. */
  readonly nextChangeAt: number | null;
}

/** The label shown when the aux has none: a second time without a name would read as the main one. */
const AUX_FALLBACK_LABEL = 'Aux';

export function extrasAt(state: ExtrasState, choice: ExtrasChoice, nowMs: number): ExtrasAt {
  let overUnder: OverUnder | null = null;
  let showEnd = '';
  let aux: AuxBadge | null = null;
  const changes: number[] = [];
  if (choice.overUnder || choice.showEnd) {
    const schedule = scheduleOf(state, nowMs);
    if (choice.overUnder) {
      const offset = schedule.offset;
      const stateNow = offsetState(offset);
      // No plan yet: only a new snapshot (a planned start, a first start) brings one.
      if (offset !== null && stateNow !== null) overUnder = { text: offsetText(offset), state: stateNow };
    }
    if (choice.showEnd) showEnd = `Ends ${formatShortTimeOfDay(schedule.projectedEnd, state.settings)}`;
    const at = scheduleChangeAt(state, nowMs, { offset: overUnder !== null, projectedEnd: choice.showEnd }, schedule);
    if (at !== null) changes.push(at);
  }
  if (choice.aux) {
    const drawn = faceAt(auxDisplayState(state), nowMs);
    aux = { label: state.aux.label === '' ? AUX_FALLBACK_LABEL : state.aux.label, time: drawn.face.time, tone: drawn.face.tone, hold: drawn.face.hold };
    if (drawn.nextChangeAt !== null) changes.push(drawn.nextChangeAt);
  }
  const extras: ScreenExtras = { overUnder, showEnd, aux };
  // A black screen has nothing to redraw until the next snapshot, as for the main time.
  if (state.blackout) return { extras, nextChangeAt: null };
  let nextChangeAt: number | null = null;
  for (let i = 0; i < changes.length; i += 1) {
    const at = changes[i] as number;
    if (nextChangeAt === null || at < nextChangeAt) nextChangeAt = at;
  }
  return { extras, nextChangeAt };
}
