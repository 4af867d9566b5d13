// The room engine: pure functions from (room, command, now) to a new room.
// Time is passed in as one reading of both clocks (monotonic for running time,
// wall for scheduled starts); nothing here reads a clock or does I/O.
import {
  ADJUST_MAX_MS,
  CHIME_TEST_LEAD_MS,
  CHIME_VOLUME_MAX,
  FLASH_COUNT_MAX,
  FLASH_COUNT_MIN,
  FLASH_LEAD_MS,
  DURATION_MAX_MS,
  DURATION_MIN_MS,
  LABEL_MAX_CHARS,
  MAX_TIMERS,
  MESSAGE_MAX_CHARS,
  REMAINING_MAX_MS,
  SCHEDULED_AT_MAX_MS,
  SCHEDULED_AT_MIN_MS,
  WALL_STEP_TOLERANCE_MS,
  SPEAKER_MAX_CHARS,
  TIMER_ID_MAX_CHARS,
  WARN_AT_MAX_MS,
  WARN_AT_MIN_MS,
} from './limits.js';
import { activeIndex, activeTimer, newTimer, remainingAt } from './room.js';
import { sameValue } from './same-value.js';
import { LOGO_VERSION_PATTERN, mergeDisplay } from './display-settings.js';
import { createTag, deleteTag, tagIdProblem, updateTag, type TagReduced } from './tags.js';
import {
  answerQuestion,
  approveQuestion,
  clearAnsweredQuestions,
  deleteQuestion,
  hideQuestion,
  showQuestion,
  submitQuestion,
  unshowQuestion,
  type QuestionReduced,
} from './questions.js';
import { textProblem } from './text-rules.js';
import { dropActual, endActual, recordTransition } from './actuals.js';
import { markStarted, markStartedByTime } from './started.js';
import { adjustAux, pauseAux, resetAux, setAux, startAux, type AuxReduced } from './aux.js';
import { canonicalTimeZone } from './time-zone.js';
import { reportTally } from './tally.js';
import { reportScreen } from './screen.js';
import type { Command, CommandError, Now, PassedSchedule, Room, Settings, Timer, TimerFields, Transport } from './types.js';

export type Outcome = { readonly ok: true; readonly timer?: Timer } | { readonly ok: false; readonly error: CommandError };

/** What time did by itself in a change, for the log: the room itself holds the result. */
export interface TimeEvents {
  /** The scheduled start that happened (the timer is active and running), if any. */
  readonly started: PassedSchedule | null;
  /**
   * Scheduled starts whose instant passed without them: the timer would already
   * have reached zero (the box was off, or the wall clock stepped over it), or a
   * later scheduled start came due at the same time and took over.
   */
  readonly missed: readonly PassedSchedule[];
}

const NO_TIME_EVENTS: TimeEvents = { started: null, missed: [] };

export interface Applied {
  /** The room after the command; on an error, the room with only due zero events applied. */
  readonly room: Room;
  readonly outcome: Outcome;
  /** Scheduled starts that fell due before or with the command. */
  readonly time: TimeEvents;
}

export interface Settled {
  readonly room: Room;
  readonly time: TimeEvents;
}

type Reduced = { readonly ok: true; readonly room: Room; readonly timer?: Timer } | { readonly ok: false; readonly error: CommandError };

const invalid = (message: string): Reduced => ({ ok: false, error: { kind: 'invalid', message } });
const notFound = (id: string): Reduced => ({
  ok: false,
  error: { kind: 'not_found', message: `no timer with id "${id}" in the running order` },
});

function bump(room: Room): Room {
  return { ...room, seq: room.seq + 1 };
}

function pausedAt(remainingMs: number): Transport {
  return { running: false, remainingMs };
}

/**
 * The next monotonic instant at which the room changes by itself, or null when
 * nothing is due (no scheduled start armed, and paused, or running under
 * `continue`/`hide` with nothing to advance to). A scheduled start is a wall-clock
 * instant: it is placed on the monotonic clock by the reading `now`, so after a
 * wall-clock step the caller must ask again (see RoomService).
 */
export function nextDueMonoMs(room: Room, now: Now): number | null {
  const zeroMonoMs = nextZeroMonoMs(room);
  const scheduledWallMs = nextScheduledWallMs(room);
  if (scheduledWallMs === null) return zeroMonoMs;
  const scheduledMonoMs = now.monoMs + Math.max(0, scheduledWallMs - now.wallMs);
  return zeroMonoMs === null ? scheduledMonoMs : Math.min(zeroMonoMs, scheduledMonoMs);
}

