// `Showclock-Deadline`: the instant, on the box's clock (ms since 1970, as the
// snapshot's serverNow), after which a request must not happen. A sender that
// gives up on a request after a few seconds (the Companion module gives up before
// Companion's own 5 s limit) sends it, because giving up cannot take back bytes
// already on the wire: TCP delivers them when a frozen link comes back, maybe a
// minute later, and a blackout toggled then is worse than one never toggled.
// Refused with 412 and nothing done, so the sender's "not done" stays true.

export const DEADLINE_HEADER = 'Showclock-Deadline';

export type DeadlineCheck = { readonly ok: true } | { readonly ok: false; readonly status: 400 | 412; readonly error: string };

const IN_TIME: DeadlineCheck = { ok: true };

/** Whether a request with this header (undefined: none) may still happen at `nowMs`, the box's time. */
export function checkDeadline(text: string | undefined, nowMs: number): DeadlineCheck {
  if (text === undefined) return IN_TIME;
  const trimmed = text.trim();
  const deadline = Number(trimmed);
  if (!/^\d{1,15}$/.test(trimmed) || !Number.isSafeInteger(deadline)) {
    return { ok: false, status: 400, error: `${DEADLINE_HEADER} must be the box's time in ms since 1970 (as serverNow in the state), not "${trimmed.slice(0, 32)}"` };
  }
  if (nowMs <= deadline) return IN_TIME;
  const late = ((nowMs - deadline) / 1000).toFixed(1);
  return {
    ok: false,
    status: 412,
    error: `arrived ${late} s after its ${DEADLINE_HEADER}: the sender had given up on it, so nothing was done`,
  };
}
