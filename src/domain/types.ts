// The room as plain data. Durations are integer milliseconds; instants on the
// monotonic clock carry "Mono" in their name and never leave the process as-is.

export const APPEARANCES = ['countdown', 'countup', 'clock'] as const;
export type Appearance = (typeof APPEARANCES)[number];

export const ZERO_BEHAVIORS = ['continue', 'stop', 'hide'] as const;
export type ZeroBehavior = (typeof ZERO_BEHAVIORS)[number];

export const CLOCK_FORMATS = ['24h', '12h'] as const;
export type ClockFormat = (typeof CLOCK_FORMATS)[number];

/** Where tally comes from (src/tally): a TSL UMD vision mixer or bridge, OBS. */
export const TALLY_SOURCES = ['tsl', 'obs'] as const;
export type TallySource = (typeof TALLY_SOURCES)[number];

/** Each tally source's last report, on or off; a source not heard from since start is absent (tally.ts). */
export type TallyReports = { readonly [S in TallySource]?: boolean };

/**
 * The screen's power as it last answered over HDMI-CEC (src/cec, screen.ts): on, standby,
 * on its way to either (CEC's "in transition"), unknown (configured, but it has not answered),
 * unavailable (no cec-ctl, no CEC device, the adapter not registered on the bus).
 */
export const SCREEN_POWERS = ['on', 'standby', 'to-on', 'to-standby', 'unknown', 'unavailable'] as const;
export type ScreenPower = (typeof SCREEN_POWERS)[number];

/** The screen's last report; `problem` says why it is unavailable or did not answer, null when it answered. */
export interface ScreenReport {
  readonly power: ScreenPower;
  readonly problem: string | null;
}

export const MESSAGE_COLORS = ['white', 'green', 'red'] as const;
export type MessageColor = (typeof MESSAGE_COLORS)[number];

/** The Timer resource of remote-control-api.md; field names are the API's. */
export interface Timer {
  readonly id: string;
  readonly label: string;
  readonly speaker: string;
  readonly duration: number;
  readonly warnAt: number;
  /** The red threshold beside warnAt, ms; 0 is none. */
  readonly dangerAt: number;
  readonly appearance: Appearance;
  readonly tagId: string | null;
  readonly scheduledAt: number | null;
  /**
   * Counts to this wall-clock instant (ms since the epoch) instead of running for
   * its duration, or null; `duration` is then the planned length, for the progress bar.
   */
  readonly endsAt: number | null;
}

export const DISPLAY_LAYOUTS = ['full', 'minimal', 'lowerThird'] as const;
export type DisplayLayout = (typeof DISPLAY_LAYOUTS)[number];

/**
 * How the screens look: part of the room, so every display shows the same. The
 * defaults are the look the display always had (nothing it did not show before).
 */
export interface DisplaySettings {
  /** `full` (title, time, bar, message), `minimal` (the time alone), `lowerThird` (a band along the bottom, for a confidence monitor or a video overlay). */
  readonly layout: DisplayLayout;
  /** `#rrggbb`: black, or a solid colour for chroma keying. */
  readonly background: string;
  readonly normalColour: string;
  readonly warningColour: string;
  readonly overrunColour: string;
  /** The time's size, percent of the layout's own (50 to 150). */
  readonly timeSize: number;
  readonly showTitle: boolean;
  readonly showSpeaker: boolean;
  readonly showProgress: boolean;
  readonly showTimeOfDay: boolean;
  readonly showNext: boolean;
  readonly showTag: boolean;
  readonly showMessage: boolean;
  /** The logo in the top-left corner, when the room has one (default on). */
  readonly showLogo: boolean;
  /** The audience question the moderator puts on the screens, in its own area (default on: nothing shows until one is shown). */
  readonly showQuestion: boolean;
  /** The audience link's QR code and address in a corner, for a lobby screen or a slide (default off). */
  readonly showAskLink: boolean;
  /** How far ahead or behind the show is ("4:20 behind"), from the schedule (default off). */
  readonly showOverUnder: boolean;
  /** When the show is projected to end, as a time of day (default off). */
  readonly showShowEnd: boolean;
  /** The second timer (aux) in its own small area (default off). */
  readonly showAux: boolean;
  /**
   * The uploaded logo's version, `<hash>.<ext>` (png, jpg, svg, webp), or null: the screens load
   * `/logo/<version>`, so a new logo is a new URL (no stale cache). Set only by `display.logo`.
   */
  readonly logo: string | null;
}

/** A tag: a coloured label a timer may carry (a track, a room, a kind of item); the display shows the active timer's. */
export interface Tag {
  readonly id: string;
  readonly name: string;
  /** `#rrggbb`, lower case. */
  readonly colour: string;
}

export const QUESTION_STATES = ['new', 'approved', 'shown', 'answered', 'hidden'] as const;
/** `new` (not looked at yet), `approved` (kept for later), `shown` (on the screens; at most one), `answered`, `hidden` (not for the stage). */
export type QuestionState = (typeof QUESTION_STATES)[number];

