// When a press is sent, and until when it may happen: a press is sent once, in
// time, or never.
//
// Companion waits 5 s for an action (its IPC call to the module times out then,
// and it logs the press as failed). So the module gives a press 4 s from the
// moment Companion hands it over, waiting in line behind earlier presses
// included, and gives up then. Giving up cannot take back bytes already on the
// wire: over a frozen link TCP still delivers them when the link returns, maybe a
// minute later. So every press also carries a deadline on the box's clock
// (Showclock-Deadline, 3 s after the press, estimated from the box's own
// serverNow), and the box refuses with 412 what arrives after it. The second
// between the deadline and giving up is for the answer to come back: a press
// the module reports as not answered was done by the box within 3 s of the
// press, or never. A press is never retried, and none is sent while the link
// is down: the key's status shows it, and a press kept for later would fire at
// a moment nobody chose.

/** Companion's own wait for an action (its IPC call timeout, @companion-module/base ipc-wrapper). */
export const COMPANION_ACTION_LIMIT_MS = 5_000;
/** The module gives up on a press this long after Companion handed it over. */
export const PRESS_GIVE_UP_MS = 4_000;
/** The box does a press only if it arrives within this long of the press (Showclock-Deadline). */
export const PRESS_DEADLINE_MS = 3_000;
/** A press with less time than this left before its deadline is not sent: it could not arrive in time. */
export const MIN_FLIGHT_MS = 250;

export type PressPlan =
  | { readonly send: true; readonly timeoutMs: number; readonly deadline: number }
  | { readonly send: false; readonly waitedMs: number };

/**
 * Whether a press made at `pressedAt` (this machine's monotonic ms) is still
 * sent at `now`, and if so with how long to wait for the answer and which
 * deadline on the box's clock (`serverNow`: the box's time now, as estimated).
 */
export function planPress(pressedAt: number, now: number, serverNow: number): PressPlan {
  const waitedMs = now - pressedAt;
  const leftMs = PRESS_DEADLINE_MS - waitedMs;
  if (leftMs < MIN_FLIGHT_MS) return { send: false, waitedMs };
  return { send: true, timeoutMs: Math.round(PRESS_GIVE_UP_MS - waitedMs), deadline: Math.round(serverNow + leftMs) };
}
