// The room engine: pure functions from (room, command, now) to a new room.
// Time is monotonic milliseconds passed in; nothing here reads a clock or does I/O.
import {
  ADJUST_MAX_MS,
  DURATION_MAX_MS,
  DURATION_MIN_MS,
  LABEL_MAX_CHARS,
  MAX_TIMERS,
  MESSAGE_MAX_CHARS,
  REMAINING_MAX_MS,
  SPEAKER_MAX_CHARS,
  TIMER_ID_MAX_CHARS,
  WARN_AT_MAX_MS,
  WARN_AT_MIN_MS,
} from './limits.js';
import { activeIndex, activeTimer, newTimer, remainingAt } from './room.js';
import { sameValue } from './same-value.js';
import { textProblem } from './text-rules.js';
import type { Command, CommandError, Room, Timer, TimerFields, Transport } from './types.js';

export type Outcome = { readonly ok: true; readonly timer?: Timer } | { readonly ok: false; readonly error: CommandError };

export interface Applied {
  /** The room after the command; on an error, the room with only due zero events applied. */
  readonly room: Room;
  readonly outcome: Outcome;
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
 * nothing is due (paused, or running under `continue`/`hide` with nothing to advance to).
 */
export function nextDueMonoMs(room: Room): number | null {
  if (!room.transport.running) return null;
  const hasNext = activeIndex(room) < room.timers.length - 1;
  if ((room.settings.autoAdvance && hasNext) || room.settings.zeroBehavior === 'stop') {
    return room.transport.endMonoMs;
  }
  return null;
}

/**
 * Applies every zero event due at or before `nowMonoMs`: auto-advance (each next
 * timer ends exactly its duration after the previous end, so no drift builds up)
 * and `stop`. All of them together are one change (seq + 1): they reach every
 * client as one event, so a client that checks seq for gaps sees none.
 */
export function settle(room: Room, nowMonoMs: number): Room {
  const settled = applyDueZeroEvents(room, nowMonoMs);
  return settled === room ? room : bump(settled);
}

/** The zero events due by `nowMonoMs`, applied without counting them: the caller counts the change. */
function applyDueZeroEvents(room: Room, nowMonoMs: number): Room {
  let current = room;
  for (;;) {
    const due = nextDueMonoMs(current);
    if (due === null || due > nowMonoMs || !current.transport.running) return current;
    const index = activeIndex(current);
    const next = current.timers[index + 1];
    if (current.settings.autoAdvance && next !== undefined) {
      current = {
        ...current,
        activeTimerId: next.id,
        transport: { running: true, endMonoMs: current.transport.endMonoMs + next.duration },
      };
      continue;
    }
    // zeroBehavior is `stop` here: nextDueMonoMs only reports a due instant for it or for auto-advance.
    return { ...current, transport: pausedAt(0) };
  }
}

function checkTimerFields(fields: TimerFields): string | null {
  const { label, speaker, duration, warnAt } = fields;
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
  return null;
}

function hasAnyField(fields: TimerFields): boolean {
  return (['label', 'speaker', 'duration', 'warnAt', 'appearance'] as const).some((key) => fields[key] !== undefined);
}

function withTransport(room: Room, transport: Transport): Room {
  return { ...room, transport };
}

/** The active timer becomes `timer`, keeping running/paused as it was. */
function moveTo(room: Room, timer: Timer, nowMonoMs: number): Room {
  const transport: Transport = room.transport.running
    ? { running: true, endMonoMs: nowMonoMs + timer.duration }
    : pausedAt(timer.duration);
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

function start(room: Room, nowMonoMs: number): Reduced {
  if (room.transport.running) return { ok: true, room };
  const remainingMs = room.transport.remainingMs;
  // Under `stop`, a timer at (or past) zero has nothing left to run.
  if (room.settings.zeroBehavior === 'stop' && remainingMs <= 0) return { ok: true, room };
  return { ok: true, room: withTransport(room, { running: true, endMonoMs: nowMonoMs + remainingMs }) };
}

function pause(room: Room, nowMonoMs: number): Reduced {
  if (!room.transport.running) return { ok: true, room };
  return { ok: true, room: withTransport(room, pausedAt(room.transport.endMonoMs - nowMonoMs)) };
}

function step(room: Room, direction: 1 | -1, nowMonoMs: number): Reduced {
  const target = room.timers[activeIndex(room) + direction];
  if (target === undefined) {
    const current = activeTimer(room);
    return direction === 1
      ? invalid(`no next timer: "${current.label}" is the last timer in the running order`)
      : invalid(`no previous timer: "${current.label}" is the first timer in the running order`);
  }
  return { ok: true, room: moveTo(room, target, nowMonoMs) };
}

function adjust(room: Room, ms: number, nowMonoMs: number): Reduced {
  if (!Number.isInteger(ms)) return invalid('ms: must be a whole number of milliseconds, for example 30000 or -30000');
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

function createTimer(room: Room, id: string, fields: TimerFields): Reduced {
  const problem = checkTimerFields(fields);
  if (problem !== null) return invalid(problem);
  if (id.length === 0 || id.length > TIMER_ID_MAX_CHARS) return invalid(`id: must be 1 to ${TIMER_ID_MAX_CHARS} characters`);
  if (findTimer(room, id) !== undefined) return invalid(`id: a timer with id "${id}" already exists`);
  if (room.timers.length >= MAX_TIMERS) {
    return invalid(`the running order is full: it holds at most ${MAX_TIMERS} timers; delete one before adding another`);
  }
  const timer = newTimer(id, fields, room.timers.length + 1);
  return { ok: true, room: { ...room, timers: [...room.timers, timer] }, timer };
}

function updateTimer(room: Room, id: string, fields: TimerFields, nowMonoMs: number): Reduced {
  const existing = findTimer(room, id);
  if (existing === undefined) return notFound(id);
  if (!hasAnyField(fields)) return invalid('update needs at least one field: label, speaker, duration, warnAt or appearance');
  const problem = checkTimerFields(fields);
  if (problem !== null) return invalid(problem);
  const updated: Timer = {
    ...existing,
    label: fields.label ?? existing.label,
    speaker: fields.speaker ?? existing.speaker,
    duration: fields.duration ?? existing.duration,
    warnAt: fields.warnAt ?? existing.warnAt,
    appearance: fields.appearance ?? existing.appearance,
  };
  let next: Room = { ...room, timers: room.timers.map((t) => (t.id === id ? updated : t)) };
  // A new duration on the active timer keeps the time already elapsed.
  const deltaMs = updated.duration - existing.duration;
  if (id === room.activeTimerId && deltaMs !== 0) {
    const resultMs = remainingAt(room, nowMonoMs) + deltaMs;
    if (resultMs > REMAINING_MAX_MS) {
      return invalid(`duration: the active timer would have ${resultMs} ms left, above the maximum of ${REMAINING_MAX_MS} (24 hours)`);
    }
    next = shiftRemaining(next, deltaMs);
  }
  return { ok: true, room: next };
}

function deleteTimer(room: Room, id: string): Reduced {
  const index = room.timers.findIndex((t) => t.id === id);
  if (index < 0) return notFound(id);
  if (room.timers.length === 1) return invalid('cannot delete the last timer: the running order always keeps one');
  const timers = room.timers.filter((t) => t.id !== id);
  if (id !== room.activeTimerId) return { ok: true, room: { ...room, timers } };
  // The following timer takes over, or the previous one when the last was deleted.
  const successor = (timers[index] ?? timers[index - 1]) as Timer;
  return { ok: true, room: { ...room, timers, activeTimerId: successor.id, transport: pausedAt(successor.duration) } };
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

function reduce(room: Room, command: Command, nowMonoMs: number): Reduced {
  switch (command.type) {
    case 'start':
      return start(room, nowMonoMs);
    case 'pause':
      return pause(room, nowMonoMs);
    case 'toggle':
      return room.transport.running ? pause(room, nowMonoMs) : start(room, nowMonoMs);
    case 'reset':
      return { ok: true, room: withTransport(room, pausedAt(activeTimer(room).duration)) };
    case 'next':
      return step(room, 1, nowMonoMs);
    case 'previous':
      return step(room, -1, nowMonoMs);
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
    case 'settings.set': {
      if (command.zeroBehavior === undefined && command.autoAdvance === undefined) {
        return invalid('settings: give at least one of zeroBehavior or autoAdvance');
      }
      const settings = {
        zeroBehavior: command.zeroBehavior ?? room.settings.zeroBehavior,
        autoAdvance: command.autoAdvance ?? room.settings.autoAdvance,
      };
      return { ok: true, room: { ...room, settings } };
    }
    case 'timer.create':
      return createTimer(room, command.id, command.fields);
    case 'timer.select': {
      const timer = findTimer(room, command.id);
      if (timer === undefined) return notFound(command.id);
      return { ok: true, room: { ...room, activeTimerId: timer.id, transport: pausedAt(timer.duration) } };
    }
    case 'timer.update':
      return updateTimer(room, command.id, command.fields, nowMonoMs);
    case 'timer.delete':
      return deleteTimer(room, command.id);
    case 'timer.move':
      return moveTimer(room, command.id, command.to);
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
 * Applies one command at `nowMonoMs`: first every zero event already due, then the
 * command (seq + 1 if it changed anything), then any zero event it made due at once.
 */
/**
 * One command is one change: the zero events that fell due before it (a wake-up
 * that is late) and those it causes (`zeroBehavior=stop` while overrunning) are
 * part of it, so seq rises by exactly 1 and clients get one event.
 */
export function applyCommand(room: Room, command: Command, nowMonoMs: number): Applied {
  const settled = applyDueZeroEvents(room, nowMonoMs);
  const reduced = reduce(settled, command, nowMonoMs);
  // Refused: only what time did happens, itself one change.
  if (!reduced.ok) return { room: settled === room ? room : bump(settled), outcome: { ok: false, error: reduced.error } };
  const result = applyDueZeroEvents(holdAtZeroUnderStop(reduced.room), nowMonoMs);
  const after = sameValue(room, result) ? room : bump(result);
  return { room: after, outcome: reduced.timer === undefined ? { ok: true } : { ok: true, timer: reduced.timer } };
}
