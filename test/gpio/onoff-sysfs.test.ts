// The real onoff path, from outside: the bundled service with SHOWCLOCK_GPIO=onoff
// runs in a private mount namespace where /sys/class/gpio is a fake tree laid
// out like a Pi 4 or a Pi 5 on kernel 6.6+ (chips with label and base, gpioN
// with direction/value/active_low/edge). The test drives the room over HTTP on
// 127.0.0.1 and reads what onoff wrote into the lamp's `value` file. Pins are
// pre-created, since a plain directory cannot make gpioN appear on `export`.
// Needs root and unshare; where either is missing every test here is skipped
// with the reason, never passed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ROOT, ensureBundle } from '../e2e/service-process.js';
import { NODE_FLAGS } from '../../scripts/node-flags.mjs';

const API_KEY = 'OnoffTestApiKey_0123456789abcd';

function probe(): string | null {
  if (process.platform !== 'linux') return 'needs Linux (sysfs GPIO)';
  if (process.getuid?.() !== 0) return 'needs root to mount a fake /sys/class/gpio in a private mount namespace';
  const tried = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs showclock-test /sys/class'], { encoding: 'utf8' });
  if (tried.error !== undefined) return `unshare is not available (${tried.error.message})`;
  if (tried.status !== 0) return `unshare -m with a tmpfs over /sys/class is not permitted here: ${tried.stderr.trim()}`;
  return null;
}

const unavailable = probe();
if (unavailable !== null) console.warn(`SKIPPED: the real onoff path is not tested here: ${unavailable}`);

interface Layout {
  readonly name: string;
  readonly chips: Record<string, [label: string, base: number]>;
  /** Where BCM 0 is on this board. */
  readonly base: number;
  /** Where BCM 0 would be if the wrong chip were taken: its pins exist too, and must stay untouched. */
  readonly decoy: number;
}

const LAYOUTS: Layout[] = [
  {
    name: 'Pi 4 (pinctrl-bcm2711 at 512)',
    chips: { gpiochip512: ['pinctrl-bcm2711', 512], gpiochip570: ['raspberrypi-exp-gpio', 570] },
    base: 512,
    decoy: 0,
  },
  {
    name: 'Pi 5 (pinctrl-rp1 at 571, another chip at 512)',
    chips: { gpiochip512: ['gpio-brcmstb@107d508500', 512], gpiochip544: ['gpio-brcmstb@107d517c00', 544], gpiochip571: ['pinctrl-rp1', 571] },
    base: 571,
    decoy: 512,
  },
];

const LAMP = 17;
const RUNNING_LAMP = 27;
const BUTTON = 5;

const top = mkdtempSync(path.join(tmpdir(), 'showclock-onoff-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function fakeTree(layout: Layout, name: string): string {
  const gpio = path.join(top, name, 'gpio');
  mkdirSync(gpio, { recursive: true });
  writeFileSync(path.join(gpio, 'export'), '');
  writeFileSync(path.join(gpio, 'unexport'), '');
  for (const [chip, [label, base]] of Object.entries(layout.chips)) {
    mkdirSync(path.join(gpio, chip));
    writeFileSync(path.join(gpio, chip, 'label'), `${label}\n`);
    writeFileSync(path.join(gpio, chip, 'base'), `${base}\n`);
  }
  for (const offset of [layout.base, layout.decoy]) {
    for (const bcm of [LAMP, RUNNING_LAMP, BUTTON]) {
      const dir = path.join(gpio, `gpio${offset + bcm}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'direction'), 'in\n');
      // An idle button reads high (pull-up); outputs start low; a stale inversion is left on 27.
      writeFileSync(path.join(dir, 'value'), bcm === BUTTON ? '1\n' : '0\n');
      writeFileSync(path.join(dir, 'active_low'), bcm === RUNNING_LAMP ? '1\n' : '0\n');
      writeFileSync(path.join(dir, 'edge'), 'none\n');
    }
  }
  return gpio;
}

interface Service {
  readonly child: ChildProcess;
  readonly api: string;
  readonly lines: Record<string, unknown>[];
  readonly exited: Promise<number | null>;
}

async function startInNamespace(gpioDir: string, configFile: string, dataDir: string): Promise<Service> {
  const script = [
    'set -e',
    'mount -t tmpfs showclock-test /sys/class',
    'mkdir /sys/class/gpio',
    `mount --bind "${gpioDir}" /sys/class/gpio`,
    `exec "${process.execPath}" ${NODE_FLAGS.join(' ')} "${BUNDLE}"`,
  ].join('\n');
  const child = spawn('unshare', ['-m', 'sh', '-c', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      SHOWCLOCK_GPIO: 'onoff',
      SHOWCLOCK_CONFIG: configFile,
      SHOWCLOCK_DATA_DIR: dataDir,
      SHOWCLOCK_API_KEY: API_KEY,
    },
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let partial = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within 15 s; stderr: ${stderr}`)), 15_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) {
        try {
          const line = JSON.parse(text) as Record<string, unknown>;
          lines.push(line);
          if (line.msg === 'showclock started' && typeof line.port === 'number') {
            clearTimeout(timer);
            resolve(line.port);
          }
        } catch {
          // not a log line
        }
      }
    });
    void exited.then((code) => reject(new Error(`the service exited with ${String(code)} before it started; stderr: ${stderr}`)));
  });
  return { child, api: `http://127.0.0.1:${port}/api/v1/${API_KEY}`, lines, exited };
}

