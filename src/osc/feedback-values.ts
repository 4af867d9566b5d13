// What OSC feedback says about the room at a server instant, and when that next
// changes by time alone. Pure. The display string is the screen's own
// (src/client/face.ts): what a surface shows matches the HDMI screen to the
// character, and it changes on the same server-side second boundaries.
import type { Snapshot } from '../domain/snapshot.js';
import { faceAt, type Tone } from '../client/face.js';
import type { OscValueOut } from './osc-packet.js';

/** The screen's tone in words a lighting desk's macro can match: overrun from 0:00 on, as the screen turns red. */
export type Phase = 'normal' | 'warning' | 'overrun';

export interface FeedbackValues {
  /** The display string: `9:59`, `+0:05`, `1:02:03`; empty while `hide` hides the time. */
  readonly remaining: string;
  readonly remainingMs: number;
  readonly phase: Phase;
  readonly running: boolean;
  readonly onAir: boolean;
  readonly blackout: boolean;
  readonly label: string;
  readonly speaker: string;
  /** The message's text; empty when there is none. */
  readonly message: string;
  /** The label of the next timer in the running order; empty on the last. */
  readonly nextLabel: string;
}

export interface FeedbackAt {
  readonly values: FeedbackValues;
  /** The server instant (ms since epoch) at which the display string or the phase next changes; null: not by itself. */
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
  return {
    values: {
      remaining: face.time,
      remainingMs: Math.max(-INT32_MAX, Math.min(INT32_MAX, Math.round(snapshot.remaining))),
      phase: phaseOf(face.tone),
      running: snapshot.running,
      onAir: snapshot.onAir,
      blackout: snapshot.blackout,
      label: snapshot.activeLabel,
      speaker: snapshot.activeSpeaker,
      message: snapshot.message?.text ?? '',
      nextLabel: index < 0 ? '' : (snapshot.timers[index + 1]?.label ?? ''),
    },
    nextChangeAt,
  };
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
    [`${FEEDBACK_PREFIX}blackout`, flag(values.blackout)],
    [`${FEEDBACK_PREFIX}label`, values.label],
    [`${FEEDBACK_PREFIX}speaker`, values.speaker],
    [`${FEEDBACK_PREFIX}message`, values.message],
    [`${FEEDBACK_PREFIX}next_label`, values.nextLabel],
  ];
}
