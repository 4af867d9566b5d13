// The screen adapter (src/cec) against a fake cec-ctl first on PATH that answers with
// cec-ctl's own lines: it registers once as a playback device, reports the TV's power to
// the room, carries out on / standby / active with the exact command lines the VM test
// expects, answers ok only for an acknowledged message, and turns every failure (no
// cec-ctl, no device, no TV, a hang) into a sentence and a report, never a throw.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';
import { cecScreen, fakeBus, until, type Bus } from './cec-rig.js';
import type { CecScreen } from '../../src/cec/cec-adapter.js';

const REGISTER = '-d /dev/cec0 -s -x -l --osd-name Showclock --playback';
const POWER = '-d /dev/cec0 -s -x --to 0 --give-device-power-status';
const IMAGE_VIEW_ON = '-d /dev/cec0 -s --to 0 --image-view-on';
const ACTIVE_SOURCE = '-d /dev/cec0 -s --active-source phys-addr=1.0.0.0';
const STANDBY = '-d /dev/cec0 -s --to 0 --standby';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(opts: { env?: (bus: Bus) => NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
  const bus = fakeBus();
  const t = createTestApp();
  const rig = cecScreen(bus, t.service, t.clock, { ...(opts.env === undefined ? {} : { env: opts.env(bus) }), ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }) });
  cleanups.push(() => {
    rig.screen.close();
    bus.close();
  });
  return { bus, t, screen: rig.screen as CecScreen, lines: rig.lines };
}

