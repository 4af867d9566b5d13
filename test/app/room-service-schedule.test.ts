// Scheduled starts in the room service, with a fake clock whose wall clock can
// step: one wake-up pending at a time, at most STEP_CHECK_MS away while a
// scheduled start is armed; it fires at its wall-clock instant (also after a
// step either way), once, as one change that is pushed and recorded, and the
// log is told why.
import { describe, expect, it } from 'vitest';
import type { Clock, Scheduler } from '../../src/app/clock.js';
import { RoomService, STEP_CHECK_MS, type RoomChange, type TimeNotice } from '../../src/app/room-service.js';
import type { Room } from '../../src/domain/types.js';
import { ok, roomOf } from '../domain/room-fixtures.js';

const WALL = Date.UTC(2026, 10, 23, 9, 0, 0);
const AT = WALL + 30_000;

class SteppingClock implements Clock {
  mono = 0;
  stepMs = 0;
  monoMs = (): number => this.mono;
  wallMs = (): number => WALL + this.mono + this.stepMs;
}

class OneWake implements Scheduler {
  readonly wakes: { atMonoMs: number; run: () => void; live: boolean }[] = [];
  schedule(atMonoMs: number, run: () => void): { cancel(): void } {
    const wake = { atMonoMs, run, live: true };
    this.wakes.push(wake);
    return { cancel: () => void (wake.live = false) };
  }
  pending() {
    return this.wakes.filter((w) => w.live);
  }
  /** Runs the wake-ups in order, each at its instant, until `untilMono`. */
  runUntil(clock: SteppingClock, untilMono: number): number {
    let count = 0;
    for (;;) {
      const pending = this.pending();
      expect(pending.length).toBeLessThanOrEqual(1);
      const [wake] = pending;
      if (wake === undefined || wake.atMonoMs > untilMono) break;
      if ((count += 1) > 1_000) throw new Error('spinning');
      clock.mono = wake.atMonoMs;
      wake.live = false;
      wake.run();
    }
    clock.mono = untilMono;
    return count;
  }
}

function setup(room: Room) {
  const clock = new SteppingClock();
  const scheduler = new OneWake();
  const notices: TimeNotice[] = [];
  const recorded: RoomChange[] = [];
  const service = new RoomService({
    initialRoom: room,
    clock,
    scheduler,
    onTimeNotice: (n) => notices.push(n),
    persistence: {
      canPublish: () => true,
      // A store whose writes land at once: the change happens as it is saved.
      saveFirst: (change) => {
        if (change.prepare() !== null) change.commit();
        return Promise.resolve();
      },
      record: (c) => recorded.push(c),
    },
  });
  const changes: RoomChange[] = [];
  service.subscribe((c) => changes.push(c));
  service.start();
  return { clock, scheduler, service, notices, recorded, changes };
}

/** t1 active, paused; t2 (5 min) scheduled at AT. */
function scheduledRoom(): Room {
  return ok(roomOf([600_000, 300_000]), { type: 'timer.update', id: 't2', fields: { scheduledAt: AT } }, { monoMs: 0, wallMs: WALL });
}

