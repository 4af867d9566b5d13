// RoomService with a fake clock and a fake scheduler: no real timers, time moves
// only when the test moves it, and a scheduled wake-up runs only when the test fires it.
import { describe, expect, it } from 'vitest';
import type { Clock, Scheduler } from '../../src/app/clock.js';
import { NotDone, RoomService, type Persistence, type RoomChange } from '../../src/app/room-service.js';
import { nextDueMonoMs } from '../../src/domain/engine.js';
import { createRoom } from '../../src/domain/room.js';
import type { Room, Settings } from '../../src/domain/types.js';
import { roomOf } from '../domain/room-fixtures.js';
import { at } from '../domain/now.js';

const WALL_BASE_MS = 1_700_000_000_000;

class FakeClock implements Clock {
  nowMonoMs = 0;
  wallOffsetMs = WALL_BASE_MS;
  monoMs(): number {
    return this.nowMonoMs;
  }
  wallMs(): number {
    return this.wallOffsetMs + this.nowMonoMs;
  }
}

interface Wake {
  readonly atMonoMs: number;
  readonly run: () => void;
  cancelled: boolean;
  fired: boolean;
}

class FakeScheduler implements Scheduler {
  readonly wakes: Wake[] = [];

  schedule(atMonoMs: number, run: () => void): { cancel(): void } {
    const wake: Wake = { atMonoMs, run, cancelled: false, fired: false };
    this.wakes.push(wake);
    return { cancel: () => void (wake.cancelled = true) };
  }

  /** Wake-ups armed and neither cancelled nor fired yet. */
  pending(): Wake[] {
    return this.wakes.filter((w) => !w.cancelled && !w.fired);
  }

  /** The one pending wake-up; the service keeps at most one. */
  only(): Wake {
    const pending = this.pending();
    expect(pending).toHaveLength(1);
    return pending[0] as Wake;
  }

  /** Fires the pending wake-up with the clock at `atMonoMs` (late, early or on time). */
  fire(clock: FakeClock, atMonoMs: number): void {
    const wake = this.only();
    clock.nowMonoMs = atMonoMs;
    wake.fired = true;
    wake.run();
  }

  /** Plays a real timer loop: fires each wake-up exactly at its instant until `untilMonoMs`. */
  runUntil(clock: FakeClock, untilMonoMs: number): void {
    for (let fired = 0; ; fired += 1) {
      const [wake] = this.pending();
      if (wake === undefined || wake.atMonoMs > untilMonoMs) break;
      // A service that re-arms without making progress would spin here forever.
      if (fired === 100) throw new Error(`still re-arming at ${wake.atMonoMs} after 100 wake-ups`);
      this.fire(clock, wake.atMonoMs);
    }
    clock.nowMonoMs = untilMonoMs;
  }
}

function setup(initialRoom: Room, extra: { persistence?: Persistence; onListenerError?: (error: unknown) => void } = {}) {
  const clock = new FakeClock();
  const scheduler = new FakeScheduler();
  const service = new RoomService({ initialRoom, clock, scheduler, ...extra });
  const changes: RoomChange[] = [];
  service.subscribe((change) => changes.push(change));
  service.start();
  return { clock, scheduler, service, changes };
}

const roomWith = (durationsMs: number[], settings: Partial<Settings> = {}): Room => roomOf(durationsMs, settings);

