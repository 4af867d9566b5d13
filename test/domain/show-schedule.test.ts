// The schedule of issue 29 with plain numbers for both clocks: an 8-timer show run
// with a late start, a pause, an adjustment, an overrun, a hard start, a skip, a
// restart in the middle and a wall-clock step. Every expected value is worked out
// by hand in minutes from the planned start P (written beside each check).
import { describe, expect, it } from 'vitest';
import { settle } from '../../src/domain/engine.js';
import { scheduleOf, type Schedule } from '../../src/domain/schedule.js';
import { offsetText } from '../../src/domain/schedule-text.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Now, Room } from '../../src/domain/types.js';
import { parseDocument, serializeDocument, toDocument } from '../../src/store/room-document.js';
import { restoreRoom } from '../../src/store/restore.js';
import { WALL_EPOCH_MS } from './now.js';
import { ok, roomOf } from './room-fixtures.js';

const MIN = 60_000;
/** The show's planned start: an hour after the test's epoch. */
const P = WALL_EPOCH_MS + 60 * MIN;

/** `x` minutes from P on both clocks; `wallStepMs` is how far the wall clock has been stepped since. */
function t(x: number, wallStepMs = 0, monoBase = 60 * MIN): Now {
  return { monoMs: monoBase + x * MIN, wallMs: P + x * MIN + wallStepMs };
}

/** A wall instant `x` minutes from P. */
const w = (x: number): number => P + x * MIN;

function scheduleAt(room: Room, now: Now): Schedule {
  const snapshot = toSnapshot(room, now.monoMs, now.wallMs);
  const derived = scheduleOf(snapshot, Math.round(now.wallMs));
  // The snapshot's schedule is the one any client derives at the same moment.
  expect(snapshot.schedule).toEqual(derived);
  return derived;
}

/** Planned starts (minutes from P) per timer. */
const plannedStarts = (s: Schedule) => s.timers.map((r) => (r.plannedStart === null ? null : (r.plannedStart - P) / MIN));
const projectedStarts = (s: Schedule) => s.timers.map((r) => (r.projectedStart === null ? null : (r.projectedStart - P) / MIN));
const minutes = (ms: number | null) => (ms === null ? null : ms / MIN);

/**
 * t1 10, t2 5, t3 15, t4 10 with a hard start at P+50, t5 5, t6 20, t7 10, t8 5 (minutes).
 * Planned: t1 0-10, t2 10-15, t3 15-30, t4 50-60 (its hard start; a gap of 20 before it),
 * t5 60-65, t6 65-85, t7 85-95, t8 95-100.
 */
function eightTimerShow(now: Now): Room {
  let room = roomOf([10, 5, 15, 10, 5, 20, 10, 5].map((m) => m * MIN));
  room = ok(room, { type: 'settings.set', plannedStart: P }, now);
  return ok(room, { type: 'timer.update', id: 't4', fields: { scheduledAt: w(50) } }, now);
}

