// The room's rules for the screen (config `screen`, README "Screen (HDMI-CEC)"): on at
// boot, on when a timer starts while the screen is not on, standby once a blackout has
// been held for N minutes, and back on when that blackout is lifted. Pure: time comes in
// as monotonic milliseconds, and the answer says what to ask of the screen and when to
// look again. src/app/screen-rules-runner.ts feeds it room changes and wake-ups and
// hands the requests to the screen adapter; the adapter itself holds no rule.
import type { ScreenRequest } from './screen.js';
import type { ScreenPower } from './types.js';

export interface ScreenRules {
  /** Ask the screen on (and the box to be its source) when the service starts. */
  readonly onAtBoot: boolean;
  /** Ask the screen on when a timer starts (by hand or at its scheduled start) and the screen is not on. */
  readonly onAtStart: boolean;
  /** Standby once a blackout has been held this long; null: never. */
  readonly standbyAfterBlackoutMs: number | null;
}

/** What the rules look at in the room. */
export interface ScreenFacts {
  /** The main timer is running. */
  readonly running: boolean;
  readonly blackout: boolean;
  readonly power: ScreenPower;
}

/** What the rules remember between looks. */
export interface ScreenWatch {
  readonly running: boolean;
  /** When the blackout being held began; null without one. */
  readonly blackoutSinceMs: number | null;
  /** The rule put the screen to standby for this blackout: lifting it brings the screen back. */
  readonly standbyByRule: boolean;
}

/** Why a rule asks: for the log, and for the tests. */
export type ScreenAskReason = 'boot' | 'timer-start' | 'blackout-held' | 'blackout-lifted';

export interface ScreenAsk {
  readonly request: ScreenRequest;
  readonly because: ScreenAskReason;
}

export interface ScreenStep {
  readonly watch: ScreenWatch;
  /** In order; empty when nothing is to be asked. */
  readonly requests: readonly ScreenAsk[];
  /** Look again at this instant (a blackout's standby falls due), null when nothing is due. */
  readonly wakeAtMs: number | null;
}

/** Powers in which the screen is showing, or about to: asking it on again is pointless. */
function showing(power: ScreenPower): boolean {
  return power === 'on' || power === 'to-on';
}

/** The first look, when the service starts: on at boot, and a blackout already held counts from now. */
export function bootScreen(facts: ScreenFacts, rules: ScreenRules, nowMs: number): ScreenStep {
  const watch: ScreenWatch = { running: facts.running, blackoutSinceMs: facts.blackout ? nowMs : null, standbyByRule: false };
  // A box that restarts into a blackout leaves the screen dark: the blackout says so.
  const requests: ScreenAsk[] = rules.onAtBoot && !facts.blackout ? [{ request: 'on', because: 'boot' }] : [];
  return { watch, requests, wakeAtMs: blackoutDue(watch, rules) };
}

function blackoutDue(watch: ScreenWatch, rules: ScreenRules): number | null {
  if (rules.standbyAfterBlackoutMs === null || watch.blackoutSinceMs === null || watch.standbyByRule) return null;
  return watch.blackoutSinceMs + rules.standbyAfterBlackoutMs;
}

/** A look after a room change or at a wake-up. */
export function stepScreen(previous: ScreenWatch, facts: ScreenFacts, rules: ScreenRules, nowMs: number): ScreenStep {
  const requests: ScreenAsk[] = [];
  let blackoutSinceMs = previous.blackoutSinceMs;
  let standbyByRule = previous.standbyByRule;
  if (!facts.blackout) {
    if (standbyByRule) requests.push({ request: 'on', because: 'blackout-lifted' });
    blackoutSinceMs = null;
    standbyByRule = false;
  } else if (blackoutSinceMs === null) {
    blackoutSinceMs = nowMs;
  }
  const started = facts.running && !previous.running;
  if (rules.onAtStart && started && !facts.blackout && !showing(facts.power) && requests.length === 0) requests.push({ request: 'on', because: 'timer-start' });
  let watch: ScreenWatch = { running: facts.running, blackoutSinceMs, standbyByRule };
  const due = blackoutDue(watch, rules);
  if (due !== null && nowMs >= due) {
    requests.push({ request: 'standby', because: 'blackout-held' });
    watch = { ...watch, standbyByRule: true };
    return { watch, requests, wakeAtMs: null };
  }
  return { watch, requests, wakeAtMs: due };
}
