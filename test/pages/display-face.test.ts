// The display page's pure parts: what the face shows at a server instant and when
// it next changes, the SSE parser, and the clock-offset estimate.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Appearance, Room } from '../../src/domain/types.js';
import { countdownText, faceAt, formatSeconds, type DisplayState } from '../../src/client/face.js';
import { createServerClock } from '../../src/client/server-clock.js';
import { createSseParser, type SseEvent } from '../../src/client/sse-parser.js';

const WALL = Date.UTC(2025, 5, 1, 9, 0, 0);
const MONO = 50_000;

/** A snapshot of a room whose active timer has `duration`, `warnAt` and `appearance`, running with `remainingMs` left at WALL. */
function state(opts: { remainingMs: number; running?: boolean; warnAt?: number; duration?: number; appearance?: Appearance; zero?: 'continue' | 'stop' | 'hide' }): DisplayState {
  const base = createRoom('t1');
  const timer = { ...base.timers[0]!, duration: opts.duration ?? 600_000, warnAt: opts.warnAt ?? 60_000, appearance: opts.appearance ?? 'countdown' };
  const room: Room = {
    ...base,
    timers: [timer],
    transport: opts.running === false ? { running: false, remainingMs: opts.remainingMs } : { running: true, endMonoMs: MONO + opts.remainingMs },
    settings: { ...base.settings, zeroBehavior: opts.zero ?? 'continue', autoAdvance: false },
  };
  return toSnapshot(room, MONO, WALL);
}

describe('display face', () => {
  it('formats m:ss below an hour and h:mm:ss from an hour on', () => {
    expect(formatSeconds(0)).toBe('0:00');
    expect(formatSeconds(59)).toBe('0:59');
    expect(formatSeconds(600)).toBe('10:00');
    expect(formatSeconds(3599)).toBe('59:59');
    expect(formatSeconds(3600)).toBe('1:00:00');
    expect(formatSeconds(86_400)).toBe('24:00:00');
  });

  it('counts down in whole seconds rounded up: 0:00 exactly at the end, then +m:ss', () => {
    expect(countdownText(600_000)).toBe('10:00');
    expect(countdownText(599_999)).toBe('10:00');
    expect(countdownText(599_000)).toBe('9:59');
    expect(countdownText(1)).toBe('0:01');
    expect(countdownText(0)).toBe('0:00');
    expect(countdownText(-999)).toBe('0:00');
    expect(countdownText(-1000)).toBe('+0:01');
    expect(countdownText(-65_000)).toBe('+1:05');
    expect(countdownText(-3_600_000)).toBe('+1:00:00');
  });

  it('shows the time, label, tone and progress of a running countdown at the given server time', () => {
    const s = state({ remainingMs: 600_000 });
    const now = WALL + 12_345;
    const { face } = faceAt(s, now);
    expect(face.time).toBe('9:48');
    expect(face.tone).toBe('normal');
    expect(face.label).toBe('Timer 1');
    // The bar moves with the digits: 12 of 600 seconds shown as gone.
    expect(face.progress).toBe(0.02);
  });

  it('turns orange at warnAt and red at zero; under continue the overrun shows with +', () => {
    const s = state({ remainingMs: 70_000, warnAt: 60_000 });
    expect(faceAt(s, WALL + 9_999).face.tone).toBe('normal');
    expect(faceAt(s, WALL + 10_000).face).toMatchObject({ tone: 'warn', time: '1:00' });
    expect(faceAt(s, WALL + 69_999).face).toMatchObject({ tone: 'warn', time: '0:01' });
    expect(faceAt(s, WALL + 70_000).face).toMatchObject({ tone: 'over', time: '0:00' });
    expect(faceAt(s, WALL + 75_000).face).toMatchObject({ tone: 'over', time: '+0:05' });
  });

  it('shows nothing at and past zero under hide, and never an overrun under stop', () => {
    const hide = state({ remainingMs: 5_000, zero: 'hide' });
    expect(faceAt(hide, WALL + 4_000).face.time).toBe('0:01');
    expect(faceAt(hide, WALL + 5_000).face.time).toBe('');
    expect(faceAt(hide, WALL + 9_000).face.time).toBe('');
    const stop = state({ remainingMs: 5_000, zero: 'stop' });
    expect(faceAt(stop, WALL + 8_000).face).toMatchObject({ time: '0:00', tone: 'over' });
  });

  it('counts up the elapsed time for countup, and shows the server time of day for clock', () => {
    const up = state({ remainingMs: 600_000, appearance: 'countup' });
    expect(faceAt(up, WALL).face.time).toBe('0:00');
    expect(faceAt(up, WALL + 61_500).face.time).toBe('1:01');
    const clock = state({ remainingMs: 600_000, appearance: 'clock' });
    const at = WALL + 3_723_400;
    const d = new Date(at);
    const two = (n: number) => String(n).padStart(2, '0');
    expect(faceAt(clock, at).face).toMatchObject({ time: `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`, progress: null });
    expect(faceAt(clock, at).nextChangeAt).toBe(Math.floor(at / 1000) * 1000 + 1000);
  });

  it('schedules the next change exactly where the digits change, for any running countdown or countup', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -7_200_000, max: 7_200_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.constantFrom<Appearance>('countdown', 'countup'),
        fc.constantFrom<'continue' | 'hide'>('continue', 'hide'),
        (remainingMs, warnAt, appearance, zero) => {
          const s = state({ remainingMs, warnAt, appearance, zero, duration: 3_600_000 });
          const now = WALL + 0.5;
          const here = faceAt(s, now);
          const next = here.nextChangeAt;
          if (zero === 'hide' && remainingMs <= 0) {
            // Nothing visible moves any more: no wake-ups at all.
            expect(next).toBeNull();
            expect(faceAt(s, now + 3_600_000).face).toEqual(here.face);
            return;
          }
          expect(next).not.toBeNull();
          // Nothing visible changes before the announced instant...
          const justBefore = faceAt(s, next! - 0.25).face;
          expect(justBefore).toEqual(here.face);
          // ...and something does at it.
          expect(faceAt(s, next!).face).not.toEqual(here.face);
        },
      ),
    );
  });

  it('does not schedule redraws while paused without a flash, nor during a blackout', () => {
    expect(faceAt(state({ remainingMs: 30_000, running: false }), WALL).nextChangeAt).toBeNull();
    const black = { ...state({ remainingMs: 30_000 }), blackout: true };
    expect(faceAt(black, WALL).face.blackout).toBe(true);
    expect(faceAt(black, WALL).nextChangeAt).toBeNull();
  });

  it('blinks a flashing message on the server half-seconds', () => {
    const s = { ...state({ remainingMs: 30_000, running: false }), message: { text: 'Wrap up', color: 'red' as const, flash: true, bold: true } };
    const second = Math.ceil(WALL / 1000) * 1000;
    expect(faceAt(s, second + 10).face.message).toEqual({ text: 'Wrap up', color: 'red', bold: true, lit: true });
    expect(faceAt(s, second + 510).face.message?.lit).toBe(false);
    expect(faceAt(s, second + 10).nextChangeAt).toBe(second + 500);
    const steady = { ...s, message: { ...s.message, flash: false } };
    expect(faceAt(steady, second + 510).face.message?.lit).toBe(true);
    expect(faceAt(steady, second + 510).nextChangeAt).toBeNull();
  });
});

