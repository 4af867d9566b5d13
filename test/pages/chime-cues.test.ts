// When the display chimes: cues on the server's timeline, each played once, in
// the redraw whose interval holds it, never late by a second or more.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Room } from '../../src/domain/types.js';
import { cuesOf, dueCues, nextCueAt } from '../../src/pages/display/chime-cues.js';

const WALL = Date.UTC(2026, 10, 23, 9, 0, 0);
const MONO = 50_000;

function running(settings: Partial<Room['settings']>): Room {
  const base = createRoom('t1');
  return { ...base, settings: { ...base.settings, ...settings }, transport: { running: true, endMonoMs: MONO + 120_000 } };
}

describe('chime cues', () => {
  it('none unless the settings ask', () => {
    expect(cuesOf(toSnapshot(running({}), MONO, WALL))).toEqual([]);
  });

  it('zero at endAt and warning at endAt - warnAt', () => {
    const state = toSnapshot(running({ chimeAtZero: true, chimeAtWarning: true }), MONO, WALL);
    expect(cuesOf(state)).toEqual([
      { at: WALL + 120_000, kind: 'zero' },
      { at: WALL + 60_000, kind: 'warning' },
    ]);
    expect(nextCueAt(cuesOf(state), WALL)).toBe(WALL + 60_000);
  });

  it('not for a paused timer or the clock appearance', () => {
    const paused = createRoom('t1');
    expect(cuesOf(toSnapshot({ ...paused, settings: { ...paused.settings, chimeAtZero: true } }, MONO, WALL))).toEqual([]);
    const room = running({ chimeAtZero: true });
    const clock = { ...room, timers: room.timers.map((t) => ({ ...t, appearance: 'clock' as const })) };
    expect(cuesOf(toSnapshot(clock, MONO, WALL))).toEqual([]);
  });

  it('a test chime whatever the settings', () => {
    const room: Room = { ...createRoom('t1'), chimeTestMonoMs: MONO + 150 };
    expect(cuesOf(toSnapshot(room, MONO, WALL))).toEqual([{ at: WALL + 150, kind: 'test' }]);
  });

  it('plays each cue once, in the redraw that reaches it, and not a second late', () => {
    const cues = [{ at: 1_000, kind: 'zero' as const }];
    const played = new Set<string>();
    expect(dueCues(cues, 500, 999, played)).toEqual([]);
    expect(dueCues(cues, 999, 1_000, played)).toEqual(cues);
    expect(dueCues(cues, 999, 1_000, played)).toEqual([]);
    expect(dueCues([{ at: 1_000, kind: 'zero' }], 900, 2_000, new Set())).toEqual([]);
  });
});
