// The built service with a screen configured (config `screen`) and the fake cec-ctl first
// on PATH (test/cec/fake-bin): at start it registers on the bus, switches the screen on
// (onAtBoot) and reports its power in the snapshot; /screen/standby reaches cec-ctl and the
// reported power follows; a blackout held for the minutes set is not waited for here (the
// rules' timing is unit tested), but starting a timer while the screen is in standby asks
// it on again. Without cec-ctl the same box runs on and says why.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_BIN } from '../cec/cec-rig.js';
import { ensureBundle, serviceEnv, startService, stopService, type ServiceProcess } from './service-process.js';

const API_KEY = 'ScreenE2eApiKey_0123456789abc';
let service: ServiceProcess | undefined;
const dirs: string[] = [];

beforeAll(() => ensureBundle());
afterEach(async () => {
  await stopService(service);
  service = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function boot(pathEnv: string): Promise<{ box: ServiceProcess; dir: string; runs: () => string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-screen-e2e-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'power'), 'standby');
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ screen: { cec: { device: '/dev/cec1' }, standbyAfterBlackoutMinutes: 10 } }));
  const log = path.join(dir, 'runs.log');
  const box = await startService(
    serviceEnv({
      PATH: pathEnv,
      FAKE_CEC_LOG: log,
      FAKE_CEC_DIR: dir,
      SHOWCLOCK_CONFIG: path.join(dir, 'config.json'),
      SHOWCLOCK_DATA_DIR: path.join(dir, 'data'),
      SHOWCLOCK_API_KEY: API_KEY,
    }),
    { apiKey: API_KEY },
  );
  service = box;
  const runs = () => {
    try {
      return readFileSync(log, 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  };
  return { box, dir, runs };
}

async function screenOf(box: ServiceProcess): Promise<unknown> {
  return ((await (await fetch(`${box.api}/state`)).json()) as { state: { screen: unknown } }).state.screen;
}

describe('the built service with a screen over HDMI-CEC', () => {
  it('switches it on at boot, puts it to standby on command, and asks it on when a timer starts', async () => {
    const { box, dir, runs } = await boot(`${FAKE_BIN}:${process.env.PATH ?? ''}`);
    await expect.poll(() => screenOf(box), { timeout: 5_000 }).toEqual({ power: 'on', problem: null });
    expect(runs().slice(0, 5)).toEqual([
      '-d /dev/cec1 -s -x -l --osd-name Showclock --playback',
      '-d /dev/cec1 -s -x --to 0 --give-device-power-status',
      '-d /dev/cec1 -s --to 0 --image-view-on',
      '-d /dev/cec1 -s --active-source phys-addr=1.0.0.0',
      '-d /dev/cec1 -s -x --to 0 --give-device-power-status',
    ]);
    await box.waitForLog((line) => line.because === 'boot' && line.msg.startsWith('screen: a room rule asked it'));

    const standby = await fetch(`${box.api}/screen/standby`, { method: 'POST' });
    expect(standby.status).toBe(200);
    expect(((await standby.json()) as { state: { screen: unknown } }).state.screen).toEqual({ power: 'standby', problem: null });
    expect(readFileSync(path.join(dir, 'power'), 'utf8').trim()).toBe('standby');

    expect((await fetch(`${box.api}/start`)).status).toBe(200);
    await expect.poll(() => screenOf(box), { timeout: 5_000 }).toEqual({ power: 'on', problem: null });
    await box.waitForLog((line) => line.because === 'timer-start');
  }, 30_000);

  it('without cec-ctl: runs on, reports the screen unavailable, and answers 503 saying what to install', async () => {
    // PATH is an empty directory: no cec-ctl, the fake or a real one installed on this machine.
    const emptyBin = mkdtempSync(path.join(tmpdir(), 'showclock-no-cec-'));
    dirs.push(emptyBin);
    const { box } = await boot(emptyBin);
    await expect.poll(() => screenOf(box), { timeout: 5_000 }).toMatchObject({ power: 'unavailable', problem: expect.stringContaining('install v4l-utils') });
    const on = await fetch(`${box.api}/screen/on`);
    expect(on.status).toBe(503);
    expect(((await on.json()) as { error: string }).error).toContain('cec-ctl is not installed');
    expect((await fetch(`${box.api}/start`)).status).toBe(200);
  }, 30_000);
});
