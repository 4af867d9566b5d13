// Issue 14 on the GPIO side: lamps can follow `danger` and `flash`, any lamp can
// also blink with a flash (`"flash": true`), and a button can flash the screens.
import { describe, expect, it } from 'vitest';
import type { Clock, Scheduler } from '../../src/app/clock.js';
import { gpioConfigSchema } from '../../src/config/gpio-config.js';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { buttonSpec } from '../../src/gpio/button-actions.js';
import { lampSpecs } from '../../src/gpio/gpio-adapter.js';
import { LampBindings } from '../../src/gpio/lamp-bindings.js';
import type { GpioPort } from '../../src/gpio/gpio-port.js';
import { createLogger } from '../../src/log/logger.js';

describe('gpio config', () => {
  it('accepts danger and flash lamps, a lamp that also flashes, and the flash button action', () => {
    const config = gpioConfigSchema().parse({
      lamp: { pin: 17, flash: true },
      lamps: [{ pin: 27, follows: 'danger' }, { pin: 22, follows: 'flash' }],
      buttons: [{ pin: 5, action: 'flash' }],
    });
    expect(lampSpecs(config)).toEqual([
      { bcm: 17, signal: 'onAir', activeLow: false, safeOn: false, alsoFlash: true },
      { bcm: 27, signal: 'danger', activeLow: false, safeOn: false, alsoFlash: false },
      { bcm: 22, signal: 'flash', activeLow: false, safeOn: false, alsoFlash: false },
    ]);
    const button = config.buttons?.[0];
    if (button === undefined) throw new Error('no button');
    expect(buttonSpec(button).short?.command).toEqual({ type: 'flash', count: 3 });
  });
});

describe('an ON AIR lamp that also flashes', () => {
  it('switches over in the lit halves of a flash, woken at each flip', () => {
    let mono = 1_000;
    const clock: Clock = { monoMs: () => mono, wallMs: () => 1_700_000_000_000 + mono };
    const wakes: { at: number; run: () => void }[] = [];
    const scheduler: Scheduler = {
      schedule: (at, run) => {
        const wake = { at, run };
        wakes.push(wake);
        return { cancel: () => void wakes.splice(wakes.indexOf(wake), 1) };
      },
    };
    const levels: boolean[] = [];
    const port = { openOutput: (_pin: number, level: boolean) => (levels.push(level), { write: (l: boolean) => void levels.push(l), release: () => {} }) } as unknown as GpioPort;
    const room: Room = { ...createRoom('t1'), onAir: true, flash: { startMonoMs: 1_150, count: 2 } };
    const bindings = new LampBindings({
      port,
      lamps: [{ bcm: 17, signal: 'onAir', activeLow: false, safeOn: false, alsoFlash: true }],
      feed: { room, subscribe: () => () => {} },
      clock,
      scheduler,
      logger: createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } }),
    });
    bindings.start();
    for (let i = 0; i < 10 && wakes.length > 0; i += 1) {
      const wake = wakes.shift() as { at: number; run: () => void };
      mono = wake.at;
      wake.run();
    }
    // On, then off/on for each of the two flashes.
    expect(levels).toEqual([true, false, true, false, true]);
    expect(mono).toBe(2_150);
    bindings.close();
  });
});