/** The earliest armed scheduled start, as a wall-clock instant, or null when none is armed. */
export function nextScheduledWallMs(room: Room): number | null {
  let earliest: number | null = null;
  for (const schedule of armedSchedules(room)) {
    if (earliest === null || schedule.scheduledAt < earliest) earliest = schedule.scheduledAt;
  }
  return earliest;
}

function isPassed(room: Room, timerId: string, scheduledAt: number): boolean {
  return room.passedSchedules.some((p) => p.timerId === timerId && p.scheduledAt === scheduledAt);
}

const NONE_ARMED: readonly PassedSchedule[] = Object.freeze([]);

/** Timers whose scheduled start has not been dealt with yet. Runs twice per command: nothing is allocated when none is armed. */
function armedSchedules(room: Room): readonly PassedSchedule[] {
  let armed: PassedSchedule[] | undefined;
  for (const timer of room.timers) {
    if (timer.scheduledAt !== null && !isPassed(room, timer.id, timer.scheduledAt)) (armed ??= []).push({ timerId: timer.id, scheduledAt: timer.scheduledAt });
  }
  return armed ?? NONE_ARMED;
}

/** The passed list with `timerId`'s entry replaced by `scheduledAt` (or removed, for null): one entry per timer. */
function withPassed(room: Room, timerId: string, scheduledAt: number | null): Room {
  const others = room.passedSchedules.filter((p) => p.timerId !== timerId);
  return { ...room, passedSchedules: scheduledAt === null ? others : [...others, { timerId, scheduledAt }] };
}

/**
 * Scheduled starts whose wall-clock instant is at or before `now`. The latest one
 * is the one that would be on now: it becomes active and runs with its end where
 * it would have been (`scheduledAt + duration`), as a `select` then `start` at its
 * instant would have left it, unless that end has passed too (the box was off, or
 * the wall clock stepped over it): then the room is left as it is and the caller
 * is told. Each is marked passed, so it fires once; a step backwards afterwards
 * finds it passed and never fires it again.
 */
function applyDueSchedules(room: Room, now: Now): Settled {
  const armed = armedSchedules(room);
  if (armed.length === 0) return { room, time: NO_TIME_EVENTS };
  const due = armed
    .filter((s) => s.scheduledAt <= now.wallMs)
    .sort((a, b) => a.scheduledAt - b.scheduledAt);
  const latest = due[due.length - 1];
  if (latest === undefined) return { room, time: NO_TIME_EVENTS };
  let next = room;
  for (const schedule of due) next = withPassed(next, schedule.timerId, schedule.scheduledAt);
  const timer = findTimer(next, latest.timerId) as Timer;
  const endWallMs = timer.endsAt ?? latest.scheduledAt + timer.duration;
  const earlier = due.slice(0, -1);
  if (endWallMs <= now.wallMs) return { room: next, time: { started: null, missed: due } };
  const before = next;
  next = { ...next, activeTimerId: timer.id, transport: { running: true, endMonoMs: now.monoMs + (endWallMs - now.wallMs) } };
  // It runs as if started at its instant (its end is placed from there), so that is when it actually started.
  next = recordTransition(before, next, latest.scheduledAt);
  return { room: next, time: { started: latest, missed: earlier } };
}

/** Zero events then scheduled starts due by `now`, uncounted: the caller counts the change. */
function applyDue(room: Room, now: Now): Settled {
  const settled = applyDueSchedules(applyDueZeroEvents(followWallClock(room, now), now), now);
  // Auto-advance and scheduled starts make another timer active by running it: it has started.
  const marked = markStartedByTime(room, settled.room);
  return marked === settled.room ? settled : { ...settled, room: marked };
}

/**
 * A running countdown to a time of day keeps its end at that wall-clock instant:
 * after a wall-clock step its monotonic end is placed again (a change, pushed, so
 * every screen shows the new remaining time).
 */
function followWallClock(room: Room, now: Now): Room {
  if (!room.transport.running) return room;
  const endsAt = activeTimer(room).endsAt;
  if (endsAt === null) return room;
  const endMonoMs = now.monoMs + (endsAt - now.wallMs);
  return Math.abs(endMonoMs - room.transport.endMonoMs) <= WALL_STEP_TOLERANCE_MS ? room : withTransport(room, { running: true, endMonoMs });
}

/** True while the room depends on the wall clock: a scheduled start is armed, or a countdown to a time of day runs. */
export function watchesWallClock(room: Room): boolean {
  return nextScheduledWallMs(room) !== null || (room.transport.running && activeTimer(room).endsAt !== null);
}