/** A question from the audience (the /ask page), kept in the order it came. */
export interface Question {
  readonly id: string;
  /** Control characters gone, trimmed, 1 to 280 characters: always rendered as text, never as markup. */
  readonly text: string;
  /** Empty when the person gave none. */
  readonly name: string;
  /** When the box received it, ms since the epoch. */
  readonly receivedAt: number;
  readonly state: QuestionState;
  /** While shown: whether the screens show the name with it (the moderator's choice when showing it). */
  readonly nameShown: boolean;
}

export interface Message {
  readonly text: string;
  readonly flash: boolean;
  readonly color: MessageColor;
  readonly bold: boolean;
}

export interface Settings {
  readonly zeroBehavior: ZeroBehavior;
  readonly autoAdvance: boolean;
  /** IANA name; times of day on every screen are shown in it, not in the viewing device's zone. */
  readonly timeZone: string;
  readonly clockFormat: ClockFormat;
  /** The displays chime when the digits reach zero. */
  readonly chimeAtZero: boolean;
  /** The displays chime when the warning threshold (warnAt) is reached. */
  readonly chimeAtWarning: boolean;
  /** 0 to 100. */
  readonly chimeVolume: number;
  /**
   * When the show is planned to begin, wall-clock ms since the epoch, or null: the
   * first timer's planned start, from which the schedule is derived (schedule.ts).
   */
  readonly plannedStart: number | null;
}

/**
 * What actually happened to a timer during the show, wall-clock ms since the epoch:
 * when it first ran, and when it was last left for another timer or stopped at zero
 * (null while it is the one on, or before it ended). Cleared by `show.reset`.
 */
export interface Actual {
  readonly timerId: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
}

export const AUX_APPEARANCES = ['countdown', 'countup'] as const;
export type AuxAppearance = (typeof AUX_APPEARANCES)[number];

/**
 * The second timer, beside the running order: its own duration and transport,
 * never moved by `next`, auto-advance, the zero behaviour or a scheduled start.
 * A countdown runs on into overrun; a count-up shows the time since its start.
 */
export interface AuxTimer {
  readonly label: string;
  readonly duration: number;
  readonly appearance: AuxAppearance;
  readonly transport: Transport;
}

/**
 * One reading of both clocks, taken together. The monotonic one counts running
 * time; the wall one only says when a wall-clock instant (a scheduled start) is
 * reached, so a wall-clock step moves scheduled starts but never a running timer.
 */
export interface Now {
  readonly monoMs: number;
  readonly wallMs: number;
}

/**
 * A scheduled start that has been dealt with: it fired, or its instant passed
 * without it (missed while the box was off, or set in the past). Kept by timer id
 * and instant, so it fires once, and setting `scheduledAt` again arms it afresh.
 */
export interface PassedSchedule {
  readonly timerId: string;
  readonly scheduledAt: number;
}

export interface Flash {
  readonly startMonoMs: number;
  readonly count: number;
}

/** Running: the end instant on the monotonic clock. Paused: what is left. */
export type Transport =
  | { readonly running: true; readonly endMonoMs: number }
  | { readonly running: false; readonly remainingMs: number };

export interface Room {
  readonly seq: number;
  readonly timers: readonly Timer[];
  readonly activeTimerId: string;
  readonly transport: Transport;
  /**
   * The active timer has run since it was made active or set back to its duration
   * (src/domain/started.ts): paused, the screens say PAUSED, otherwise READY.
   */
  readonly started: boolean;
  readonly message: Message | null;
  readonly blackout: boolean;
  readonly onAir: boolean;
  readonly settings: Settings;
  /**
   * The last screen flash, from its start on the monotonic clock; over once
   * `count` periods have passed (it is never cleared: a snapshot shows it only
   * while it lasts). Not kept on disk: a flash is over long before a restart.
   */
  readonly flash: Flash | null;
  /** The last "test chime", on the monotonic clock; like a flash, not kept on disk. */
  readonly chimeTestMonoMs: number | null;
  /** Scheduled starts already dealt with; a timer's `scheduledAt` not in here is armed. */
  readonly passedSchedules: readonly PassedSchedule[];
  /** The room's tags, in the order they were made; timers refer to them by `tagId`. */
  readonly tags: readonly Tag[];
  readonly display: DisplaySettings;
  /** Audience questions, oldest first; at most MAX_QUESTIONS. */
  readonly questions: readonly Question[];
  /** What actually happened, one entry per timer that has run since the last `show.reset`, in the order they first ran. */
  readonly actuals: readonly Actual[];
  readonly aux: AuxTimer;
  /**
   * What the tally sources last said (tally.ts): a change of their combined tally sets
   * onAir. Not kept on disk: sources repeat their state, and after a restart the first
   * report sets it again.
   */
  readonly tally: TallyReports;
  /**
   * The screen over HDMI-CEC (config `screen`), as it last answered; null when the box has
   * no screen to control. Not kept on disk: the adapter asks again after a start.
   */
  readonly screen: ScreenReport | null;
}

