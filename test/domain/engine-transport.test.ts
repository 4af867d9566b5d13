// Transport transitions of remote-control-api.md §3 and decisions.md "Transport":
// select, start, pause (and its HTTP alias stop), toggle, reset, next, previous, adjust.
// Time is plain monotonic milliseconds; no timers, no sleeping.
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { remainingAt } from '../../src/domain/room.js';
import { ok, refused, roomOf, started } from './room-fixtures.js';
import { at } from './now.js';

describe('select', () => {
  it('makes the timer active, paused at its full duration', () => {
    const room = roomOf([60_000, 120_000, 30_000]);
    const after = ok(room, { type: 'timer.select', id: 't2' }, 5_000);
    expect(after.activeTimerId).toBe('t2');
    expect(after.transport).toEqual({ running: false, remainingMs: 120_000 });
    expect(after.seq).toBe(room.seq + 1);
  });

  it('pauses a running room and rewinds the active timer when it selects the active one again', () => {
    const running = started(roomOf([60_000, 120_000]), 1_000);
    const after = ok(running, { type: 'timer.select', id: 't1' }, 21_000);
    expect(after.activeTimerId).toBe('t1');
    expect(after.transport).toEqual({ running: false, remainingMs: 60_000 });
    expect(after.seq).toBe(running.seq + 1);
  });

  it('changes nothing, seq included, when the active timer is already paused at its duration', () => {
    const room = roomOf([60_000, 120_000]);
    const applied = applyCommand(room, { type: 'timer.select', id: 't1' }, at(0));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room).toEqual(room);
  });

  it('answers not_found for an unknown id and changes nothing', () => {
    const room = started(roomOf([60_000, 120_000]), 0);
    const error = refused(room, { type: 'timer.select', id: 'nope' }, 10_000);
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('nope');
  });
});

