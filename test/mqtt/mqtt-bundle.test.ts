// MQTT in the service as a box runs it: the service bundle and the files beside it
// built as scripts/build.mjs builds them (into a temporary directory, not dist/),
// started as a child process with SHOWCLOCK_MQTT_URL pointing at a real Mosquitto.
// The client is in dist/showclock-mqtt.cjs, not in the bundle every box keeps in
// memory; its Home Assistant device carries the service's version (package.json,
// built in); mosquitto_pub starts the timer; the process killed (SIGKILL) leaves
// `offline` by the last will; a stop (SIGTERM) publishes `offline` itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceBundleOptions, writeBundleSideFiles } from '../../scripts/build.mjs';
import { serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { Mosquitto, publish, retained, Subscriber, waitFor } from './mosquitto.js';

const ROOT = 'showclock/bundle-room';
let dir: string;
let broker: Mosquitto;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-mqtt-bundle-'));
  await build(serviceBundleOptions({ outfile: path.join(dir, 'showclock.cjs') }));
  await writeBundleSideFiles(dir);
  broker = await Mosquitto.start();
}, 60_000);

afterAll(async () => {
  await stopService(service);
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function start(): Promise<ServiceProcess> {
  return startService(
    serviceEnv({
      SHOWCLOCK_DATA_DIR: path.join(dir, 'data'),
      SHOWCLOCK_API_KEY: TEST_API_KEY,
      SHOWCLOCK_MQTT_URL: `mqtt://127.0.0.1:${broker.port}`,
      SHOWCLOCK_MQTT_ROOM: 'bundle-room',
    }),
    { entry: path.join(dir, 'showclock.cjs') },
  );
}

describe('MQTT in the built service', () => {
  it('is a file beside the bundle, loaded where configured; commands work; the last will and the stop say offline', async () => {
    expect(readFileSync(path.join(dir, 'showclock.cjs'), 'utf8')).not.toContain('MqttClient');
    expect(readFileSync(path.join(dir, 'showclock-mqtt.cjs'), 'utf8')).toContain('MqttClient');
    const availability = new Subscriber(broker.port, `${ROOT}/availability`);
    try {
      service = await start();
      const running = service;
      await running.waitForLog((line) => line.msg === 'MQTT: connected to the broker');
      await waitFor('online', () => availability.messages.find((m) => m.payload === 'online'));
      const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
      const [discovery] = await retained(broker.port, 'homeassistant/switch/showclock_bundle_room/on_air/config', { count: 1, waitS: 5 });
      expect((JSON.parse(discovery?.payload ?? '{}') as { device?: unknown }).device).toMatchObject({ identifiers: ['showclock_bundle_room'], sw_version: packageVersion });
      await publish(broker.port, `${ROOT}/set/start`, 'PRESS');
      await waitFor('running over HTTP', async () => {
        const state = ((await (await fetch(`${running.api}/state`)).json()) as { state: { running: boolean } }).state;
        return state.running ? true : undefined;
      });
      await waitFor('the retained state', async () => {
        const [state] = await retained(broker.port, `${ROOT}/running`, { count: 1 });
        return state?.payload === 'true' ? true : undefined;
      });

      running.child.kill('SIGKILL');
      await running.exited;
      await waitFor('offline by the last will', () => availability.messages.find((m) => m.payload === 'offline'));

      service = await start();
      const second = service;
      await second.waitForLog((line) => line.msg === 'MQTT: connected to the broker');
      await waitFor('online again', () => {
        const offline = availability.messages.findIndex((m) => m.payload === 'offline');
        return availability.messages.slice(offline + 1).find((m) => m.payload === 'online');
      });
      second.child.kill('SIGTERM');
      await second.exited;
      const [last] = await retained(broker.port, `${ROOT}/availability`, { count: 1 });
      expect(last?.payload).toBe('offline');
      await waitFor('offline after the stop', () => (availability.messages.at(-1)?.payload === 'offline' ? true : undefined));
      expect(availability.messages.map((m) => m.payload).slice(0, 4)).toEqual(['online', 'offline', 'online', 'offline']);
    } finally {
      availability.close();
    }
  }, 60_000);
});
