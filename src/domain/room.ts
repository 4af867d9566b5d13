// Creating a room and reading from it. Pure: the caller passes ids and time in.
import { CHIME_VOLUME_DEFAULT, DURATION_DEFAULT_MS, WARN_AT_DEFAULT_MS } from './limits.js';

/** Sound is off until someone turns it on: a room that has always been silent stays so. */
export const CHIME_DEFAULTS = { chimeAtZero: false, chimeAtWarning: false, chimeVolume: CHIME_VOLUME_DEFAULT } as const;
import type { AuxTimer, DisplaySettings, Room, Timer, TimerFields } from './types.js';

/** The second timer of a new room: a five-minute countdown, paused (a changeover, a speaker's own clock). */
export const AUX_DEFAULT: AuxTimer = { label: 'Aux', duration: 300_000, appearance: 'countdown', transport: { running: false, remainingMs: 300_000 } };

/** The display as it always looked: white, orange and red digits on black, title, speaker, bar and message. */
export const DISPLAY_DEFAULTS: DisplaySettings = {
  layout: 'full',
  background: '#000000',
  normalColour: '#ffffff',
  warningColour: '#ff9f0a',
  overrunColour: '#ff3b30',
  timeSize: 100,
  showTitle: true,
  showSpeaker: true,
  showProgress: true,
  showTimeOfDay: false,
  showNext: false,
  showTag: true,
  showMessage: true,
  showLogo: true,
  showQuestion: true,
  showAskLink: false,
  showOverUnder: false,
  showShowEnd: false,
  showAux: false,
  logo: null,
};

export function newTimer(id: string, fields: TimerFields, position: number): Timer {
  return {
    id,
    label: fields.label ?? `Timer ${position}`,
    speaker: fields.speaker ?? '',
    duration: fields.duration ?? DURATION_DEFAULT_MS,
    warnAt: fields.warnAt ?? WARN_AT_DEFAULT_MS,
    dangerAt: fields.dangerAt ?? 0,
    appearance: fields.appearance ?? 'countdown',
    tagId: fields.tagId ?? null,
    scheduledAt: fields.scheduledAt ?? null,
    endsAt: fields.endsAt ?? null,
  };
}

/**
 * A new room (empty data directory): one default timer, paused at its duration, seq 1.
 * `timeZone` is the box's own zone (the caller reads it; the engine reads nothing).
 */
export function createRoom(firstTimerId: string, timeZone = 'UTC'): Room {
  const timer = newTimer(firstTimerId, {}, 1);
  return {
    seq: 1,
    timers: [timer],
    activeTimerId: timer.id,
    transport: { running: false, remainingMs: timer.duration },
    started: false,
    message: null,
    blackout: false,
    onAir: false,
    settings: { zeroBehavior: 'continue', autoAdvance: false, timeZone, clockFormat: '24h', ...CHIME_DEFAULTS, plannedStart: null },
    flash: null,
    chimeTestMonoMs: null,
    passedSchedules: [],
    tags: [],
    display: DISPLAY_DEFAULTS,
    questions: [],
    actuals: [],
    aux: AUX_DEFAULT,
    tally: {},
    screen: null,
  };
}

export function activeIndex(room: Room): number {
  const index = room.timers.findIndex((t) => t.id === room.activeTimerId);
  if (index < 0) throw new Error(`room invariant broken: active timer ${room.activeTimerId} is not in the running order`);
  return index;
}

export function activeTimer(room: Room): Timer {
  return room.timers[activeIndex(room)] as Timer;
}

/** Remaining ms of the active timer at `nowMonoMs`; negative is overrun. */
export function remainingAt(room: Room, nowMonoMs: number): number {
  return room.transport.running ? room.transport.endMonoMs - nowMonoMs : room.transport.remainingMs;
}