describe('RoomService: scheduling the zero instant', () => {
  it('schedules nothing for a paused room', () => {
    const { scheduler } = setup(createRoom('a'));
    expect(scheduler.wakes).toHaveLength(0);
  });

  it('schedules nothing while running under continue without auto-advance, nor under hide', () => {
    for (const zeroBehavior of ['continue', 'hide'] as const) {
      const { clock, scheduler, service } = setup(roomWith([60_000, 60_000], { zeroBehavior }));
      clock.nowMonoMs = 1_000;
      service.dispatch({ type: 'start' }, 'http-v1');
      expect(service.room.transport.running).toBe(true);
      expect(scheduler.wakes).toHaveLength(0);
    }
  });

  it('under stop: schedules exactly at the end instant and pauses at 0 when it fires', () => {
    const { clock, scheduler, service, changes } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    clock.nowMonoMs = 1_000;
    service.dispatch({ type: 'start' }, 'http-v1');
    expect(scheduler.only().atMonoMs).toBe(61_000);
    expect(scheduler.only().atMonoMs).toBe(nextDueMonoMs(service.room, at(0)));

    scheduler.fire(clock, 61_000);
    expect(service.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(changes.at(-1)).toMatchObject({ cause: 'zero', source: 'system' });
    expect(changes.at(-1)?.room.seq).toBe(3);
    expect(scheduler.pending()).toHaveLength(0);
  });

  it('a wake-up that fires early changes nothing and re-arms at the same instant', () => {
    const { clock, scheduler, service, changes } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    const seenBefore = changes.length;

    scheduler.fire(clock, 59_997);
    expect(service.room.transport).toEqual({ running: true, endMonoMs: 60_000 });
    expect(changes).toHaveLength(seenBefore);
    expect(scheduler.only().atMonoMs).toBe(60_000);

    scheduler.fire(clock, 60_000);
    expect(service.room.transport).toEqual({ running: false, remainingMs: 0 });
  });

  it('a late wake-up still stops at 0, not below', () => {
    const { clock, scheduler, service } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    scheduler.fire(clock, 60_250);
    expect(service.room.transport).toEqual({ running: false, remainingMs: 0 });
  });

  it('pause cancels the wake-up; adjust moves it; only one is ever pending', () => {
    const { clock, scheduler, service } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    const first = scheduler.only();

    clock.nowMonoMs = 10_000;
    service.dispatch({ type: 'adjust', ms: 5_000 }, 'http-v1');
    expect(first.cancelled).toBe(true);
    expect(scheduler.only().atMonoMs).toBe(65_000);

    service.dispatch({ type: 'pause' }, 'http-v1');
    expect(scheduler.pending()).toHaveLength(0);

    clock.nowMonoMs = 20_000;
    service.dispatch({ type: 'start' }, 'http-v1');
    expect(scheduler.only().atMonoMs).toBe(75_000);
  });

  it('a command that changes nothing about the due instant keeps the same wake-up', () => {
    const { clock, scheduler, service } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    const first = scheduler.only();
    clock.nowMonoMs = 5_000;
    service.dispatch({ type: 'blackout.toggle' }, 'http-v1');
    expect(scheduler.only()).toBe(first);
    expect(scheduler.wakes).toHaveLength(1);
  });

  it('auto-advance: one wake-up per zero instant, each end its duration after the previous end, none on the last timer under continue', () => {
    const { clock, scheduler, service, changes } = setup(roomWith([60_000, 120_000, 30_000], { autoAdvance: true }));
    clock.nowMonoMs = 1_000;
    service.dispatch({ type: 'start' }, 'http-v1');
    expect(scheduler.only().atMonoMs).toBe(61_000);

    scheduler.fire(clock, 61_040); // 40 ms late
    expect(service.room.activeTimerId).toBe('t2');
    expect(scheduler.only().atMonoMs).toBe(181_000);

    scheduler.fire(clock, 181_000);
    expect(service.room.activeTimerId).toBe('t3');
    expect(service.room.transport).toEqual({ running: true, endMonoMs: 211_000 });
    expect(scheduler.pending()).toHaveLength(0);
    expect(changes.map((c) => c.cause === 'zero')).toEqual([false, true, true]);
  });

  it('auto-advance then stop on the last timer', () => {
    const { clock, scheduler, service } = setup(roomWith([60_000, 30_000], { autoAdvance: true, zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    scheduler.runUntil(clock, 100_000);
    expect(service.room.activeTimerId).toBe('t2');
    expect(service.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(scheduler.wakes.map((w) => w.atMonoMs)).toEqual([60_000, 90_000]);
    expect(scheduler.pending()).toHaveLength(0);
  });

  it('start() applies what fell due while the service was down and arms the next instant', () => {
    const running: Room = { ...roomWith([60_000, 60_000, 60_000], { autoAdvance: true }), transport: { running: true, endMonoMs: -70_000 } };
    // 70 s after t1's end at mono 0: t2 ended 10 s ago, t3 runs until 50 s.
    const clock = new FakeClock();
    const scheduler = new FakeScheduler();
    const service = new RoomService({ initialRoom: running, clock, scheduler });
    const seqs: number[] = [];
    service.subscribe((change) => seqs.push(change.room.seq));
    expect(scheduler.wakes).toHaveLength(0); // the constructor does nothing
    service.start();
    expect(service.room.activeTimerId).toBe('t3');
    expect(service.room.transport).toEqual({ running: true, endMonoMs: 50_000 });
    // Both advances, applied together on waking, are one change.
    expect(seqs).toEqual([running.seq + 1]);
    expect(scheduler.pending()).toHaveLength(0); // last timer, continue
  });

  it('close() cancels the pending wake-up and arms nothing more', () => {
    const { clock, scheduler, service } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    const wake = scheduler.only();
    service.close();
    expect(wake.cancelled).toBe(true);
    clock.nowMonoMs = 1_000;
    service.dispatch({ type: 'adjust', ms: 1_000 }, 'http-v1');
    expect(scheduler.pending()).toHaveLength(0);
  });
});

describe('RoomService: listeners', () => {
  it('get every change once, in seq order, including automatic ones', () => {
    const { clock, scheduler, service, changes } = setup(roomWith([10_000, 10_000], { autoAdvance: true, zeroBehavior: 'stop' }));
    service.dispatch({ type: 'onair.set', on: true }, 'gpio');
    service.dispatch({ type: 'start' }, 'http-v0');
    clock.nowMonoMs = 5_000;
    service.dispatch({ type: 'message.set', message: { text: 'Hi', flash: false, color: 'white', bold: false } }, 'console');
    scheduler.runUntil(clock, 30_000);
    const seqs = changes.map((c) => c.room.seq);
    expect(seqs).toEqual([2, 3, 4, 5, 6]);
    expect(changes.map((c) => c.source)).toEqual(['gpio', 'http-v0', 'console', 'system', 'system']);
    // each change carries the room it replaced
    changes.forEach((c, i) => expect(c.previous.seq).toBe(i === 0 ? 1 : (changes[i - 1]?.room.seq ?? Number.NaN)));
  });

  it('are not called for reads, no-op commands or refused commands', () => {
    const { service, changes } = setup(roomWith([60_000]));
    service.snapshot();
    service.dispatch({ type: 'pause' }, 'http-v1');
    const refused = service.dispatch({ type: 'next' }, 'http-v1');
    expect(refused.outcome.ok).toBe(false);
    expect(changes).toHaveLength(0);
    expect(service.room.seq).toBe(1);
  });

  it('one command that also makes a zero event due is one change, one seq step', () => {
    const { clock, service, changes } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    clock.nowMonoMs = 10_000;
    service.dispatch({ type: 'adjust', ms: -60_000 }, 'http-v1');
    expect(changes.map((c) => [c.previous.seq, c.room.seq])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(service.room.transport).toEqual({ running: false, remainingMs: 0 });
  });

  it('a throwing listener is reported and does not stop the change or the other listeners', () => {
    const errors: unknown[] = [];
    const boom = new Error('lamp unplugged');
    const clock = new FakeClock();
    const scheduler = new FakeScheduler();
    const service = new RoomService({ initialRoom: createRoom('a'), clock, scheduler, onListenerError: (e) => errors.push(e) });
    const seen: number[] = [];
    service.subscribe(() => {
      throw boom;
    });
    service.subscribe((change) => seen.push(change.room.seq));
    service.start();

    const result = service.dispatch({ type: 'blackout.toggle' }, 'http-v1');
    expect(result.outcome).toEqual({ ok: true });
    expect(service.room.blackout).toBe(true);
    expect(seen).toEqual([2]);
    expect(errors).toEqual([boom]);
    service.dispatch({ type: 'blackout.toggle' }, 'http-v1');
    expect(seen).toEqual([2, 3]);
  });

  it('unsubscribe stops the deliveries', () => {
    const { service } = setup(createRoom('a'));
    const seen: number[] = [];
    const unsubscribe = service.subscribe((change) => seen.push(change.room.seq));
    service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    unsubscribe();
    service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    expect(seen).toEqual([2]);
  });

  it('a listener that dispatches does not make other listeners see changes out of seq order', () => {
    const { service } = setup(createRoom('a'));
    const seen: number[] = [];
    // An automation that answers ON AIR with a blackout off, from inside the listener.
    service.subscribe((change) => {
      if (change.room.onAir && !change.previous.onAir) service.dispatch({ type: 'blackout.set', on: false }, 'system');
    });
    service.subscribe((change) => seen.push(change.room.seq));
    service.dispatch({ type: 'blackout.set', on: true }, 'http-v1');
    service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    expect(service.room.seq).toBe(4);
    expect(seen).toEqual([2, 3, 4]);
  });
});

/** A store double: what was saved first and recorded, with saveFirst held until the test lets it go. */
function recordingStore(opts: { reserveTo?: number } = {}) {
  const recorded: RoomChange[] = [];
  const savedFirst: Room[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const persistence: Persistence = {
    canPublish: (seq) => seq <= (opts.reserveTo ?? Number.POSITIVE_INFINITY),
    // Prepared when asked (a real store prepares when its write starts), committed when the test lets the save land.
    saveFirst: (change) => {
      const room = change.prepare();
      if (room !== null) savedFirst.push(room);
      return new Promise<void>((resolve, reject) =>
        pending.push({
          resolve: () => {
            if (room !== null) change.commit();
            resolve();
          },
          reject,
        }),
      );
    },
    record: (change) => void recorded.push(change),
  };
  const release = async (outcome: 'saved' | 'failed') => {
    const next = pending.shift();
    if (next === undefined) throw new Error('nothing is waiting to be saved');
    if (outcome === 'saved') next.resolve();
    else next.reject(new Error('EROFS: read-only file system'));
    // Let the service's continuation run.
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { persistence, recorded, savedFirst, release, pendingCount: () => pending.length };
}

describe('RoomService: dispatch results and persistence', () => {
  it('a transport change happens at once: applied, recorded, pushed, durable already resolved', async () => {
    const store = recordingStore();
    const { service, changes } = setup(createRoom('a'), { persistence: store.persistence });
    const result = service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    expect(result.room).toBe(service.room);
    expect(service.room.onAir).toBe(true);
    expect(changes).toHaveLength(1);
    expect(store.recorded.map((c) => c.room.seq)).toEqual([2]);
    expect(store.savedFirst).toHaveLength(0);
    await expect(result.durable).resolves.toBeUndefined();
  });

  it('a running-order edit happens only once it is saved: nothing applied or pushed before', async () => {
    const store = recordingStore();
    const { service, changes } = setup(createRoom('a'), { persistence: store.persistence });
    const result = service.dispatch({ type: 'timer.create', id: 'b', fields: { label: 'B' } }, 'http-v1');
    expect(result.outcome.ok && result.outcome.timer?.label).toBe('B');
    await Promise.resolve();
    expect(store.savedFirst.map((r) => r.timers.map((t) => t.id))).toEqual([['a', 'b']]);
    expect(service.room.timers.map((t) => t.id)).toEqual(['a']);
    expect(changes).toHaveLength(0);
    let settled = false;
    void result.durable.then(() => (settled = true));
    await store.release('saved');
    expect(settled).toBe(true);
    expect(service.room.timers.map((t) => t.id)).toEqual(['a', 'b']);
    expect(changes.map((c) => c.room.seq)).toEqual([2]);
    // The committed room is the one that was saved: nothing more to write.
    expect(service.room).toBe(store.savedFirst[0]);
  });

  it('an edit whose save fails did not happen: durable rejects with NotDone(storage), nothing pushed or recorded', async () => {
    const store = recordingStore();
    const { service, changes } = setup(createRoom('a'), { persistence: store.persistence });
    const result = service.dispatch({ type: 'timer.create', id: 'b', fields: {} }, 'http-v1');
    const rejected = expect(result.durable).rejects.toMatchObject({ kind: 'storage' });
    await Promise.resolve();
    await store.release('failed');
    await rejected;
    await expect(result.durable).rejects.toBeInstanceOf(NotDone);
    expect(service.room.timers.map((t) => t.id)).toEqual(['a']);
    expect(service.room.seq).toBe(1);
    expect(changes).toHaveLength(0);
    expect(store.recorded).toHaveLength(0);
  });

  it('transport does not wait for an edit being saved; the edit is applied on top of it afterwards', async () => {
    const store = recordingStore();
    const { service, changes } = setup(roomWith([60_000]), { persistence: store.persistence });
    const id = service.room.timers[0]?.id ?? '';
    const edit = service.dispatch({ type: 'timer.update', id, fields: { label: 'Keynote' } }, 'http-v1');
    await Promise.resolve();
    expect(service.dispatch({ type: 'start' }, 'gpio').outcome.ok).toBe(true);
    expect(service.room.transport.running).toBe(true);
    await store.release('saved');
    await edit.durable;
    expect(service.room.transport.running).toBe(true);
    expect(service.room.timers[0]?.label).toBe('Keynote');
    expect(changes.map((c) => [c.room.seq, c.cause === 'zero' ? 'zero' : c.cause.type])).toEqual([
      [2, 'start'],
      [3, 'timer.update'],
    ]);
    // Not the saved candidate (it predates the start): recorded, so the store writes it in its own time.
    expect(store.recorded.at(-1)?.room).toBe(service.room);
  });

  it('edits are saved one at a time, each checked again when its turn comes', async () => {
    const store = recordingStore();
    const { service } = setup(roomWith([60_000, 60_000]), { persistence: store.persistence });
    const id = service.room.timers[1]?.id ?? '';
    const first = service.dispatch({ type: 'timer.delete', id }, 'http-v1');
    const second = service.dispatch({ type: 'timer.delete', id }, 'http-v1');
    expect(first.outcome.ok && second.outcome.ok).toBe(true);
    await Promise.resolve();
    expect(store.pendingCount()).toBe(1);
    await store.release('saved');
    await first.durable;
    await expect(second.durable).rejects.toMatchObject({ kind: 'refused', error: { kind: 'not_found' } });
    expect(store.savedFirst).toHaveLength(1);
    expect(service.room.timers).toHaveLength(1);
  });

  it('with the seq reserve on disk used up, any change is saved first, and refused if it cannot be', async () => {
    const store = recordingStore({ reserveTo: 2 });
    const { service } = setup(createRoom('a'), { persistence: store.persistence });
    expect(service.dispatch({ type: 'onair.toggle' }, 'http-v1').room.seq).toBe(2);
    const beyond = service.dispatch({ type: 'blackout.toggle' }, 'http-v1');
    expect(service.room.blackout).toBe(false);
    const rejected = expect(beyond.durable).rejects.toMatchObject({ kind: 'storage' });
    await Promise.resolve();
    await store.release('failed');
    await rejected;
    expect(service.room.blackout).toBe(false);
    expect(service.room.seq).toBe(2);
  });

  it('stopAccepting: later changes are refused (NotDone stopping), waiting saves finish first, time stops changing the room', async () => {
    const store = recordingStore();
    const { clock, service, changes } = setup(roomWith([60_000], { zeroBehavior: 'stop' }), { persistence: store.persistence });
    service.dispatch({ type: 'start' }, 'http-v1');
    const edit = service.dispatch({ type: 'timer.create', id: 'b', fields: {} }, 'http-v1');
    await Promise.resolve();
    let stopped = false;
    void service.stopAccepting().then(() => (stopped = true));
    const late = service.dispatch({ type: 'onair.toggle' }, 'gpio');
    await expect(late.durable).rejects.toMatchObject({ kind: 'stopping' });
    expect(service.room.onAir).toBe(false);
    expect(stopped).toBe(false);
    await store.release('saved');
    await edit.durable;
    expect(stopped).toBe(true);
    expect(service.room.timers).toHaveLength(2);
    const seq = service.room.seq;
    clock.nowMonoMs = 120_000;
    service.snapshot();
    expect(service.room.seq).toBe(seq);
    expect(changes.at(-1)?.room.seq).toBe(seq);
  });

  it('nothing is recorded for no-op or refused commands, and durable resolves', async () => {
    const store = recordingStore();
    const { service } = setup(createRoom('a'), { persistence: store.persistence });
    const noOp = service.dispatch({ type: 'pause' }, 'http-v1');
    const refused = service.dispatch({ type: 'timer.delete', id: 'a' }, 'http-v1');
    await expect(noOp.durable).resolves.toBeUndefined();
    await expect(refused.durable).resolves.toBeUndefined();
    expect(refused.outcome).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(store.recorded).toHaveLength(0);
    expect(store.savedFirst).toHaveLength(0);
  });

  it('automatic changes are recorded too; a store that throws is reported, not thrown', async () => {
    const errors: unknown[] = [];
    const causes: string[] = [];
    const persistence: Persistence = {
      canPublish: () => true,
      saveFirst: () => Promise.resolve(),
      record: (change) => {
        causes.push(change.cause === 'zero' ? 'zero' : change.cause.type);
        if (change.cause === 'zero') throw new Error('disk full');
      },
    };
    const { clock, scheduler, service } = setup(roomWith([60_000], { zeroBehavior: 'stop' }), {
      persistence,
      onListenerError: (e) => errors.push(e),
    });
    service.dispatch({ type: 'start' }, 'http-v1');
    scheduler.fire(clock, 60_000);
    expect(causes).toEqual(['start', 'zero']);
    expect(errors).toHaveLength(1);
    expect(service.room.transport.running).toBe(false);
  });
});

describe('RoomService: snapshot', () => {
  it('settles what is due even if the wake-up has not fired yet', () => {
    const { clock, service, changes } = setup(roomWith([60_000], { zeroBehavior: 'stop' }));
    service.dispatch({ type: 'start' }, 'http-v1');
    clock.nowMonoMs = 60_500; // the timer is late
    const snapshot = service.snapshot();
    expect(snapshot).toMatchObject({ running: false, remainingAtPause: 0, remaining: 0, endAt: null, seq: 3 });
    expect(changes.at(-1)?.cause).toBe('zero');
  });

  it('derives remaining from the monotonic clock: a wall-clock step moves endAt, not remaining', () => {
    const { clock, service } = setup(roomWith([60_000]));
    service.dispatch({ type: 'start' }, 'http-v1');
    clock.nowMonoMs = 15_000;
    const before = service.snapshot();
    clock.wallOffsetMs += 3_600_000; // NTP sets the clock an hour forward
    const after = service.snapshot();
    expect(before.remaining).toBe(45_000);
    expect(after.remaining).toBe(45_000);
    expect(after.serverNow - before.serverNow).toBe(3_600_000);
    expect(after.endAt).toBe(after.serverNow + 45_000);
    expect(after.seq).toBe(before.seq);
  });
});
