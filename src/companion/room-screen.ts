// What the keys show of the screen over HDMI-CEC (issue 33): its power as it last answered
// the box. Pure. A box older than screen control sends no `screen`, and a box with no screen
// configured sends null: both read as "none", so a key can tell "no screen here" from
// "the screen says standby".
import type { Snapshot } from '../domain/snapshot.js';
import { SCREEN_POWERS, type ScreenPower } from '../domain/types.js';

export type ScreenWord = ScreenPower | 'none';

/** The Snapshot type says a box always sends `screen`; an older one does not, and the wire is read as it comes. */
type ScreenField = { readonly screen?: unknown };

export function screenOf(state: Snapshot | null): ScreenWord {
  if (state === null) return 'none';
  const { screen }: ScreenField = state;
  if (typeof screen !== 'object' || screen === null || !('power' in screen)) return 'none';
  const power: unknown = screen.power;
  // A power word a later box adds reads as unknown, not as none: there is a screen.
  return (SCREEN_POWERS as readonly unknown[]).includes(power) ? (power as ScreenPower) : 'unknown';
}
