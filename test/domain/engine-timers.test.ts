// Running-order edits: create, update, delete, move (remote-control-api.md §4,
// decisions.md "Transport" and "Inputs and bounds").
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { createRoom, remainingAt } from '../../src/domain/room.js';
import type { Command, TimerFields } from '../../src/domain/types.js';
import { ok, refused, roomOf, started } from './room-fixtures.js';
import { at } from './now.js';

const ids = (timers: readonly { id: string }[]): string[] => timers.map((t) => t.id);

describe('timer.create', () => {
  it('appends a timer with the defaults of decisions.md and returns it', () => {
    const room = createRoom('first');
    const applied = applyCommand(room, { type: 'timer.create', id: 'second', fields: {} }, at(0));
    const expected = {
      id: 'second',
      label: 'Timer 2',
      speaker: '',
      duration: 600_000,
      warnAt: 60_000,
      appearance: 'countdown',
      tagId: null,
      scheduledAt: null,
      endsAt: null,
      dangerAt: 0,
    };
    expect(applied.outcome).toEqual({ ok: true, timer: expected });
    expect(applied.room.timers).toEqual([room.timers[0], expected]);
    expect(applied.room.activeTimerId).toBe('first');
    expect(applied.room.transport).toEqual(room.transport);
    expect(applied.room.seq).toBe(room.seq + 1);
  });

  it('numbers the default label by position in the running order', () => {
    const room = ok(ok(createRoom('a'), { type: 'timer.create', id: 'b', fields: {} }, 0), { type: 'timer.create', id: 'c', fields: {} }, 0);
    expect(room.timers.map((t) => t.label)).toEqual(['Timer 1', 'Timer 2', 'Timer 3']);
  });

  it('takes the given fields', () => {
    const fields: TimerFields = { label: 'Keynote', speaker: 'Ada', duration: 1_800_000, warnAt: 300_000, appearance: 'countup' };
    const after = ok(createRoom('a'), { type: 'timer.create', id: 'k', fields }, 0);
    expect(after.timers[1]).toEqual({ id: 'k', ...fields, tagId: null, scheduledAt: null, endsAt: null, dangerAt: 0 });
  });

  it.each<[string, TimerFields, string]>([
    ['duration below 1000', { duration: 999 }, 'duration:'],
    ['duration above 86400000', { duration: 86_400_001 }, 'duration:'],
    ['fractional duration', { duration: 1_000.5 }, 'duration:'],
    ['negative warnAt', { warnAt: -1 }, 'warnAt:'],
    ['warnAt above 86400000', { warnAt: 86_400_001 }, 'warnAt:'],
    ['label over 200 characters', { label: 'l'.repeat(201) }, 'label:'],
    ['speaker over 200 characters', { speaker: 's'.repeat(201) }, 'speaker:'],
  ])('refuses %s', (_name, fields, prefix) => {
    const error = refused(createRoom('a'), { type: 'timer.create', id: 'b', fields }, 0);
    expect(error.kind).toBe('invalid');
    expect(error.message.startsWith(prefix)).toBe(true);
  });

  it('accepts the bounds themselves', () => {
    const room = createRoom('a');
    for (const fields of [
      { duration: 1_000 },
      { duration: 86_400_000 },
      { warnAt: 0 },
      { warnAt: 86_400_000 },
      { label: 'l'.repeat(200), speaker: 's'.repeat(200) },
    ]) {
      expect(ok(room, { type: 'timer.create', id: 'b', fields }, 0).timers).toHaveLength(2);
    }
  });

  it('refuses an id already in use, an empty id and an id over 64 characters', () => {
    const room = createRoom('a');
    expect(refused(room, { type: 'timer.create', id: 'a', fields: {} }, 0).message).toMatch(/^id:/);
    expect(refused(room, { type: 'timer.create', id: '', fields: {} }, 0).message).toMatch(/^id:/);
    expect(refused(room, { type: 'timer.create', id: 'x'.repeat(65), fields: {} }, 0).message).toMatch(/^id:/);
    expect(ok(room, { type: 'timer.create', id: 'x'.repeat(64), fields: {} }, 0).timers).toHaveLength(2);
  });
});

