// OBS as a tally source, end to end in process: the obs-websocket-js client in
// the tally adapter against a scripted obs-websocket v5 server that speaks the
// real protocol (obs-server.ts): streaming started switches ON AIR and the lamp,
// stopped switches them off; recording counts with `on: record` or `both`; a
// wrong password is logged once and changes nothing; OBS restarted mid-show is
// found again and read afresh, and while it is away no command waits for it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ObsTally } from '../../src/tally/obs-tally.js';
import { startTally, type TallyAdapter } from '../../src/tally/tally-adapter.js';
import type { ObsTallyOn } from '../../src/config/tally-config.js';
import { LampBindings } from '../../src/gpio/lamp-bindings.js';
import { MemoryGpio } from '../../src/gpio/memory-gpio.js';
import { createLogger } from '../../src/log/logger.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { obsServer, OUTPUTS_SUBSCRIPTION, type ObsServer } from './obs-server.js';
import { until } from './tsl-rig.js';

const PIN = 17;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  readonly t: TestApp;
  readonly gpio: MemoryGpio;
  readonly tally: TallyAdapter;
  readonly lines: string[];
  logs(): Record<string, unknown>[];
}

async function rig(server: { url: string }, opts: { password?: string; on?: ObsTallyOn } = {}): Promise<Rig> {
  const t = createTestApp();
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
  const gpio = new MemoryGpio();
  const lamps = new LampBindings({
    port: gpio,
    lamps: [{ bcm: PIN, signal: 'onAir', activeLow: false, safeOn: false, alsoFlash: false }],
    feed: t.service,
    clock: t.clock,
    scheduler: t.clock.scheduler,
    logger,
  });
  lamps.start();
  const tally = await startTally({
    config: { tsl: { port: undefined, host: '127.0.0.1', indices: [], on: 'program' }, obs: { url: server.url, password: opts.password, on: opts.on ?? 'stream' } },
    service: t.service,
    monoMs: t.clock.monoMs,
    logger,
    obsRetryFirstMs: 50,
  });
  cleanups.push(() => {
    tally.close();
    lamps.close();
  });
  return { t, gpio, tally, lines, logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

async function server(opts: Parameters<typeof obsServer>[0] = {}): Promise<ObsServer> {
  const s = await obsServer(opts);
  cleanups.push(() => s.close());
  return s;
}

const lamp = (r: Rig) => r.gpio.outputLevel(PIN);

describe('OBS tally (obs-websocket v5)', () => {
  it('stream start switches ON AIR and the lamp, stop switches them off; the state is read at connect', async () => {
    const obs = await server({ password: 'secret-obs-password' });
    const r = await rig(obs, { password: 'secret-obs-password' });
    await until(() => r.t.service.room.tally.obs === false, 'the first report (not streaming)', 5_000);
    expect(obs.identifies[0]).toMatchObject({ rpcVersion: 1, eventSubscriptions: OUTPUTS_SUBSCRIPTION });
    expect(obs.requests.sort()).toEqual(['GetRecordStatus', 'GetStreamStatus']);
    expect(lamp(r)).toBe(false);
    obs.setStream(true);
    await until(() => lamp(r) === true, 'the lamp on');
    const state = (await (await r.t.get('v1', '/state')).json()) as { state: { onAir: boolean; tally: unknown } };
    expect(state.state).toMatchObject({ onAir: true, tally: { on: true, sources: { obs: true } } });
    // Recording alone is not on air with `on: stream`.
    obs.setRecord(true);
    obs.setStream(false);
    await until(() => lamp(r) === false, 'the lamp off');
    expect(r.lines.some((line) => line.includes('secret-obs-password'))).toBe(false);
    const said = r.logs().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('tally: OBS says')).map((line) => line.msg);
    expect(said).toEqual(['tally: OBS says off air', 'tally: OBS says on air', 'tally: OBS says off air']);
  });

  it('already streaming when the box connects: on air at once', async () => {
    const obs = await server({ streaming: true });
    const r = await rig(obs);
    await until(() => lamp(r) === true, 'the lamp on from GetStreamStatus', 5_000);
  });

  it('`on: both`: streaming or recording; `on: record`: recording only', async () => {
    const obs = await server();
    const both = await rig(obs, { on: 'both' });
    const record = await rig(obs, { on: 'record' });
    await until(() => obs.clients() === 2, 'two clients', 5_000);
    await until(() => both.t.service.room.tally.obs === false && record.t.service.room.tally.obs === false, 'first reports');
    obs.setStream(true);
    await until(() => lamp(both) === true, 'both: on by the stream');
    expect(lamp(record)).toBe(false);
    obs.setRecord(true);
    await until(() => lamp(record) === true, 'record: on by the recording');
    obs.setStream(false);
    obs.setRecord(false);
    await until(() => !lamp(both) && !lamp(record), 'both off');
  });

  it('a wrong password: logged once, nothing changes, never in the log', async () => {
    const obs = await server({ password: 'right-password' });
    const r = await rig(obs, { password: 'wrong-password' });
    await until(() => obs.identifies.length >= 3, 'a few tries', 5_000);
    const warnings = r.logs().filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('OBS refused the password: check tally.obs.password')]);
    expect(r.t.service.room.tally).toEqual({});
    expect(r.lines.some((line) => line.includes('wrong-password') || line.includes('right-password'))).toBe(false);
  });

  it('OBS gone mid-show: commands do not wait, the last report stands; OBS back: found again and read afresh', async () => {
    let obs = await server({ streaming: true });
    const port = obs.port;
    const r = await rig(obs);
    await until(() => lamp(r) === true, 'on air', 5_000);
    await obs.close();
    // While OBS is away: a command is answered at once, and ON AIR stands.
    const started = performance.now();
    expect((await r.t.get('v1', '/start')).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(100);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lamp(r)).toBe(true);
    // OBS restarted on the same port, no longer streaming.
    obs = await server({ port, streaming: false });
    await until(() => lamp(r) === false, 'off: read afresh after the reconnect', 5_000);
    const warnings = r.logs().filter((line) => line.level === 40);
    expect(warnings.length).toBe(1);
    expect(r.logs().filter((line) => line.msg === `OBS tally connected to ws://127.0.0.1:${port}`).length).toBe(2);
  });

  it('nobody listening: one warning, tries again in the background, close stops it', async () => {
    const lines: string[] = [];
    const t = createTestApp();
    const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
    const tally = new ObsTally({ url: 'ws://127.0.0.1:9', password: undefined, on: 'stream', target: t.service, logger, retryFirstMs: 20, retryMaxMs: 40 });
    tally.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    tally.close();
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('cannot reach OBS at ws://127.0.0.1:9')]);
    expect(t.service.room.seq).toBe(1);
  });

  it('a WebSocket that never says Hello (not OBS, or OBS hung) is given up and tried again', async () => {
    const { WebSocketServer } = await import('ws');
    const silent = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => silent.once('listening', () => resolve()));
    let connections = 0;
    silent.on('connection', () => void (connections += 1));
    cleanups.push(() => new Promise<void>((resolve) => {
      for (const ws of silent.clients) ws.terminate();
      silent.close(() => resolve());
    }));
    const port = (silent.address() as { port: number }).port;
    const lines: string[] = [];
    const t = createTestApp();
    const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
    const tally = new ObsTally({ url: `ws://127.0.0.1:${port}`, password: undefined, on: 'stream', target: t.service, logger, retryFirstMs: 20, connectTimeoutMs: 100 });
    tally.start();
    cleanups.push(() => tally.close());
    await until(() => connections >= 2, 'a second try after the first was given up', 5_000);
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('no answer within 0.1 s')]);
    expect(t.service.room.tally).toEqual({});
  });

  it('event-to-lamp latency over 50 changes, written to test-artifacts/tally-latency-obs.json', async () => {
    const obs = await server();
    const writes: number[] = [];
    const r = await rig(obs);
    const watched = new MemoryGpio({ onOutput: (bcm, high) => bcm === PIN && void writes.push(performance.now()) });
    const lamps = new LampBindings({
      port: watched,
      lamps: [{ bcm: PIN, signal: 'onAir', activeLow: false, safeOn: false, alsoFlash: false }],
      feed: r.t.service,
      clock: r.t.clock,
      scheduler: r.t.clock.scheduler,
      logger: createLogger({ secrets: () => [], sink: { write: () => {} } }),
    });
    lamps.start();
    cleanups.push(() => lamps.close());
    await until(() => r.t.service.room.tally.obs === false, 'connected', 5_000);
    const samples: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const before = writes.length;
      const sentAt = performance.now();
      obs.setStream(i % 2 === 0);
      await until(() => writes.length > before, `change ${i}`);
      samples.push((writes.at(-1) ?? NaN) - sentAt);
    }
    samples.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    const figure = {
      changes: samples.length,
      medianMs: round(samples[25] ?? NaN),
      p95Ms: round(samples[47] ?? NaN),
      maxMs: round(samples.at(-1) ?? NaN),
    };
    expect(figure.maxMs).toBeLessThan(1_000);
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync(
      'test-artifacts/tally-latency-obs.json',
      `${JSON.stringify({ what: 'StreamStateChanged sent by a scripted obs-websocket v5 server on loopback to the ON AIR lamp pin written (in-memory GPIO), in process', node: process.version, obs: figure }, null, 2)}\n`,
    );
  });
});