describe('SSE parser', () => {
  const sample = 'id: 7\nevent: state\ndata: {"seq":7}\n\n: heartbeat\n\nid: 8\r\nevent: state\r\ndata: {"seq":8}\r\n\r\ndata: a\ndata: b\n\n';

  it('parses events and comments however the text is split', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: sample.length }), { maxLength: 12 }), (cuts) => {
        const events: SseEvent[] = [];
        const comments: string[] = [];
        const feed = createSseParser(
          (e) => events.push(e),
          (c) => comments.push(c),
        );
        const points = [...new Set([0, ...cuts, sample.length])].sort((a, b) => a - b);
        for (let i = 1; i < points.length; i += 1) feed(sample.slice(points[i - 1], points[i]));
        expect(events).toEqual([
          { event: 'state', data: '{"seq":7}', id: '7' },
          { event: 'state', data: '{"seq":8}', id: '8' },
          { event: 'message', data: 'a\nb', id: '8' },
        ]);
        expect(comments).toEqual(['heartbeat']);
      }),
    );
  });
});

describe('server clock estimate', () => {
  it('keeps the round trip with the smallest delay and takes its midpoint', async () => {
    let perf = 1_000;
    const serverOffset = 7 * 60_000 + 1_700_000_000_000; // server = perf + this
    // Round trips of 40, 4 and 25 ms; the server reads its clock 80 % of the way through each.
    const trips = [40, 4, 25];
    let i = 0;
    const clock = createServerClock('/time', {
      samples: 3,
      gapMs: 0,
      perfNow: () => perf,
      fetchTime: async () => {
        const rtt = trips[i++]!;
        const serverNow = perf + rtt * 0.8 + serverOffset;
        perf += rtt;
        return serverNow;
      },
    });
    expect(clock.now()).toBeNull();
    expect(await clock.sync()).toBe(true);
    expect(clock.bestRoundTripMs()).toBe(4);
    // Error at most half the best round trip (here 0.3 * 4 ms).
    expect(Math.abs(clock.now()! - (perf + serverOffset))).toBeLessThanOrEqual(2);
    perf += 10_000;
    expect(Math.abs(clock.now()! - (perf + serverOffset))).toBeLessThanOrEqual(2);
  });

  it('keeps a quick round trip over later slow ones, until its age makes a fresh one more certain', async () => {
    let perf = 0;
    let rtt = 2;
    let serverAhead = 1_000_000;
    const clock = createServerClock('/time', {
      samples: 1,
      perfNow: () => perf,
      fetchTime: async () => {
        const at = perf + rtt / 2 + serverAhead;
        perf += rtt;
        return at;
      },
    });
    await clock.sync();
    expect(clock.bestRoundTripMs()).toBe(2);
    // A busy moment: a 60 ms round trip, a little later, does not replace the 2 ms one.
    perf += 1_000;
    rtt = 60;
    serverAhead += 0.5;
    expect(await clock.sync()).toBe(false);
    expect(clock.bestRoundTripMs()).toBe(2);
    // Ten minutes on, the old sample may have drifted by more than a fresh 30 ms round trip's error.
    perf += 600_000;
    rtt = 30;
    expect(await clock.sync()).toBe(true);
    expect(clock.bestRoundTripMs()).toBe(30);
    expect(clock.now()).toBeCloseTo(perf + serverAhead, 6);
  });

  it('uses a snapshot hint only until a round trip succeeds, and keeps its estimate when every round trip fails', async () => {
    let perf = 0;
    let fail = true;
    const clock = createServerClock('/time', {
      samples: 2,
      gapMs: 0,
      perfNow: () => perf,
      fetchTime: async () => {
        if (fail) throw new Error('offline');
        return perf + 5_000;
      },
    });
    clock.hint(9_000);
    expect(clock.now()).toBe(9_000);
    expect(await clock.sync()).toBe(false);
    expect(clock.now()).toBe(9_000);
    fail = false;
    expect(await clock.sync()).toBe(true);
    expect(clock.now()).toBe(5_000);
    clock.hint(1);
    expect(clock.now()).toBe(5_000);
  });
});
