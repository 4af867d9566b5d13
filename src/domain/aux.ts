// The second timer (aux): a countdown or count-up beside the running order, with
// its own transport. Pure, like the engine: time comes in as a monotonic reading.
// Nothing of the room's (next, auto-advance, the zero behaviour, scheduled starts)
// ever moves it: a countdown runs on into overrun until someone pauses or resets it.
import { ADJUST_MAX_MS, DURATION_MAX_MS, DURATION_MIN_MS, LABEL_MAX_CHARS, REMAINING_MAX_MS } from './limits.js';
import { textProblem } from './text-rules.js';
import { AUX_APPEARANCES, type AuxAppearance, type AuxTimer, type Transport } from './types.js';

export type AuxReduced = { readonly ok: true; readonly aux: AuxTimer } | { readonly ok: false; readonly message: string };

/** Remaining ms at `nowMonoMs`; negative is overrun. A count-up shows `duration - remaining`. */
export function auxRemainingAt(aux: AuxTimer, nowMonoMs: number): number {
  return aux.transport.running ? aux.transport.endMonoMs - nowMonoMs : aux.transport.remainingMs;
}

function paused(remainingMs: number): Transport {
  return { running: false, remainingMs };
}

export function startAux(aux: AuxTimer, nowMonoMs: number): AuxTimer {
  return aux.transport.running ? aux : { ...aux, transport: { running: true, endMonoMs: nowMonoMs + aux.transport.remainingMs } };
}

export function pauseAux(aux: AuxTimer, nowMonoMs: number): AuxTimer {
  return aux.transport.running ? { ...aux, transport: paused(aux.transport.endMonoMs - nowMonoMs) } : aux;
}

export function resetAux(aux: AuxTimer): AuxTimer {
  return { ...aux, transport: paused(aux.duration) };
}

export function adjustAux(aux: AuxTimer, ms: number, nowMonoMs: number): AuxReduced {
  if (!Number.isInteger(ms)) return { ok: false, message: 'ms: must be a whole number of milliseconds' };
  if (Math.abs(ms) > ADJUST_MAX_MS) return { ok: false, message: `ms: ${ms} is beyond the limit of ${ADJUST_MAX_MS} (1 hour) in either direction per call` };
  const resultMs = auxRemainingAt(aux, nowMonoMs) + ms;
  if (resultMs > REMAINING_MAX_MS) {
    return { ok: false, message: `ms: adjusting the aux timer by ${ms} would leave ${resultMs} ms, above the maximum of ${REMAINING_MAX_MS} (24 hours)` };
  }
  const transport: Transport = aux.transport.running
    ? { running: true, endMonoMs: aux.transport.endMonoMs + ms }
    : paused(aux.transport.remainingMs + ms);
  return { ok: true, aux: { ...aux, transport } };
}

export interface AuxChange {
  readonly duration?: number;
  readonly appearance?: AuxAppearance;
  readonly label?: string;
}

/**
 * A new duration is a new timer: it stands paused at it (as a reset would). A new
 * label or appearance alone keeps the time where it is, running or not.
 */
export function setAux(aux: AuxTimer, change: AuxChange): AuxReduced {
  const { duration, appearance, label } = change;
  if (duration === undefined && appearance === undefined && label === undefined) {
    return { ok: false, message: 'aux: give at least one of duration, appearance or label' };
  }
  if (duration !== undefined && !(Number.isInteger(duration) && duration >= DURATION_MIN_MS && duration <= DURATION_MAX_MS)) {
    return { ok: false, message: `duration: must be a whole number of milliseconds from ${DURATION_MIN_MS} (1 second) to ${DURATION_MAX_MS} (24 hours)` };
  }
  if (appearance !== undefined && !AUX_APPEARANCES.includes(appearance)) {
    return { ok: false, message: `appearance: must be one of ${AUX_APPEARANCES.join(', ')}` };
  }
  const text = label?.trim();
  const labelProblem = text === undefined ? null : textProblem('label', text, { maxChars: LABEL_MAX_CHARS, mustShow: false });
  if (labelProblem !== null) return { ok: false, message: labelProblem };
  const next: AuxTimer = {
    label: text ?? aux.label,
    duration: duration ?? aux.duration,
    appearance: appearance ?? aux.appearance,
    transport: duration === undefined ? aux.transport : paused(duration),
  };
  return { ok: true, aux: next };
}
