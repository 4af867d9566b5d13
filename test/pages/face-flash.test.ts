// The screen flash on the face and the lamps: inverted in the first half of each
// period on the server's timeline, so every screen (and lamp) flips together and
// a screen that connects mid-flash shows only the rest.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Room } from '../../src/domain/types.js';
import { flashLit, nextSignalChangeMonoMs } from '../../src/gpio/lamp-signals.js';
import { faceAt } from '../../src/client/face.js';

const WALL = Date.UTC(2026, 10, 23, 9, 0, 0);
const MONO = 50_000;
const flashing: Room = { ...createRoom('t1'), flash: { startMonoMs: MONO + 150, count: 3 } };
const state = toSnapshot(flashing, MONO, WALL);
const start = WALL + 150;

describe('flash on the face', () => {
  it('inverts in the first half of each period, and says when it next flips', () => {
    expect(faceAt(state, start - 1)).toMatchObject({ face: { inverted: false }, nextChangeAt: start });
    expect(faceAt(state, start)).toMatchObject({ face: { inverted: true }, nextChangeAt: start + 250 });
    expect(faceAt(state, start + 250)).toMatchObject({ face: { inverted: false }, nextChangeAt: start + 500 });
    expect(faceAt(state, start + 1_000).face.inverted).toBe(true);
    expect(faceAt(state, start + 1_250)).toMatchObject({ face: { inverted: false }, nextChangeAt: start + 1_500 });
    expect(faceAt(state, start + 1_500)).toMatchObject({ face: { inverted: false }, nextChangeAt: null });
  });

  it('a screen that gets the snapshot mid-flash shows the rest of it', () => {
    const late = toSnapshot(flashing, MONO + 900, WALL + 900);
    expect(late.flash).toEqual(state.flash);
    expect(faceAt(late, start + 1_000).face.inverted).toBe(true);
  });

  it('does not flash a black screen', () => {
    expect(faceAt({ ...state, blackout: true }, start).face.inverted).toBe(false);
  });
});

describe('flash on the lamps', () => {
  it('lit in the same halves, woken at each flip', () => {
    expect(flashLit(flashing, MONO + 149)).toBe(false);
    expect(flashLit(flashing, MONO + 150)).toBe(true);
    expect(flashLit(flashing, MONO + 400)).toBe(false);
    expect(flashLit(flashing, MONO + 1_150)).toBe(true);
    expect(flashLit(flashing, MONO + 1_650)).toBe(false);
    expect(nextSignalChangeMonoMs(['flash'], flashing, MONO)).toBe(MONO + 150);
    expect(nextSignalChangeMonoMs(['flash'], flashing, MONO + 150)).toBe(MONO + 400);
    expect(nextSignalChangeMonoMs(['flash'], flashing, MONO + 1_600)).toBe(MONO + 1_650);
    expect(nextSignalChangeMonoMs(['flash'], flashing, MONO + 1_650)).toBeNull();
  });
});
