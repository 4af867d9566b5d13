// The remaining time on the keys: derived from endAt/serverNow with the offset of
// this machine's clock corrected, updated on the server's second boundaries by
// one local timer. Plain numbers for time throughout: a fake monotonic clock and
// a fake timer queue stand in for performance.now() and setTimeout.
import { describe, expect, it } from 'vitest';
import { RoomClock } from '../../src/companion/room-clock.js';
import { viewAt, type RoomView } from '../../src/companion/room-view.js';
import { flagsOf } from '../../src/companion/room-flags.js';
import { fakeTime } from './fake-time.js';
import { snapshot, WALL } from './snapshots.js';

describe('viewAt: what a key shows at a server instant', () => {
  it('counts down like the display, with a signed form and h/m/s parts', () => {
    const s = snapshot({ running: true, remainingMs: 600_000 });
    const v = viewAt(s, WALL + 12_345);
    expect(v).toMatchObject({ remaining: '9:48', remainingSigned: '-9:48', hours: '0', minutes: '09', seconds: '48', phase: 'running' });
    expect(v.remainingMs).toBe(587_655);
    expect(v.elapsedSeconds).toBe(12);
    expect(v.progress).toBe(0.02);
    const long = viewAt(snapshot({ running: true, remainingMs: 3_723_000, duration: 4_000_000 }), WALL);
    expect(long).toMatchObject({ remaining: '1:02:03', remainingSigned: '-1:02:03', hours: '1', minutes: '02', seconds: '03' });
  });

  it('goes to warning at warnAt, overrun at zero with +, and back to whole seconds', () => {
    const s = snapshot({ running: true, remainingMs: 70_000, warnAt: 60_000 });
    expect(viewAt(s, WALL + 9_999).phase).toBe('running');
    expect(viewAt(s, WALL + 10_000)).toMatchObject({ phase: 'warning', remaining: '1:00' });
    expect(viewAt(s, WALL + 70_000)).toMatchObject({ phase: 'overrun', remaining: '0:00', remainingSigned: '0:00' });
    expect(viewAt(s, WALL + 75_000)).toMatchObject({ phase: 'overrun', remaining: '+0:05', remainingSigned: '+0:05', seconds: '05' });
  });

  it('reads ready at the full duration, paused midway, and stopped at zero under stop', () => {
    expect(viewAt(snapshot({ running: false, remainingMs: 600_000 }), WALL).phase).toBe('ready');
    expect(viewAt(snapshot({ running: false, remainingMs: 300_000 }), WALL + 99_000)).toMatchObject({ phase: 'paused', remaining: '5:00' });
    expect(viewAt(snapshot({ running: false, remainingMs: 0, zero: 'stop' }), WALL)).toMatchObject({ phase: 'stopped', remaining: '0:00' });
    // Running past zero under stop (the server's pause is on its way): never an overrun.
    expect(viewAt(snapshot({ running: true, remainingMs: 1_000, zero: 'stop' }), WALL + 3_000)).toMatchObject({ phase: 'stopped', remaining: '0:00', remainingMs: 0 });
  });

  it('keeps counting the overrun under hide, while display_time goes blank like the screen', () => {
    const v = viewAt(snapshot({ running: true, remainingMs: 5_000, zero: 'hide' }), WALL + 9_000);
    expect(v).toMatchObject({ remaining: '+0:04', displayTime: '', phase: 'overrun' });
  });

  it("shows the display's digits for count-up timers in display_time, the countdown in remaining", () => {
    const v = viewAt(snapshot({ running: true, remainingMs: 600_000, appearance: 'countup' }), WALL + 61_000);
    expect(v).toMatchObject({ remaining: '8:59', displayTime: '1:01' });
  });

  it('next changes at the next server second boundary, or at warnAt/zero if sooner; paused, only when the show end reads a new minute', () => {
    const s = snapshot({ running: true, remainingMs: 70_500, warnAt: 60_000 });
    expect(viewAt(s, WALL).nextChangeAt).toBe(WALL + 500);
    expect(viewAt(s, WALL + 500).nextChangeAt).toBe(WALL + 1_500);
    // Paused, the digits hold, but the show ends later by every second it waits: 5 s left and two
    // 10-minute timers after it end at 09:20:05, which reads 09:21 when the pause has lasted 55 s.
    const paused = viewAt(snapshot({ running: false, remainingMs: 5_000 }), WALL);
    expect(paused.schedule.showEnd).toBe('09:20');
    expect(paused.nextChangeAt).toBe(WALL + 55_000);
    // A blackout or a flashing message does not stop the count on the keys nor add ticks to it.
    const dark = snapshot({ running: true, remainingMs: 10_000, blackout: true, message: { text: 'x', flash: true, color: 'red', bold: false } });
    expect(viewAt(dark, WALL + 100).nextChangeAt).toBe(WALL + 1_000);
  });
});

