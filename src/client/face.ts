// What the display shows at a given server instant, and when that next changes.
// Pure: the snapshot and the estimated server time come in, nothing reads a
// clock. Every boundary is computed from endAt/remainingAtPause on the server's
// timeline, so screens that agree on server time flip together.
import type { ShownQuestion } from '../domain/questions.js';
import type { Snapshot, SnapshotFlash } from '../domain/snapshot.js';
import type { DisplaySettings, MessageColor, Settings, Tag } from '../domain/types.js';
import { formatTimeOfDay as formatInZone, formatTimeOfDayLine, zoneName } from './time-of-day.js';

export type Tone = 'normal' | 'warn' | 'over';

/**
 * Whether the digits move: `running`; held at the timer's full length before it starts
 * (`ready`); held midway (`paused`); held at zero by zeroBehavior=stop (`stopped`), which
 * is not a pause a stage manager forgot; `none` where holding means nothing (a time of
 * day, a hidden overrun).
 */
export type Hold = 'running' | 'ready' | 'paused' | 'stopped' | 'none';

export interface FaceMessage {
  readonly text: string;
  readonly color: MessageColor;
  readonly bold: boolean;
  /** False in the dark half of a flash. */
  readonly lit: boolean;
}

/** The audience question on the screens: always set as text (textContent), never as markup. */
export interface FaceQuestion {
  readonly text: string;
  /** Null when the moderator showed it without the name. */
  readonly name: string | null;
}

export interface Face {
  /** The big digits; empty when nothing is to be shown (`hide` at zero). */
  readonly time: string;
  readonly tone: Tone;
  readonly hold: Hold;
  /**
   * The red threshold (the timer's dangerAt) is passed and zero is not: shown red.
   * Beside `tone` ('warn' while it holds), so readers of the three tones need not change.
   */
  readonly danger: boolean;
  /** In an inverted half of a screen flash (the `flash` command), on the server's timeline. */
  readonly inverted: boolean;
  /** Elapsed share of the duration, 0..1, in thousandths; null when there is no bar (time of day). */
  readonly progress: number | null;
  readonly label: string;
  readonly speaker: string;
  readonly tag: FaceTag | null;
  /**
   * The time of day, when the display settings show it and the digits are not it already
   * (a timer shown as a Clock); '' otherwise. A 12 h time names its zone ("7:30:05 PM EST");
   * under a 12 h Clock's digits, the line holds the zone alone ("EST"), which the digits lack.
   */
  readonly clock: string;
  /** The next timer of the running order ("Next: Panel"), when the display settings show it; '' otherwise. */
  readonly next: string;
  readonly message: FaceMessage | null;
  /**
   * The audience question the moderator put on the screens, or null. Whether the room's
   * display settings show it (showQuestion) is the screen's look, as for the message.
   */
  readonly question: FaceQuestion | null;
  readonly onAir: boolean;
  readonly blackout: boolean;
}

/** The active timer's tag as the display labels it: its name on its colour, in black or white, whichever reads. */
export interface FaceTag {
  readonly name: string;
  readonly colour: string;
  readonly text: '#000' | '#fff';
}

export interface FaceAt {
  readonly face: Face;
  /** The next server instant (ms since epoch) at which the face changes; null when it cannot change by itself. */
  readonly nextChangeAt: number | null;
}

/** Flashing messages blink on the server's half-seconds, so every screen blinks in step. */
export const FLASH_PERIOD_MS = 500;

/** The state fields the display reads. */
export type DisplayState = Pick<
  Snapshot,
  | 'running'
  | 'endAt'
  | 'remainingAtPause'
  | 'zeroBehavior'
  | 'blackout'
  | 'onAir'
  | 'activeTimerId'
  | 'activeLabel'
  | 'activeSpeaker'
  | 'warnAt'
  | 'duration'
  | 'message'
  | 'timers'
> & {
  /** A screen flash still to come or going on; absent (an older server): none. */
  readonly flash?: SnapshotFlash | null;
  /** The active timer's red threshold; absent (an older server): none. */
  readonly dangerAt?: number;
  /** How the screens look; absent (an older server): as they always looked. */
  readonly display?: Pick<DisplaySettings, 'showTimeOfDay' | 'showNext'>;
  /** The room's tags; absent (an older server): none. */
  readonly tags?: readonly Tag[];
  /** The room's zone and clock format for times of day; absent (an older server): UTC, 24 h. */
  readonly settings?: Pick<Settings, 'timeZone' | 'clockFormat'>;
  /** The audience question on the screens; absent (an older server): none. */
  readonly shownQuestion?: ShownQuestion | null;
  /** The active timer has run since it was made active; absent (an older server): judged by the time left. */
  readonly started?: boolean;
};

