// Scheduled starts in the engine, with plain numbers for both clocks: the exact
// instant, a step of the wall clock forward or back across it, several at once,
// edits that re-arm, and seq: each is one change.
import { describe, expect, it } from 'vitest';
import { applyCommand, nextDueMonoMs, settle, settleWithEvents } from '../../src/domain/engine.js';
import { remainingAt } from '../../src/domain/room.js';
import type { Now, Room } from '../../src/domain/types.js';
import { ok, refused, roomOf } from './room-fixtures.js';

const WALL = Date.UTC(2026, 10, 23, 9, 0, 0);
/** Monotonic ms 0 is WALL, unless a test steps the wall clock. */
const t = (monoMs: number, stepMs = 0): Now => ({ monoMs, wallMs: WALL + monoMs + stepMs });
const AT = WALL + 60_000;

/** t1 active and paused; t2 (5 min) scheduled at AT. */
function scheduled(settings: Parameters<typeof roomOf>[1] = {}): Room {
  const room = roomOf([600_000, 300_000, 120_000], settings);
  return ok(room, { type: 'timer.update', id: 't2', fields: { scheduledAt: AT } }, t(0));
}

describe('a scheduled start', () => {
  it('is due at its wall-clock instant, placed on the monotonic clock by the reading', () => {
    const room = scheduled();
    expect(room.timers[1]?.scheduledAt).toBe(AT);
    expect(nextDueMonoMs(room, t(0))).toBe(60_000);
    // The same instant read after the wall clock stepped 10 s back is 10 s further away.
    expect(nextDueMonoMs(room, t(30_000, -10_000))).toBe(70_000);
  });

  it('fires at the exact instant as select + start, one change', () => {
    const room = scheduled();
    expect(settle(room, t(59_999))).toBe(room);
    const fired = settleWithEvents(room, t(60_000));
    expect(fired.time).toEqual({ started: { timerId: 't2', scheduledAt: AT }, missed: [] });
    expect(fired.room.activeTimerId).toBe('t2');
    expect(fired.room.transport).toEqual({ running: true, endMonoMs: 60_000 + 300_000 });
    expect(fired.room.seq).toBe(room.seq + 1);
  });

  it('a late wake-up keeps the end where it would have been (scheduledAt + duration)', () => {
    const fired = settle(scheduled(), t(60_250));
    expect(remainingAt(fired, 60_250)).toBe(300_000 - 250);
  });

  it('fires once: later readings, and a step back across the instant, change nothing', () => {
    const fired = settle(scheduled(), t(60_000));
    expect(settle(fired, t(61_000))).toBe(fired);
    // The wall clock steps back 30 s: the instant is ahead again, but it has fired.
    expect(settle(fired, t(62_000, -30_000))).toBe(fired);
    expect(settle(fired, t(95_000, -30_000))).toBe(fired);
    expect(nextDueMonoMs(fired, t(62_000, -30_000))).toBeNull();
  });

  it('never fires early on a step back before the instant: the wake-up finds it not due and it is re-placed', () => {
    const room = scheduled();
    // Armed for mono 60 000; by then the wall clock stepped back 10 s.
    expect(settle(room, t(60_000, -10_000))).toBe(room);
    expect(nextDueMonoMs(room, t(60_000, -10_000))).toBe(70_000);
    const fired = settle(room, t(70_000, -10_000));
    expect(fired.activeTimerId).toBe('t2');
    expect(remainingAt(fired, 70_000)).toBe(300_000);
  });

  it('a step forward across the instant starts it at once, its end where scheduledAt + duration puts it', () => {
    // At mono 10 000 the wall clock jumps 2 min ahead: AT passed 70 s ago by the wall clock.
    const now = t(10_000, 120_000);
    const fired = settleWithEvents(scheduled(), now);
    expect(fired.time.started).toEqual({ timerId: 't2', scheduledAt: AT });
    expect(remainingAt(fired.room, now.monoMs)).toBe(300_000 - 70_000);
  });

  it('a step forward past its end leaves the room as it was and says so', () => {
    const room = ok(scheduled(), { type: 'start' }, t(0));
    const settled = settleWithEvents(room, t(10_000, 3_600_000));
    expect(settled.time).toEqual({ started: null, missed: [{ timerId: 't2', scheduledAt: AT }] });
    expect(settled.room.activeTimerId).toBe('t1');
    expect(settled.room.transport).toEqual(room.transport);
    // Marked as passed (kept on disk), so it is not reported again.
    expect(settled.room.seq).toBe(room.seq + 1);
    expect(settle(settled.room, t(11_000, 3_600_000))).toBe(settled.room);
  });

  it('the countdown it starts runs on the monotonic clock: a later wall-clock step changes nothing', () => {
    const fired = settle(scheduled(), t(60_000));
    expect(remainingAt(settle(fired, t(120_000, 90_000)), 120_000)).toBe(240_000);
    expect(remainingAt(settle(fired, t(120_000, -90_000)), 120_000)).toBe(240_000);
  });

  it('several due at once: the latest is the one on now, the earlier ones are reported missed', () => {
    let room = scheduled();
    room = ok(room, { type: 'timer.update', id: 't3', fields: { scheduledAt: AT + 30_000 } }, t(0));
    const settled = settleWithEvents(room, t(100_000));
    expect(settled.time).toEqual({ started: { timerId: 't3', scheduledAt: AT + 30_000 }, missed: [{ timerId: 't2', scheduledAt: AT }] });
    expect(settled.room.activeTimerId).toBe('t3');
    expect(remainingAt(settled.room, 100_000)).toBe(120_000 - 10_000);
    expect(settled.room.seq).toBe(room.seq + 1);
  });

  it('with a zero event due at the same reading, both are one change', () => {
    const room = ok(ok(scheduled({ zeroBehavior: 'stop' }), { type: 'adjust', ms: -590_000 }, t(0)), { type: 'start' }, t(0));
    const settled = settle(room, t(60_000));
    expect(settled.seq).toBe(room.seq + 1);
    expect(settled.activeTimerId).toBe('t2');
  });

  it('a command that comes after the instant is applied after the scheduled start, in one change', () => {
    const room = scheduled();
    const applied = applyCommand(room, { type: 'pause' }, t(61_000));
    expect(applied.time.started).toEqual({ timerId: 't2', scheduledAt: AT });
    expect(applied.room.activeTimerId).toBe('t2');
    expect(applied.room.transport).toEqual({ running: false, remainingMs: 299_000 });
    expect(applied.room.seq).toBe(room.seq + 1);
  });
});

