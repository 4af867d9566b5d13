// mqtts:// against a real TLS broker: Debian's Mosquitto with TLS listeners on
// loopback, its certificates signed by a private CA that the test makes with
// `openssl` (tls-certs.ts), as a venue does. With mqtt.caFile the box connects and
// its retained state is what `mosquitto_sub --cafile` sees; without it (the system's
// CAs only) the built service says in one line that the certificate is not trusted
// and names mqtt.caFile, and answers HTTP meanwhile; a CA file of another CA, a
// certificate made for another address, an expired one, and the broker's plain port
// given as TLS are refused each with a line that says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import type { MqttConfig } from '../../src/config/mqtt-config.js';
import { createLogger } from '../../src/log/logger.js';
import { startMqtt, type MqttAdapter } from '../../src/mqtt/mqtt-adapter.js';
import { mqttCommandHandler } from '../../src/mqtt/mqtt-commands.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { createTestApp, roomWithTimers, type TestApp } from '../helpers/test-app.js';
import { freePort, Mosquitto, retained, waitFor, roomConfig } from './mosquitto.js';
import { makeCa, makeServerCert, type Ca } from './tls-certs.js';

const ROOM = 'tls-room';
const ROOT = `showclock/${ROOM}`;

const CONFIG = roomConfig(ROOM);

let dir: string;
let venueCa: Ca;
let otherCa: Ca;
let broker: Mosquitto;
/** TLS with a certificate for 127.0.0.1, signed by the venue's CA. */
let tlsPort: number;
/** TLS with a certificate for 127.0.0.2 and broker.venue.test only, signed by the same CA. */
let otherNamePort: number;
/** TLS with a certificate for 127.0.0.1 from the same CA that expired yesterday. */
let expiredPort: number;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-mqtt-tls-'));
  venueCa = makeCa(dir, 'venue-ca');
  otherCa = makeCa(dir, 'other-ca');
  const good = makeServerCert(dir, venueCa, 'broker', ['IP:127.0.0.1', 'DNS:localhost']);
  const otherName = makeServerCert(dir, venueCa, 'broker-elsewhere', ['IP:127.0.0.2', 'DNS:broker.venue.test']);
  const expired = makeServerCert(dir, venueCa, 'broker-expired', ['IP:127.0.0.1'], -1);
  tlsPort = await freePort();
  otherNamePort = await freePort();
  expiredPort = await freePort();
  const listener = (port: number, cert: { certFile: string; keyFile: string }) =>
    `listener ${port} 127.0.0.1\ncafile ${venueCa.certFile}\ncertfile ${cert.certFile}\nkeyfile ${cert.keyFile}\n`;
  broker = await Mosquitto.start({
    listeners: { config: listener(tlsPort, good) + listener(otherNamePort, otherName) + listener(expiredPort, expired), ports: [tlsPort, otherNamePort, expiredPort] },
  });
}, 60_000);

afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface InProcess {
  readonly t: TestApp;
  readonly mqtt: MqttAdapter;
  readonly lines: string[];
}

function inProcess(config: Partial<MqttConfig>): InProcess {
  const t = createTestApp({ room: roomWithTimers(2) });
  const lines: string[] = [];
  const mqtt = startMqtt({
    config: { ...CONFIG, ...config },
    service: t.service,
    command: mqttCommandHandler({ service: t.service, limiter: new FixedWindowLimiter({ limit: 100, nowMs: () => performance.now() }) }),
    monoMs: () => performance.now(),
    logger: createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } }),
  });
  return { t, mqtt, lines };
}

