// The screen under control (issue 33, README "Screen (HDMI-CEC)"): what the box can
// ask of the screen, what an answer looks like, and how a report changes the room.
// The adapter that speaks HDMI-CEC (src/cec) implements ScreenControl; the room keeps
// only what the screen last answered (Room.screen), so the consoles see it pushed.
import type { Room, ScreenReport } from './types.js';

/**
 * on: Image View On to the TV, then Active Source (a TV that wakes up shows its last
 * input otherwise); standby: Standby to the TV; active: Active Source alone, for a TV
 * that is on but shows "no signal" or another input.
 */
export const SCREEN_REQUESTS = ['on', 'standby', 'active'] as const;
export type ScreenRequest = (typeof SCREEN_REQUESTS)[number];

/**
 * ok: the screen acknowledged the message on the bus (and `report` is what it answered
 * when asked its power right after); otherwise why not, as an HTTP status:
 * 409 no screen configured, 503 the adapter cannot reach the bus (no cec-ctl, no device,
 * not registered), 502 the screen did not acknowledge, 504 cec-ctl did not finish in time.
 */
export type ScreenAnswer =
  | { readonly ok: true; readonly report: ScreenReport }
  | { readonly ok: false; readonly status: 409 | 502 | 503 | 504; readonly error: string };

export interface ScreenControl {
  /** Never rejects; one request at a time on the bus (later ones wait their turn). */
  request(what: ScreenRequest): Promise<ScreenAnswer>;
}

/** A box with no `screen` in its config: every request is 409 and says where to configure it. */
export const NO_SCREEN: ScreenControl = {
  request: async () => ({
    ok: false,
    status: 409,
    error: 'no screen is configured on this box: set screen.cec.device in the config file (README "Screen (HDMI-CEC)"), such as "/dev/cec0"',
  }),
};

/** The room after the screen reported; the same room when it said what it said last (no change, no push). */
export function reportScreen(room: Room, report: ScreenReport): Room {
  if (room.screen !== null && room.screen.power === report.power && room.screen.problem === report.problem) return room;
  return { ...room, screen: { power: report.power, problem: report.problem } };
}