describe('timer.start (select and start in one command)', () => {
  it('selects another timer at its full duration and starts it, one seq', () => {
    const running = started(roomOf([60_000, 120_000, 30_000]), 1_000);
    const after = ok(running, { type: 'timer.start', id: 't3' }, 11_000);
    expect(after.activeTimerId).toBe('t3');
    expect(after.transport).toEqual({ running: true, endMonoMs: 11_000 + 30_000 });
    expect(after.seq).toBe(running.seq + 1);
  });

  it('starts the active paused timer from where it was paused, not from full', () => {
    const paused = ok(started(roomOf([60_000, 120_000]), 0), { type: 'pause' }, 20_000);
    const after = ok(paused, { type: 'timer.start', id: 't1' }, 50_000);
    expect(after.transport).toEqual({ running: true, endMonoMs: 50_000 + 40_000 });
  });

  it('leaves a running active timer running, seq included: a second press never restarts it', () => {
    const running = started(roomOf([60_000, 120_000]), 1_000);
    const applied = applyCommand(running, { type: 'timer.start', id: 't1' }, at(30_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room).toEqual(running);
    expect(remainingAt(applied.room, 30_000)).toBe(31_000);
  });

  it('answers not_found for an unknown id and changes nothing', () => {
    const error = refused(roomOf([60_000]), { type: 'timer.start', id: 'nope' }, 0);
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('nope');
  });
});

describe('start', () => {
  it('runs the paused timer with its end at now + remaining', () => {
    const room = roomOf([60_000]);
    const after = ok(room, { type: 'start' }, 7_000);
    expect(after.transport).toEqual({ running: true, endMonoMs: 67_000 });
    expect(after.seq).toBe(room.seq + 1);
  });

  it('resumes from what was left at the pause', () => {
    const paused = ok(started(roomOf([60_000]), 0), { type: 'pause' }, 25_000);
    const after = ok(paused, { type: 'start' }, 100_000);
    expect(after.transport).toEqual({ running: true, endMonoMs: 135_000 });
  });

  it('while running: ok, nothing changes, seq left alone', () => {
    const running = started(roomOf([60_000]), 0);
    const applied = applyCommand(running, { type: 'start' }, at(10_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room).toEqual(running);
  });
});

describe('pause (and stop, its alias, which the HTTP layer maps to pause)', () => {
  it('keeps what is left at the instant of the pause', () => {
    const running = started(roomOf([60_000]), 1_000);
    const after = ok(running, { type: 'pause' }, 21_500);
    expect(after.transport).toEqual({ running: false, remainingMs: 39_500 });
    expect(after.seq).toBe(running.seq + 1);
  });

  it('keeps a negative remaining when paused in overrun under continue', () => {
    const running = started(roomOf([60_000]), 0);
    const after = ok(running, { type: 'pause' }, 75_000);
    expect(after.transport).toEqual({ running: false, remainingMs: -15_000 });
  });

  it('while paused: ok, nothing changes, seq left alone', () => {
    const room = roomOf([60_000]);
    const applied = applyCommand(room, { type: 'pause' }, at(10_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room).toEqual(room);
  });
});

describe('toggle', () => {
  it('starts when paused and pauses when running', () => {
    const room = roomOf([60_000]);
    const running = ok(room, { type: 'toggle' }, 0);
    expect(running.transport).toEqual({ running: true, endMonoMs: 60_000 });
    const paused = ok(running, { type: 'toggle' }, 20_000);
    expect(paused.transport).toEqual({ running: false, remainingMs: 40_000 });
    expect(paused.seq).toBe(room.seq + 2);
  });

  it('changes nothing on a timer stopped at zero under stop', () => {
    const stopped = ok(started(roomOf([60_000], { zeroBehavior: 'stop' }), 0), { type: 'pause' }, 60_000);
    expect(stopped.transport).toEqual({ running: false, remainingMs: 0 });
    const applied = applyCommand(stopped, { type: 'toggle' }, at(70_000));
    expect(applied.outcome).toEqual({ ok: true });
    expect(applied.room).toEqual(stopped);
  });
});

describe('reset', () => {
  it('puts a running timer back to its duration, paused', () => {
    const running = started(roomOf([60_000, 30_000]), 0);
    const after = ok(running, { type: 'reset' }, 45_000);
    expect(after.activeTimerId).toBe('t1');
    expect(after.transport).toEqual({ running: false, remainingMs: 60_000 });
    expect(after.seq).toBe(running.seq + 1);
  });

  it('puts a paused, partly used timer back to its duration', () => {
    const paused = ok(started(roomOf([60_000]), 0), { type: 'pause' }, 10_000);
    expect(ok(paused, { type: 'reset' }, 20_000).transport).toEqual({ running: false, remainingMs: 60_000 });
  });

  it('changes nothing when the timer already sits paused at its duration', () => {
    const room = roomOf([60_000]);
    expect(applyCommand(room, { type: 'reset' }, at(5_000)).room).toEqual(room);
  });
});

describe('next and previous', () => {
  it('next while paused: the following timer, paused at its duration', () => {
    const room = roomOf([60_000, 120_000, 30_000]);
    const after = ok(room, { type: 'next' }, 1_000);
    expect(after.activeTimerId).toBe('t2');
    expect(after.transport).toEqual({ running: false, remainingMs: 120_000 });
    expect(after.seq).toBe(room.seq + 1);
  });

  it('next while running: the following timer starts now at its full duration', () => {
    const running = started(roomOf([60_000, 120_000, 30_000]), 0);
    const after = ok(running, { type: 'next' }, 20_000);
    expect(after.activeTimerId).toBe('t2');
    expect(after.transport).toEqual({ running: true, endMonoMs: 140_000 });
  });

  it('next on the last timer: 400 "no next timer", nothing changes', () => {
    const last = ok(ok(roomOf([60_000, 120_000]), { type: 'next' }, 0), { type: 'start' }, 0);
    const error = refused(last, { type: 'next' }, 5_000);
    expect(error.kind).toBe('invalid');
    expect(error.message).toMatch(/^no next timer/);
  });

  it('previous while paused and while running mirrors next', () => {
    const atThird = ok(ok(roomOf([60_000, 120_000, 30_000]), { type: 'next' }, 0), { type: 'next' }, 0);
    const paused = ok(atThird, { type: 'previous' }, 1_000);
    expect(paused.activeTimerId).toBe('t2');
    expect(paused.transport).toEqual({ running: false, remainingMs: 120_000 });

    const running = ok(started(atThird, 0), { type: 'previous' }, 10_000);
    expect(running.activeTimerId).toBe('t2');
    expect(running.transport).toEqual({ running: true, endMonoMs: 130_000 });
  });

  it('previous on the first timer: 400 "no previous timer", nothing changes', () => {
    const error = refused(started(roomOf([60_000, 120_000]), 0), { type: 'previous' }, 5_000);
    expect(error.kind).toBe('invalid');
    expect(error.message).toMatch(/^no previous timer/);
  });
});

describe('adjust', () => {
  it('running: moves the end by ms', () => {
    const running = started(roomOf([60_000]), 0);
    expect(ok(running, { type: 'adjust', ms: 30_000 }, 10_000).transport).toEqual({ running: true, endMonoMs: 90_000 });
    expect(ok(running, { type: 'adjust', ms: -30_000 }, 10_000).transport).toEqual({ running: true, endMonoMs: 30_000 });
  });

  it('paused: moves remainingAtPause by ms, also below zero', () => {
    const room = roomOf([60_000]);
    expect(ok(room, { type: 'adjust', ms: 15_000 }, 0).transport).toEqual({ running: false, remainingMs: 75_000 });
    expect(ok(room, { type: 'adjust', ms: -90_000 }, 0).transport).toEqual({ running: false, remainingMs: -30_000 });
  });

  it('accepts exactly ±3600000 and refuses one more in either direction', () => {
    const room = roomOf([7_200_000]);
    expect(ok(room, { type: 'adjust', ms: 3_600_000 }, 0).transport).toEqual({ running: false, remainingMs: 10_800_000 });
    expect(ok(room, { type: 'adjust', ms: -3_600_000 }, 0).transport).toEqual({ running: false, remainingMs: 3_600_000 });
    for (const ms of [3_600_001, -3_600_001]) {
      const error = refused(room, { type: 'adjust', ms }, 0);
      expect(error.kind).toBe('invalid');
      expect(error.message).toMatch(/^ms:/);
    }
  });

  it('refuses ms that is not a whole number', () => {
    for (const ms of [1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(refused(roomOf([60_000]), { type: 'adjust', ms }, 0).message).toMatch(/^ms:/);
    }
  });

  it('refuses a result above 86400000 and accepts exactly 86400000, paused', () => {
    const room = roomOf([86_400_000 - 60_000]);
    expect(ok(room, { type: 'adjust', ms: 60_000 }, 0).transport).toEqual({ running: false, remainingMs: 86_400_000 });
    expect(refused(room, { type: 'adjust', ms: 60_001 }, 0).message).toContain('86400000');
  });

  it('refuses a result above 86400000 measured at now, running', () => {
    const running = started(roomOf([86_400_000]), 0);
    // 10 s have passed: 86390000 left, so +10000 reaches the maximum exactly and +10001 passes it.
    expect(ok(running, { type: 'adjust', ms: 10_000 }, 10_000).transport).toEqual({ running: true, endMonoMs: 86_410_000 });
    expect(refused(running, { type: 'adjust', ms: 10_001 }, 10_000).kind).toBe('invalid');
  });

  it('adjust by 0 changes nothing and leaves seq alone', () => {
    const running = started(roomOf([60_000]), 0);
    expect(applyCommand(running, { type: 'adjust', ms: 0 }, at(10_000)).room).toEqual(running);
  });

  it('keeps elapsed time flowing: remaining after adjust is the remaining before plus ms', () => {
    const running = started(roomOf([60_000]), 0);
    const after = ok(running, { type: 'adjust', ms: -5_000 }, 20_000);
    expect(remainingAt(after, 20_000)).toBe(remainingAt(running, 20_000) - 5_000);
  });
});
