// Countdown to a time of day (`endsAt`), with plain numbers for both clocks:
// remaining = endsAt - wall now while it runs, also across a wall-clock step;
// pause holds, start counts to the instant again; select/next/reset show the time
// left to it; adjust is refused; auto-advance and scheduled starts end at it.
import { describe, expect, it } from 'vitest';
import { applyCommand, nextDueMonoMs, settle, watchesWallClock } from '../../src/domain/engine.js';
import { remainingAt } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Now, Room } from '../../src/domain/types.js';
import { ok, refused, roomOf } from './room-fixtures.js';

const WALL = Date.UTC(2026, 10, 23, 18, 0, 0);
const t = (monoMs: number, stepMs = 0): Now => ({ monoMs, wallMs: WALL + monoMs + stepMs });
const DOORS = WALL + 1_800_000;

/** t1 (10 min) active and paused; t2 (the lobby, planned 30 min) counts to DOORS. */
function lobby(settings: Parameters<typeof roomOf>[1] = {}): Room {
  return ok(roomOf([600_000, 1_800_000, 300_000], settings), { type: 'timer.update', id: 't2', fields: { endsAt: DOORS } }, t(0));
}

function runningLobby(at: Now = t(0), settings: Parameters<typeof roomOf>[1] = {}): Room {
  return ok(ok(lobby(settings), { type: 'timer.select', id: 't2' }, at), { type: 'start' }, at);
}

describe('endsAt', () => {
  it('select shows the time left to the instant; start counts to it; the snapshot end is the instant', () => {
    const selected = ok(lobby(), { type: 'timer.select', id: 't2' }, t(600_000));
    expect(selected.transport).toEqual({ running: false, remainingMs: 1_200_000 });
    const running = ok(selected, { type: 'start' }, t(660_000));
    expect(remainingAt(running, 660_000)).toBe(1_140_000);
    const snapshot = toSnapshot(running, 700_000, WALL + 700_000);
    expect(snapshot.endAt).toBe(DOORS);
    expect(snapshot.duration).toBe(1_800_000);
    expect(watchesWallClock(running)).toBe(true);
  });

  it('follows a wall-clock step either way: the end stays at the instant, one change each', () => {
    const running = runningLobby();
    const ahead = settle(running, t(60_000, 120_000));
    expect(ahead.seq).toBe(running.seq + 1);
    expect(remainingAt(ahead, 60_000)).toBe(1_800_000 - 180_000);
    const back = settle(ahead, t(61_000, -300_000));
    expect(back.seq).toBe(ahead.seq + 1);
    expect(remainingAt(back, 61_000)).toBe(1_800_000 - 61_000 + 300_000);
    // A few ms of rounding between the two readings is not a step.
    expect(settle(back, t(62_000, -299_900))).toBe(back);
  });

  it('reaches zero at the instant: under stop it stops there, also after a step forward past it', () => {
    const running = runningLobby(t(0), { zeroBehavior: 'stop' });
    expect(nextDueMonoMs(running, t(0))).toBe(1_800_000);
    expect(settle(running, t(1_800_000)).transport).toEqual({ running: false, remainingMs: 0 });
    expect(settle(running, t(1_000, 1_900_000)).transport).toEqual({ running: false, remainingMs: 0 });
  });

  it('pause holds what the screens show; start counts to the instant again', () => {
    const paused = ok(runningLobby(), { type: 'pause' }, t(100_000));
    expect(paused.transport).toEqual({ running: false, remainingMs: 1_700_000 });
    const resumed = ok(paused, { type: 'start' }, t(400_000));
    expect(remainingAt(resumed, 400_000)).toBe(1_400_000);
  });

  it('reset shows the time left to the instant, paused', () => {
    expect(ok(runningLobby(), { type: 'reset' }, t(1_000_000)).transport).toEqual({ running: false, remainingMs: 800_000 });
  });

  it('adjust is refused, naming endsAt', () => {
    const error = refused(runningLobby(), { type: 'adjust', ms: 60_000 }, t(1_000));
    expect(error.message).toMatch(/^ms: "Timer 2" counts to a time of day \(endsAt 2026-11-23T18:30:00.000Z\)/);
  });

  it('a new duration changes the progress bar only; a new endsAt moves the end at once', () => {
    const running = runningLobby();
    const longer = ok(running, { type: 'timer.update', id: 't2', fields: { duration: 3_600_000 } }, t(1_000));
    expect(longer.transport).toEqual(running.transport);
    const later = ok(running, { type: 'timer.update', id: 't2', fields: { endsAt: DOORS + 600_000 } }, t(1_000));
    expect(remainingAt(later, 1_000)).toBe(2_400_000 - 1_000);
    const cleared = ok(running, { type: 'timer.update', id: 't2', fields: { endsAt: null } }, t(1_000));
    expect(cleared.timers[1]?.endsAt).toBeNull();
    expect(cleared.transport).toEqual(running.transport);
  });

  it('next while running starts it counting to the instant; auto-advance ends it there too', () => {
    const running = ok(lobby(), { type: 'start' }, t(0));
    expect(remainingAt(ok(running, { type: 'next' }, t(100_000)), 100_000)).toBe(1_700_000);
    const advancing = ok(lobby({ autoAdvance: true }), { type: 'start' }, t(0));
    const advanced = settle(advancing, t(650_000));
    expect(advanced.activeTimerId).toBe('t2');
    expect(remainingAt(advanced, 650_000)).toBe(1_150_000);
  });

  it('a scheduled start of a countdown to a time of day ends at that time', () => {
    const room = ok(lobby(), { type: 'timer.update', id: 't2', fields: { scheduledAt: WALL + 60_000 } }, t(0));
    const fired = settle(room, t(60_000));
    expect(fired.activeTimerId).toBe('t2');
    expect(remainingAt(fired, 60_000)).toBe(1_740_000);
  });

  it('refuses a bad endsAt, naming it', () => {
    expect(refused(roomOf([600_000]), { type: 'timer.update', id: 't1', fields: { endsAt: -1 } }, t(0)).message).toMatch(/^endsAt: /);
    expect(applyCommand(roomOf([600_000]), { type: 'timer.create', id: 'x', fields: { endsAt: 2.5 } }, t(0)).outcome.ok).toBe(false);
  });
});