/** The editable fields of a timer, as the update operations take them. */
export interface TimerFields {
  readonly label?: string;
  readonly speaker?: string;
  readonly duration?: number;
  readonly warnAt?: number;
  readonly dangerAt?: number;
  readonly appearance?: Appearance;
  /** Wall-clock ms since the epoch; null clears the scheduled start. */
  readonly scheduledAt?: number | null;
  /** Wall-clock ms since the epoch to count to; null counts the duration again. */
  readonly endsAt?: number | null;
  /** One of the room's tags; null clears it. */
  readonly tagId?: string | null;
}

export type Command =
  | { readonly type: 'start' }
  | { readonly type: 'pause' }
  | { readonly type: 'toggle' }
  | { readonly type: 'reset' }
  | { readonly type: 'next' }
  | { readonly type: 'previous' }
  | { readonly type: 'adjust'; readonly ms: number }
  | { readonly type: 'message.set'; readonly message: Message }
  | { readonly type: 'message.clear' }
  | { readonly type: 'blackout.set'; readonly on: boolean }
  | { readonly type: 'blackout.toggle' }
  | { readonly type: 'onair.set'; readonly on: boolean }
  | { readonly type: 'onair.toggle' }
  /** A tally source reports on air or not (src/tally); see tally.ts for how it moves onAir. */
  | { readonly type: 'tally.set'; readonly source: TallySource; readonly on: boolean }
  /** The screen's power as it answered over HDMI-CEC (src/cec); the adapter reports, it never asks the room. */
  | { readonly type: 'screen.report'; readonly report: ScreenReport }
  | { readonly type: 'flash'; readonly count: number }
  | {
      readonly type: 'settings.set';
      readonly zeroBehavior?: ZeroBehavior;
      readonly autoAdvance?: boolean;
      readonly timeZone?: string;
      readonly clockFormat?: ClockFormat;
      readonly chimeAtZero?: boolean;
      readonly chimeAtWarning?: boolean;
      readonly chimeVolume?: number;
      /** null clears it. */
      readonly plannedStart?: number | null;
    }
  | { readonly type: 'chime.test' }
  | { readonly type: 'display.set'; readonly display: Partial<DisplaySettings> }
  /** The file is stored (or removed) by the adapter first; the room only learns its version. */
  | { readonly type: 'display.logo'; readonly logo: string | null }
  | { readonly type: 'timer.create'; readonly id: string; readonly fields: TimerFields }
  /** Timers appended at the end, all of them or none: one change (CSV import, POST /timers/import). */
  | {
      readonly type: 'timer.import';
      readonly timers: readonly { readonly id: string; readonly fields: TimerFields }[];
      /** The show's planned start, when the file gives one (a CSV's `plannedStart` column): set in the same step. */
      readonly plannedStart?: number | null;
    }
  | { readonly type: 'timer.select'; readonly id: string }
  /** Select and start in one step (a running-order row's start button): one command, so no other console's act lands between them. */
  | { readonly type: 'timer.start'; readonly id: string }
  | { readonly type: 'timer.update'; readonly id: string; readonly fields: TimerFields }
  | { readonly type: 'timer.delete'; readonly id: string }
  | { readonly type: 'timer.move'; readonly id: string; readonly to: number }
  | { readonly type: 'tag.create'; readonly id: string; readonly name: string; readonly colour: string }
  | { readonly type: 'tag.update'; readonly id: string; readonly name?: string; readonly colour?: string }
  | { readonly type: 'tag.delete'; readonly id: string }
  /** From the audience page: `id` is made by the adapter; the engine cleans and checks the text and the name. */
  | { readonly type: 'question.submit'; readonly id: string; readonly text: string; readonly name: string }
  | { readonly type: 'question.approve'; readonly id: string }
  | { readonly type: 'question.hide'; readonly id: string }
  /** Puts it on the screens (the one shown before is marked answered), with the name or without. */
  | { readonly type: 'question.show'; readonly id: string; readonly withName: boolean }
  /** Takes whatever question is shown off the screens, back to approved; nothing shown is no change. */
  | { readonly type: 'question.unshow' }
  | { readonly type: 'question.answered'; readonly id: string }
  | { readonly type: 'question.delete'; readonly id: string }
  | { readonly type: 'question.clearAnswered' }
  /** A new run of the show: the actual times are cleared and the first timer is active, paused at its full time. */
  | { readonly type: 'show.reset' }
  | { readonly type: 'aux.start' }
  | { readonly type: 'aux.pause' }
  | { readonly type: 'aux.toggle' }
  /** Back to its duration (a count-up to 0:00), paused. */
  | { readonly type: 'aux.reset' }
  | { readonly type: 'aux.adjust'; readonly ms: number }
  /** A new duration resets it (paused at the new duration); label and appearance keep the time where it is. */
  | { readonly type: 'aux.set'; readonly duration?: number; readonly appearance?: AuxAppearance; readonly label?: string };

export type CommandType = Command['type'];

/** `invalid` maps to HTTP 400, `not_found` to 404, `full` (the room holds all it can and none can make way) to 503. */
export interface CommandError {
  readonly kind: 'invalid' | 'not_found' | 'full';
  readonly message: string;
  /** For `timer.import`: the 0-based position of the timer that was refused. */
  readonly row?: number;
}
