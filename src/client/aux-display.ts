// The second timer (aux) as the display's own face logic (face.ts) sees a timer:
// a state whose active timer is the aux, so its digits, overrun, tone, hold and
// next change come from the one implementation the main time uses, and the aux
// on a screen flips on the same server second as everywhere else.
// Page code: no destructuring (esbuild targets old browsers).
import type { AuxSnapshot } from '../domain/snapshot.js';
import type { Timer } from '../domain/types.js';
import type { DisplayState } from './face.js';

/** The id the aux stands under in the state made here; it never meets the running order's ids (the list holds the aux alone). */
const AUX_ID = 'aux';

/** The state with the aux as its active timer; the room's message, blackout, ON AIR, flash, question and times of day stay. */
export function auxDisplayState(state: DisplayState & { readonly aux: AuxSnapshot }): DisplayState {
  const aux = state.aux;
  const timer: Timer = {
    id: AUX_ID,
    label: aux.label,
    speaker: '',
    duration: aux.duration,
    warnAt: 0,
    dangerAt: 0,
    appearance: aux.appearance,
    tagId: null,
    scheduledAt: null,
    endsAt: null,
  };
  return {
    running: aux.running,
    endAt: aux.endAt,
    remainingAtPause: aux.remainingAtPause,
    // Nothing of the room's stops the aux at zero: a countdown runs on into overrun.
    zeroBehavior: 'continue',
    blackout: state.blackout,
    onAir: state.onAir,
    activeTimerId: AUX_ID,
    activeLabel: aux.label,
    activeSpeaker: '',
    warnAt: 0,
    dangerAt: 0,
    duration: aux.duration,
    message: state.message,
    timers: [timer],
    flash: state.flash,
    display: state.display,
    tags: state.tags,
    settings: state.settings,
    shownQuestion: state.shownQuestion,
  };
}