/** What a timer has left when it becomes active, paused (select, next, reset): its duration, or the time to its time of day. */
function fullRemaining(timer: Timer, now: Now): number {
  return timer.endsAt === null ? timer.duration : timer.endsAt - now.wallMs;
}

/** Where a timer that starts now ends: `plainEndMonoMs`, or its time of day on the monotonic clock. */
function runningEnd(timer: Timer, now: Now, plainEndMonoMs: number): number {
  return timer.endsAt === null ? plainEndMonoMs : now.monoMs + (timer.endsAt - now.wallMs);
}

function mergeTime(a: TimeEvents, b: TimeEvents): TimeEvents {
  if (a === NO_TIME_EVENTS) return b;
  if (b === NO_TIME_EVENTS) return a;
  return { started: b.started ?? a.started, missed: [...a.missed, ...b.missed] };
}

/** The next monotonic instant of a zero event (stop, auto-advance), or null. */
function nextZeroMonoMs(room: Room): number | null {
  if (!room.transport.running) return null;
  const hasNext = activeIndex(room) < room.timers.length - 1;
  if ((room.settings.autoAdvance && hasNext) || room.settings.zeroBehavior === 'stop') {
    return room.transport.endMonoMs;
  }
  return null;
}

/**
 * Applies every zero event due at or before `now.monoMs`: auto-advance (each next
 * timer ends exactly its duration after the previous end, so no drift builds up)
 * and `stop`; then every scheduled start due by `now.wallMs`. All of them together
 * are one change (seq + 1): they reach every client as one event, so a client that
 * checks seq for gaps sees none.
 */
export function settle(room: Room, now: Now): Room {
  return settleWithEvents(room, now).room;
}

/** settle(), also saying which scheduled starts happened or were missed (for the log). */
export function settleWithEvents(room: Room, now: Now): Settled {
  const settled = applyDue(room, now);
  return { room: settled.room === room ? room : bump(settled.room), time: settled.time };
}

/** The zero events due by `now.monoMs`, applied without counting them: the caller counts the change. */
function applyDueZeroEvents(room: Room, now: Now): Room {
  const nowMonoMs = now.monoMs;
  let current = room;
  for (;;) {
    const due = nextZeroMonoMs(current);
    if (due === null || due > nowMonoMs || !current.transport.running) return current;
    const index = activeIndex(current);
    const next = current.timers[index + 1];
    // The zero instant on the wall clock, as the reading `now` places it: when the segment actually ended.
    const zeroWallMs = now.wallMs - (now.monoMs - current.transport.endMonoMs);
    if (current.settings.autoAdvance && next !== undefined) {
      const advanced: Room = {
        ...current,
        activeTimerId: next.id,
        transport: { running: true, endMonoMs: runningEnd(next, now, current.transport.endMonoMs + next.duration) },
      };
      current = recordTransition(current, advanced, zeroWallMs);
      continue;
    }
    // zeroBehavior is `stop` here: nextDueMonoMs only reports a due instant for it or for auto-advance.
    return endActual({ ...current, transport: pausedAt(0) }, current.activeTimerId, zeroWallMs);
  }
}

function checkTimerFields(fields: TimerFields): string | null {
  const { label, speaker, duration, warnAt, dangerAt } = fields;
  const labelProblem = label === undefined ? null : textProblem('label', label, { maxChars: LABEL_MAX_CHARS, mustShow: false });
  if (labelProblem !== null) return labelProblem;
  const speakerProblem = speaker === undefined ? null : textProblem('speaker', speaker, { maxChars: SPEAKER_MAX_CHARS, mustShow: false });
  if (speakerProblem !== null) return speakerProblem;
  if (duration !== undefined && !(Number.isInteger(duration) && duration >= DURATION_MIN_MS && duration <= DURATION_MAX_MS)) {
    return `duration: must be a whole number of milliseconds from ${DURATION_MIN_MS} (1 second) to ${DURATION_MAX_MS} (24 hours)`;
  }
  if (warnAt !== undefined && !(Number.isInteger(warnAt) && warnAt >= WARN_AT_MIN_MS && warnAt <= WARN_AT_MAX_MS)) {
    return `warnAt: must be a whole number of milliseconds from ${WARN_AT_MIN_MS} to ${WARN_AT_MAX_MS} (24 hours)`;
  }
  if (dangerAt !== undefined && !(Number.isInteger(dangerAt) && dangerAt >= WARN_AT_MIN_MS && dangerAt <= WARN_AT_MAX_MS)) {
    return `dangerAt: must be a whole number of milliseconds from ${WARN_AT_MIN_MS} (none) to ${WARN_AT_MAX_MS} (24 hours)`;
  }
  for (const name of ['scheduledAt', 'endsAt'] as const) {
    const instant = fields[name];
    if (instant !== undefined && instant !== null && !(Number.isInteger(instant) && instant >= SCHEDULED_AT_MIN_MS && instant <= SCHEDULED_AT_MAX_MS)) {
      return `${name}: must be a whole number of milliseconds since the epoch from ${SCHEDULED_AT_MIN_MS} to ${SCHEDULED_AT_MAX_MS}, or null for none`;
    }
  }
  return null;
}

