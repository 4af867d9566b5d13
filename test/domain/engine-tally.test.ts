// Tally in (issue 32): each source's last report is kept, the combined tally is on
// while any source says on, a change of it sets onAir, and a manual switch holds
// until the next change. A report that changes nothing is no change at all (no seq
// step). The tally is not kept on disk; the snapshot carries it, v1 only.
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import { combinedTally, tallySnapshot } from '../../src/domain/tally.js';
import { TALLY_SOURCES, type Command, type Room, type TallySource } from '../../src/domain/types.js';
import { v0Snapshot } from '../../src/api/v0-state.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, serializeDocument, toDocument } from '../../src/store/room-document.js';
import { ok, roomOf } from './room-fixtures.js';
import { at } from './now.js';

const tally = (source: TallySource, on: boolean): Command => ({ type: 'tally.set', source, on });

describe('the combined tally', () => {
  it('is unknown before any report, on when any source says on, off when all that reported say off', () => {
    expect(combinedTally({})).toBeNull();
    expect(combinedTally({ tsl: false })).toBe(false);
    expect(combinedTally({ tsl: false, obs: true })).toBe(true);
    expect(combinedTally({ obs: true })).toBe(true);
    expect(combinedTally({ tsl: false, obs: false })).toBe(false);
  });

  it('names its sources in one list', () => {
    expect(TALLY_SOURCES).toEqual(['tsl', 'obs']);
  });
});

describe('tally drives ON AIR', () => {
  it('the first report sets onAir (unknown to known), on or off', () => {
    const room = roomOf([60_000]);
    expect(ok(room, tally('tsl', true), 0).onAir).toBe(true);
    // A room that was ON AIR by hand before the start: the first report, off, switches it off.
    const manual = { ...room, onAir: true };
    const off = ok(manual, tally('tsl', false), 0);
    expect(off.onAir).toBe(false);
    expect(off.seq).toBe(manual.seq + 1);
  });

  it('on then off follows the source, each a change of one seq step', () => {
    let room = roomOf([60_000]);
    room = ok(room, tally('tsl', true), 0);
    expect([room.onAir, room.seq]).toEqual([true, 2]);
    room = ok(room, tally('tsl', false), 100);
    expect([room.onAir, room.seq]).toEqual([false, 3]);
  });

  it('a repeated report changes nothing: the same room, no seq step', () => {
    let room = ok(roomOf([60_000]), tally('tsl', true), 0);
    for (let i = 1; i <= 50; i += 1) {
      const applied = applyCommand(room, tally('tsl', true), at(i * 100));
      expect(applied.outcome.ok).toBe(true);
      expect(applied.room).toBe(room);
      room = applied.room;
    }
    expect(room.seq).toBe(2);
  });

  it('a manual switch overrides until the next change of the combined tally', () => {
    let room = ok(roomOf([60_000]), tally('tsl', true), 0);
    room = ok(room, { type: 'onair.set', on: false }, 100);
    expect(room.onAir).toBe(false);
    // The mixer repeats "on": no change, the manual off holds.
    room = ok(room, tally('tsl', true), 200);
    expect(room.onAir).toBe(false);
    // The next change of the tally takes over again: off, then on.
    room = ok(room, tally('tsl', false), 300);
    expect(room.onAir).toBe(false);
    room = ok(room, tally('tsl', true), 400);
    expect(room.onAir).toBe(true);
    room = ok(room, { type: 'onair.toggle' }, 500);
    expect(room.onAir).toBe(false);
    room = ok(room, tally('tsl', false), 600);
    room = ok(room, { type: 'onair.set', on: true }, 700);
    expect(room.onAir).toBe(true);
    room = ok(room, tally('tsl', false), 800);
    expect(room.onAir).toBe(true);
  });

  it('two sources: on while either says on; a report that leaves the combined tally as it was does not move the switch', () => {
    let room = ok(roomOf([60_000]), tally('tsl', true), 0);
    room = ok(room, { type: 'onair.set', on: false }, 10);
    // OBS's first report (off) is a change of the sources, not of the combined tally: the manual off holds.
    const seqBefore = room.seq;
    room = ok(room, tally('obs', false), 20);
    expect([room.onAir, room.seq, room.tally]).toEqual([false, seqBefore + 1, { tsl: true, obs: false }]);
    room = ok(room, tally('obs', true), 30);
    expect(room.onAir).toBe(false);
    room = ok(room, tally('tsl', false), 40);
    expect(room.onAir).toBe(false);
    room = ok(room, tally('obs', false), 50);
    expect([room.onAir, room.tally]).toEqual([false, { tsl: false, obs: false }]);
    room = ok(room, tally('obs', true), 60);
    expect(room.onAir).toBe(true);
  });

  it('touches nothing but the switch and the tally: the timer runs on', () => {
    let room = ok(roomOf([60_000]), { type: 'start' }, 0);
    room = ok(room, tally('tsl', true), 1_000);
    const snapshot = toSnapshot(room, 2_000, at(2_000).wallMs);
    expect([snapshot.running, snapshot.remaining, snapshot.onAir]).toEqual([true, 58_000, true]);
  });
});

describe('the snapshot', () => {
  it('carries the tally in v1, null before any report; v0 never shows it', () => {
    const room = roomOf([60_000]);
    expect(toSnapshot(room, 0, at(0).wallMs).tally).toBeNull();
    const reported = ok(ok(room, tally('tsl', false), 0), tally('obs', true), 1);
    const snapshot = toSnapshot(reported, 1, at(1).wallMs);
    expect(snapshot.tally).toEqual({ on: true, sources: { tsl: false, obs: true } });
    expect(tallySnapshot({ tsl: false })).toEqual({ on: false, sources: { tsl: false } });
    expect('tally' in v0Snapshot(snapshot)).toBe(false);
  });
});

describe('across a restart', () => {
  it('onAir is kept, the tally is not: the first report after the start sets it again', () => {
    const saved: ClockNow = { monoMs: 5_000, wallMs: at(5_000).wallMs };
    const room: Room = ok(roomOf([60_000]), tally('tsl', true), 0);
    const document = toDocument(room, saved, room.seq);
    expect('tally' in document.room).toBe(false);
    const read = parseDocument(serializeDocument(document));
    if (read.kind !== 'ok') throw new Error('the document did not parse');
    const restored = restoreRoom(read.document, { monoMs: 100, wallMs: saved.wallMs + 1_000 }).room;
    expect([restored.onAir, restored.tally]).toEqual([true, {}]);
    expect(ok(restored, tally('tsl', false), 200).onAir).toBe(false);
  });
});

type ClockNow = { monoMs: number; wallMs: number };
