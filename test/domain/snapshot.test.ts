// toSnapshot: the State of remote-control-api.md §2, wall-clock fields derived at
// the moment of the snapshot (decisions.md "Clock and time").
import { describe, expect, it } from 'vitest';
import { toSnapshot } from '../../src/domain/snapshot.js';
import { ok, roomOf, started } from './room-fixtures.js';

const WALL = 1_700_000_000_000;

describe('toSnapshot', () => {
  it('paused: endAt null, remainingAtPause = remaining', () => {
    const paused = ok(started(roomOf([60_000]), 0), { type: 'pause' }, 12_000);
    const snapshot = toSnapshot(paused, 99_000, WALL);
    expect(snapshot.running).toBe(false);
    expect(snapshot.endAt).toBeNull();
    expect(snapshot.remainingAtPause).toBe(48_000);
    expect(snapshot.remaining).toBe(48_000);
    expect(snapshot.serverNow).toBe(WALL);
  });

  it('running: remainingAtPause null, remaining = endAt - serverNow = end - now on the monotonic clock', () => {
    const running = started(roomOf([60_000]), 5_000);
    const snapshot = toSnapshot(running, 20_000, WALL);
    expect(snapshot.running).toBe(true);
    expect(snapshot.remainingAtPause).toBeNull();
    expect(snapshot.remaining).toBe(45_000);
    expect(snapshot.endAt).toBe(WALL + 45_000);
    expect(snapshot.endAt! - snapshot.serverNow).toBe(snapshot.remaining);
  });

  it('running in overrun: remaining negative, endAt before serverNow', () => {
    const snapshot = toSnapshot(started(roomOf([60_000]), 0), 75_000, WALL);
    expect(snapshot.remaining).toBe(-15_000);
    expect(snapshot.endAt).toBe(WALL - 15_000);
  });

  it('a wall-clock step changes serverNow and endAt but never the remaining time', () => {
    const running = started(roomOf([60_000]), 0);
    const before = toSnapshot(running, 10_000, WALL);
    for (const stepMs of [3_600_000, -86_400_000, 1]) {
      const after = toSnapshot(running, 10_000, WALL + stepMs);
      expect(after.remaining).toBe(before.remaining);
      expect(after.serverNow).toBe(WALL + stepMs);
      expect(after.endAt).toBe(before.endAt! + stepMs);
    }
  });

  it('whole milliseconds even from fractional clock readings', () => {
    const snapshot = toSnapshot(started(roomOf([60_000]), 0), 10_000.4, WALL + 0.6);
    expect(Number.isInteger(snapshot.remaining)).toBe(true);
    expect(Number.isInteger(snapshot.serverNow)).toBe(true);
    expect(snapshot.endAt! - snapshot.serverNow).toBe(snapshot.remaining);
  });

  it('carries the active timer, settings, switches, message and running order', () => {
    let room = roomOf([60_000, 120_000], { zeroBehavior: 'hide', autoAdvance: true });
    room = ok(room, { type: 'timer.update', id: 't2', fields: { label: 'Panel', speaker: 'Ada', warnAt: 10_000 } }, 0);
    room = ok(room, { type: 'next' }, 0);
    room = ok(room, { type: 'onair.set', on: true }, 0);
    room = ok(room, { type: 'message.set', message: { text: 'Hi', flash: true, color: 'green', bold: false } }, 0);
    const snapshot = toSnapshot(room, 0, WALL);
    expect(snapshot).toMatchObject({
      seq: room.seq,
      activeTimerId: 't2',
      activeLabel: 'Panel',
      activeSpeaker: 'Ada',
      warnAt: 10_000,
      duration: 120_000,
      zeroBehavior: 'hide',
      autoAdvance: true,
      settings: { zeroBehavior: 'hide', autoAdvance: true },
      blackout: false,
      onAir: true,
      message: { text: 'Hi', flash: true, color: 'green', bold: false },
    });
    expect(snapshot.timers.map((t) => t.id)).toEqual(['t1', 't2']);
  });
});
