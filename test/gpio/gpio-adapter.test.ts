// The adapter's modes: off, auto without GPIO, onoff that cannot load, sim with
// buttons from a terminal, and onoff through a stand-in Gpio class that records
// what it is asked (sysfs numbers, directions) and fails the way a kernel does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GpioConfig } from '../../src/config/gpio-config.js';
import { createRoom } from '../../src/domain/room.js';
import { startGpio, type GpioDeps } from '../../src/gpio/gpio-adapter.js';
import type { loadOnoff } from '../../src/gpio/onoff-gpio.js';
import { ERROR, rig, type Rig } from './gpio-fixtures.js';

type OnoffGpioClass = Awaited<ReturnType<typeof loadOnoff>>;

const top = mkdtempSync(path.join(tmpdir(), 'showclock-gpio-adapter-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function sysfs(name: string, chips: Record<string, [label: string, base: number]> = {}, withExport = true): string {
  const root = path.join(top, name);
  mkdirSync(root, { recursive: true });
  if (withExport) writeFileSync(path.join(root, 'export'), '');
  for (const [chip, [label, base]] of Object.entries(chips)) {
    mkdirSync(path.join(root, chip));
    writeFileSync(path.join(root, chip, 'label'), `${label}\n`);
    writeFileSync(path.join(root, chip, 'base'), `${base}\n`);
  }
  return root;
}

const CONFIG: GpioConfig = {
  lamp: { pin: 17 },
  buttons: [
    { pin: 5, action: 'toggle' },
    { pin: 19, hold: 'reset' },
  ],
};

function deps(r: Rig, more: Partial<GpioDeps>): GpioDeps {
  return { mode: 'auto', config: CONFIG, room: r.service, clock: r.clock, scheduler: r.clock.scheduler, logger: r.logger, terminal: null, ...more };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GPIO modes', () => {
  it('off: touches nothing and says so', async () => {
    const r = rig();
    const load = vi.fn<typeof loadOnoff>();
    const gpio = await startGpio(deps(r, { mode: 'off', loadOnoff: load }));
    expect(gpio.mode).toBe('off');
    expect(load).not.toHaveBeenCalled();
    expect(r.records().map((l) => l.msg)).toEqual(['GPIO off (SHOWCLOCK_GPIO=off)']);
  });

  it('auto without /sys/class/gpio/export: off, with one line saying why, onoff never loaded', async () => {
    const r = rig();
    const load = vi.fn<typeof loadOnoff>();
    const gpio = await startGpio(deps(r, { sysfsRoot: sysfs('no-export', {}, false), loadOnoff: load }));
    expect(gpio.mode).toBe('off');
    expect(load).not.toHaveBeenCalled();
    const lines = r.records();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(/GPIO off: .*export does not exist/);
  });

  it('auto with nothing configured: off without looking for hardware', async () => {
    const r = rig();
    const load = vi.fn<typeof loadOnoff>();
    const gpio = await startGpio(deps(r, { config: {}, sysfsRoot: sysfs('nothing'), loadOnoff: load }));
    expect(gpio.mode).toBe('off');
    expect(load).not.toHaveBeenCalled();
  });

  it('onoff that cannot load (no native addon): off, logged as an error, the room unharmed', async () => {
    const r = rig();
    const load = vi.fn<typeof loadOnoff>().mockRejectedValue(new Error('onoff cannot be loaded (no epoll.node); on the Pi, run install.sh again'));
    const gpio = await startGpio(deps(r, { mode: 'onoff', sysfsRoot: sysfs('no-addon'), loadOnoff: load }));
    expect(gpio.mode).toBe('off');
    const errors = r.records().filter((l) => l.level === ERROR);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain('install.sh');
    expect(r.service.dispatch({ type: 'onair.toggle' }, 'http-v1').outcome.ok).toBe(true);
  });
});

