// The red threshold (dangerAt) on the display face and the lamps: normal,
// warning, danger, overrun, and the instants at which each begins.
import { describe, expect, it } from 'vitest';
import { createRoom, newTimer } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Room } from '../../src/domain/types.js';
import { nextSignalChangeMonoMs, signalOn } from '../../src/gpio/lamp-signals.js';
import { faceAt } from '../../src/client/face.js';

const WALL = Date.UTC(2026, 10, 23, 9, 0, 0);
const MONO = 50_000;

function running(dangerAt: number): Room {
  const base = createRoom('t1');
  const timer = newTimer('t1', { duration: 600_000, warnAt: 60_000, dangerAt }, 1);
  return { ...base, timers: [timer], transport: { running: true, endMonoMs: MONO + 120_000 } };
}

describe('dangerAt', () => {
  const state = toSnapshot(running(30_000), MONO, WALL);
  const end = WALL + 120_000;

  it('the face goes normal, warning, danger, overrun', () => {
    const at = (ms: number) => faceAt(state, ms).face;
    expect(at(end - 61_000)).toMatchObject({ tone: 'normal', danger: false });
    expect(at(end - 60_000)).toMatchObject({ tone: 'warn', danger: false });
    expect(at(end - 30_000)).toMatchObject({ tone: 'warn', danger: true });
    expect(at(end + 1)).toMatchObject({ tone: 'over', danger: false });
  });

  it('the face changes exactly at end - dangerAt', () => {
    expect(faceAt(state, end - 30_400).nextChangeAt).toBe(end - 30_000);
  });

  it('0 is no danger at all', () => {
    expect(faceAt(toSnapshot(running(0), MONO, WALL), end - 1_000).face.danger).toBe(false);
  });

  it('the danger lamp lights at the threshold and stays lit in overrun', () => {
    const room = running(30_000);
    expect(signalOn('danger', room, MONO + 89_999)).toBe(false);
    expect(signalOn('danger', room, MONO + 90_000)).toBe(true);
    expect(signalOn('danger', room, MONO + 200_000)).toBe(true);
    expect(nextSignalChangeMonoMs(['danger'], room, MONO)).toBe(MONO + 90_000);
    expect(signalOn('danger', running(0), MONO + 200_000)).toBe(false);
    expect(nextSignalChangeMonoMs(['danger'], running(0), MONO)).toBeNull();
  });
});
