// The display's extras (issue 29), pure: over/under and the show's end at an
// estimated server instant, when they next change (exactly where the words do,
// never later), and the aux timer drawn by the main time's own face logic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auxDisplayState } from '../../src/client/aux-display.js';
import { faceAt } from '../../src/client/face.js';
import { extrasAt, type ExtrasChoice, type ExtrasState } from '../../src/client/screen-extras.js';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Actual, AuxTimer, Room, Timer } from '../../src/domain/types.js';

const WALL = Date.UTC(2025, 5, 1, 9, 0, 0);
const MONO = 50_000;
const MINUTE = 60_000;
const ALL: ExtrasChoice = { overUnder: true, showEnd: true, aux: true };
const SCHEDULE_ONLY: ExtrasChoice = { overUnder: true, showEnd: true, aux: false };

interface ShowOpts {
  /** The room's planned start, relative to WALL; null for none. */
  readonly plannedFromWall: number | null;
  /** The opening's first start, relative to WALL; null when it has not run. */
  readonly startedFromWall: number | null;
  readonly running: boolean;
  /** What the opening has left at WALL. */
  readonly remainingMs: number;
  readonly aux?: AuxTimer;
  readonly timeZone?: string;
  readonly clockFormat?: '24h' | '12h';
  readonly blackout?: boolean;
}

/** The snapshot at WALL of a room with an opening of 10 minutes and a keynote of 20 after it. */
function show(opts: ShowOpts): ExtrasState {
  const base = createRoom('t1');
  const first = base.timers[0] as Timer;
  const timers: Timer[] = [
    { ...first, id: 'a', label: 'Opening', duration: 10 * MINUTE },
    { ...first, id: 'b', label: 'Keynote', duration: 20 * MINUTE },
  ];
  const actuals: Actual[] = opts.startedFromWall === null ? [] : [{ timerId: 'a', startedAt: WALL + opts.startedFromWall, endedAt: null }];
  const room: Room = {
    ...base,
    timers,
    activeTimerId: 'a',
    actuals,
    blackout: opts.blackout ?? false,
    transport: opts.running ? { running: true, endMonoMs: MONO + opts.remainingMs } : { running: false, remainingMs: opts.remainingMs },
    settings: {
      ...base.settings,
      timeZone: opts.timeZone ?? 'UTC',
      clockFormat: opts.clockFormat ?? '24h',
      plannedStart: opts.plannedFromWall === null ? null : WALL + opts.plannedFromWall,
    },
    aux: opts.aux ?? base.aux,
  };
  return toSnapshot(room, MONO, WALL);
}

