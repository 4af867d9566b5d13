// The screen adapter against a fake cec-ctl (fake-bin/cec-ctl, first on PATH): each test
// gets a directory holding the TV's power and the bus's mode, and the log of every
// cec-ctl command line the adapter ran.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CecScreen } from '../../src/cec/cec-adapter.js';
import { runCommand } from '../../src/systemd/run-command.js';
import type { RoomService } from '../../src/app/room-service.js';
import type { FakeClock } from '../helpers/test-app.js';
import { createLogger } from '../../src/log/logger.js';

export const FAKE_BIN = fileURLToPath(new URL('./fake-bin', import.meta.url));

export type BusMode = 'ok' | 'nack' | 'unconfigured' | 'no-device' | 'no-address' | 'hang';

export interface Bus {
  readonly dir: string;
  /** The command lines cec-ctl was run with, in order (arguments joined by spaces). */
  runs(): string[];
  setMode(mode: BusMode): void;
  setPower(power: 'on' | 'standby' | 'to-on' | 'to-standby'): void;
  /** A TV that takes On and Standby but changes its power only when setPower says. */
  setSlow(): void;
  /** As a replugged cable or another program's `cec-ctl --clear` leaves it. */
  unregister(): void;
  env(): NodeJS.ProcessEnv;
  close(): void;
}

export function fakeBus(): Bus {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-cec-'));
  const log = path.join(dir, 'runs.log');
  return {
    dir,
    runs: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter((line) => line !== '') : []),
    setMode: (mode) => writeFileSync(path.join(dir, 'mode'), mode),
    setPower: (power) => writeFileSync(path.join(dir, 'power'), power),
    setSlow: () => writeFileSync(path.join(dir, 'slow'), ''),
    unregister: () => writeFileSync(path.join(dir, 'unregistered'), ''),
    env: () => ({ PATH: `${FAKE_BIN}:${process.env.PATH ?? ''}`, FAKE_CEC_LOG: log, FAKE_CEC_DIR: dir }),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ScreenRig {
  readonly screen: CecScreen;
  readonly lines: string[];
}

/** The adapter as main.ts builds it, reporting to `service`, polling on the test's clock. */
export function cecScreen(
  bus: Bus,
  service: RoomService,
  clock: FakeClock,
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; pollMs?: number } = {},
): ScreenRig {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
  const screen = new CecScreen({
    device: '/dev/cec0',
    osdName: 'Showclock',
    pollMs: opts.pollMs ?? 30_000,
    run: runCommand(opts.env ?? bus.env(), opts.timeoutMs ?? 3_000),
    report: (report) => void service.dispatch({ type: 'screen.report', report }, 'cec'),
    scheduler: clock.scheduler,
    monoMs: clock.monoMs,
    logger,
  });
  return { screen, lines };
}

/** Waits (real time) until `check` holds; cec-ctl runs are real processes. */
export async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