describe('timer.update', () => {
  it('needs at least one field', () => {
    const error = refused(roomOf([60_000]), { type: 'timer.update', id: 't1', fields: {} }, 0);
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain('at least one field');
  });

  it('answers not_found for an unknown id before looking at the fields', () => {
    expect(refused(roomOf([60_000]), { type: 'timer.update', id: 'zz', fields: {} }, 0).kind).toBe('not_found');
    expect(refused(roomOf([60_000]), { type: 'timer.update', id: 'zz', fields: { label: 'x' } }, 0).kind).toBe('not_found');
  });

  it('changes only the given fields', () => {
    const room = roomOf([60_000, 120_000]);
    const after = ok(room, { type: 'timer.update', id: 't2', fields: { label: 'Panel', appearance: 'clock' } }, 0);
    expect(after.timers[1]).toEqual({ ...room.timers[1], label: 'Panel', appearance: 'clock' });
    expect(after.timers[0]).toEqual(room.timers[0]);
    expect(after.seq).toBe(room.seq + 1);
  });

  it('refuses out-of-bounds fields and changes nothing', () => {
    const room = roomOf([60_000]);
    for (const fields of [{ duration: 999 }, { duration: 86_400_001 }, { warnAt: -1 }, { label: 'l'.repeat(201) }]) {
      expect(refused(room, { type: 'timer.update', id: 't1', fields }, 0).kind).toBe('invalid');
    }
  });

  it('updating with the current values changes nothing and leaves seq alone', () => {
    const room = roomOf([60_000]);
    expect(applyCommand(room, { type: 'timer.update', id: 't1', fields: { duration: 60_000, label: 'Timer 1' } }, at(0)).room).toEqual(room);
  });

  it('a new duration on the paused active timer keeps the elapsed time', () => {
    // 20 s used of 60 s; the new 90 s duration leaves 70 s.
    const paused = ok(started(roomOf([60_000]), 0), { type: 'pause' }, 20_000);
    const after = ok(paused, { type: 'timer.update', id: 't1', fields: { duration: 90_000 } }, 50_000);
    expect(after.transport).toEqual({ running: false, remainingMs: 70_000 });
    expect(after.timers[0]?.duration).toBe(90_000);
  });

  it('a new duration on the running active timer keeps the elapsed time', () => {
    // Started at 1 s, 31 s elapsed at 32 s; with 45 s planned, 14 s are left.
    const running = started(roomOf([120_000]), 1_000);
    const after = ok(running, { type: 'timer.update', id: 't1', fields: { duration: 45_000 } }, 32_000);
    expect(after.transport).toEqual({ running: true, endMonoMs: 46_000 });
    expect(remainingAt(after, 32_000)).toBe(14_000);
  });

  it('a new duration on another timer leaves the transport alone', () => {
    const running = started(roomOf([60_000, 120_000]), 0);
    const after = ok(running, { type: 'timer.update', id: 't2', fields: { duration: 30_000 } }, 10_000);
    expect(after.transport).toEqual(running.transport);
    expect(after.timers[1]?.duration).toBe(30_000);
  });

  it('refuses a new duration that would leave more than 86400000 on the active timer', () => {
    const room = ok(roomOf([600_000]), { type: 'adjust', ms: 3_600_000 }, 0); // 4200000 left
    const error = refused(room, { type: 'timer.update', id: 't1', fields: { duration: 86_400_000 } }, 0);
    expect(error.kind).toBe('invalid');
    expect(error.message).toMatch(/^duration:/);
    // Without the extra hour the same duration fits exactly.
    expect(ok(roomOf([600_000]), { type: 'timer.update', id: 't1', fields: { duration: 86_400_000 } }, 0).transport).toEqual({
      running: false,
      remainingMs: 86_400_000,
    });
  });
});

describe('timer.delete', () => {
  it('deleting the active timer makes the following one active, paused at its duration', () => {
    const running = started(ok(roomOf([60_000, 120_000, 30_000]), { type: 'next' }, 0), 0);
    const after = ok(running, { type: 'timer.delete', id: 't2' }, 10_000);
    expect(ids(after.timers)).toEqual(['t1', 't3']);
    expect(after.activeTimerId).toBe('t3');
    expect(after.transport).toEqual({ running: false, remainingMs: 30_000 });
    expect(after.seq).toBe(running.seq + 1);
  });

  it('deleting the active last timer makes the previous one active', () => {
    const atLast = ok(ok(roomOf([60_000, 120_000, 30_000]), { type: 'next' }, 0), { type: 'next' }, 0);
    const after = ok(atLast, { type: 'timer.delete', id: 't3' }, 0);
    expect(after.activeTimerId).toBe('t2');
    expect(after.transport).toEqual({ running: false, remainingMs: 120_000 });
  });

  it('deleting another timer leaves the active one running as it was', () => {
    const running = started(roomOf([60_000, 120_000, 30_000]), 0);
    const after = ok(running, { type: 'timer.delete', id: 't3' }, 10_000);
    expect(ids(after.timers)).toEqual(['t1', 't2']);
    expect(after.activeTimerId).toBe('t1');
    expect(after.transport).toEqual(running.transport);
  });

  it('refuses to delete the only timer', () => {
    const error = refused(roomOf([60_000]), { type: 'timer.delete', id: 't1' }, 0);
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain('last timer');
  });

  it('answers not_found for an unknown id', () => {
    expect(refused(roomOf([60_000, 1_000]), { type: 'timer.delete', id: 't9' }, 0).kind).toBe('not_found');
  });
});

describe('timer.move', () => {
  const room = roomOf([1_000, 2_000, 3_000, 4_000]);
  const move = (id: string, to: number): Command => ({ type: 'timer.move', id, to });

  it('moves to the top, to the bottom and to the middle', () => {
    expect(ids(ok(room, move('t3', 0), 0).timers)).toEqual(['t3', 't1', 't2', 't4']);
    expect(ids(ok(room, move('t1', 3), 0).timers)).toEqual(['t2', 't3', 't4', 't1']);
    expect(ids(ok(room, move('t4', 1), 0).timers)).toEqual(['t1', 't4', 't2', 't3']);
    expect(ok(room, move('t4', 1), 0).seq).toBe(room.seq + 1);
  });

  it('keeps the active timer and the transport', () => {
    const running = started(room, 0);
    const after = ok(running, move('t1', 2), 500);
    expect(after.activeTimerId).toBe('t1');
    expect(after.transport).toEqual(running.transport);
    // and next follows the new order
    expect(ok(after, { type: 'next' }, 500).activeTimerId).toBe('t4');
  });

  it('moving a timer to where it is changes nothing', () => {
    expect(applyCommand(room, move('t2', 1), at(0)).room).toEqual(room);
  });

  it('refuses positions outside the running order and answers not_found for an unknown id', () => {
    for (const to of [-1, 4, 1.5, Number.NaN]) {
      expect(refused(room, move('t1', to), 0).message).toMatch(/^to:/);
    }
    expect(refused(room, move('t9', 0), 0).kind).toBe('not_found');
  });
});