describe('over/under and the show’s end', () => {
  it('reads how late the show runs and when it ends, in the room’s zone and format; a running timer holds them still', () => {
    // Planned 5 minutes ago, started a minute ago: the opening ends 4 minutes later than planned.
    const state = show({ plannedFromWall: -5 * MINUTE, startedFromWall: -MINUTE, running: true, remainingMs: 9 * MINUTE, timeZone: 'Europe/Berlin', clockFormat: '12h' });
    const at = extrasAt(state, SCHEDULE_ONLY, WALL + 10_000);
    expect(at.extras.overUnder).toEqual({ text: '4:00 behind', state: 'behind' });
    // 09:00 UTC + 9 + 20 minutes is 09:29 UTC, 11:29 in Berlin's summer.
    expect(at.extras.showEnd).toBe('Ends 11:29 AM');
    expect(at.extras.aux).toBeNull();
    // Nothing moves while it runs: the first change is half a second into overrun (9 minutes on),
    // when the end starts to follow the clock and 4:00.5 late reads 4:01.
    expect(at.nextChangeAt).toBe(WALL + 9 * MINUTE + 500);
  });

  it('grows with the clock while the timer is held, and says when the next second shows, to the millisecond', () => {
    // Paused part-way with 9 minutes left: its end is now + 9 minutes, planned at WALL + 5 minutes.
    const state = show({ plannedFromWall: -5 * MINUTE, startedFromWall: -MINUTE, running: false, remainingMs: 9 * MINUTE });
    const at = extrasAt(state, { overUnder: true, showEnd: false, aux: false }, WALL + 400);
    expect(at.extras.overUnder?.text).toBe('4:00 behind');
    // 4:00.5 late rounds to 4:01: at WALL + 500.
    expect(at.nextChangeAt).toBe(WALL + 500);
    expect(extrasAt(state, SCHEDULE_ONLY, WALL + 499).extras.overUnder?.text).toBe('4:00 behind');
    expect(extrasAt(state, SCHEDULE_ONLY, WALL + 500).extras.overUnder?.text).toBe('4:01 behind');
  });

  it('reads an early show as ahead, shrinking as the held timer waits, and on time at zero', () => {
    // Planned 2 minutes from now, the opening already on and held with 5 minutes left: 7 minutes early.
    const state = show({ plannedFromWall: 2 * MINUTE, startedFromWall: -5 * MINUTE, running: false, remainingMs: 5 * MINUTE });
    const at = extrasAt(state, { overUnder: true, showEnd: false, aux: false }, WALL);
    expect(at.extras.overUnder).toEqual({ text: '7:00 ahead', state: 'ahead' });
    // 6:59.5 early still reads 7:00; a millisecond less reads 6:59.
    expect(at.nextChangeAt).toBe(WALL + 501);
    expect(extrasAt(state, SCHEDULE_ONLY, WALL + 500).extras.overUnder?.text).toBe('7:00 ahead');
    expect(extrasAt(state, SCHEDULE_ONLY, WALL + 501).extras.overUnder?.text).toBe('6:59 ahead');
    expect(extrasAt(state, SCHEDULE_ONLY, WALL + 7 * MINUTE).extras.overUnder).toEqual({ text: 'on time', state: 'onTime' });
  });

  it('turns the show’s end over at the minute while it moves with the clock', () => {
    const state = show({ plannedFromWall: -5 * MINUTE, startedFromWall: -MINUTE, running: false, remainingMs: 9 * MINUTE });
    // Held: the end is now + 9 + 20 minutes, 09:29:59.7 at WALL + 59.7 s; 09:30 three tenths later.
    const at = extrasAt(state, { overUnder: false, showEnd: true, aux: false }, WALL + 59_700);
    expect(at.extras.showEnd).toBe('Ends 09:29');
    expect(at.nextChangeAt).toBe(WALL + 60_000);
    expect(extrasAt(state, SCHEDULE_ONLY, WALL + 60_000).extras.showEnd).toBe('Ends 09:30');
  });

  it('shows no over/under before there is a plan to be on time against, and the end all the same', () => {
    const state = show({ plannedFromWall: null, startedFromWall: null, running: false, remainingMs: 10 * MINUTE });
    const at = extrasAt(state, SCHEDULE_ONLY, WALL);
    expect(at.extras.overUnder).toBeNull();
    expect(at.extras.showEnd).toBe('Ends 09:30');
  });

  it('never lets a change of words pass before the instant it names', () => {
    const arbitraryShow = fc.record({
      plannedFromWall: fc.option(fc.integer({ min: -3_600_000, max: 3_600_000 }), { nil: null }),
      startedFromWall: fc.option(fc.integer({ min: -3_600_000, max: 0 }), { nil: null }),
      running: fc.boolean(),
      remainingMs: fc.integer({ min: -600_000, max: 600_000 }),
    });
    fc.assert(
      fc.property(arbitraryShow, fc.integer({ min: 0, max: 120_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (opts, fromWall, share) => {
        const state = show(opts);
        const now = WALL + fromWall;
        const at = extrasAt(state, SCHEDULE_ONLY, now);
        if (at.nextChangeAt === null) return;
        expect(at.nextChangeAt).toBeGreaterThan(now);
        // Anywhere before the instant it gave, the words are those of now; at it, they differ.
        const between = now + Math.floor((at.nextChangeAt - now - 1) * share);
        expect(extrasAt(state, SCHEDULE_ONLY, between).extras).toEqual(at.extras);
        expect(extrasAt(state, SCHEDULE_ONLY, at.nextChangeAt).extras).not.toEqual(at.extras);
      }),
      { numRuns: 300 },
    );
  });

  it('adds nothing to redraw when every extra is off, or while the screen is black', () => {
    const state = show({ plannedFromWall: -5 * MINUTE, startedFromWall: -MINUTE, running: false, remainingMs: 9 * MINUTE });
    expect(extrasAt(state, { overUnder: false, showEnd: false, aux: false }, WALL)).toEqual({ extras: { overUnder: null, showEnd: '', aux: null }, nextChangeAt: null });
    const black = show({ plannedFromWall: -5 * MINUTE, startedFromWall: -MINUTE, running: false, remainingMs: 9 * MINUTE, blackout: true });
    const at = extrasAt(black, ALL, WALL);
    expect(at.extras.overUnder?.text).toBe('4:00 behind');
    expect(at.nextChangeAt).toBeNull();
  });
});

describe('the aux timer on the screen', () => {
  const running = (appearance: 'countdown' | 'countup', label = 'Changeover'): AuxTimer => ({ label, duration: 2 * MINUTE, appearance, transport: { running: true, endMonoMs: MONO + 3_000 } });

  it('counts down to zero and on into overrun, in the overrun tone, flipping where the digits do', () => {
    const state = show({ plannedFromWall: null, startedFromWall: null, running: false, remainingMs: MINUTE, aux: running('countdown') });
    const at = extrasAt(state, { overUnder: false, showEnd: false, aux: true }, WALL + 500);
    expect(at.extras.aux).toEqual({ label: 'Changeover', time: '0:03', tone: 'normal', hold: 'running' });
    expect(at.nextChangeAt).toBe(WALL + 1_000);
    expect(extrasAt(state, ALL, WALL + 5_000).extras.aux).toEqual({ label: 'Changeover', time: '+0:02', tone: 'over', hold: 'running' });
  });

  it('shows a count-up as its duration less what is left, and a held one as ready; an unnamed one as Aux', () => {
    const up = show({ plannedFromWall: null, startedFromWall: null, running: false, remainingMs: MINUTE, aux: running('countup', '') });
    // 3 s left of 2 minutes: 1:57 gone.
    expect(extrasAt(up, ALL, WALL).extras.aux).toEqual({ label: 'Aux', time: '1:57', tone: 'normal', hold: 'running' });
    const ready: AuxTimer = { label: 'Q&A', duration: 5 * MINUTE, appearance: 'countdown', transport: { running: false, remainingMs: 5 * MINUTE } };
    const held = show({ plannedFromWall: null, startedFromWall: null, running: true, remainingMs: MINUTE, aux: ready });
    expect(extrasAt(held, ALL, WALL).extras.aux).toEqual({ label: 'Q&A', time: '5:00', tone: 'normal', hold: 'ready' });
  });

  it('as a screen’s main time: the aux’s label as the title, its time, none of the running order’s', () => {
    const state = show({ plannedFromWall: null, startedFromWall: null, running: true, remainingMs: 9 * MINUTE, aux: running('countdown', 'Q&A') });
    const face = faceAt(auxDisplayState(state), WALL + 4_000).face;
    expect(face.label).toBe('Q&A');
    expect(face.speaker).toBe('');
    expect(face.time).toBe('+0:01');
    expect(face.tone).toBe('over');
    expect(face.next).toBe('');
    // The main timer's own face is unchanged by it.
    expect(faceAt(state, WALL + 4_000).face.time).toBe('8:56');
  });
});