export const TIMER_FIELD_NAMES = ['label', 'speaker', 'duration', 'warnAt', 'dangerAt', 'appearance', 'scheduledAt', 'endsAt', 'tagId'] as const;

function hasAnyField(fields: TimerFields): boolean {
  return TIMER_FIELD_NAMES.some((key) => fields[key] !== undefined);
}

/**
 * A scheduled start set at or before `now` has passed already: it never fires
 * (a start in the past would be a surprise); one set later is armed, also when
 * the same instant fired before ("editing re-arms").
 */
function armSchedule(room: Room, timerId: string, scheduledAt: number | null, now: Now): Room {
  return withPassed(room, timerId, scheduledAt !== null && scheduledAt <= now.wallMs ? scheduledAt : null);
}

function withTransport(room: Room, transport: Transport): Room {
  return { ...room, transport };
}

/** The active timer becomes `timer`, keeping running/paused as it was. */
function moveTo(room: Room, timer: Timer, now: Now): Room {
  const transport: Transport = room.transport.running
    ? { running: true, endMonoMs: runningEnd(timer, now, now.monoMs + timer.duration) }
    : pausedAt(fullRemaining(timer, now));
  return { ...room, activeTimerId: timer.id, transport };
}

function shiftRemaining(room: Room, deltaMs: number): Room {
  return withTransport(
    room,
    room.transport.running
      ? { running: true, endMonoMs: room.transport.endMonoMs + deltaMs }
      : pausedAt(room.transport.remainingMs + deltaMs),
  );
}

function start(room: Room, now: Now): Reduced {
  if (room.transport.running) return { ok: true, room };
  const timer = activeTimer(room);
  // A countdown to a time of day always counts to that instant: a pause only held what the screens show.
  const remainingMs = timer.endsAt === null ? room.transport.remainingMs : timer.endsAt - now.wallMs;
  // Under `stop`, a timer at (or past) zero has nothing left to run.
  if (room.settings.zeroBehavior === 'stop' && remainingMs <= 0) return { ok: true, room: timer.endsAt === null ? room : withTransport(room, pausedAt(0)) };
  return { ok: true, room: withTransport(room, { running: true, endMonoMs: now.monoMs + remainingMs }) };
}

function pause(room: Room, nowMonoMs: number): Reduced {
  if (!room.transport.running) return { ok: true, room };
  return { ok: true, room: withTransport(room, pausedAt(room.transport.endMonoMs - nowMonoMs)) };
}

function step(room: Room, direction: 1 | -1, now: Now): Reduced {
  const target = room.timers[activeIndex(room) + direction];
  if (target === undefined) {
    const current = activeTimer(room);
    return direction === 1
      ? invalid(`no next timer: "${current.label}" is the last timer in the running order`)
      : invalid(`no previous timer: "${current.label}" is the first timer in the running order`);
  }
  return { ok: true, room: moveTo(room, target, now) };
}

function adjust(room: Room, ms: number, nowMonoMs: number): Reduced {
  if (!Number.isInteger(ms)) return invalid('ms: must be a whole number of milliseconds, for example 30000 or -30000');
  const active = activeTimer(room);
  if (active.endsAt !== null) {
    return invalid(
      `ms: "${active.label}" counts to a time of day (endsAt ${new Date(active.endsAt).toISOString()}), which adjust cannot move; ` +
        'change its endsAt with /timer/{id}/update instead',
    );
  }
  if (Math.abs(ms) > ADJUST_MAX_MS) {
    return invalid(`ms: ${ms} is beyond the limit of ${ADJUST_MAX_MS} (1 hour) in either direction per call`);
  }
  const resultMs = remainingAt(room, nowMonoMs) + ms;
  if (resultMs > REMAINING_MAX_MS) {
    return invalid(`ms: adjusting by ${ms} would leave ${resultMs} ms, above the maximum of ${REMAINING_MAX_MS} (24 hours)`);
  }
  return { ok: true, room: shiftRemaining(room, ms) };
}

