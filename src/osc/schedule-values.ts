// What OSC feedback says about the schedule and the aux timer at a server instant,
// and when that next reads differently by time alone. Pure. The schedule is the
// one the API answers (the room's snapshot carries it, computed at serverNow), in
// the words the Companion keys use too (src/client/schedule-words.ts); the aux digits are the
// display's own (src/client/aux-display.ts), so a panel and the screen agree to
// the second.
import type { Snapshot } from '../domain/snapshot.js';
import { scheduleWordsAt } from '../client/schedule-words.js';
import { auxDisplayState } from '../client/aux-display.js';
import { faceAt } from '../client/face.js';

export interface ScheduleValues {
  /** Whole seconds, + behind, - ahead; 0 without a plan (offsetState tells). */
  readonly offset: number;
  /** `+4:20`, `-1:05`, `0:00`; empty without a plan. */
  readonly offsetSigned: string;
  /** `4:20 behind`, `1:05 ahead`, `on time`; empty without a plan. */
  readonly offsetText: string;
  /** `behind`, `ahead`, `onTime`; empty without a plan. */
  readonly offsetState: string;
  /** When the show ends as things stand, `17:42` in the room's zone and format. */
  readonly showEnd: string;
  /** When it was planned to end; empty while unknown. */
  readonly plannedEnd: string;
  /** The planned start of the timer after the active one; empty when none or unknown. */
  readonly nextStart: string;
  /** The aux timer's digits as the display draws them. */
  readonly aux: string;
  readonly auxRunning: boolean;
  readonly auxLabel: string;
}

export interface ScheduleValuesAt {
  readonly values: ScheduleValues;
  /** The next server instant at which any of them reads differently; null when none will by time alone. */
  readonly nextChangeAt: number | null;
}

export function scheduleValuesAt(snapshot: Snapshot): ScheduleValuesAt {
  const nowMs = snapshot.serverNow;
  const words = scheduleWordsAt(snapshot, snapshot.settings, nowMs, snapshot.schedule);
  const aux = faceAt(auxDisplayState({ ...snapshot, blackout: false, message: null, flash: null }), nowMs);
  let nextChangeAt = words.nextChangeAt;
  if (aux.nextChangeAt !== null && (nextChangeAt === null || aux.nextChangeAt < nextChangeAt)) nextChangeAt = aux.nextChangeAt;
  return {
    values: {
      offset: words.offsetSeconds ?? 0,
      offsetSigned: words.offsetSigned,
      offsetText: words.offsetText,
      offsetState: words.offsetState ?? '',
      showEnd: words.showEnd,
      plannedEnd: words.plannedEnd,
      nextStart: words.nextStart,
      aux: aux.face.time,
      auxRunning: snapshot.aux.running,
      auxLabel: snapshot.aux.label,
    },
    nextChangeAt,
  };
}
