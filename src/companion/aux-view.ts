// The second timer (aux) as the keys show it at a server instant: its digits are
// the display's own (src/client/aux-display.ts hands the aux to face.ts as the
// active timer), so a key and the screen's aux area flip on the same second: a
// countdown reads whole seconds rounded up and `+0:05` past zero, a count-up the
// whole seconds since its start. Pure, like room-view.ts.
import type { AuxSnapshot, Snapshot } from '../domain/snapshot.js';
import type { AuxAppearance } from '../domain/types.js';
import { auxDisplayState } from '../client/aux-display.js';
import { faceAt, formatSeconds } from '../client/face.js';

export interface AuxView {
  /** `4:59`, `+0:05` past zero (countdown), `1:01` (count-up); empty from a box without the aux timer. */
  readonly time: string;
  readonly running: boolean;
  readonly label: string;
  /** Its duration, `m:ss`; empty from a box without the aux timer. */
  readonly duration: string;
  /** Empty from a box without the aux timer. */
  readonly appearance: AuxAppearance | '';
  /** Past zero, where the display turns it red: a countdown's overrun, a count-up past its duration. */
  readonly overrun: boolean;
  /** The next server instant at which the digits or `overrun` change; null while it is paused. */
  readonly nextChangeAt: number | null;
}

const NONE: AuxView = { time: '', running: false, label: '', duration: '', appearance: '', overrun: false, nextChangeAt: null };

export function auxViewAt(state: Snapshot, serverNowMs: number): AuxView {
  // A box from before issue 29 sends no aux timer: the keys show nothing for it.
  const aux: AuxSnapshot | undefined = state.aux;
  if (aux === undefined) return NONE;
  // Keys count through a blackout and show no flash or message, as for the main time (room-view.ts).
  const drawn = faceAt(auxDisplayState({ ...state, blackout: false, message: null, flash: null }), serverNowMs);
  return {
    time: drawn.face.time,
    running: aux.running,
    label: aux.label,
    duration: formatSeconds(Math.ceil(aux.duration / 1000)),
    appearance: aux.appearance,
    overrun: drawn.face.tone === 'over',
    nextChangeAt: drawn.nextChangeAt,
  };
}
