// What happens at zero (decisions.md "At zero"): continue, stop, hide, and
// auto-advance without drift, applied by settle() at the zero instant.
import { describe, expect, it } from 'vitest';
import { applyCommand, nextDueMonoMs, settle } from '../../src/domain/engine.js';
import { remainingAt } from '../../src/domain/room.js';
import { ok, roomOf, started } from './room-fixtures.js';
import { at } from './now.js';

describe('zeroBehavior continue (the default)', () => {
  it('keeps running past zero with a negative remaining and nothing scheduled', () => {
    const running = started(roomOf([60_000]), 1_000);
    expect(nextDueMonoMs(running, at(0))).toBeNull();
    const later = settle(running, at(61_000 + 15_000));
    expect(later).toEqual(running);
    expect(remainingAt(later, 61_000)).toBe(0);
    expect(remainingAt(later, 76_000)).toBe(-15_000);
  });
});

describe('zeroBehavior hide', () => {
  it('counts on like continue: running, negative remaining, seq unchanged', () => {
    const running = started(roomOf([60_000], { zeroBehavior: 'hide' }), 0);
    expect(nextDueMonoMs(running, at(0))).toBeNull();
    const later = settle(running, at(90_000));
    expect(later).toEqual(running);
    expect(remainingAt(later, 90_000)).toBe(-30_000);
  });
});