function findTimer(room: Room, id: string): Timer | undefined {
  return room.timers.find((t) => t.id === id);
}

function createTimer(room: Room, id: string, fields: TimerFields, now: Now): Reduced {
  const problem = checkTimerFields(fields) ?? tagIdProblem(room, fields.tagId);
  if (problem !== null) return invalid(problem);
  if (id.length === 0 || id.length > TIMER_ID_MAX_CHARS) return invalid(`id: must be 1 to ${TIMER_ID_MAX_CHARS} characters`);
  if (findTimer(room, id) !== undefined) return invalid(`id: a timer with id "${id}" already exists`);
  if (room.timers.length >= MAX_TIMERS) {
    return invalid(`the running order is full: it holds at most ${MAX_TIMERS} timers; delete one before adding another`);
  }
  const timer = newTimer(id, fields, room.timers.length + 1);
  return { ok: true, room: armSchedule({ ...room, timers: [...room.timers, timer] }, id, timer.scheduledAt, now), timer };
}

/** Each timer appended as timer.create would, with the same checks; the first refusal refuses them all, naming its row. */
function importTimers(room: Room, timers: readonly { readonly id: string; readonly fields: TimerFields }[], plannedStart: number | null | undefined, now: Now): Reduced {
  if (timers.length === 0) return invalid('timers: an import needs at least one timer');
  const startProblem = plannedStartProblem(plannedStart);
  if (startProblem !== null) return invalid(startProblem);
  let current = plannedStart === undefined ? room : { ...room, settings: { ...room.settings, plannedStart } };
  for (const [row, timer] of timers.entries()) {
    const created = createTimer(current, timer.id, timer.fields, now);
    if (!created.ok) return { ok: false, error: { ...created.error, row } };
    current = created.room;
  }
  return { ok: true, room: current };
}

function updateTimer(room: Room, id: string, fields: TimerFields, now: Now): Reduced {
  const nowMonoMs = now.monoMs;
  const existing = findTimer(room, id);
  if (existing === undefined) return notFound(id);
  if (!hasAnyField(fields)) return invalid('update needs at least one field: label, speaker, duration, warnAt, dangerAt, appearance, scheduledAt, endsAt or tagId');
  const problem = checkTimerFields(fields) ?? tagIdProblem(room, fields.tagId);
  if (problem !== null) return invalid(problem);
  const updated: Timer = {
    ...existing,
    label: fields.label ?? existing.label,
    speaker: fields.speaker ?? existing.speaker,
    duration: fields.duration ?? existing.duration,
    warnAt: fields.warnAt ?? existing.warnAt,
    dangerAt: fields.dangerAt ?? existing.dangerAt,
    appearance: fields.appearance ?? existing.appearance,
    // null is a value here (no scheduled start), so only a missing field keeps the old one.
    scheduledAt: fields.scheduledAt === undefined ? existing.scheduledAt : fields.scheduledAt,
    endsAt: fields.endsAt === undefined ? existing.endsAt : fields.endsAt,
    tagId: fields.tagId === undefined ? existing.tagId : fields.tagId,
  };
  let next: Room = { ...room, timers: room.timers.map((t) => (t.id === id ? updated : t)) };
  if (fields.scheduledAt !== undefined) next = armSchedule(next, id, updated.scheduledAt, now);
  if (id === room.activeTimerId && updated.endsAt !== null && updated.endsAt !== existing.endsAt) {
    // A new time of day is the active timer's end from now on, running or paused.
    return { ok: true, room: withTransport(next, room.transport.running ? { running: true, endMonoMs: runningEnd(updated, now, 0) } : pausedAt(fullRemaining(updated, now))) };
  }
  // A new duration on the active timer keeps the time already elapsed; a countdown to a time of day has its end already.
  const deltaMs = updated.endsAt === null ? updated.duration - existing.duration : 0;
  if (id === room.activeTimerId && deltaMs !== 0) {
    const resultMs = remainingAt(room, nowMonoMs) + deltaMs;
    if (resultMs > REMAINING_MAX_MS) {
      return invalid(`duration: the active timer would have ${resultMs} ms left, above the maximum of ${REMAINING_MAX_MS} (24 hours)`);
    }
    next = shiftRemaining(next, deltaMs);
  }
  return { ok: true, room: next };
}

