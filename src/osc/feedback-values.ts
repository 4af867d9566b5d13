// What OSC feedback says about the room at a server instant (the schedule and the
// aux timer included), and when that next changes by time alone. Pure. The display string is the screen's own
// (src/client/face.ts): what a surface shows matches the HDMI screen to the
// character, and it changes on the same server-side second boundaries.
import type { Snapshot } from '../domain/snapshot.js';
import { faceAt, type Tone } from '../client/face.js';
import type { OscValueOut } from './osc-packet.js';
import { scheduleValuesAt, type ScheduleValues } from './schedule-values.js';

/** The screen's tone in words a lighting desk's macro can match: overrun from 0:00 on, as the screen turns red. */
export type Phase = 'normal' | 'warning' | 'overrun';

export interface FeedbackValues {
  /** The display string: `9:59`, `+0:05`, `1:02:03`; empty while `hide` hides the time. */
  readonly remaining: string;
  readonly remainingMs: number;
  readonly phase: Phase;
  readonly running: boolean;
  readonly onAir: boolean;
  /** The tally (vision mixer, OBS) says on air; false while no source has reported. ON AIR can differ: a press overrides the tally until its next change. */
  readonly tally: boolean;
  readonly blackout: boolean;
  readonly label: string;
  readonly speaker: string;
  /** The message's text; empty when there is none. */
  readonly message: string;
  /** The label of the next timer in the running order; empty on the last. */
  readonly nextLabel: string;
  /** Where the show stands against its plan, and the aux timer (schedule-values.ts). */
  readonly schedule: ScheduleValues;
}

export interface FeedbackAt {
  readonly values: FeedbackValues;
  /**
   * The server instant (ms since epoch) at which the display string, the phase, the
   * schedule's values or the aux digits next change; null: not by themselves.
   */
  readonly nextChangeAt: number | null;
}

function phaseOf(tone: Tone): Phase {
  switch (tone) {
    case 'normal':
      return 'normal';
    case 'warn':
      return 'warning';
    case 'over':
      return 'overrun';
    default: {
      const unknown: never = tone;
      throw new Error(`unhandled tone ${String(unknown)}`);
    }
  }
}

/** An OSC int is 32 bits; an overrun of 24 days is not worth a wrapped number. */
const INT32_MAX = 2_147_483_647;

export function feedbackAt(snapshot: Snapshot): FeedbackAt {
  // The face as if the screen were lit and showed no message: a blackout or a
  // flashing message changes what the screen draws, not the time a surface shows.
  const { face, nextChangeAt } = faceAt({ ...snapshot, blackout: false, message: null }, snapshot.serverNow);
  const index = snapshot.timers.findIndex((timer) => timer.id === snapshot.activeTimerId);
  const schedule = scheduleValuesAt(snapshot);
  return {
    values: {
      remaining: face.time,
      remainingMs: Math.max(-INT32_MAX, Math.min(INT32_MAX, Math.round(snapshot.remaining))),
      phase: phaseOf(face.tone),
      running: snapshot.running,
      onAir: snapshot.onAir,
      tally: snapshot.tally?.on === true,
      blackout: snapshot.blackout,
      label: snapshot.activeLabel,
      speaker: snapshot.activeSpeaker,
      message: snapshot.message?.text ?? '',
      nextLabel: index < 0 ? '' : (snapshot.timers[index + 1]?.label ?? ''),
      schedule: schedule.values,
    },
    nextChangeAt: nextChangeAt === null ? schedule.nextChangeAt : schedule.nextChangeAt === null ? nextChangeAt : Math.min(nextChangeAt, schedule.nextChangeAt),
  };
}

/** What moves with the clock alone, as text: a timer re-sends the update only when this changed. */
export function timedSignature(values: FeedbackValues): string {
  const s = values.schedule;
  return [values.remaining, values.phase, s.offsetSigned, s.showEnd, s.aux].join('\u0000');
}

export const FEEDBACK_PREFIX = '/showclock/state/';

/** The messages of one update, in a fixed order: time first, then the rest. */
export function feedbackMessages(values: FeedbackValues): readonly (readonly [address: string, value: OscValueOut])[] {
  const flag = (on: boolean) => (on ? 1 : 0);
  return [
    [`${FEEDBACK_PREFIX}remaining`, values.remaining],
    [`${FEEDBACK_PREFIX}remaining_ms`, values.remainingMs],
    [`${FEEDBACK_PREFIX}phase`, values.phase],
    [`${FEEDBACK_PREFIX}running`, flag(values.running)],
    [`${FEEDBACK_PREFIX}onair`, flag(values.onAir)],
    [`${FEEDBACK_PREFIX}tally`, flag(values.tally)],
    [`${FEEDBACK_PREFIX}blackout`, flag(values.blackout)],
    [`${FEEDBACK_PREFIX}label`, values.label],
    [`${FEEDBACK_PREFIX}speaker`, values.speaker],
    [`${FEEDBACK_PREFIX}message`, values.message],
    [`${FEEDBACK_PREFIX}next_label`, values.nextLabel],
    [`${FEEDBACK_PREFIX}offset`, values.schedule.offset],
    [`${FEEDBACK_PREFIX}offset_signed`, values.schedule.offsetSigned],
    [`${FEEDBACK_PREFIX}offset_text`, values.schedule.offsetText],
    [`${FEEDBACK_PREFIX}offset_state`, values.schedule.offsetState],
    [`${FEEDBACK_PREFIX}show_end`, values.schedule.showEnd],
    [`${FEEDBACK_PREFIX}planned_end`, values.schedule.plannedEnd],
    [`${FEEDBACK_PREFIX}next_start`, values.schedule.nextStart],
    [`${FEEDBACK_PREFIX}aux`, values.schedule.aux],
    [`${FEEDBACK_PREFIX}aux_running`, flag(values.schedule.auxRunning)],
    [`${FEEDBACK_PREFIX}aux_label`, values.schedule.auxLabel],
  ];
}
