// Lamps against the in-memory GPIO and a real RoomService on a hand-moved clock:
// state at start, synchronous switching, the time-bound lamps woken by one
// timeout, activeLow, safe state and release on close, and broken pins.
import { describe, expect, it } from 'vitest';
import type { Scheduler } from '../../src/app/clock.js';
import type { LampSignal } from '../../src/config/gpio-config.js';
import { createRoom } from '../../src/domain/room.js';
import { LampBindings, type LampSpec } from '../../src/gpio/lamp-bindings.js';
import { nextSignalChangeMonoMs, signalOn } from '../../src/gpio/lamp-signals.js';
import { MemoryGpio } from '../../src/gpio/memory-gpio.js';
import { ERROR, rig, roomOfDurations, type Rig } from './gpio-fixtures.js';

const lamp = (bcm: number, signal: LampSignal, more: Partial<LampSpec> = {}): LampSpec => ({ bcm, signal, activeLow: false, safeOn: false, ...more });

/** The clock's scheduler, counting what the lamps leave pending. */
function countingScheduler(r: Rig): { scheduler: Scheduler; pending: () => number; scheduled: () => number } {
  let pending = 0;
  let scheduled = 0;
  return {
    scheduler: {
      schedule: (atMonoMs, run) => {
        scheduled += 1;
        pending += 1;
        let live = true;
        const handle = r.clock.scheduler.schedule(atMonoMs, () => {
          live = false;
          pending -= 1;
          run();
        });
        return {
          cancel: () => {
            if (live) pending -= 1;
            live = false;
            handle.cancel();
          },
        };
      },
    },
    pending: () => pending,
    scheduled: () => scheduled,
  };
}

function bind(r: Rig, lamps: LampSpec[], gpio = new MemoryGpio()) {
  const counting = countingScheduler(r);
  const bindings = new LampBindings({ port: gpio, lamps, feed: r.service, clock: r.clock, scheduler: counting.scheduler, logger: r.logger });
  bindings.start();
  return { gpio, bindings, ...counting };
}

describe('lamp signals', () => {
  const running = { ...roomOfDurations([120_000]), transport: { running: true as const, endMonoMs: 200_000 } };

  it('reads warning as remaining <= warnAt and overrun as remaining < 0', () => {
    // warnAt is 60000 (the default): warning from 140000 on, overrun after 200000.
    expect(signalOn('warning', running, 139_999)).toBe(false);
    expect(signalOn('warning', running, 140_000)).toBe(true);
    expect(signalOn('overrun', running, 200_000)).toBe(false);
    expect(signalOn('overrun', running, 200_001)).toBe(true);
    expect(signalOn('running', running, 0)).toBe(true);
    const paused = roomOfDurations([30_000]);
    expect(signalOn('warning', paused, 0)).toBe(true);
    expect(signalOn('overrun', { ...paused, transport: { running: false, remainingMs: -5 } }, 0)).toBe(true);
  });

  it('names the next instant a time-bound lamp changes, and none while paused', () => {
    expect(nextSignalChangeMonoMs(['warning', 'overrun'], running, 100_000)).toBe(140_000);
    expect(nextSignalChangeMonoMs(['warning', 'overrun'], running, 140_000)).toBe(200_001);
    expect(nextSignalChangeMonoMs(['warning', 'overrun'], running, 200_001)).toBeNull();
    expect(nextSignalChangeMonoMs(['onAir', 'running', 'blackout'], running, 100_000)).toBeNull();
    expect(nextSignalChangeMonoMs(['warning'], roomOfDurations([120_000]), 0)).toBeNull();
  });
});

