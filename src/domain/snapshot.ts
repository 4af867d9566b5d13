// The State snapshot of remote-control-api.md §2. Wall-clock values are derived
// here, at the moment the snapshot is made, from one monotonic and one wall
// reading, so a wall-clock step never changes the remaining time.
import { CHIME_TEST_SHOWN_MS, FLASH_PERIOD_MS } from './limits.js';
import { shownQuestion, type ShownQuestion } from './questions.js';
import { activeTimer, remainingAt } from './room.js';
import { auxRemainingAt } from './aux.js';
import { sameSchedule, scheduleOf, type Schedule } from './schedule.js';
import { tallySnapshot, type TallySnapshot } from './tally.js';
import type { Actual, ScreenReport, AuxAppearance, AuxTimer, DisplaySettings, Message, Question, Room, Settings, Tag, Timer, ZeroBehavior } from './types.js';

/** The second timer as the snapshot carries it: the same transport fields as the main one. */
export interface AuxSnapshot {
  readonly label: string;
  readonly duration: number;
  readonly appearance: AuxAppearance;
  readonly running: boolean;
  /** Running: when it reaches zero, on the server's wall clock. */
  readonly endAt: number | null;
  readonly remainingAtPause: number | null;
  /** At `serverNow`; negative is overrun. A count-up shows `duration - remaining`. */
  readonly remaining: number;
}

export interface Snapshot {
  readonly seq: number;
  readonly serverNow: number;
  readonly running: boolean;
  readonly endAt: number | null;
  readonly remainingAtPause: number | null;
  readonly remaining: number;
  readonly zeroBehavior: ZeroBehavior;
  readonly autoAdvance: boolean;
  readonly blackout: boolean;
  readonly onAir: boolean;
  readonly activeTimerId: string;
  readonly activeLabel: string;
  readonly activeSpeaker: string;
  readonly warnAt: number;
  /** The active timer's red threshold; 0 is none. */
  readonly dangerAt: number;
  readonly duration: number;
  readonly message: Message | null;
  readonly timers: readonly Timer[];
  /** The room's tags, which timers carry by `tagId`. */
  readonly tags: readonly Tag[];
  readonly settings: Settings;
  /** How the screens look (layout, colours, what they show). */
  readonly display: DisplaySettings;
  /** A screen flash that has not ended yet, on the server's wall clock; null otherwise. */
  readonly flash: SnapshotFlash | null;
  /** A "test chime": the server instant every display plays it, for a second after; null otherwise. */
  readonly chimeTestAt: number | null;
  /** The audience question on the screens (its name only if the moderator chose to show it), or null. */
  readonly shownQuestion: ShownQuestion | null;
  /**
   * Every audience question, for the holders of the API key (consoles, button
   * panels). Absent from what the viewer link and the kiosk get (publicSnapshot).
   */
  readonly questions?: readonly Question[];
  /**
   * The active timer has run since it was made active or set back to its duration:
   * paused, the screens say PAUSED, otherwise READY, whatever the time left.
   */
  readonly started: boolean;
  /** What actually happened: each timer's first start and last end, since the last show reset. */
  readonly actuals: readonly Actual[];
  readonly aux: AuxSnapshot;
  /** What the tally sources last said (src/tally), and whether any says on; null while none has reported since the start. */
  readonly tally: TallySnapshot | null;
  /** The screen's power as it last answered over HDMI-CEC (src/cec); null when the box controls no screen. */
  readonly screen: ScreenReport | null;
  /**
   * The schedule at `serverNow` (planned, actual and projected times, the offset).
   * In GET /state and every answer; the push streams leave it out, since it is
   * derived from the fields they carry: a client computes it with scheduleOf()
   * at its estimate of the server's time, so it follows the clock between events.
   */
  readonly schedule?: Schedule;
}

/** The snapshot as a push stream carries it: no schedule (derived, and it would grow every event by a row per timer). */
export type StreamSnapshot = Omit<Snapshot, 'schedule'>;

/** The snapshot as the viewer link and the kiosk get it: the shown question only, none of the others. */
export type PublicSnapshot = Omit<StreamSnapshot, 'questions'>;

export function streamSnapshot(snapshot: Snapshot): StreamSnapshot {
  const { schedule: _schedule, ...rest } = snapshot;
  return rest;
}

