// The second timer (aux) with plain numbers: its own transport, never moved by the
// running order's next, zero rules or scheduled starts; kept through a restart.
import { describe, expect, it } from 'vitest';
import { settle } from '../../src/domain/engine.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Room } from '../../src/domain/types.js';
import { parseDocument, serializeDocument, toDocument } from '../../src/store/room-document.js';
import { restoreRoom } from '../../src/store/restore.js';
import { at, WALL_EPOCH_MS } from './now.js';
import { ok, refused, roomOf } from './room-fixtures.js';

const auxOf = (room: Room, monoMs: number) => toSnapshot(room, monoMs, WALL_EPOCH_MS + monoMs).aux;

describe('the aux timer', () => {
  it('a new room has a paused five-minute countdown', () => {
    expect(auxOf(roomOf([60_000]), 0)).toEqual({ label: 'Aux', duration: 300_000, appearance: 'countdown', running: false, endAt: null, remainingAtPause: 300_000, remaining: 300_000 });
  });

  it('starts, pauses, toggles and resets on its own clock; each change is one seq step', () => {
    let room = roomOf([60_000]);
    room = ok(room, { type: 'aux.start' }, 1_000);
    expect(auxOf(room, 31_000)).toMatchObject({ running: true, remaining: 270_000, endAt: WALL_EPOCH_MS + 301_000 });
    const seq = room.seq;
    room = ok(room, { type: 'aux.toggle' }, 31_000);
    expect([room.seq, auxOf(room, 90_000).remaining, auxOf(room, 90_000).running]).toEqual([seq + 1, 270_000, false]);
    room = ok(room, { type: 'aux.toggle' }, 90_000);
    expect(auxOf(room, 100_000).remaining).toBe(260_000);
    room = ok(room, { type: 'aux.reset' }, 100_000);
    expect(auxOf(room, 200_000)).toMatchObject({ running: false, remaining: 300_000 });
    // The main timer never moved.
    expect(room.transport).toEqual({ running: false, remainingMs: 60_000 });
  });

  it('runs on into overrun; next, auto-advance, stop at zero and a scheduled start leave it alone', () => {
    let room = roomOf([60_000, 60_000], { zeroBehavior: 'stop', autoAdvance: true });
    room = ok(room, { type: 'aux.set', duration: 10_000 }, 0);
    room = ok(room, { type: 'aux.start' }, 0);
    room = ok(room, { type: 'start' }, 0);
    room = ok(room, { type: 'timer.update', id: 't2', fields: { scheduledAt: WALL_EPOCH_MS + 30_000 } }, 0);
    room = settle(room, at(200_000));
    room = ok(room, { type: 'previous' }, 200_000);
    expect(auxOf(room, 200_000)).toMatchObject({ running: true, remaining: -190_000 });
  });

  it('adjust moves it either way within an hour per call; a new duration resets it; label and appearance keep its time', () => {
    let room = roomOf([60_000]);
    room = ok(room, { type: 'aux.adjust', ms: 30_000 }, 0);
    expect(auxOf(room, 0).remaining).toBe(330_000);
    room = ok(room, { type: 'aux.start' }, 0);
    room = ok(room, { type: 'aux.set', label: '  Changeover ', appearance: 'countup' }, 10_000);
    expect(auxOf(room, 10_000)).toMatchObject({ label: 'Changeover', appearance: 'countup', running: true, remaining: 320_000 });
    room = ok(room, { type: 'aux.set', duration: 120_000 }, 20_000);
    expect(auxOf(room, 50_000)).toMatchObject({ duration: 120_000, running: false, remaining: 120_000 });
  });

  it('refuses what it cannot do, naming the field, and changes nothing', () => {
    const room = roomOf([60_000]);
    expect(refused(room, { type: 'aux.adjust', ms: 3_600_001 }, 0).message).toMatch(/^ms: 3600001 is beyond the limit of 3600000/);
    expect(refused(room, { type: 'aux.adjust', ms: 1.5 }, 0).message).toMatch(/^ms: must be a whole number/);
    expect(refused(room, { type: 'aux.set', duration: 999 }, 0).message).toMatch(/^duration: must be a whole number of milliseconds from 1000/);
    expect(refused(room, { type: 'aux.set' }, 0).message).toBe('aux: give at least one of duration, appearance or label');
    expect(refused(room, { type: 'aux.set', label: 'a\u0007b' }, 0).message).toMatch(/^label: contains a control character/);
    let big = ok(room, { type: 'aux.set', duration: 86_400_000 }, 0);
    big = ok(big, { type: 'aux.adjust', ms: -1_000 }, 0);
    expect(refused(big, { type: 'aux.adjust', ms: 2_000 }, 0).message).toMatch(/above the maximum of 86400000/);
  });

  it('keeps running through a restart, from the saved wall-clock end; comes back paused when the wall clock went back', () => {
    let room = roomOf([60_000]);
    room = ok(room, { type: 'aux.start' }, 0);
    const document = parseDocument(serializeDocument(toDocument(room, at(100_000), room.seq)));
    if (document.kind !== 'ok') throw new Error(document.kind);
    // Back 50 s later on the wall clock, the monotonic clock starting again from 2 s.
    const later = restoreRoom(document.document, { monoMs: 2_000, wallMs: WALL_EPOCH_MS + 150_000 });
    expect(toSnapshot(later.room, 2_000, WALL_EPOCH_MS + 150_000).aux).toMatchObject({ running: true, remaining: 150_000 });
    const clockBack = restoreRoom(document.document, { monoMs: 2_000, wallMs: WALL_EPOCH_MS + 50_000 });
    expect(toSnapshot(clockBack.room, 2_000, WALL_EPOCH_MS + 50_000).aux).toMatchObject({ running: false, remaining: 200_000 });
  });
});

describe('the aux timer alone running when the wall clock went back', () => {
  it('comes back paused, seq moves on, and the log is told why', () => {
    let room = roomOf([60_000]);
    room = ok(room, { type: 'aux.start' }, 0);
    const document = parseDocument(serializeDocument(toDocument(room, at(100_000), room.seq)));
    if (document.kind !== 'ok') throw new Error(document.kind);
    const back = restoreRoom(document.document, { monoMs: 2_000, wallMs: WALL_EPOCH_MS + 50_000 });
    expect(back.room.seq).toBe(room.seq + 1);
    expect(back.room.aux.transport).toEqual({ running: false, remainingMs: 200_000 });
    expect(back.warning).toMatch(/the running aux timer was restored paused at 200000 ms/);
  });
});
