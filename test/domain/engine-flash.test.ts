// The screen flash in the engine and the snapshot: one change, starting a
// moment after the command, shown in the snapshot until it is over; bad counts refused.
import { describe, expect, it } from 'vitest';
import { toSnapshot } from '../../src/domain/snapshot.js';
import { ok, refused, roomOf } from './room-fixtures.js';

describe('flash', () => {
  it('is one change and lasts count periods from 150 ms after the command', () => {
    const room = roomOf([600_000]);
    const flashed = ok(room, { type: 'flash', count: 3 }, 10_000);
    expect(flashed.seq).toBe(room.seq + 1);
    expect(flashed.flash).toEqual({ startMonoMs: 10_150, count: 3 });
    expect(flashed.message).toEqual(room.message);
    const wall = 1_700_000_000_000;
    expect(toSnapshot(flashed, 10_000, wall).flash).toEqual({ startAt: wall + 150, count: 3, periodMs: 500, endAt: wall + 1_650 });
    expect(toSnapshot(flashed, 11_649, wall + 1_649).flash).not.toBeNull();
    expect(toSnapshot(flashed, 11_650, wall + 1_650).flash).toBeNull();
  });

  it('a new flash replaces one still going', () => {
    const twice = ok(ok(roomOf([600_000]), { type: 'flash', count: 10 }, 0), { type: 'flash', count: 1 }, 1_000);
    expect(twice.flash).toEqual({ startMonoMs: 1_150, count: 1 });
  });

  it.each([0, 11, 2.5, -1])('refuses count %s', (count) => {
    expect(refused(roomOf([600_000]), { type: 'flash', count }, 0).message).toMatch(/^count: must be a whole number of flashes from 1 to 10/);
  });
});
