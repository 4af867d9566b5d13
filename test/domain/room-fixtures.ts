// Small builders for engine tests: rooms with a known running order, and
// applyCommand wrappers that fail loudly when the outcome is not the expected one.
import { expect } from 'vitest';
import { applyCommand, settle } from '../../src/domain/engine.js';
import { createRoom, newTimer } from '../../src/domain/room.js';
import type { Command, CommandError, Now, Room, Settings } from '../../src/domain/types.js';
import { at } from './now.js';

/** A paused room, seq 1, timers t1..tn with the given durations, t1 active at its full duration. */
export function roomOf(durationsMs: readonly number[], settings: Partial<Settings> = {}): Room {
  const base = createRoom('t1');
  const timers = durationsMs.map((duration, i) => newTimer(`t${i + 1}`, { duration }, i + 1));
  const first = timers[0];
  if (first === undefined) throw new Error('roomOf needs at least one duration');
  return {
    ...base,
    timers,
    activeTimerId: first.id,
    transport: { running: false, remainingMs: first.duration },
    settings: { ...base.settings, ...settings },
  };
}

/** Applies a command that must succeed; returns the room after it. */
/** A test's "now": monotonic ms alone (the wall clock in step), or both readings. */
export type TestNow = number | Now;

function reading(now: TestNow): Now {
  return typeof now === 'number' ? at(now) : now;
}

export function ok(room: Room, command: Command, now: TestNow): Room {
  const applied = applyCommand(room, command, reading(now));
  if (!applied.outcome.ok) {
    throw new Error(`expected ${command.type} to succeed, got ${applied.outcome.error.kind}: ${applied.outcome.error.message}`);
  }
  return applied.room;
}

/**
 * Applies a command that must be refused; checks the room is exactly the room
 * with only the due zero events applied, and returns the error.
 */
export function refused(room: Room, command: Command, now: TestNow): CommandError {
  const applied = applyCommand(room, command, reading(now));
  if (applied.outcome.ok) throw new Error(`expected ${command.type} to be refused, it succeeded`);
  expect(applied.room).toEqual(settle(room, reading(now)));
  return applied.outcome.error;
}

/** Running at `nowMonoMs` from the given paused room. */
export function started(room: Room, nowMonoMs: number): Room {
  return ok(room, { type: 'start' }, nowMonoMs);
}