describe('RoomService: scheduled starts', () => {
  it('keeps one wake-up, at most a second away, and fires at the exact instant: one change, pushed, recorded, logged', () => {
    const { clock, scheduler, service, notices, recorded, changes } = setup(scheduledRoom());
    expect(scheduler.pending()).toHaveLength(1);
    expect(scheduler.pending()[0]?.atMonoMs).toBe(STEP_CHECK_MS);
    scheduler.runUntil(clock, 29_999);
    expect(changes).toHaveLength(0);
    scheduler.runUntil(clock, 30_000);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.cause).toBe('zero');
    expect(recorded).toHaveLength(1);
    expect(service.room.activeTimerId).toBe('t2');
    expect(service.room.transport).toEqual({ running: true, endMonoMs: 330_000 });
    expect(service.room.seq).toBe(scheduledRoom().seq + 1);
    expect(notices).toEqual([{ kind: 'scheduled-start', timerId: 't2', scheduledAt: AT, seq: service.room.seq }]);
    // Nothing armed any more: no wake-up while the timer runs under `continue`.
    expect(scheduler.pending()).toHaveLength(0);
    expect(service.snapshot().endAt).toBe(AT + 300_000);
  });

  it('a step back before the instant: never early, fires once when the wall clock reaches it, and the step is logged', () => {
    const { clock, scheduler, service, notices, changes } = setup(scheduledRoom());
    scheduler.runUntil(clock, 20_000);
    clock.stepMs = -15_000;
    scheduler.runUntil(clock, 44_999);
    expect(changes).toHaveLength(0);
    expect(notices).toEqual([{ kind: 'wall-clock-step', stepMs: -15_000 }]);
    scheduler.runUntil(clock, 45_000);
    expect(changes).toHaveLength(1);
    expect(service.room.transport).toEqual({ running: true, endMonoMs: 345_000 });
    scheduler.runUntil(clock, 100_000);
    expect(changes).toHaveLength(1);
  });

  it('a step back after it fired: it does not fire again', () => {
    const { clock, scheduler, changes } = setup(scheduledRoom());
    scheduler.runUntil(clock, 31_000);
    expect(changes).toHaveLength(1);
    clock.stepMs = -20_000;
    scheduler.runUntil(clock, 90_000);
    expect(changes).toHaveLength(1);
  });

  it('a step forward across the instant: starts within a second, its end where scheduledAt + duration puts it', () => {
    const { clock, scheduler, service, changes, notices } = setup(scheduledRoom());
    scheduler.runUntil(clock, 10_200);
    clock.stepMs = 60_000;
    scheduler.runUntil(clock, 11_000);
    expect(changes).toHaveLength(1);
    // The wall clock reads AT + 41 000 at mono 11 000.
    expect(service.room.transport).toEqual({ running: true, endMonoMs: 11_000 + 300_000 - 41_000 });
    expect(notices.map((n) => n.kind)).toEqual(['wall-clock-step', 'scheduled-start']);
  });

  it('a step forward past its end leaves the room as it was and logs a warning', () => {
    const { clock, scheduler, service, notices } = setup(scheduledRoom());
    scheduler.runUntil(clock, 10_000);
    clock.stepMs = 3_600_000;
    scheduler.runUntil(clock, 11_000);
    expect(service.room.activeTimerId).toBe('t1');
    expect(service.room.transport.running).toBe(false);
    expect(notices).toContainEqual({ kind: 'scheduled-start-missed', timerId: 't2', scheduledAt: AT });
    expect(scheduler.pending()).toHaveLength(0);
  });

  it('an edit re-arms: the wake-up follows the new instant', () => {
    const { clock, scheduler, service, changes } = setup(scheduledRoom());
    scheduler.runUntil(clock, 31_000);
    service.dispatch({ type: 'timer.update', id: 't2', fields: { scheduledAt: AT + 60_000 } }, 'http-v1');
    // Saved first, then applied: let the save queue run.
    return Promise.resolve()
      .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
      .then(() => {
        expect(changes).toHaveLength(2);
        service.dispatch({ type: 'pause' }, 'http-v1');
        scheduler.runUntil(clock, 89_999);
        expect(service.room.transport.running).toBe(false);
        scheduler.runUntil(clock, 90_000);
        expect(service.room.transport).toEqual({ running: true, endMonoMs: 390_000 });
        expect(changes).toHaveLength(4);
      });
  });
});

describe('RoomService: countdown to a time of day', () => {
  it('watches the wall clock while it runs and follows a step within a second, pushed as one change', () => {
    const doors = WALL + 600_000;
    let room = ok(roomOf([600_000, 300_000]), { type: 'timer.update', id: 't1', fields: { endsAt: doors } }, { monoMs: 0, wallMs: WALL });
    room = ok(room, { type: 'start' }, { monoMs: 0, wallMs: WALL });
    const { clock, scheduler, service, changes, notices } = setup(room);
    expect(scheduler.pending()[0]?.atMonoMs).toBe(STEP_CHECK_MS);
    scheduler.runUntil(clock, 100_000);
    expect(changes).toHaveLength(0);
    clock.stepMs = 120_000;
    scheduler.runUntil(clock, 101_000);
    expect(changes).toHaveLength(1);
    expect(service.snapshot().endAt).toBe(doors);
    expect(service.snapshot().remaining).toBe(600_000 - 101_000 - 120_000);
    expect(notices).toEqual([{ kind: 'wall-clock-step', stepMs: 120_000 }]);
    // Paused, it no longer watches: nothing wakes.
    service.dispatch({ type: 'pause' }, 'http-v1');
    expect(scheduler.pending()).toHaveLength(0);
  });
});