function deleteTimer(room: Room, id: string, now: Now): Reduced {
  const index = room.timers.findIndex((t) => t.id === id);
  if (index < 0) return notFound(id);
  if (room.timers.length === 1) return invalid('cannot delete the last timer: the running order always keeps one');
  const timers = room.timers.filter((t) => t.id !== id);
  const kept = dropActual(withPassed(room, id, null), id);
  if (id !== room.activeTimerId) return { ok: true, room: { ...kept, timers } };
  // The following timer takes over, or the previous one when the last was deleted.
  const successor = (timers[index] ?? timers[index - 1]) as Timer;
  return { ok: true, room: { ...kept, timers, activeTimerId: successor.id, transport: pausedAt(fullRemaining(successor, now)) } };
}

function moveTimer(room: Room, id: string, to: number): Reduced {
  const timer = findTimer(room, id);
  if (timer === undefined) return notFound(id);
  const last = room.timers.length - 1;
  if (!Number.isInteger(to) || to < 0 || to > last) {
    return invalid(`to: position must be a whole number from 0 to ${last} (0 is the top of the running order)`);
  }
  const timers = room.timers.filter((t) => t.id !== id);
  timers.splice(to, 0, timer);
  return { ok: true, room: { ...room, timers } };
}

/** Every tag refusal names a field of the request (400), also an unknown tag id. */
function fromTag(reduced: TagReduced): Reduced {
  return reduced.ok ? { ok: true, room: reduced.room } : invalid(reduced.message);
}

function fromQuestion(reduced: QuestionReduced): Reduced {
  return reduced.ok ? { ok: true, room: reduced.room } : { ok: false, error: reduced.error };
}

function fromAux(room: Room, reduced: AuxReduced): Reduced {
  return reduced.ok ? { ok: true, room: { ...room, aux: reduced.aux } } : invalid(reduced.message);
}

/** A new run of the show: no actual times, the first timer active at its full time, paused. */
function resetShow(room: Room, now: Now): Reduced {
  const first = room.timers[0] as Timer;
  return { ok: true, room: { ...room, actuals: [], activeTimerId: first.id, transport: pausedAt(fullRemaining(first, now)) } };
}

function plannedStartProblem(plannedStart: number | null | undefined): string | null {
  if (plannedStart === undefined || plannedStart === null) return null;
  return Number.isInteger(plannedStart) && plannedStart >= SCHEDULED_AT_MIN_MS && plannedStart <= SCHEDULED_AT_MAX_MS
    ? null
    : `plannedStart: must be a whole number of milliseconds since the epoch from ${SCHEDULED_AT_MIN_MS} to ${SCHEDULED_AT_MAX_MS}, or null for none`;
}

