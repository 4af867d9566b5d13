// MQTT against a real Mosquitto started here (mosquitto.ts): the adapter in process
// beside the real HTTP app on the same room service (test-app.ts), reaching the
// broker through a TCP relay the test can cut. What the box publishes is read with
// `mosquitto_sub` and commands are sent with `mosquitto_pub`, clients nobody here
// wrote. Figures (HTTP answer times while the broker is away, reconnect time) go to
// test-artifacts/mqtt-figures.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import type { MqttConfig } from '../../src/config/mqtt-config.js';
import { createLogger } from '../../src/log/logger.js';
import { startMqtt, type MqttAdapter } from '../../src/mqtt/mqtt-adapter.js';
import { mqttCommandHandler } from '../../src/mqtt/mqtt-commands.js';
import { createTestApp, roomWithTimers, type TestApp } from '../helpers/test-app.js';
import { Mosquitto, publish, Relay, retained, Subscriber, waitFor, roomConfig } from './mosquitto.js';

const ROOM = 'stage-a';
const ROOT = `showclock/${ROOM}`;
const NODE = 'showclock_stage_a';
const FIGURES = 'test-artifacts/mqtt-figures.json';
/** package.json's version, read as a file: the adapter must carry the same, which nothing passes it. */
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const CONFIG = roomConfig(ROOM);

interface Rig {
  readonly t: TestApp;
  readonly broker: Mosquitto;
  readonly relay: Relay;
  readonly mqtt: MqttAdapter;
  readonly lines: string[];
  close(): Promise<void>;
}

const open: Rig[] = [];

async function rig(opts: { config?: Partial<MqttConfig>; passwords?: Record<string, string> } = {}): Promise<Rig> {
  const broker = await Mosquitto.start(opts.passwords === undefined ? {} : { passwords: opts.passwords });
  const relay = await Relay.start(broker.port);
  const t = createTestApp({ room: roomWithTimers(3) });
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
  const mqtt = startMqtt({
    config: { ...CONFIG, url: `mqtt://127.0.0.1:${relay.port}`, ...opts.config },
    service: t.service,
    command: mqttCommandHandler({ service: t.service, limiter: new FixedWindowLimiter({ limit: 100, nowMs: () => performance.now() }) }),
    monoMs: () => performance.now(),
    logger,
  });
  const made: Rig = {
    t,
    broker,
    relay,
    mqtt,
    lines,
    async close() {
      await mqtt.close();
      await broker.stop();
      await relay.close();
    },
  };
  open.push(made);
  return made;
}

afterEach(async () => {
  for (const made of open.splice(0)) await made.close();
});

const figures: Record<string, unknown> = {};
afterAll(() => {
  if (Object.keys(figures).length === 0) return;
  mkdirSync('test-artifacts', { recursive: true });
  let before: Record<string, unknown> = {};
  try {
    before = JSON.parse(readFileSync(FIGURES, 'utf8')) as Record<string, unknown>;
  } catch {
    // first run
  }
  writeFileSync(FIGURES, `${JSON.stringify({ ...before, ...figures, measuredAt: new Date().toISOString() }, null, 2)}\n`);
});

async function stateOf(port: number): Promise<Record<string, unknown> | undefined> {
  const [state] = await retained(port, `${ROOT}/state`, { count: 1, waitS: 2 });
  return state === undefined ? undefined : (JSON.parse(state.payload) as Record<string, unknown>);
}

/** Waits for a retained topic to carry `expected` (another client's publish may still be on its way). */
async function retainedBecomes(port: number, topic: string, expected: string, auth: { user?: string; password?: string } = {}): Promise<void> {
  await waitFor(`${topic} = ${expected}`, async () => ((await retained(port, topic, { count: 1, ...auth }))[0]?.payload === expected ? true : undefined));
}

async function retainedMap(port: number, filter: string, count: number): Promise<Map<string, string>> {
  return new Map((await retained(port, filter, { count, waitS: 3 })).map((m) => [m.topic, m.payload]));
}

