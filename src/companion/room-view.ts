// What the buttons show at a server instant, read with the display's own face
// logic (src/client/face.ts), so a key and the HDMI screen flip on the same second. Pure:
// the snapshot and the estimated server time come in, nothing reads a clock.
import type { Snapshot } from '../domain/snapshot.js';
import { faceAt, formatSeconds, readsReady } from '../client/face.js';
import { auxViewAt, type AuxView } from './aux-view.js';
import { scheduleViewAt, type ScheduleView } from './schedule-view.js';

export const PHASES = ['ready', 'running', 'warning', 'danger', 'overrun', 'paused', 'stopped'] as const;
export type Phase = (typeof PHASES)[number];

export interface RoomView {
  /** Remaining ms as the display counts it: under `stop` never below 0. */
  readonly remainingMs: number;
  /** The countdown as the display writes it: `4:59`, `1:02:03`, `0:00`, `+0:05` in overrun. */
  readonly remaining: string;
  /** The same with a sign for both directions: `-4:59`, `0:00`, `+0:05`. */
  readonly remainingSigned: string;
  /** Parts of the shown countdown, without sign: hours unpadded, minutes and seconds two digits. */
  readonly hours: string;
  readonly minutes: string;
  readonly seconds: string;
  /** The display's big digits for the timer's appearance (countdown, count-up, time of day); empty while hidden at zero. */
  readonly displayTime: string;
  /** Whole seconds of the duration the shown countdown has used up, never negative. */
  readonly elapsedSeconds: number;
  /** Elapsed share of the duration, 0..1, moving with the digits. */
  readonly progress: number;
  readonly phase: Phase;
  /** Where the show stands against its plan (offset, projected end), computed at this instant. */
  readonly schedule: ScheduleView;
  /** The second timer. */
  readonly aux: AuxView;
  /**
   * The next server instant at which anything here changes, the schedule and the
   * aux timer included; null when nothing changes by time alone.
   */
  readonly nextChangeAt: number | null;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

function phaseOf(state: Snapshot, remainingMs: number): Phase {
  // Under `stop` the server pauses at zero; until its event arrives the key already reads "stopped".
  if (state.zeroBehavior === 'stop' && remainingMs <= 0) return 'stopped';
  if (!(state.running && state.endAt !== null)) return readsReady(state, remainingMs) ? 'ready' : 'paused';
  if (remainingMs <= 0) return 'overrun';
  if (state.dangerAt > 0 && remainingMs <= state.dangerAt) return 'danger';
  return remainingMs <= state.warnAt ? 'warning' : 'running';
}

function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

export function viewAt(state: Snapshot, serverNowMs: number): RoomView {
  // Keys count through a blackout and show no flash, so neither may stop or add ticks.
  const quiet = { ...state, message: null, blackout: false };
  // The countdown regardless of the timer's appearance (no timer found reads as `countdown`),
  // and past zero under `hide` too: the control room still wants to see the overrun.
  const countdown = faceAt({ ...quiet, timers: [], zeroBehavior: state.zeroBehavior === 'hide' ? 'continue' : state.zeroBehavior }, serverNowMs);
  const display = faceAt(quiet, serverNowMs);

  const raw = state.running && state.endAt !== null ? state.endAt - serverNowMs : (state.remainingAtPause ?? 0);
  const remainingMs = state.zeroBehavior === 'stop' ? Math.max(0, raw) : raw;
  // The digits read ceil(r/1000); `|| 0` turns the -0 of ceil(-0.5) into 0.
  const shown = Math.ceil(remainingMs / 1000) || 0;
  const abs = Math.abs(shown);
  const text = formatSeconds(abs);
  const schedule = scheduleViewAt(state, serverNowMs);
  const aux = auxViewAt(state, serverNowMs);
  return {
    remainingMs,
    remaining: countdown.face.time,
    remainingSigned: shown > 0 ? `-${text}` : shown < 0 ? `+${text}` : text,
    hours: String(Math.floor(abs / 3600)),
    minutes: two(Math.floor((abs % 3600) / 60)),
    seconds: two(abs % 60),
    displayTime: display.face.time,
    elapsedSeconds: Math.max(0, Math.ceil(state.duration / 1000) - shown),
    progress: countdown.face.progress ?? 0,
    phase: phaseOf(state, remainingMs),
    schedule,
    aux,
    nextChangeAt: earliest(earliest(countdown.nextChangeAt, display.nextChangeAt), earliest(schedule.nextChangeAt, aux.nextChangeAt)),
  };
}

/** 1-based position of the active timer in the running order; 0 if it is not in it. */
export function activePosition(state: Snapshot): number {
  return state.timers.findIndex((t) => t.id === state.activeTimerId) + 1;
}