describe('the schedule of an 8-timer show, step by step', () => {
  it('follows a late start, a pause, an adjustment, an overrun, a hard start and a skip; the same after a restart and across a wall-clock step', () => {
    let room = eightTimerShow(t(-5));

    // Five minutes before the show: nothing has run; the first timer is projected at P, so on time.
    let s = scheduleAt(room, t(-5));
    expect(plannedStarts(s)).toEqual([0, 10, 15, 50, 60, 65, 85, 95]);
    expect(projectedStarts(s)).toEqual([0, 10, 15, 50, 60, 65, 85, 95]);
    expect([minutes(s.offset), offsetText(s.offset), s.plannedStart, s.plannedEnd, s.projectedEnd]).toEqual([0, 'on time', P, w(100), w(100)]);
    expect(s.totalDuration).toBe(80 * MIN);
    expect(s.nextPlannedStart).toBe(w(10));

    // P+2: started two minutes late. t1 ends at 12, so 2:00 behind; t2 12-17, t3 17-32, t4 still at its hard start 50.
    room = ok(room, { type: 'start' }, t(2));
    s = scheduleAt(room, t(2));
    expect(s.timers[0]).toMatchObject({ actualStart: w(2), actualEnd: null, projectedStart: w(2), projectedEnd: w(12) });
    expect(projectedStarts(s)).toEqual([2, 12, 17, 50, 60, 65, 85, 95]);
    expect(offsetText(s.offset)).toBe('2:00 behind');
    expect(s.projectedEnd).toBe(w(100));

    // P+5 pause (7 minutes left). At P+8, still paused: t1 would end at 8 + 7 = 15, so 5:00 behind, and it grows with the clock.
    room = ok(room, { type: 'pause' }, t(5));
    expect(minutes(scheduleAt(room, t(5)).offset)).toBe(2);
    expect(minutes(scheduleAt(room, t(8)).offset)).toBe(5);
    // P+8 start again (ends at 15); P+10 one more minute (ends at 16): 6:00 behind.
    room = ok(room, { type: 'start' }, t(8));
    room = ok(room, { type: 'adjust', ms: MIN }, t(10));
    s = scheduleAt(room, t(10));
    expect(offsetText(s.offset)).toBe('6:00 behind');
    expect(projectedStarts(s)).toEqual([2, 16, 21, 50, 60, 65, 85, 95]);

    // P+16.5: 30 s into overrun (continue), t1's end is "now" and moves with the clock: 6:30 behind.
    s = scheduleAt(room, t(16.5));
    expect(s.timers[0]?.projectedEnd).toBe(w(16.5));
    expect(offsetText(s.offset)).toBe('6:30 behind');
    // next, running: t1 ends and t2 starts at 16.5; t2 ends 21.5 against a plan of 15.
    room = ok(room, { type: 'next' }, t(16.5));
    s = scheduleAt(room, t(16.5));
    expect(s.timers[0]).toMatchObject({ actualStart: w(2), actualEnd: w(16.5), projectedStart: null, projectedEnd: null });
    expect(s.timers[1]).toMatchObject({ actualStart: w(16.5), projectedEnd: w(21.5), plannedEnd: w(15) });
    expect(offsetText(s.offset)).toBe('6:30 behind');
    expect(s.nextPlannedStart).toBe(w(15));

    // P+22: t2 overran by half a minute; next: t3 22-37 against a plan of 15-30, 7:00 behind; t4 still at 50.
    room = ok(room, { type: 'next' }, t(22));
    s = scheduleAt(room, t(22));
    expect(projectedStarts(s)).toEqual([null, null, 22, 50, 60, 65, 85, 95]);
    expect(offsetText(s.offset)).toBe('7:00 behind');
    // P+37: t3 at zero, paused there to wait for the hard start.
    room = ok(room, { type: 'pause' }, t(37));
    expect(offsetText(scheduleAt(room, t(40)).offset)).toBe('10:00 behind');

    // P+50: t4's hard start fires by itself; t3 ends then (it was on until t4 took over). On time again.
    room = settle(room, t(50));
    expect(room.activeTimerId).toBe('t4');
    s = scheduleAt(room, t(51));
    expect(s.timers[2]).toMatchObject({ actualStart: w(22), actualEnd: w(50) });
    expect(s.timers[3]).toMatchObject({ actualStart: w(50), projectedStart: w(50), projectedEnd: w(60) });
    expect(offsetText(s.offset)).toBe('on time');
    expect(projectedStarts(s)).toEqual([null, null, null, 50, 60, 65, 85, 95]);

    // P+61: a minute after t4's zero, t5 is skipped: t6 is started from its row. t6 61-81 against 65-85: 4:00 ahead.
    room = ok(room, { type: 'timer.start', id: 't6' }, t(61));
    s = scheduleAt(room, t(61));
    expect(s.timers[3]).toMatchObject({ actualEnd: w(61) });
    // The skipped timer: no actual times, nothing projected (it is behind the active one).
    expect(s.timers[4]).toMatchObject({ plannedStart: w(60), actualStart: null, actualEnd: null, projectedStart: null, projectedEnd: null });
    expect(offsetText(s.offset)).toBe('4:00 ahead');
    expect(projectedStarts(s)).toEqual([null, null, null, null, null, 61, 81, 91]);
    expect(s.projectedEnd).toBe(w(96));
    // P+70 two minutes off: t6 ends 79, 6:00 ahead, the show at 94.
    room = ok(room, { type: 'adjust', ms: -2 * MIN }, t(70));
    const before = scheduleAt(room, t(72));
    expect([offsetText(before.offset), before.projectedEnd]).toEqual(['6:00 ahead', w(94)]);

    // A restart at P+72: the file read back on a box whose monotonic clock starts again from 5 s.
    const text = serializeDocument(toDocument(room, t(72), room.seq));
    const read = parseDocument(text);
    if (read.kind !== 'ok') throw new Error(`room file not read back: ${read.kind}`);
    const after = t(72.5, 0, 5_000 - 72.5 * MIN);
    const restored = restoreRoom(read.document, after);
    expect(restored.warning).toBeNull();
    room = restored.room;
    expect(scheduleAt(room, after).timers).toEqual(before.timers);
    expect(offsetText(scheduleAt(room, after).offset)).toBe('6:00 ahead');

    // P+75 on the monotonic clock, and the wall clock is stepped 2 minutes forward (NTP caught up):
    // the running timer keeps its remaining time (4 minutes), so on the new wall clock it ends at 81: 4:00 ahead;
    // what happened stays as it was recorded.
    const stepped = t(75, 2 * MIN, 5_000 - 72.5 * MIN);
    room = settle(room, stepped);
    s = scheduleAt(room, stepped);
    expect(s.timers[5]).toMatchObject({ actualStart: w(61), projectedEnd: w(81) });
    expect(offsetText(s.offset)).toBe('4:00 ahead');
    expect(s.timers[0]).toMatchObject({ actualStart: w(2), actualEnd: w(16.5) });
    expect(s.projectedEnd).toBe(w(96));
  });
});