describe('MQTT with a real Mosquitto', () => {
  it('publishes the state retained, and discovery configs Home Assistant reads as one device', async () => {
    const { broker, mqtt } = await rig();
    await waitFor('the connection', () => (mqtt.connected ? true : undefined));
    const topics = await waitFor('the state topics', async () => {
      const found = await retainedMap(broker.port, `${ROOT}/#`, 9);
      return found.size >= 9 ? found : undefined;
    });
    expect(topics.get(`${ROOT}/availability`)).toBe('online');
    expect(topics.get(`${ROOT}/running`)).toBe('false');
    expect(topics.get(`${ROOT}/phase`)).toBe('ready');
    expect(topics.get(`${ROOT}/onAir`)).toBe('OFF');
    expect(topics.get(`${ROOT}/blackout`)).toBe('OFF');
    expect(topics.get(`${ROOT}/remainingMs`)).toBe('60000');
    expect(topics.get(`${ROOT}/endsAt`)).toBe('null');
    const state = JSON.parse(topics.get(`${ROOT}/state`) ?? '{}') as Record<string, unknown>;
    expect(state).toMatchObject({ phase: 'ready', running: false, remainingMs: 60000, endsAt: null, onAir: false, timerId: 't1' });

    const discovery = await waitFor('the discovery configs', async () => {
      const found = await retainedMap(broker.port, 'homeassistant/#', 9);
      return found.size >= 9 ? found : undefined;
    });
    expect([...discovery.keys()].sort()).toEqual(
      [
        `homeassistant/button/${NODE}/next/config`,
        `homeassistant/button/${NODE}/pause/config`,
        `homeassistant/button/${NODE}/start/config`,
        `homeassistant/sensor/${NODE}/ends_at/config`,
        `homeassistant/sensor/${NODE}/phase/config`,
        `homeassistant/sensor/${NODE}/remaining/config`,
        `homeassistant/sensor/${NODE}/timer/config`,
        `homeassistant/switch/${NODE}/blackout/config`,
        `homeassistant/switch/${NODE}/on_air/config`,
      ].sort(),
    );
    const configs = [...discovery.entries()].map(([topic, payload]) => ({ topic, config: JSON.parse(payload) as Record<string, unknown> }));
    const ids = new Set<string>();
    for (const { config } of configs) {
      expect(config.device).toEqual({ identifiers: [NODE], name: `Showclock ${ROOM}`, manufacturer: 'Showclock', model: 'Showclock countdown timer', sw_version: PACKAGE_VERSION });
      expect(config.availability_topic).toBe(`${ROOT}/availability`);
      ids.add(config.unique_id as string);
    }
    expect(ids.size).toBe(9);
    const onAir = configs.find((c) => c.topic.includes('/switch/') && c.topic.includes('on_air'))?.config;
    expect(onAir).toMatchObject({ unique_id: `${NODE}_on_air`, state_topic: `${ROOT}/onAir`, command_topic: `${ROOT}/set/onair`, payload_on: 'ON', payload_off: 'OFF' });
    const start = configs.find((c) => c.topic.includes('/button/') && c.topic.includes('/start/'))?.config;
    expect(start).toMatchObject({ command_topic: `${ROOT}/set/start` });
    const remaining = configs.find((c) => c.topic.includes('/remaining/'))?.config;
    expect(remaining).toMatchObject({ state_topic: `${ROOT}/remainingMs`, device_class: 'duration' });
  }, 40_000);

  it('takes commands from mosquitto_pub through the one dispatch, and refuses a bad one in HTTP v1 words', async () => {
    const { t, broker, relay, mqtt } = await rig();
    await waitFor('the connection', () => (mqtt.connected ? true : undefined));
    const errors = new Subscriber(broker.port, `${ROOT}/error`);
    try {
      await publish(broker.port, `${ROOT}/set/start`, 'PRESS');
      await waitFor('start', () => (t.service.room.transport.running ? true : undefined));
      await publish(broker.port, `${ROOT}/set/onair`, 'ON');
      await waitFor('ON AIR', () => (t.service.room.onAir ? true : undefined));
      const state = await waitFor('the retained state', async () => {
        const found = await stateOf(broker.port);
        return found?.running === true && found.onAir === true ? found : undefined;
      });
      // roomWithTimers' first timer is a minute long with its warning at or above that: warning at once.
      expect(['running', 'warning']).toContain(state.phase);
      expect(typeof state.endsAt).toBe('number');
      const endsAt = await waitFor('endsAt', async () => {
        const payload = (await retained(broker.port, `${ROOT}/endsAt`, { count: 1 }))[0]?.payload;
        return payload !== undefined && payload !== 'null' ? payload : undefined;
      });
      // The same instant; each snapshot rounds serverNow and remaining, so 1 ms either way.
      expect(Math.abs(Date.parse(endsAt ?? '') - (state.endsAt as number))).toBeLessThanOrEqual(2);
      await retainedBecomes(broker.port, `${ROOT}/onAir`, 'ON');

      const seq = t.service.room.seq;
      await publish(broker.port, `${ROOT}/set/adjust`, 'abc');
      const refusal = await waitFor('the refusal', () => errors.messages.find((m) => m.topic === `${ROOT}/error`));
      const http = (await (await t.request(`/api/v1/${t.keys.apiKey}/adjust?ms=abc`, { method: 'POST' })).json()) as { ok: boolean; error: string };
      expect(http.ok).toBe(false);
      expect(JSON.parse(refusal.payload)).toEqual({ ok: false, command: 'adjust', error: http.error });
      expect(t.service.room.seq).toBe(seq);

      await publish(broker.port, `${ROOT}/set/onair`, 'OFF');
      await waitFor('ON AIR off', () => (t.service.room.onAir ? undefined : true));

      // A command published retained runs as it arrives (the broker passes it on as live), but
      // is refused when the broker hands it over again as retained, at the next connection.
      await publish(broker.port, `${ROOT}/set/pause`, 'PRESS', { retain: true });
      await waitFor('the pause', () => (t.service.room.transport.running ? undefined : true));
      expect((await t.post('v1', '/start')).status).toBe(200);
      relay.cut();
      await waitFor('the retained refusal', () => errors.messages.find((m) => m.payload.includes('"command":"pause"')));
      expect(t.service.room.transport.running).toBe(true);
      // Clearing it (an empty retained message, passed on live) runs nothing.
      await publish(broker.port, `${ROOT}/set/pause`, '', { retain: true });
      await publish(broker.port, `${ROOT}/set/onair`, 'ON');
      await waitFor('ON AIR on', () => (t.service.room.onAir ? true : undefined));
      expect(t.service.room.transport.running).toBe(true);
    } finally {
      errors.close();
    }
  }, 40_000);

  it('the broker killed and restarted mid-show: HTTP never waits, the box reconnects and republishes', async () => {
    const { t, broker, mqtt, lines } = await rig();
    await waitFor('the connection', () => (mqtt.connected ? true : undefined));
    expect((await t.post('v1', '/start')).status).toBe(200);
    await waitFor('the running state', async () => ((await stateOf(broker.port))?.running === true ? true : undefined));

    await broker.kill();
    await waitFor('the box to notice', () => (mqtt.connected ? undefined : true), 30_000);
    const answerMs: number[] = [];
    for (const path of ['/pause', '/start', '/next', '/onair?on=1', '/pause', '/adjust?ms=60000', '/start', '/blackout?on=1', '/blackout?on=0', '/pause']) {
      const started = performance.now();
      const response = await t.post('v1', path);
      answerMs.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    const maxAnswerMs = Math.max(...answerMs);
    expect(maxAnswerMs).toBeLessThan(1_000);
    const seq = t.service.room.seq;

    const restartedAt = performance.now();
    await broker.run();
    await waitFor('the reconnect', () => (mqtt.connected ? true : undefined), 30_000, 20);
    const reconnectMs = performance.now() - restartedAt;
    // Persistence is off: the retained state after the restart is what the box published again.
    const state = await waitFor('the republished state', async () => {
      const found = await stateOf(broker.port);
      return found?.seq === seq ? found : undefined;
    });
    expect(state).toMatchObject({ running: false, onAir: true, blackout: false, timerId: 't2' });
    await retainedBecomes(broker.port, `${ROOT}/availability`, 'online');
    await waitFor('the discovery configs again', async () => ((await retained(broker.port, 'homeassistant/#', { count: 9, waitS: 3 })).length === 9 ? true : undefined));
    expect(reconnectMs).toBeLessThan(15_000);
    figures.brokerDown = {
      httpCommands: answerMs.length,
      httpAnswerMaxMs: Math.round(maxAnswerMs * 100) / 100,
      httpAnswerMedianMs: Math.round([...answerMs].sort((a, b) => a - b)[Math.floor(answerMs.length / 2)]! * 100) / 100,
    };
    figures.reconnectAfterBrokerRestartMs = Math.round(reconnectMs);
    // One warning for the outage, not one per attempt.
    expect(lines.filter((line) => line.includes('MQTT: lost the broker'))).toHaveLength(1);
  }, 60_000);

  it('a connection that dies uncleanly: availability offline by the last will, then online again', async () => {
    const { broker, relay, mqtt } = await rig();
    await waitFor('the connection', () => (mqtt.connected ? true : undefined));
    const availability = new Subscriber(broker.port, `${ROOT}/availability`);
    try {
      await waitFor('online', () => availability.messages.find((m) => m.payload === 'online'));
      const cutAt = performance.now();
      relay.cut();
      await waitFor('offline by the will', () => availability.messages.find((m) => m.payload === 'offline'));
      const back = await waitFor('online again', () => {
        const offline = availability.messages.findIndex((m) => m.payload === 'offline');
        return availability.messages.slice(offline + 1).find((m) => m.payload === 'online');
      });
      expect(back.payload).toBe('online');
      figures.reconnectAfterCutMs = Math.round(performance.now() - cutAt);
    } finally {
      availability.close();
    }
  }, 40_000);

  it('a broker with passwords: the box logs in with mqtt.username and mqtt.password, and never logs the password', async () => {
    const { broker, mqtt, lines } = await rig({ passwords: { box: 's3cret-pass' }, config: { username: 'box', password: 's3cret-pass' } });
    await waitFor('the connection', () => (mqtt.connected ? true : undefined));
    await retainedBecomes(broker.port, `${ROOT}/availability`, 'online', { user: 'box', password: 's3cret-pass' });
    // Anonymous clients are refused by this broker: mosquitto_sub without a login sees nothing.
    expect(await retained(broker.port, `${ROOT}/availability`, { count: 1, waitS: 1 })).toEqual([]);
    expect(lines.join('\n')).not.toContain('s3cret-pass');

    // A wrong password: one warning saying why, tried again in the background, never connected.
    const wrongLines: string[] = [];
    const wrong = startMqtt({
      config: { ...CONFIG, url: `mqtt://127.0.0.1:${broker.port}`, username: 'box', password: 'wrong-pass' },
      service: createTestApp().service,
      command: () => {},
      monoMs: () => performance.now(),
      logger: createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void wrongLines.push(line) } }),
    });
    try {
      const warning = await waitFor('the warning', () => wrongLines.find((line) => line.includes('cannot reach the broker')));
      expect(warning).toMatch(/Not authorized|Bad username or password/);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(wrong.connected).toBe(false);
      expect(wrongLines.filter((line) => line.includes('cannot reach the broker'))).toHaveLength(1);
      expect(wrongLines.join('\n')).not.toContain('wrong-pass');
    } finally {
      await wrong.close();
    }
  }, 40_000);
});
