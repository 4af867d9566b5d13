// /api/v1/{key}/screen/on|standby|active over HTTP, with the real screen adapter and a fake
// cec-ctl first on PATH: 200 only once the screen acknowledged, with the snapshot whose
// `screen.power` is what it answered; 409 on a box with no screen; 502 and 503 with a
// sentence; every answer checked against the served OpenAPI document.
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, stateOf, useCheckedApp } from '../helpers/openapi-check.js';
import { cecScreen, fakeBus, type Bus } from '../cec/cec-rig.js';
import type { CecScreen } from '../../src/cec/cec-adapter.js';

const setup = useCheckedApp();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function withScreen(mode?: 'nack' | 'no-device'): { bus: Bus; screen: () => CecScreen } & ReturnType<typeof setup> {
  const bus = fakeBus();
  if (mode !== undefined) bus.setMode(mode);
  let made: CecScreen | undefined;
  const app = setup({
    screen: (service, clock) => {
      made = cecScreen(bus, service, clock).screen;
      made.start();
      return made;
    },
  });
  cleanups.push(() => {
    made?.close();
    bus.close();
  });
  return { ...app, bus, screen: () => made as CecScreen };
}

describe('screen routes', () => {
  it('switch the screen on (GET) and to standby (POST), answering the state with the power the screen reported', async () => {
    const { api, bus } = withScreen();
    bus.setPower('standby');
    const on = stateOf(await api.get('/screen/on'));
    expect(on.screen).toEqual({ power: 'on', problem: null });
    expect(bus.runs()).toContain('-d /dev/cec0 -s --to 0 --image-view-on');
    expect(bus.runs()).toContain('-d /dev/cec0 -s --active-source phys-addr=1.0.0.0');
    const standby = stateOf(await api.post('/screen/standby'));
    expect(standby.screen).toEqual({ power: 'standby', problem: null });
    expect(bus.runs()).toContain('-d /dev/cec0 -s --to 0 --standby');
    expect(stateOf(await api.post('/screen/active', {})).screen?.power).toBe('standby');
    // The state read afterwards says the same.
    expect(stateOf(await api.get('/state')).screen).toEqual({ power: 'standby', problem: null });
  });

  it('are 409 on a box with no screen configured, saying where to set one', async () => {
    const { api } = setup();
    for (const path of ['/screen/on', '/screen/standby', '/screen/active']) {
      expect(errorOf(await api.get(path), 409)).toContain('no screen is configured on this box: set screen.cec.device in the config file');
    }
    expect(stateOf(await api.get('/state')).screen).toBeNull();
  });

  it('are 502 when the screen does not acknowledge, 503 when the device cannot be opened', async () => {
    const nack = withScreen('nack');
    expect(errorOf(await nack.api.get('/screen/standby'), 502)).toContain('the screen did not acknowledge Standby');
    const missing = withScreen('no-device');
    expect(errorOf(await missing.api.post('/screen/on'), 503)).toContain('cec-ctl could not use /dev/cec0');
    expect(stateOf(await missing.api.get('/state')).screen?.power).toBe('unavailable');
  });

  it('take no input: a body that is not a JSON object is 400, as for every command', async () => {
    const { api, bus } = withScreen();
    expect(errorOf(await api.post('/screen/standby', '[1, 2]'), 400).length).toBeGreaterThan(0);
    expect(bus.runs()).not.toContain('-d /dev/cec0 -s --to 0 --standby');
  });

  it('are left out of v0 and its snapshot', async () => {
    const { t } = withScreen();
    expect((await t.get('v0', '/screen/on')).status).toBe(404);
    const v0 = (await (await t.get('v0', '/status')).json()) as { state: Record<string, unknown> };
    expect(v0.state).not.toHaveProperty('screen');
  });
});