export function publicSnapshot(snapshot: Snapshot): PublicSnapshot {
  const { questions: _questions, schedule: _schedule, ...rest } = snapshot;
  return rest;
}

export interface SnapshotFlash {
  /** Server instant (ms since epoch) of the first inversion. */
  readonly startAt: number;
  readonly count: number;
  /** Inverted for the first half of each period. */
  readonly periodMs: number;
  /** Server instant at which it is over. */
  readonly endAt: number;
}

export function toSnapshot(room: Room, nowMonoMs: number, wallNowMs: number): Snapshot {
  const serverNow = Math.round(wallNowMs);
  const remaining = Math.round(remainingAt(room, nowMonoMs));
  const timer = activeTimer(room);
  const running = room.transport.running;
  const endAt = running ? serverNow + remaining : null;
  const remainingAtPause = running ? null : remaining;
  // The schedule from the same fields a client derives it from (ScheduleInput), made before the snapshot so it is built once.
  const schedule = steadySchedule(
    scheduleOf({ timers: room.timers, activeTimerId: room.activeTimerId, settings: room.settings, actuals: room.actuals, running, endAt, remainingAtPause }, serverNow),
  );
  return {
    seq: room.seq,
    serverNow,
    running,
    endAt,
    remainingAtPause,
    remaining,
    zeroBehavior: room.settings.zeroBehavior,
    autoAdvance: room.settings.autoAdvance,
    blackout: room.blackout,
    onAir: room.onAir,
    activeTimerId: timer.id,
    activeLabel: timer.label,
    activeSpeaker: timer.speaker,
    warnAt: timer.warnAt,
    dangerAt: timer.dangerAt,
    duration: timer.duration,
    message: room.message,
    timers: room.timers,
    tags: room.tags,
    settings: room.settings,
    display: room.display,
    flash: flashOf(room, nowMonoMs, serverNow),
    chimeTestAt:
      room.chimeTestMonoMs === null || room.chimeTestMonoMs + CHIME_TEST_SHOWN_MS <= nowMonoMs
        ? null
        : serverNow + Math.round(room.chimeTestMonoMs - nowMonoMs),
    shownQuestion: shownQuestion(room),
    questions: room.questions,
    started: room.started,
    actuals: room.actuals,
    aux: auxSnapshot(room.aux, nowMonoMs, serverNow),
    tally: tallySnapshot(room.tally),
    screen: room.screen,
    schedule,
  };
}

/** The last schedule a snapshot carried: see steadySchedule. */
let lastSchedule: Schedule | null = null;

/**
 * The schedule, as the same object as the last snapshot's while its values are the
 * same (a running show: nothing in it moves until a zero or a command), so its JSON
 * text is made once and kept by identity (snapshot-json.ts), as the room's own parts
 * are: with 100 timers it is about 17 KB, and writing it for every answer cost more
 * than the rest of the answer (BENCHMARKS.md). A cache only: the value is the same.
 */
function steadySchedule(schedule: Schedule): Schedule {
  if (lastSchedule !== null && sameSchedule(lastSchedule, schedule)) return lastSchedule;
  lastSchedule = schedule;
  return schedule;
}

export function auxSnapshot(aux: AuxTimer, nowMonoMs: number, serverNow: number): AuxSnapshot {
  const remaining = Math.round(auxRemainingAt(aux, nowMonoMs));
  return {
    label: aux.label,
    duration: aux.duration,
    appearance: aux.appearance,
    running: aux.transport.running,
    endAt: aux.transport.running ? serverNow + remaining : null,
    remainingAtPause: aux.transport.running ? null : remaining,
    remaining,
  };
}

function flashOf(room: Room, nowMonoMs: number, serverNow: number): SnapshotFlash | null {
  const flash = room.flash;
  if (flash === null) return null;
  const endMonoMs = flash.startMonoMs + flash.count * FLASH_PERIOD_MS;
  if (endMonoMs <= nowMonoMs) return null;
  const startAt = serverNow + Math.round(flash.startMonoMs - nowMonoMs);
  return { startAt, count: flash.count, periodMs: FLASH_PERIOD_MS, endAt: startAt + flash.count * FLASH_PERIOD_MS };
}