/**
 * Whether a paused timer reads READY (not run since it was made active or reset)
 * rather than PAUSED. The box says so (`started`); a box older than that is judged
 * by the time left, as it always was: its full duration or more is READY.
 */
export function readsReady(state: { readonly started?: boolean; readonly duration: number }, remainingMs: number): boolean {
  return state.started === undefined ? remainingMs >= state.duration : !state.started;
}

const DEFAULT_TIME_OF_DAY: Pick<Settings, 'timeZone' | 'clockFormat'> = { timeZone: 'UTC', clockFormat: '24h' };

export function remainingAt(state: DisplayState, serverNowMs: number): number {
  if (state.running && state.endAt !== null) return state.endAt - serverNowMs;
  return state.remainingAtPause ?? 0;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** `m:ss` below an hour, `h:mm:ss` from an hour on; whole seconds, not negative. */
export function formatSeconds(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** Time of day of a server instant in the room's zone and format (not this device's). */
export function formatTimeOfDay(serverMs: number, settings: Pick<Settings, 'timeZone' | 'clockFormat'> = DEFAULT_TIME_OF_DAY): string {
  return formatInZone(serverMs, settings);
}

/**
 * Countdown digits: whole seconds rounded up, so 0:00 appears exactly at the end
 * instant; past it, the overrun with a `+`, which ticks on at each further second.
 */
export function countdownText(remainingMs: number): string {
  const seconds = Math.ceil(remainingMs / 1000);
  if (seconds > 0) return formatSeconds(seconds);
  if (seconds === 0) return formatSeconds(0);
  return `+${formatSeconds(-seconds)}`;
}

function toneOf(remainingMs: number, warnAtMs: number): Tone {
  if (remainingMs <= 0) return 'over';
  return remainingMs <= warnAtMs ? 'warn' : 'normal';
}

/** Inverted in the first half of each period from startAt until endAt; and when that next changes. */
function flashAt(flash: SnapshotFlash | null | undefined, nowMs: number): { inverted: boolean; nextChangeAt: number | null } {
  if (flash === null || flash === undefined || nowMs >= flash.endAt) return { inverted: false, nextChangeAt: null };
  if (nowMs < flash.startAt) return { inverted: false, nextChangeAt: flash.startAt };
  const half = flash.periodMs / 2;
  const halves = Math.floor((nowMs - flash.startAt) / half);
  return { inverted: halves % 2 === 0, nextChangeAt: Math.min(flash.endAt, flash.startAt + (halves + 1) * half) };
}

/** Black on a light colour, white on a dark one (relative luminance, WCAG's weights). */
export function textOn(colour: string): '#000' | '#fff' {
  const channel = (i: number): number => {
    const c = parseInt(colour.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  // Where black and white contrast equally with the colour.
  return luminance > 0.179 ? '#000' : '#fff';
}

function tagOf(state: DisplayState, timerTagId: string | null | undefined): FaceTag | null {
  if (timerTagId === null || timerTagId === undefined || state.tags === undefined) return null;
  const tag = state.tags.find((t) => t.id === timerTagId);
  return tag === undefined ? null : { name: tag.name, colour: tag.colour, text: textOn(tag.colour) };
}

function earliestAfter(nowMs: number, candidates: readonly (number | null)[]): number | null {
  let best: number | null = null;
  for (const c of candidates) if (c !== null && c > nowMs && (best === null || c < best)) best = c;
  return best;
}

export function faceAt(state: DisplayState, serverNowMs: number): FaceAt {
  const timer = state.timers.find((t) => t.id === state.activeTimerId);
  const appearance = timer?.appearance ?? 'countdown';
  const flashing = state.message !== null && state.message.flash;
  const message: FaceMessage | null =
    state.message === null
      ? null
      : {
          text: state.message.text,
          color: state.message.color,
          bold: state.message.bold,
          lit: !flashing || Math.floor(serverNowMs / FLASH_PERIOD_MS) % 2 === 0,
        };

  // Under `stop` the server pauses at zero; until its event arrives, do not show an overrun.
  const rawRemaining = remainingAt(state, serverNowMs);
  const remaining = state.zeroBehavior === 'stop' ? Math.max(0, rawRemaining) : rawRemaining;
  const dangerAt = state.dangerAt ?? 0;
  const tone = appearance === 'clock' ? 'normal' : toneOf(remaining, Math.max(state.warnAt, dangerAt));
  const danger = appearance !== 'clock' && dangerAt > 0 && remaining > 0 && remaining <= dangerAt;
  const hidden = state.zeroBehavior === 'hide' && remaining <= 0 && appearance !== 'clock';

  let time: string;
  let nextDigits: number | null = null;
  if (appearance === 'clock') {
    time = formatTimeOfDay(serverNowMs, state.settings ?? DEFAULT_TIME_OF_DAY);
    nextDigits = Math.floor(serverNowMs / 1000) * 1000 + 1000;
  } else if (appearance === 'countup') {
    // Elapsed is below zero only when time was added beyond the duration; it shows 0:00 until it reaches a second.
    const elapsed = state.duration - remaining;
    time = formatSeconds(Math.floor(Math.max(0, elapsed) / 1000));
    if (state.running) nextDigits = serverNowMs + (Math.floor(Math.max(0, elapsed) / 1000) + 1) * 1000 - elapsed;
  } else {
    time = countdownText(remaining);
    // The digits read ceil(r/1000); they next change when r reaches the whole second below.
    if (state.running && state.endAt !== null) nextDigits = state.endAt - (Math.ceil(remaining / 1000) - 1) * 1000;
  }
  if (hidden) {
    // Past zero under `hide` nothing moves (the bar is full): no redraw until the next snapshot.
    time = '';
    nextDigits = null;
  }

  // The bar moves with the digits (the remaining time they show), not in between them.
  const shownElapsed = appearance === 'countup' ? Math.floor((state.duration - remaining) / 1000) * 1000 : state.duration - Math.ceil(remaining / 1000) * 1000;
  const progress =
    appearance === 'clock' || state.duration <= 0
      ? null
      : Math.round(Math.min(1, Math.max(0, shownElapsed / state.duration)) * 1000) / 1000;

  const hold: Hold =
    appearance === 'clock' || hidden
      ? 'none'
      : state.running
        ? 'running'
        : state.zeroBehavior === 'stop' && remaining <= 0
          ? 'stopped'
          : readsReady(state, remaining)
            ? 'ready'
            : 'paused';

  // A Clock's digits are the time of day: the small line would only repeat them.
  const showClock = state.display !== undefined && state.display.showTimeOfDay && appearance !== 'clock';
  const timeOfDay = state.settings ?? DEFAULT_TIME_OF_DAY;
  const clock = showClock
    ? formatTimeOfDayLine(serverNowMs, timeOfDay)
    : appearance === 'clock' && timeOfDay.clockFormat === '12h'
      ? zoneName(serverNowMs, timeOfDay.timeZone)
      : '';
  const nextTimer = state.display !== undefined && state.display.showNext ? state.timers[state.timers.findIndex((t) => t.id === state.activeTimerId) + 1] : undefined;
  const next = nextTimer === undefined ? '' : `Next: ${nextTimer.label}`;

  const face: Face = {
    time,
    tone,
    hold,
    clock,
    next,
    danger,
    inverted: false,
    progress,
    label: state.activeLabel,
    speaker: state.activeSpeaker,
    tag: tagOf(state, timer?.tagId),
    message,
    question: state.shownQuestion === null || state.shownQuestion === undefined ? null : { text: state.shownQuestion.text, name: state.shownQuestion.name },
    onAir: state.onAir,
    blackout: state.blackout,
  };

  // A black screen has nothing to redraw until the next snapshot (and does not flash).
  if (state.blackout) return { face, nextChangeAt: null };
  const flash = flashAt(state.flash, serverNowMs);
  const running = state.running && state.endAt !== null;
  const nextChangeAt = earliestAfter(serverNowMs, [
    nextDigits,
    running && appearance !== 'clock' ? (state.endAt as number) - state.warnAt : null,
    running && appearance !== 'clock' && dangerAt > 0 ? (state.endAt as number) - dangerAt : null,
    running && appearance !== 'clock' ? state.endAt : null,
    flashing ? Math.floor(serverNowMs / FLASH_PERIOD_MS) * FLASH_PERIOD_MS + FLASH_PERIOD_MS : null,
    flash.nextChangeAt,
    // The time of day ticks each second while it shows.
    showClock ? Math.floor(serverNowMs / 1000) * 1000 + 1000 : null,
  ]);
  return { face: flash.inverted ? { ...face, inverted: true } : face, nextChangeAt };
}
