// READY or PAUSED (issue 31, finding 1): a paused timer reads READY only when it has
// not run since it was made active or set back to its duration, whatever the time
// left; the room says so in `started`, which the snapshot carries and a restart keeps.
import { describe, expect, it } from 'vitest';
import { toSnapshot } from '../../src/domain/snapshot.js';
import { readsReady } from '../../src/client/face.js';
import type { Room } from '../../src/domain/types.js';
import { ok, roomOf } from './room-fixtures.js';
import { at } from './now.js';

const MIN = 60_000;
/** What a paused screen says of the room at `monoMs`. */
const word = (room: Room, monoMs: number): string => {
  const s = toSnapshot(room, monoMs, at(monoMs).wallMs);
  return s.running ? 'running' : readsReady(s, s.remaining) ? 'READY' : 'PAUSED';
};

describe('READY until the timer runs, PAUSED after', () => {
  it('start, +1 min, pause: PAUSED with more than the duration left (45:59 on a 45:00 timer read READY before)', () => {
    let room = roomOf([45 * MIN, 10 * MIN]);
    expect(word(room, 0)).toBe('READY');
    room = ok(room, { type: 'start' }, 0);
    room = ok(room, { type: 'adjust', ms: MIN }, 1_000);
    room = ok(room, { type: 'pause' }, 2_000);
    expect(toSnapshot(room, 2_000, at(2_000).wallMs).remaining).toBe(45 * MIN + MIN - 2_000);
    expect(word(room, 2_000)).toBe('PAUSED');
    room = ok(room, { type: 'adjust', ms: -MIN }, 3_000);
    expect(word(room, 3_000)).toBe('PAUSED');
  });

  it('adjusting a timer that has not run keeps it READY, either way', () => {
    let room = roomOf([10 * MIN]);
    room = ok(room, { type: 'adjust', ms: -MIN }, 0);
    expect(word(room, 0)).toBe('READY');
    room = ok(room, { type: 'adjust', ms: 2 * MIN }, 0);
    expect(word(room, 0)).toBe('READY');
  });

  it('reset, select and show reset make it READY again; next and previous while paused land on a READY timer', () => {
    let room = ok(ok(roomOf([10 * MIN, 5 * MIN]), { type: 'start' }, 0), { type: 'pause' }, 5_000);
    expect(word(room, 5_000)).toBe('PAUSED');
    room = ok(room, { type: 'reset' }, 6_000);
    expect(word(room, 6_000)).toBe('READY');
    room = ok(ok(room, { type: 'start' }, 7_000), { type: 'pause' }, 8_000);
    room = ok(room, { type: 'timer.select', id: 't1' }, 9_000);
    expect(word(room, 9_000)).toBe('READY');
    room = ok(ok(room, { type: 'start' }, 10_000), { type: 'pause' }, 11_000);
    room = ok(room, { type: 'next' }, 12_000);
    expect(word(room, 12_000)).toBe('READY');
    room = ok(room, { type: 'previous' }, 13_000);
    expect(word(room, 13_000)).toBe('READY');
    room = ok(ok(room, { type: 'start' }, 14_000), { type: 'pause' }, 15_000);
    room = ok(room, { type: 'show.reset' }, 16_000);
    expect(word(room, 16_000)).toBe('READY');
  });

  it('next while running starts the next timer: paused later it says PAUSED, even at its full duration', () => {
    let room = ok(roomOf([10 * MIN, 5 * MIN]), { type: 'start' }, 0);
    room = ok(room, { type: 'next' }, 1_000);
    room = ok(room, { type: 'pause' }, 1_000);
    expect(toSnapshot(room, 1_000, at(1_000).wallMs).remaining).toBe(5 * MIN);
    expect(word(room, 1_000)).toBe('PAUSED');
  });

  it('a timer advanced to at zero has run; one stopped at zero too', () => {
    let room = ok(roomOf([1_000, 2_000], { autoAdvance: true, zeroBehavior: 'stop' }), { type: 'start' }, 0);
    // Both zeros pass before the next command: t2 ran and is held at 0:00 under stop.
    room = ok(room, { type: 'message.clear' }, 5_000);
    expect(room.activeTimerId).toBe('t2');
    expect(room.started).toBe(true);
  });

  it('is in the snapshot of v1 as `started`', () => {
    const room = ok(roomOf([10 * MIN]), { type: 'start' }, 0);
    expect(toSnapshot(room, 0, at(0).wallMs).started).toBe(true);
    expect(toSnapshot(roomOf([10 * MIN]), 0, at(0).wallMs).started).toBe(false);
  });
});

describe('a box older than `started`', () => {
  it('is judged by the time left, as before', () => {
    expect(readsReady({ duration: 10 * MIN }, 10 * MIN)).toBe(true);
    expect(readsReady({ duration: 10 * MIN }, 9 * MIN)).toBe(false);
    expect(readsReady({ duration: 10 * MIN, started: true }, 10 * MIN)).toBe(false);
    expect(readsReady({ duration: 10 * MIN, started: false }, 9 * MIN)).toBe(true);
  });
});