describe('the screen adapter', () => {
  it('registers once as a playback device, asks the TV its power, and the room reports it', async () => {
    const { bus, t, screen } = setUp();
    bus.setPower('standby');
    screen.start();
    // Before the bus answers: configured, power not known yet.
    expect(t.service.snapshot().screen).toEqual({ power: 'unknown', problem: null });
    await until(() => t.service.snapshot().screen?.power === 'standby', 'the power report');
    expect(bus.runs()).toEqual([REGISTER, POWER]);
  });

  it('switches the screen on and makes the box its source; 200 only once acknowledged, with the power it reported after', async () => {
    const { bus, t, screen } = setUp();
    bus.setPower('standby');
    screen.start();
    const answer = await screen.request('on');
    expect(answer).toEqual({ ok: true, report: { power: 'on', problem: null } });
    expect(bus.runs()).toEqual([REGISTER, POWER, IMAGE_VIEW_ON, ACTIVE_SOURCE, POWER]);
    expect(t.service.snapshot().screen).toEqual({ power: 'on', problem: null });
  });

  it('puts the screen to standby, and makes the box the active source alone', async () => {
    const { bus, t, screen } = setUp();
    screen.start();
    expect(await screen.request('standby')).toEqual({ ok: true, report: { power: 'standby', problem: null } });
    expect(t.service.snapshot().screen?.power).toBe('standby');
    expect(await screen.request('active')).toMatchObject({ ok: true });
    expect(bus.runs()).toEqual([REGISTER, POWER, STANDBY, POWER, ACTIVE_SOURCE, POWER]);
  });

  it('follows what the TV says at each poll, sooner while it is in transition', async () => {
    const { bus, t, screen } = setUp();
    bus.setPower('to-on');
    screen.start();
    await until(() => t.service.snapshot().screen?.power === 'to-on', 'the transition');
    bus.setPower('on');
    t.clock.advance(2_000);
    await until(() => t.service.snapshot().screen?.power === 'on', 'the transition over');
    // The remote control put it to standby: the next poll, 30 s on, says so.
    bus.setPower('standby');
    t.clock.advance(29_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.service.snapshot().screen?.power).toBe('on');
    t.clock.advance(1_000);
    await until(() => t.service.snapshot().screen?.power === 'standby', 'the poll');
  });

  it('after an acknowledged standby, a TV that still says "on" is asked again within seconds, not at the next 30 s poll (seen with cec-follower)', async () => {
    const { bus, t, screen } = setUp();
    screen.start();
    await until(() => t.service.snapshot().screen?.power === 'on', 'the first report');
    // The TV takes Standby but answers the power question at once, before it changed.
    bus.setSlow();
    expect(await screen.request('standby')).toEqual({ ok: true, report: { power: 'on', problem: null } });
    bus.setPower('to-standby');
    t.clock.advance(2_000);
    await until(() => t.service.snapshot().screen?.power === 'to-standby', 'the transition');
    bus.setPower('standby');
    t.clock.advance(2_000);
    await until(() => t.service.snapshot().screen?.power === 'standby', 'standby, within seconds');
    // There: back to the slow poll.
    const runs = bus.runs().length;
    t.clock.advance(20_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bus.runs().length).toBe(runs);
  });

  it('answers 502 when the screen does not acknowledge, and reports it unknown with why', async () => {
    const { bus, t, screen } = setUp();
    bus.setMode('nack');
    screen.start();
    const answer = await screen.request('standby');
    expect(answer).toEqual({
      ok: false,
      status: 502,
      error: 'the screen did not acknowledge Standby (Tx, Not Acknowledged (4), Max Retries): is it connected, on its mains, with CEC switched on in its menu?',
    });
    expect(t.service.snapshot().screen).toEqual({ power: 'unknown', problem: expect.stringContaining('did not acknowledge Standby') });
    // The next poll asks again, and says what it found.
    t.clock.advance(30_000);
    await until(() => t.service.snapshot().screen?.problem?.includes('Give Device Power Status') === true, 'the poll after');
    bus.setMode('ok');
    t.clock.advance(30_000);
    await until(() => t.service.snapshot().screen?.power === 'on', 'the screen answering again');
    expect(t.service.snapshot().screen?.problem).toBeNull();
  });

  it('registers again when cec-ctl finds the adapter unconfigured, and sends the message', async () => {
    const { bus, t, screen } = setUp();
    bus.setMode('unconfigured');
    screen.start();
    // The first poll over (its answer in the room), not only begun: the fake logs a run as it starts.
    await until(() => t.service.snapshot().screen?.power === 'on', 'the first poll');
    bus.unregister();
    expect(await screen.request('standby')).toMatchObject({ ok: true });
    expect(bus.runs()).toEqual([REGISTER, POWER, STANDBY, REGISTER, STANDBY, POWER]);
  });

  it('without cec-ctl on the box: 503 saying what to install, reported unavailable, the room runs on', async () => {
    const { t, screen, lines } = setUp({ env: () => ({ PATH: '/nonexistent' }) });
    screen.start();
    const answer = await screen.request('on');
    expect(answer).toEqual({ ok: false, status: 503, error: 'cec-ctl is not installed on this box: install v4l-utils (sudo apt install v4l-utils)' });
    expect(t.service.snapshot().screen).toEqual({ power: 'unavailable', problem: 'cec-ctl is not installed on this box: install v4l-utils (sudo apt install v4l-utils)' });
    expect((await t.get('v1', '/start')).status).toBe(200);
    // Logged once, not at every poll or request.
    expect(lines.filter((line) => line.includes('cec-ctl is not installed'))).toHaveLength(1);
  });

  it('without the device: 503 with cec-ctl\'s own words', async () => {
    const { bus, t, screen } = setUp();
    bus.setMode('no-device');
    screen.start();
    expect(await screen.request('standby')).toEqual({
      ok: false,
      status: 503,
      error: 'cec-ctl could not use /dev/cec0: Failed to open /dev/cec0: No such file or directory',
    });
    expect(t.service.snapshot().screen?.power).toBe('unavailable');
  });

  it('without an HDMI link (physical address f.f.f.f): 503 naming the cable', async () => {
    const { bus, screen } = setUp();
    bus.setMode('no-address');
    screen.start();
    const answer = await screen.request('on');
    expect(answer).toMatchObject({ ok: false, status: 503, error: expect.stringContaining('has no HDMI physical address: is the cable in') });
  });

  it('kills a cec-ctl that hangs at its deadline: 504, and the next request is not held up by it', async () => {
    const { bus, screen } = setUp({ timeoutMs: 300 });
    bus.setMode('hang');
    screen.start();
    const started = Date.now();
    const answer = await screen.request('standby');
    expect(answer).toMatchObject({ ok: false, status: 504, error: expect.stringContaining('did not finish in time') });
    expect(Date.now() - started).toBeLessThan(2_000);
    bus.setMode('ok');
    expect(await screen.request('standby')).toMatchObject({ ok: true });
  });
});