function reduce(room: Room, command: Command, now: Now): Reduced {
  const nowMonoMs = now.monoMs;
  switch (command.type) {
    case 'start':
      return start(room, now);
    case 'pause':
      return pause(room, nowMonoMs);
    case 'toggle':
      return room.transport.running ? pause(room, nowMonoMs) : start(room, now);
    case 'reset':
      return { ok: true, room: withTransport(room, pausedAt(fullRemaining(activeTimer(room), now))) };
    case 'next':
      return step(room, 1, now);
    case 'previous':
      return step(room, -1, now);
    case 'adjust':
      return adjust(room, command.ms, nowMonoMs);
    case 'message.set': {
      const text = command.message.text.trim();
      const problem = textProblem('text', text, { maxChars: MESSAGE_MAX_CHARS, mustShow: true });
      if (problem !== null) return invalid(problem);
      return { ok: true, room: { ...room, message: { ...command.message, text } } };
    }
    case 'message.clear':
      return { ok: true, room: { ...room, message: null } };
    case 'blackout.set':
      return { ok: true, room: { ...room, blackout: command.on } };
    case 'blackout.toggle':
      return { ok: true, room: { ...room, blackout: !room.blackout } };
    case 'onair.set':
      return { ok: true, room: { ...room, onAir: command.on } };
    case 'onair.toggle':
      return { ok: true, room: { ...room, onAir: !room.onAir } };
    case 'tally.set':
      return { ok: true, room: reportTally(room, command.source, command.on) };
    case 'screen.report':
      return { ok: true, room: reportScreen(room, command.report) };
    case 'chime.test':
      return { ok: true, room: { ...room, chimeTestMonoMs: now.monoMs + CHIME_TEST_LEAD_MS } };
    case 'display.set': {
      const merged = mergeDisplay(room.display, command.display);
      return merged.ok ? { ok: true, room: { ...room, display: merged.display } } : invalid(merged.message);
    }
    case 'display.logo':
      if (command.logo !== null && !LOGO_VERSION_PATTERN.test(command.logo)) return invalid('logo: not a stored logo version');
      return { ok: true, room: { ...room, display: { ...room.display, logo: command.logo } } };
    case 'flash':
      if (!(Number.isInteger(command.count) && command.count >= FLASH_COUNT_MIN && command.count <= FLASH_COUNT_MAX)) {
        return invalid(`count: must be a whole number of flashes from ${FLASH_COUNT_MIN} to ${FLASH_COUNT_MAX}`);
      }
      // A new flash replaces one still going: the screens follow the latest.
      return { ok: true, room: { ...room, flash: { startMonoMs: now.monoMs + FLASH_LEAD_MS, count: command.count } } };
    case 'settings.set': {
      const { zeroBehavior, autoAdvance, timeZone, clockFormat, chimeAtZero, chimeAtWarning, chimeVolume, plannedStart } = command;
      const given = [zeroBehavior, autoAdvance, timeZone, clockFormat, chimeAtZero, chimeAtWarning, chimeVolume, plannedStart];
      if (given.every((value) => value === undefined)) {
        return invalid('settings: give at least one of zeroBehavior, autoAdvance, timeZone, clockFormat, chimeAtZero, chimeAtWarning, chimeVolume or plannedStart');
      }
      const startProblem = plannedStartProblem(plannedStart);
      if (startProblem !== null) return invalid(startProblem);
      if (chimeVolume !== undefined && !(Number.isInteger(chimeVolume) && chimeVolume >= 0 && chimeVolume <= CHIME_VOLUME_MAX)) {
        return invalid(`chimeVolume: must be a whole number from 0 to ${CHIME_VOLUME_MAX} (percent)`);
      }
      const zone = timeZone === undefined ? room.settings.timeZone : canonicalTimeZone(timeZone);
      if (zone === null) {
        return invalid(`timeZone: unknown time zone ${JSON.stringify(timeZone)}; give an IANA name such as Europe/Berlin, America/New_York or UTC`);
      }
      const settings: Settings = {
        zeroBehavior: zeroBehavior ?? room.settings.zeroBehavior,
        autoAdvance: autoAdvance ?? room.settings.autoAdvance,
        timeZone: zone,
        clockFormat: clockFormat ?? room.settings.clockFormat,
        chimeAtZero: chimeAtZero ?? room.settings.chimeAtZero,
        chimeAtWarning: chimeAtWarning ?? room.settings.chimeAtWarning,
        chimeVolume: chimeVolume ?? room.settings.chimeVolume,
        // null is a value here (no planned start), so only a missing field keeps the old one.
        plannedStart: plannedStart === undefined ? room.settings.plannedStart : plannedStart,
      };
      return { ok: true, room: { ...room, settings } };
    }
    case 'timer.create':
      return createTimer(room, command.id, command.fields, now);
    case 'timer.import':
      return importTimers(room, command.timers, command.plannedStart, now);
    case 'timer.select': {
      const timer = findTimer(room, command.id);
      if (timer === undefined) return notFound(command.id);
      return { ok: true, room: { ...room, activeTimerId: timer.id, transport: pausedAt(fullRemaining(timer, now)) } };
    }
    case 'timer.start': {
      const timer = findTimer(room, command.id);
      if (timer === undefined) return notFound(command.id);
      // The active timer resumes where it is (a second press never restarts a running
      // timer from full); another one is selected at its full duration and started.
      if (timer.id === room.activeTimerId) return start(room, now);
      return start({ ...room, activeTimerId: timer.id, transport: pausedAt(fullRemaining(timer, now)) }, now);
    }
    case 'timer.update':
      return updateTimer(room, command.id, command.fields, now);
    case 'timer.delete':
      return deleteTimer(room, command.id, now);
    case 'timer.move':
      return moveTimer(room, command.id, command.to);
    case 'tag.create':
      return fromTag(createTag(room, command.id, command.name, command.colour));
    case 'tag.update':
      return fromTag(updateTag(room, command.id, command.name, command.colour));
    case 'tag.delete':
      return fromTag(deleteTag(room, command.id));
    case 'question.submit':
      return fromQuestion(submitQuestion(room, command.id, command.text, command.name, Math.round(now.wallMs)));
    case 'question.approve':
      return fromQuestion(approveQuestion(room, command.id));
    case 'question.hide':
      return fromQuestion(hideQuestion(room, command.id));
    case 'question.show':
      return fromQuestion(showQuestion(room, command.id, command.withName));
    case 'question.unshow':
      return fromQuestion(unshowQuestion(room));
    case 'question.answered':
      return fromQuestion(answerQuestion(room, command.id));
    case 'question.delete':
      return fromQuestion(deleteQuestion(room, command.id));
    case 'question.clearAnswered':
      return fromQuestion(clearAnsweredQuestions(room));
    case 'show.reset':
      return resetShow(room, now);
    case 'aux.start':
      return { ok: true, room: { ...room, aux: startAux(room.aux, nowMonoMs) } };
    case 'aux.pause':
      return { ok: true, room: { ...room, aux: pauseAux(room.aux, nowMonoMs) } };
    case 'aux.toggle':
      return { ok: true, room: { ...room, aux: room.aux.transport.running ? pauseAux(room.aux, nowMonoMs) : startAux(room.aux, nowMonoMs) } };
    case 'aux.reset':
      return { ok: true, room: { ...room, aux: resetAux(room.aux) } };
    case 'aux.adjust':
      return fromAux(room, adjustAux(room.aux, command.ms, nowMonoMs));
    case 'aux.set': {
      const { duration, appearance, label } = command;
      return fromAux(room, setAux(room.aux, { ...(duration === undefined ? {} : { duration }), ...(appearance === undefined ? {} : { appearance }), ...(label === undefined ? {} : { label }) }));
    }
    default: {
      const unknown: never = command;
      throw new Error(`unhandled command ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Under `stop` a timer never shows overrun: a running one is stopped at 0 by
 * settle(), and an edit of a paused one (adjust, a shorter duration, switching
 * to `stop` while paused in overrun) lands on 0 the same way, not below.
 */
function holdAtZeroUnderStop(room: Room): Room {
  if (room.settings.zeroBehavior !== 'stop' || room.transport.running || room.transport.remainingMs >= 0) return room;
  return withTransport(room, pausedAt(0));
}

/**
 * sameValue(a, b) for two rooms, without the key array sameValue makes for the
 * room's twenty-odd fields on every command: a command makes a new room that
 * shares every part it did not change, so most fields are the same object and
 * only the changed ones are compared in depth.
 */
function sameRoom(a: Room, b: Room): boolean {
  if (a === b) return true;
  const aRecord = a as unknown as Record<string, unknown>;
  const bRecord = b as unknown as Record<string, unknown>;
  // Own enumerable keys, as sameValue's Object.keys: for...in also walks the prototype, hasOwn keeps the own ones.
  let count = 0;
  for (const key in aRecord) {
    if (!Object.hasOwn(aRecord, key)) continue;
    count += 1;
    if (!Object.hasOwn(bRecord, key) || !sameValue(aRecord[key], bRecord[key])) return false;
  }
  for (const key in bRecord) if (Object.hasOwn(bRecord, key)) count -= 1;
  return count === 0;
}

/**
 * Applies one command at `now`: first every zero event and scheduled start already
 * due, then the command (seq + 1 if it changed anything), then any zero event it
 * made due at once. One command is one change: the events that fell due before it
 * (a wake-up that is late) and those it causes (`zeroBehavior=stop` while
 * overrunning) are part of it, so seq rises by exactly 1 and clients get one event.
 */
/** Commands that set the active timer back to "not started" (READY), as a newly selected one. */
const REARMING: ReadonlySet<Command['type']> = new Set(['reset', 'timer.select', 'show.reset', 'timer.import']);

export function applyCommand(room: Room, command: Command, now: Now): Applied {
  const settled = applyDue(room, now);
  const reduced = reduce(settled.room, command, now);
  // Refused: only what time did happens, itself one change.
  if (!reduced.ok) {
    return { room: settled.room === room ? room : bump(settled.room), outcome: { ok: false, error: reduced.error }, time: settled.time };
  }
  // What the command itself did to the show's actual times, at the moment it came, and whether the active timer has run.
  const recorded = recordTransition(settled.room, markStarted(settled.room, reduced.room, REARMING.has(command.type)), now.wallMs);
  const after = applyDue(holdAtZeroUnderStop(recorded), now);
  const result = after.room;
  return {
    room: sameRoom(room, result) ? room : bump(result),
    outcome: reduced.timer === undefined ? { ok: true } : { ok: true, timer: reduced.timer },
    time: mergeTime(settled.time, after.time),
  };
}