describe('RoomClock: offset correction and one timer on second boundaries', () => {
  it("derives the time from serverNow, not from this machine's clock, and wakes on the server's second boundaries", () => {
    // This machine's monotonic clock reads 1 234 567 ms at arrival: nothing to do with the server's epoch time.
    const time = fakeTime(1_234_567);
    const seen: { perf: number; view: RoomView | null }[] = [];
    const clock = new RoomClock((_state, view) => seen.push({ perf: time.perfNow(), view }), time);
    clock.accept(snapshot({ running: true, remainingMs: 10_400 }), true);
    expect(seen.at(-1)?.view?.remaining).toBe('0:11');
    // 400 ms to the boundary where 0:11 becomes 0:10: exactly one timer, due then.
    expect(time.pendingCount()).toBe(1);
    expect(time.nextAt()).toBe(1_234_567 + 400);
    time.advance(3_000);
    const ticks = seen.slice(1).map((s) => ({ at: s.perf - 1_234_567, remaining: s.view?.remaining }));
    expect(ticks).toEqual([
      { at: 400, remaining: '0:10' },
      { at: 1_400, remaining: '0:09' },
      { at: 2_400, remaining: '0:08' },
    ]);
    expect(time.pendingCount()).toBe(1);
    clock.stop();
    expect(time.pendingCount()).toBe(0);
  });

  it('re-anchors on every snapshot, so a step of the server clock or a delayed snapshot is followed', () => {
    const time = fakeTime(0);
    const seen: (RoomView | null)[] = [];
    const clock = new RoomClock((_s, view) => seen.push(view), time);
    clock.accept(snapshot({ running: true, remainingMs: 10_000 }), true);
    time.advance(2_000);
    expect(clock.view()?.remaining).toBe('0:08');
    // The same room 2 s later as the server tells it, but its wall clock stepped an hour ahead
    // (NTP on a Pi): endAt and serverNow step together, the remaining time does not.
    const stepped = snapshot({ running: true, remainingMs: 8_000, seq: 8 });
    clock.accept({ ...stepped, serverNow: stepped.serverNow + 3_600_000, endAt: (stepped.endAt as number) + 3_600_000 }, false);
    expect(clock.view()?.remaining).toBe('0:08');
    expect(time.pendingCount()).toBe(1);
    expect(time.nextAt()).toBe(3_000);
  });

  it('ignores an older snapshot unless it is the first of a new connection', () => {
    const time = fakeTime(0);
    const clock = new RoomClock(() => {}, time);
    expect(clock.accept(snapshot({ seq: 10, blackout: true }), true)).toBe(true);
    expect(clock.accept(snapshot({ seq: 9 }), false)).toBe(false);
    expect(clock.state?.blackout).toBe(true);
    expect(clock.accept(snapshot({ seq: 3 }), true)).toBe(true);
    expect(clock.state?.seq).toBe(3);
  });

  it('sets no timer for the digits while paused, only one for the minute at which the show end moves on', () => {
    const time = fakeTime(0);
    const seen: (RoomView | null)[] = [];
    const clock = new RoomClock((_s, view) => seen.push(view), time);
    clock.accept(snapshot({ running: false, remainingMs: 30_000 }), true);
    // 30 s left and two 10-minute timers: the show ends at 09:20:30, 09:21 after 30 s of pause.
    expect(time.pendingCount()).toBe(1);
    expect(time.nextAt()).toBe(30_000);
    time.advance(90_000);
    expect(seen.map((v) => v?.schedule.showEnd)).toEqual(['09:20', '09:21', '09:22']);
    expect(seen.map((v) => v?.remaining)).toEqual(['0:30', '0:30', '0:30']);
  });
});

describe('the red threshold (dangerAt)', () => {
  it('reads danger from dangerAt until zero, then overrun; the danger feedback follows, not before and not at zero', () => {
    const s = { ...snapshot({ running: true, remainingMs: 70_000, warnAt: 60_000 }), dangerAt: 30_000 };
    expect(viewAt(s, WALL + 30_000).phase).toBe('warning');
    expect(viewAt(s, WALL + 40_000)).toMatchObject({ phase: 'danger', remaining: '0:30' });
    expect(viewAt(s, WALL + 70_000).phase).toBe('overrun');
    const dangerAt = (atMs: number) => flagsOf(s, viewAt(s, atMs), true).danger;
    expect([dangerAt(WALL + 39_999), dangerAt(WALL + 40_000), dangerAt(WALL + 69_999), dangerAt(WALL + 70_000)]).toEqual([false, true, true, false]);
    // No threshold: never danger.
    const none = { ...s, dangerAt: 0 };
    expect(viewAt(none, WALL + 60_000).phase).toBe('warning');
    expect(flagsOf(none, viewAt(none, WALL + 60_000), true).danger).toBe(false);
  });
});