describe('corner cases of the schedule', () => {
  it('without a planned start, the first actual start stands in; before any start nothing is planned', () => {
    let room = roomOf([10 * MIN, 5 * MIN]);
    let s = scheduleAt(room, t(0));
    expect([s.plannedStart, s.plannedEnd, s.offset, offsetText(s.offset)]).toEqual([null, null, null, '']);
    // Projected from now all the same: the show would end 15 minutes from now.
    expect(s.projectedEnd).toBe(w(15));
    room = ok(room, { type: 'start' }, t(3));
    s = scheduleAt(room, t(4));
    expect([s.plannedStart, s.plannedEnd, s.offset]).toEqual([w(3), w(18), 0]);
  });

  it('a hard start in the past does not fire, and the plan keeps it; nothing is projected before now', () => {
    let room = roomOf([10 * MIN, 5 * MIN, 5 * MIN], { plannedStart: P });
    room = ok(room, { type: 'start' }, t(0));
    // At P+3, t3 is given a hard start at P+1: it is passed already, so it never fires.
    room = ok(room, { type: 'timer.update', id: 't3', fields: { scheduledAt: w(1) } }, t(3));
    room = settle(room, t(4));
    expect(room.activeTimerId).toBe('t1');
    const s = scheduleAt(room, t(4));
    // Planned: t3 at its hard start (1), ending at 6. Projected: after t2 (10-15), so 15-20.
    expect(plannedStarts(s)).toEqual([0, 10, 1]);
    expect(projectedStarts(s)).toEqual([0, 10, 15]);
  });

  it('a timer run twice keeps its first start, and its end is the last time it was left', () => {
    let room = roomOf([10 * MIN, 5 * MIN], { plannedStart: P });
    room = ok(room, { type: 'start' }, t(0));
    room = ok(room, { type: 'next' }, t(8));
    room = ok(room, { type: 'previous' }, t(9));
    let s = scheduleAt(room, t(9));
    // Back on t1, running again: its end is open again; t2 ran a minute and was left.
    expect(s.timers[0]).toMatchObject({ actualStart: w(0), actualEnd: null, projectedStart: w(0), projectedEnd: w(19) });
    expect(s.timers[1]).toMatchObject({ actualStart: w(8), actualEnd: w(9), projectedStart: w(19) });
    room = ok(room, { type: 'next' }, t(12));
    s = scheduleAt(room, t(12));
    expect(s.timers[0]).toMatchObject({ actualStart: w(0), actualEnd: w(12) });
    expect(s.timers[1]).toMatchObject({ actualStart: w(8), actualEnd: null, projectedEnd: w(17) });
  });

  it('a timer added or moved during the show: planned and projected times follow the new order at once', () => {
    let room = roomOf([10 * MIN, 5 * MIN], { plannedStart: P });
    room = ok(room, { type: 'start' }, t(0));
    room = ok(room, { type: 'timer.create', id: 'n', fields: { duration: 3 * MIN } }, t(2));
    expect(projectedStarts(scheduleAt(room, t(2)))).toEqual([0, 10, 15]);
    room = ok(room, { type: 'timer.move', id: 'n', to: 0 }, t(2));
    // Now before the active one: planned first (0-3), nothing projected for it; t1's plan moves to 3-13, so 3:00 ahead.
    const s = scheduleAt(room, t(2));
    expect(plannedStarts(s)).toEqual([0, 3, 13]);
    expect(projectedStarts(s)).toEqual([null, 0, 10]);
    expect(offsetText(s.offset)).toBe('3:00 ahead');
  });

  it('a show across midnight is plain instants: the plan runs on past 00:00 with nothing special', () => {
    const midnight = Date.UTC(2026, 10, 27, 0, 0, 0);
    const now: Now = { monoMs: 0, wallMs: midnight - 5 * MIN };
    const room = roomOf([10 * MIN, 10 * MIN], { plannedStart: midnight - 5 * MIN });
    const s = scheduleAt(room, now);
    expect([s.plannedEnd, s.projectedEnd]).toEqual([midnight + 15 * MIN, midnight + 15 * MIN]);
  });

  it('a time zone change only changes how times of day are shown: the schedule does not move', () => {
    let room = roomOf([10 * MIN, 5 * MIN], { plannedStart: P });
    room = ok(room, { type: 'start' }, t(1));
    const before = scheduleAt(room, t(3));
    room = ok(room, { type: 'settings.set', timeZone: 'Pacific/Auckland' }, t(3));
    expect(scheduleAt(room, t(3))).toEqual(before);
  });

  it('a stop at zero ends the timer there, and the next one is projected from now', () => {
    let room = roomOf([10 * MIN, 5 * MIN], { plannedStart: P, zeroBehavior: 'stop' });
    room = ok(room, { type: 'start' }, t(0));
    room = settle(room, t(12));
    const s = scheduleAt(room, t(12));
    expect(s.timers[0]).toMatchObject({ actualEnd: w(10), projectedEnd: w(10) });
    expect(s.timers[1]).toMatchObject({ projectedStart: w(12), projectedEnd: w(17) });
    // t1 ended on time; the show waits on the stage manager from there.
    expect(offsetText(s.offset)).toBe('on time');
  });

  it('auto-advance ends each timer and starts the next at the zero instant, also several in one wake-up', () => {
    let room = roomOf([MIN, MIN, 5 * MIN], { plannedStart: P, autoAdvance: true });
    room = ok(room, { type: 'start' }, t(0));
    room = settle(room, t(2.5));
    expect(room.actuals).toEqual([
      { timerId: 't1', startedAt: w(0), endedAt: w(1) },
      { timerId: 't2', startedAt: w(1), endedAt: w(2) },
      { timerId: 't3', startedAt: w(2), endedAt: null },
    ]);
  });

  it('a show reset clears what happened and stands on the first timer, paused at its full time; it is kept on disk first', () => {
    let room = roomOf([10 * MIN, 5 * MIN], { plannedStart: P });
    room = ok(room, { type: 'start' }, t(0));
    room = ok(room, { type: 'next' }, t(10));
    room = ok(room, { type: 'show.reset' }, t(12));
    expect(room.actuals).toEqual([]);
    expect([room.activeTimerId, room.transport]).toEqual(['t1', { running: false, remainingMs: 10 * MIN }]);
  });

  it('a deleted timer takes its actual times with it', () => {
    let room = roomOf([10 * MIN, 5 * MIN, 5 * MIN], { plannedStart: P });
    room = ok(room, { type: 'start' }, t(0));
    room = ok(room, { type: 'next' }, t(10));
    room = ok(room, { type: 'timer.delete', id: 't1' }, t(11));
    expect(room.actuals.map((a) => a.timerId)).toEqual(['t2']);
  });
});