async function stop(service: Service): Promise<number | null> {
  // One answer first: the service registers its signal handlers just after its "started" line, and a
  // SIGTERM in between would meet the default action instead of the orderly stop.
  await fetch(service.api.replace(/\/api\/.*/, '/healthz')).catch(() => undefined);
  service.child.kill('SIGTERM');
  return service.exited;
}

beforeAll(() => {
  if (unavailable === null) ensureBundle();
});

describe.each(LAYOUTS)('onoff on a $name sysfs layout', (layout) => {
  it('lights BCM 17 for ON AIR, follows the room, goes safe on stop and lights again after a restart', async (ctx) => {
    if (unavailable !== null) ctx.skip(unavailable);
    const name = layout.base === 512 ? 'pi4' : 'pi5';
    const gpio = fakeTree(layout, name);
    const dataDir = path.join(top, name, 'data');
    const configFile = path.join(top, name, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        gpio: {
          lamp: { pin: LAMP },
          lamps: [{ pin: RUNNING_LAMP, follows: 'running', activeLow: true }],
          buttons: [{ pin: BUTTON, action: 'toggle' }],
        },
      }),
    );
    const file = (bcm: number, what: string, offset = layout.base) => readFileSync(path.join(gpio, `gpio${offset + bcm}`, what), 'utf8').trim();

    const first = await startInNamespace(gpio, configFile, dataDir);
    try {
      const offsetLine = first.lines.find((l) => l.component === 'gpio' && typeof l.offset === 'number');
      expect(offsetLine?.offset).toBe(layout.base);
      // Both lamps start off, set by the direction written (the kernel's "low"/"high" make an output at
      // that level in one step; a plain file cannot, so `value` is not read here): BCM 17 low; BCM 27
      // is active low, so off is high, and the stale inversion left on it is cleared.
      expect(file(LAMP, 'direction')).toBe('low');
      expect([file(RUNNING_LAMP, 'direction'), file(RUNNING_LAMP, 'active_low')]).toEqual(['high', '0']);

      const onAir = await fetch(`${first.api}/onair?on=1`);
      // The lamp is written inside the change, before the answer leaves.
      expect(file(LAMP, 'value')).toBe('1');
      expect(onAir.status).toBe(200);
      expect((await fetch(`${first.api}/start`)).status).toBe(200);
      expect(file(RUNNING_LAMP, 'value')).toBe('0');

      // The button's pin cannot be watched on a plain file (no interrupts): that is logged, and the service goes on.
      const buttonError = first.lines.find((l) => l.level === 50 && String(l.msg).includes(`BCM ${BUTTON}`));
      expect(buttonError?.msg).toContain(`gpio${layout.base + BUTTON}`);
      expect(file(BUTTON, 'edge')).toBe('both');

      // The pins of the wrong chip were never touched.
      expect([file(LAMP, 'value', layout.decoy), file(LAMP, 'direction', layout.decoy)]).toEqual(['0', 'in']);
    } finally {
      expect(await stop(first)).toBe(0);
    }
    // Orderly stop: lamps to their safe state (off: 17 low, 27 high since active low), then unexported (27 last).
    expect([file(LAMP, 'value'), file(RUNNING_LAMP, 'value')]).toEqual(['0', '1']);
    expect(readFileSync(path.join(gpio, 'unexport'), 'utf8').trim()).toBe(String(layout.base + RUNNING_LAMP));

    // After a restart the saved ON AIR lights the lamp again at once: the pin is made an output already high.
    const second = await startInNamespace(gpio, configFile, dataDir);
    try {
      expect(file(LAMP, 'direction')).toBe('high');
      const state = (await (await fetch(`${second.api}/state`)).json()) as { state: { onAir: boolean } };
      expect(state.state.onAir).toBe(true);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  });
});