const messages = (lines: readonly string[]) => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('mqtts:// with a private CA', () => {
  it('with mqtt.caFile: connects over TLS and publishes the state retained, as mosquitto_sub --cafile sees it', async () => {
    const { t, mqtt } = inProcess({ url: `mqtts://127.0.0.1:${tlsPort}`, caFile: venueCa.certFile });
    try {
      await waitFor('the TLS connection', () => (mqtt.connected ? true : undefined), 10_000);
      t.service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
      await waitFor('onAir ON over TLS', async () => ((await retained(tlsPort, `${ROOT}/onAir`, { count: 1, cafile: venueCa.certFile }))[0]?.payload === 'ON' ? true : undefined));
      const [availability] = await retained(tlsPort, `${ROOT}/availability`, { count: 1, cafile: venueCa.certFile });
      expect(availability?.payload).toBe('online');
      const [state] = await retained(tlsPort, `${ROOT}/state`, { count: 1, cafile: venueCa.certFile });
      expect(JSON.parse(state?.payload ?? '{}')).toMatchObject({ onAir: true, running: false, timerId: 't1' });
      // The same broker refuses a client that does not trust its CA: the state above came over TLS, verified.
      expect(await retained(tlsPort, `${ROOT}/onAir`, { count: 1, waitS: 1, cafile: otherCa.certFile })).toEqual([]);
    } finally {
      await mqtt.close();
    }
  }, 30_000);

  it('a CA file of another CA: refused, with a line naming mqtt.caFile and its path', async () => {
    const { mqtt, lines } = inProcess({ url: `mqtts://127.0.0.1:${tlsPort}`, caFile: otherCa.certFile });
    try {
      const warning = await waitFor('the warning', () => messages(lines).find((msg) => msg.startsWith('MQTT: cannot reach the broker')), 10_000);
      expect(warning).toContain("the broker's TLS certificate is not trusted");
      expect(warning).toContain(`it is not signed by the CA in mqtt.caFile (${otherCa.certFile})`);
      expect(mqtt.connected).toBe(false);
    } finally {
      await mqtt.close();
    }
  }, 30_000);

  it('a certificate for another address: refused, with a line saying so and what to change', async () => {
    const { mqtt, lines } = inProcess({ url: `mqtts://127.0.0.1:${otherNamePort}`, caFile: venueCa.certFile });
    try {
      const warning = await waitFor('the warning', () => messages(lines).find((msg) => msg.startsWith('MQTT: cannot reach the broker')), 10_000);
      expect(warning).toContain("the broker's TLS certificate is for another host name");
      // Node's own words name the address asked for and the ones the certificate lists.
      expect(warning).toContain('127.0.0.1');
      expect(warning).toContain('127.0.0.2');
      expect(warning).toContain('mqtt.url');
      // Tried again in the background (1 s, then 2 s), still one line for the outage.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(mqtt.connected).toBe(false);
      expect(messages(lines).filter((msg) => msg.startsWith('MQTT: cannot reach the broker'))).toHaveLength(1);
    } finally {
      await mqtt.close();
    }
  }, 30_000);

  it('an expired certificate: refused, with a line saying so and to check the clock', async () => {
    const { mqtt, lines } = inProcess({ url: `mqtts://127.0.0.1:${expiredPort}`, caFile: venueCa.certFile });
    try {
      const warning = await waitFor('the warning', () => messages(lines).find((msg) => msg.startsWith('MQTT: cannot reach the broker')), 10_000);
      expect(warning).toContain("the broker's TLS certificate has expired");
      expect(warning).toContain("check this box's clock");
      expect(mqtt.connected).toBe(false);
    } finally {
      await mqtt.close();
    }
  }, 30_000);

  it("mqtts:// to the broker's plain port: refused, with a line asking for the TLS port", async () => {
    const { mqtt, lines } = inProcess({ url: `mqtts://127.0.0.1:${broker.port}`, caFile: venueCa.certFile });
    try {
      const warning = await waitFor('the warning', () => messages(lines).find((msg) => msg.startsWith('MQTT: cannot reach the broker')), 10_000);
      expect(warning).toContain('the broker closed the connection during the TLS handshake');
      expect(warning).toContain("is the port in mqtt.url the broker's TLS port (usually 8883)");
      expect(mqtt.connected).toBe(false);
    } finally {
      await mqtt.close();
    }
  }, 30_000);
});

describe('mqtts:// in the built service', () => {
  let service: ServiceProcess | undefined;
  // A room of its own: the in-process tests above left retained topics under theirs.
  const BOX_ROOM = 'tls-box';

  beforeAll(() => {
    ensureBundle();
  });

  afterAll(async () => {
    await stopService(service);
  });

  function start(extra: Record<string, string>): Promise<ServiceProcess> {
    return startService(
      serviceEnv({ SHOWCLOCK_DATA_DIR: path.join(dir, 'data'), SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_MQTT_URL: `mqtts://127.0.0.1:${tlsPort}`, SHOWCLOCK_MQTT_ROOM: BOX_ROOM, ...extra }),
    );
  }

  it('without mqtt.caFile: one line that the certificate is not trusted, naming mqtt.caFile, and HTTP answered meanwhile; with it, connected', async () => {
    service = await start({});
    const running = service;
    const warning = await running.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('MQTT: cannot reach the broker'), 10_000);
    expect(warning.msg).toContain("the broker's TLS certificate is not trusted");
    expect(warning.msg).toContain('set mqtt.caFile (SHOWCLOCK_MQTT_CA_FILE) to the PEM file of the CA that signed it');
    expect(warning.level).toBe(40);

    // The box serves on while it tries again: reads and commands over HTTP, each answered at once.
    const slowest = { ms: 0 };
    for (const [method, urlPath] of [['GET', '/state'], ['POST', '/start'], ['POST', '/pause'], ['GET', '/state']] as const) {
      const began = performance.now();
      const answer = await fetch(`${running.api}${urlPath}`, method === 'POST' ? { method, headers: { 'Content-Type': 'application/json' }, body: '{}' } : {});
      slowest.ms = Math.max(slowest.ms, performance.now() - began);
      expect(answer.status, `${method} ${urlPath}`).toBe(200);
    }
    expect(slowest.ms).toBeLessThan(1_000);
    // Still one line for the outage after a retry or two.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(running.lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('MQTT: cannot reach the broker'))).toHaveLength(1);
    expect(await retained(tlsPort, `showclock/${BOX_ROOM}/availability`, { count: 1, waitS: 1, cafile: venueCa.certFile })).toEqual([]);
    await stopService(running);

    service = await start({ SHOWCLOCK_MQTT_CA_FILE: venueCa.certFile });
    await service.waitForLog((line) => line.msg === 'MQTT: connected to the broker', 10_000);
    await waitFor('the retained state over TLS', async () => ((await retained(tlsPort, `showclock/${BOX_ROOM}/running`, { count: 1, cafile: venueCa.certFile }))[0]?.payload === 'false' ? true : undefined));
  }, 60_000);
});
