// The yes/no facts the boolean feedbacks light keys with. Pure. `warning` and
// `overrun` read the same as the GPIO lamps and the display's colours: warning
// from remaining <= warnAt on (so it stays lit in overrun), overrun once the
// display turns red at zero, never under `stop`, where the room stops at 0.
import type { Snapshot } from '../domain/snapshot.js';
import type { MessageColor } from '../domain/types.js';
import { questionsOf } from './room-questions.js';
import { tallyOf } from './room-tally.js';
import type { RoomView } from './room-view.js';

export interface RoomFlags {
  readonly running: boolean;
  /** Not running and not stopped at zero: paused midway, or ready at the top of a timer. */
  readonly paused: boolean;
  readonly warning: boolean;
  /** Past the timer's red threshold (dangerAt, when it has one) and not yet at zero. */
  readonly danger: boolean;
  readonly overrun: boolean;
  /** At zero under `stop`. */
  readonly stopped: boolean;
  readonly blackout: boolean;
  readonly onAir: boolean;
  /** The tally (vision mixer, OBS) says on air; off on a box without tally. ON AIR may differ: a press overrides the tally until its next change. */
  readonly tally: boolean;
  /** An audience question is on the screens (shown by the moderator). */
  readonly questionShown: boolean;
  /** At least one audience question is new: not yet looked at. */
  readonly questionsWaiting: boolean;
  /** The second timer (aux) runs. */
  readonly auxRunning: boolean;
  /** The aux timer is past zero (a count-up: past its duration), red on the display. */
  readonly auxOverrun: boolean;
  readonly connected: boolean;
}

export function flagsOf(state: Snapshot | null, view: RoomView | null, connected: boolean): RoomFlags {
  if (state === null || view === null) {
    return {
      running: false,
      paused: false,
      warning: false,
      danger: false,
      overrun: false,
      stopped: false,
      blackout: false,
      onAir: false,
      tally: false,
      questionShown: false,
      questionsWaiting: false,
      auxRunning: false,
      auxOverrun: false,
      connected,
    };
  }
  const questions = questionsOf(state);
  return {
    running: state.running,
    paused: !state.running && view.phase !== 'stopped',
    warning: view.remainingMs <= state.warnAt,
    danger: state.dangerAt > 0 && view.remainingMs > 0 && view.remainingMs <= state.dangerAt,
    overrun: state.zeroBehavior !== 'stop' && view.remainingMs <= 0,
    stopped: view.phase === 'stopped',
    blackout: state.blackout,
    onAir: state.onAir,
    tally: tallyOf(state).word === 'on',
    questionShown: questions.shown !== null,
    questionsWaiting: questions.newCount > 0,
    auxRunning: view.aux.running,
    auxOverrun: view.aux.overrun,
    connected,
  };
}

export type MessageFilter = 'any' | MessageColor;

export function messageShowing(state: Snapshot | null, filter: MessageFilter): boolean {
  if (state === null || state.message === null) return false;
  return filter === 'any' || state.message.color === filter;
}