describe('editing scheduledAt', () => {
  it('re-arms a timer that fired', () => {
    const fired = settle(scheduled(), t(60_000));
    const again = ok(fired, { type: 'timer.update', id: 't2', fields: { scheduledAt: AT + 120_000 } }, t(61_000));
    expect(nextDueMonoMs(again, t(61_000))).toBe(180_000);
    expect(settle(again, t(180_000)).transport).toEqual({ running: true, endMonoMs: 480_000 });
  });

  it('an instant already past when it is set never fires', () => {
    const room = ok(roomOf([600_000, 300_000]), { type: 'timer.update', id: 't2', fields: { scheduledAt: WALL - 1_000 } }, t(0));
    expect(room.timers[1]?.scheduledAt).toBe(WALL - 1_000);
    expect(nextDueMonoMs(room, t(0))).toBeNull();
    expect(settle(room, t(5_000))).toBe(room);
  });

  it('null clears it', () => {
    const cleared = ok(scheduled(), { type: 'timer.update', id: 't2', fields: { scheduledAt: null } }, t(0));
    expect(cleared.timers[1]?.scheduledAt).toBeNull();
    expect(nextDueMonoMs(cleared, t(0))).toBeNull();
    expect(settle(cleared, t(60_000))).toBe(cleared);
  });

  it('a timer created with one is armed', () => {
    const created = applyCommand(roomOf([600_000]), { type: 'timer.create', id: 'n', fields: { scheduledAt: AT } }, t(0));
    expect(created.outcome).toMatchObject({ ok: true, timer: { id: 'n', scheduledAt: AT } });
    expect(nextDueMonoMs(created.room, t(0))).toBe(60_000);
  });

  it('deleting a timer forgets its passed schedule', () => {
    const fired = settle(scheduled(), t(60_000));
    expect(fired.passedSchedules).toEqual([{ timerId: 't2', scheduledAt: AT }]);
    expect(ok(fired, { type: 'timer.delete', id: 't2' }, t(61_000)).passedSchedules).toEqual([]);
  });

  it.each([-1, 1.5, 253_402_300_800_000, Number.NaN])('refuses %s, naming the field', (scheduledAt) => {
    const error = refused(roomOf([600_000, 300_000]), { type: 'timer.update', id: 't2', fields: { scheduledAt } }, t(0));
    expect(error.message).toMatch(/^scheduledAt: /);
  });
});