describe('lamp bindings', () => {
  it('light from the room at start: a restored ON AIR is on before any change', () => {
    const r = rig({ ...createRoom('t1'), onAir: true, blackout: true });
    const outputs: [number, boolean][] = [];
    const gpio = new MemoryGpio({ onOutput: (bcm, high) => void outputs.push([bcm, high]) });
    bind(r, [lamp(17, 'onAir'), lamp(27, 'blackout', { activeLow: true }), lamp(22, 'running')], gpio);
    // Each pin's first level is already the right one: no flash at start.
    expect(outputs).toEqual([
      [17, true],
      [27, false],
      [22, false],
    ]);
  });

  it('switch inside the change itself, with activeLow inverting the pin', () => {
    const r = rig();
    const { gpio } = bind(r, [lamp(17, 'onAir'), lamp(27, 'onAir', { activeLow: true }), lamp(22, 'running')]);
    expect([gpio.outputLevel(17), gpio.outputLevel(27)]).toEqual([false, true]);
    r.service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    // No waiting: the level is set before dispatch returns.
    expect([gpio.outputLevel(17), gpio.outputLevel(27)]).toEqual([true, false]);
    r.service.dispatch({ type: 'start' }, 'http-v1');
    expect(gpio.outputLevel(22)).toBe(true);
    r.service.dispatch({ type: 'toggle' }, 'http-v0');
    expect(gpio.outputLevel(22)).toBe(false);
  });

  it('switch well within 20 ms of the change, measured on the real clock', () => {
    const r = rig();
    let switchedAt = NaN;
    const gpio = new MemoryGpio({ onOutput: (bcm, high) => bcm === 17 && high && (switchedAt = performance.now()) });
    bind(r, [lamp(17, 'onAir'), lamp(27, 'running'), lamp(22, 'warning')], gpio);
    const changedAt = performance.now();
    r.service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    expect(switchedAt - changedAt).toBeLessThan(20);
  });

  it('wake for warning and overrun with one timeout at the exact instant, none while paused', () => {
    const r = rig(roomOfDurations([120_000]));
    const { gpio, pending, scheduled } = bind(r, [lamp(5, 'warning'), lamp(6, 'overrun')]);
    expect(pending()).toBe(0);
    r.service.dispatch({ type: 'start' }, 'http-v1');
    expect(pending()).toBe(1);
    r.clock.advance(59_999);
    expect(gpio.outputLevel(5)).toBe(false);
    r.clock.advance(1);
    expect([gpio.outputLevel(5), gpio.outputLevel(6)]).toEqual([true, false]);
    r.clock.advance(60_000);
    expect(gpio.outputLevel(6)).toBe(false);
    r.clock.advance(1);
    expect([gpio.outputLevel(5), gpio.outputLevel(6)]).toEqual([true, true]);
    // One timeout per crossing (armed by start, then by the warning wake-up): no ticking in between.
    expect(scheduled()).toBe(2);
    expect(pending()).toBe(0);
    r.service.dispatch({ type: 'reset' }, 'gpio');
    expect([gpio.outputLevel(5), gpio.outputLevel(6)]).toEqual([false, false]);
    r.service.dispatch({ type: 'start' }, 'gpio');
    r.service.dispatch({ type: 'pause' }, 'gpio');
    expect(pending()).toBe(0);
  });

  it('move the wake-up when the time moves: adjust and a zero that stops', () => {
    const r = rig(roomOfDurations([120_000], { settings: { zeroBehavior: 'stop', autoAdvance: false, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null } }));
    const { gpio, pending } = bind(r, [lamp(5, 'warning'), lamp(6, 'overrun'), lamp(7, 'running')]);
    r.service.dispatch({ type: 'start' }, 'http-v1');
    r.service.dispatch({ type: 'adjust', ms: -50_000 }, 'http-v1');
    // 70 s left: warning at 60 s left, 10 s from now.
    r.clock.advance(10_000);
    expect(gpio.outputLevel(5)).toBe(true);
    r.clock.advance(60_000);
    // Under `stop` the room pauses at exactly 0: never an overrun.
    expect([gpio.outputLevel(6), gpio.outputLevel(7)]).toEqual([false, false]);
    expect(pending()).toBe(0);
  });

  it('go to their safe state and are released on close', () => {
    const r = rig({ ...createRoom('t1'), onAir: true });
    const { gpio, bindings } = bind(r, [lamp(17, 'onAir'), lamp(27, 'onAir', { activeLow: true }), lamp(22, 'running', { safeOn: true })]);
    const levels: [number, boolean][] = [];
    const spy = new MemoryGpio({ onOutput: (bcm, high) => void levels.push([bcm, high]) });
    expect([gpio.outputLevel(17), gpio.outputLevel(27), gpio.outputLevel(22)]).toEqual([true, false, false]);
    bindings.close();
    expect([17, 27, 22].map((bcm) => gpio.isOpen(bcm))).toEqual([false, false, false]);
    // Released pins keep the last level written: check it through a port that records writes.
    const r2 = rig({ ...createRoom('t1'), onAir: true });
    const second = bind(r2, [lamp(17, 'onAir'), lamp(27, 'onAir', { activeLow: true }), lamp(22, 'running', { safeOn: true })], spy);
    levels.length = 0;
    second.bindings.close();
    expect(levels).toEqual([
      [17, false],
      [27, true],
      [22, true],
    ]);
    // After close, room changes reach no pin.
    r2.service.dispatch({ type: 'onair.set', on: false }, 'http-v1');
    expect(levels).toHaveLength(3);
  });

  it('leave out a pin that cannot be opened, and the others work', () => {
    const r = rig();
    const gpio = new MemoryGpio({ brokenPins: [17] });
    const { bindings } = bind(r, [lamp(17, 'onAir'), lamp(27, 'onAir')], gpio);
    expect(bindings.openPins.map((l) => l.bcm)).toEqual([27]);
    r.service.dispatch({ type: 'onair.toggle' }, 'gpio');
    expect(gpio.outputLevel(27)).toBe(true);
    const errors = r.records().filter((l) => l.level === ERROR);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain('BCM 17');
  });

  it('log a failing write once, keep the service going, and recover', () => {
    const r = rig();
    let failing = true;
    const written: boolean[] = [];
    const port = new MemoryGpio();
    const flaky = {
      openOutput: (bcm: number, initialHigh: boolean) => {
        const line = port.openOutput(bcm, initialHigh);
        return {
          write: (high: boolean) => {
            if (failing) throw new Error('EIO: i/o error, write');
            written.push(high);
            line.write(high);
          },
          release: () => line.release(),
        };
      },
      openInput: port.openInput.bind(port),
    };
    const bindings = new LampBindings({ port: flaky, lamps: [lamp(17, 'onAir')], feed: r.service, clock: r.clock, scheduler: r.clock.scheduler, logger: r.logger });
    bindings.start();
    for (let i = 0; i < 5; i += 1) r.service.dispatch({ type: 'onair.toggle' }, 'gpio');
    expect(r.records().filter((l) => l.level === ERROR)).toHaveLength(1);
    failing = false;
    r.service.dispatch({ type: 'onair.toggle' }, 'gpio');
    // Six toggles from off: on, and the lamp is written although it "was" on before.
    expect(r.service.room.onAir).toBe(false);
    expect(written).toEqual([false]);
    expect(r.records().some((l) => l.msg.includes('works again'))).toBe(true);
  });
});