describe('zeroBehavior stop', () => {
  const running = started(roomOf([60_000], { zeroBehavior: 'stop' }), 1_000);

  it('is due exactly at the end instant', () => {
    expect(nextDueMonoMs(running, at(0))).toBe(61_000);
  });

  it('one millisecond before the end nothing happens', () => {
    expect(settle(running, at(60_999))).toEqual(running);
  });

  it('pauses at 0 at the exact instant, seq + 1', () => {
    const stopped = settle(running, at(61_000));
    expect(stopped.transport).toEqual({ running: false, remainingMs: 0 });
    expect(stopped.seq).toBe(running.seq + 1);
    expect(nextDueMonoMs(stopped, at(0))).toBeNull();
  });

  it('a late settle still pauses at 0, never below', () => {
    expect(settle(running, at(3_600_000)).transport).toEqual({ running: false, remainingMs: 0 });
  });

  it('a command after the zero instant first applies the stop', () => {
    // The pause arrives 5 s late: the room stopped at 0 by itself, the pause is then a no-op.
    const applied = applyCommand(running, { type: 'pause' }, at(66_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(applied.room.seq).toBe(running.seq + 1);
  });

  it('start on a timer at 0 changes nothing, seq included', () => {
    const stopped = settle(running, at(61_000));
    const applied = applyCommand(stopped, { type: 'start' }, at(70_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room).toEqual(stopped);
  });

  it('after adding time, start runs again', () => {
    const stopped = settle(running, at(61_000));
    const topped = ok(stopped, { type: 'adjust', ms: 10_000 }, 70_000);
    expect(ok(topped, { type: 'start' }, 70_000).transport).toEqual({ running: true, endMonoMs: 80_000 });
  });

  it('an adjust that takes the running timer past zero stops it at once, in the same change', () => {
    const applied = applyCommand(running, { type: 'adjust', ms: -60_000 }, at(11_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room.transport).toEqual({ running: false, remainingMs: 0 });
    // One command is one change: the stop it causes is part of it.
    expect(applied.room.seq).toBe(running.seq + 1);
  });

  it('an adjust that takes a paused timer below zero lands on 0, not below (one change)', () => {
    const paused = ok(running, { type: 'pause' }, 31_000);
    expect(paused.transport).toEqual({ running: false, remainingMs: 30_000 });
    const applied = applyCommand(paused, { type: 'adjust', ms: -45_000 }, at(40_000));
    expect(applied.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(applied.room.seq).toBe(paused.seq + 1);
  });

  it('a shorter duration on the paused active timer lands on 0, not below', () => {
    const paused = ok(running, { type: 'pause' }, 51_000);
    const shorter = ok(paused, { type: 'timer.update', id: 't1', fields: { duration: 5_000 } }, 52_000);
    expect(shorter.transport).toEqual({ running: false, remainingMs: 0 });
  });

  it('switching to stop while paused in overrun lands on 0 (one change)', () => {
    const overrunPaused = ok(started(roomOf([60_000]), 0), { type: 'pause' }, 70_000);
    expect(overrunPaused.transport).toEqual({ running: false, remainingMs: -10_000 });
    const applied = applyCommand(overrunPaused, { type: 'settings.set', zeroBehavior: 'stop' }, at(71_000));
    expect(applied.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(applied.room.seq).toBe(overrunPaused.seq + 1);
  });

  it('under continue a paused timer may still be adjusted into overrun', () => {
    const paused = ok(started(roomOf([60_000]), 0), { type: 'pause' }, 30_000);
    expect(ok(paused, { type: 'adjust', ms: -45_000 }, 31_000).transport).toEqual({ running: false, remainingMs: -15_000 });
  });

  it('switching to stop while in overrun stops at 0 at once', () => {
    const overrun = started(roomOf([60_000]), 0);
    const applied = applyCommand(overrun, { type: 'settings.set', zeroBehavior: 'stop' }, at(70_000));
    expect(applied.room.settings.zeroBehavior).toBe('stop');
    expect(applied.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(applied.room.seq).toBe(overrun.seq + 1);
  });
});

describe('autoAdvance', () => {
  // 60 s, 120 s, 30 s, started at 1 s: ends at 61 s, 181 s, 211 s.
  const room = roomOf([60_000, 120_000, 30_000], { autoAdvance: true });
  const running = started(room, 1_000);

  it('at each zero instant the next timer starts, its end exactly its duration after the previous end', () => {
    expect(nextDueMonoMs(running, at(0))).toBe(61_000);
    const second = settle(running, at(61_000));
    expect(second.activeTimerId).toBe('t2');
    expect(second.transport).toEqual({ running: true, endMonoMs: 181_000 });
    expect(second.seq).toBe(running.seq + 1);
    expect(nextDueMonoMs(second, at(0))).toBe(181_000);

    const third = settle(second, at(181_000));
    expect(third.activeTimerId).toBe('t3');
    expect(third.transport).toEqual({ running: true, endMonoMs: 211_000 });
    // Applied at their own instants, each is a change of its own.
    expect(third.seq).toBe(running.seq + 2);
  });

  it('a late wake-up does not drift: the next end is placed from the previous end, not from now', () => {
    const second = settle(running, at(61_750));
    expect(second.transport).toEqual({ running: true, endMonoMs: 181_000 });
    expect(remainingAt(second, 61_750)).toBe(119_250);
  });

  it('several timers elapsed at once are all applied in one settle, as one change', () => {
    const third = settle(running, at(200_000));
    expect(third.activeTimerId).toBe('t3');
    expect(third.transport).toEqual({ running: true, endMonoMs: 211_000 });
    expect(third.seq).toBe(running.seq + 1);
    // Applied at their own instants, each is a change of its own.
    expect(settle(settle(running, at(61_000)), at(200_000)).seq).toBe(running.seq + 2);
  });

  it('commands in between do not move the ends', () => {
    const withMessage = ok(running, { type: 'message.set', message: { text: 'Hi', flash: false, color: 'white', bold: false } }, 33_333);
    const third = settle(withMessage, at(181_000));
    expect(third.transport).toEqual({ running: true, endMonoMs: 211_000 });
  });

  it('on the last timer zeroBehavior applies: continue counts on', () => {
    const last = settle(running, at(211_000));
    expect(last.activeTimerId).toBe('t3');
    expect(last.transport).toEqual({ running: true, endMonoMs: 211_000 });
    expect(nextDueMonoMs(last, at(0))).toBeNull();
    expect(settle(last, at(300_000))).toEqual(last);
    expect(remainingAt(last, 300_000)).toBe(-89_000);
  });

  it('on the last timer zeroBehavior applies: hide counts on', () => {
    const hidden = started(roomOf([60_000, 30_000], { autoAdvance: true, zeroBehavior: 'hide' }), 0);
    const last = settle(hidden, at(500_000));
    expect(last.activeTimerId).toBe('t2');
    expect(last.transport).toEqual({ running: true, endMonoMs: 90_000 });
    expect(last.seq).toBe(hidden.seq + 1);
  });

  it('on the last timer zeroBehavior applies: stop pauses at 0, after every advance, all due at once one change', () => {
    const stopping = started(roomOf([60_000, 120_000, 30_000], { autoAdvance: true, zeroBehavior: 'stop' }), 1_000);
    expect(nextDueMonoMs(stopping, at(0))).toBe(61_000);
    const atLast = settle(stopping, at(181_000));
    expect(nextDueMonoMs(atLast, at(0))).toBe(211_000);
    const done = settle(stopping, at(1_000_000));
    expect(done.activeTimerId).toBe('t3');
    expect(done.transport).toEqual({ running: false, remainingMs: 0 });
    expect(done.seq).toBe(stopping.seq + 1);
  });

  it('nothing advances while paused', () => {
    const paused = ok(running, { type: 'pause' }, 30_000);
    expect(nextDueMonoMs(paused, at(0))).toBeNull();
    expect(settle(paused, at(10_000_000))).toEqual(paused);
  });

  it('starting a timer already at or below zero with a next timer advances at once', () => {
    const emptied = ok(room, { type: 'adjust', ms: -60_000 }, 0); // t1 paused at 0
    const applied = applyCommand(emptied, { type: 'start' }, at(5_000));
    expect(applied.room.activeTimerId).toBe('t2');
    expect(applied.room.transport).toEqual({ running: true, endMonoMs: 125_000 });
    expect(applied.room.seq).toBe(emptied.seq + 1);
  });
});