describe('sim mode', () => {
  it('logs lamp changes and takes button presses from the terminal', async () => {
    const r = rig({ ...createRoom('t1'), onAir: true });
    const input = new PassThrough();
    let shown = '';
    const gpio = await startGpio(deps(r, { mode: 'sim', terminal: { input, output: { write: (text: string) => (shown += text) } } }));
    expect(gpio.mode).toBe('sim');
    expect(shown).toMatch(/5 +toggle/);
    expect(shown).toMatch(/19 \/ 19h +hold: reset/);
    // The restored ON AIR is in the log at start.
    expect(r.records().some((l) => l.msg === 'lamp BCM 17 (onAir) on')).toBe(true);

    input.write('5\n');
    await tick();
    r.clock.advance(500);
    expect(r.service.room.transport.running).toBe(true);
    r.service.dispatch({ type: 'onair.set', on: false }, 'http-v1');
    expect(r.records().some((l) => l.msg === 'lamp BCM 17 (onAir) off')).toBe(true);

    input.write('19\n');
    await tick();
    r.clock.advance(500);
    expect(r.service.room.transport.running).toBe(true);
    input.write('19h\n');
    await tick();
    r.clock.advance(2_000);
    expect(r.service.room.transport).toEqual({ running: false, remainingMs: 600_000 });

    const before = shown.length;
    input.write('what\n');
    await tick();
    expect(shown.slice(before)).toContain('Simulated buttons');
    gpio.close();
    gpio.close();
    expect(r.records().filter((l) => l.msg.startsWith('GPIO released'))).toHaveLength(1);
  });
});

describe('onoff mode with a stand-in Gpio class', () => {
  interface Made {
    readonly n: number;
    readonly direction: string;
    readonly edge: string | undefined;
    readonly options: unknown;
    readonly writes: number[];
    unexported: boolean;
  }

  function standIn(failures: Record<number, string>) {
    const made: Made[] = [];
    class FakeGpio {
      readonly #made: Made;
      constructor(n: number, direction: string, edge?: string, options?: unknown) {
        const code = failures[n];
        if (code !== undefined) throw Object.assign(new Error(`${code}: invalid argument, write`), { code });
        this.#made = { n, direction, edge, options, writes: [], unexported: false };
        made.push(this.#made);
      }
      writeSync(value: number) {
        this.#made.writes.push(value);
      }
      readSync() {
        return 1;
      }
      watch() {}
      unexport() {
        this.#made.unexported = true;
      }
    }
    return { made, Gpio: FakeGpio as unknown as OnoffGpioClass };
  }

  it('numbers pins from the chip it found, starts lamps at their level, and explains a refused pin', async () => {
    const r = rig({ ...createRoom('t1'), onAir: true });
    const { made, Gpio } = standIn({ [512 + 19]: 'EINVAL' });
    const root = sysfs('pi4', { gpiochip512: ['pinctrl-bcm2711', 512], gpiochip570: ['raspberrypi-exp-gpio', 570] });
    const gpio = await startGpio(deps(r, { mode: 'onoff', sysfsRoot: root, loadOnoff: () => Promise.resolve(Gpio) }));
    expect(gpio.mode).toBe('onoff');
    expect(made.map((m) => [m.n, m.direction, m.edge])).toEqual([
      [529, 'high', undefined],
      [517, 'in', 'both'],
    ]);
    expect(made[0]?.options).toEqual({ activeLow: false });
    const refused = r.records().find((l) => l.level === ERROR);
    expect(refused?.msg).toContain('BCM 19 (sysfs gpio531)');
    expect(refused?.msg).toContain('gpio.sysfsOffset');
    expect(refused?.msg).not.toContain('invalid argument');

    r.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    expect(made[0]?.writes).toEqual([0]);
    gpio.close();
    expect(made.map((m) => m.unexported)).toEqual([true, true]);
    expect(made[0]?.writes).toEqual([0, 0]);
  });
});
