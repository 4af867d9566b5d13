// Orderly shutdown of the bundled service: SIGTERM and SIGINT flush the changes
// that were only waiting for the coalesced write, close an idle keep-alive
// connection, and exit 0 well within 5 s; the restart finds everything, its seq
// one reserve above the saved one (a start that cannot write may use that reserve).
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Shutdown } from '../../src/app/shutdown.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { FakeClock } from '../helpers/test-app.js';
import { SEQ_RESERVE } from '../../src/store/room-store.js';
import { captureLog } from '../store/log-capture.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from './service-process.js';

interface StateBody {
  readonly state: { seq: number; running: boolean; blackout: boolean; onAir: boolean; message: { text: string } | null; remaining: number };
}

async function getState(api: string): Promise<StateBody['state']> {
  return ((await (await fetch(`${api}/state`)).json()) as StateBody).state;
}

/** A GET on a keep-alive connection that stays open after the answer. */
function keepAliveGet(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('orderly shutdown of the bundled service', () => {
  const dirs: string[] = [];
  let service: ServiceProcess | undefined;

  beforeAll(() => ensureBundle());

  afterEach(async () => {
    await stopService(service);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: flushes unsaved changes, exits 0 within 5 s, and the restart finds them (seq carries on one reserve higher)`, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-stop-'));
      dirs.push(dataDir);
      const env = serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_API_KEY: TEST_API_KEY });
      service = await startService(env);
      const agent = new Agent({ keepAlive: true });
      expect(await keepAliveGet(`http://127.0.0.1:${service.port}/healthz`, agent)).toBe(200);

      // Coalesced changes: written within a second, and at the latest by the shutdown flush.
      for (const cmd of ['start', 'blackout?on=1', 'onair?on=1', 'message?text=Wrap%20up']) {
        expect((await fetch(`${service.api}/${cmd}`)).status).toBe(200);
      }
      const before = await getState(service.api);

      const sentAtMs = performance.now();
      service.child.kill(signal);
      const exit = await service.exited;
      const tookMs = performance.now() - sentAtMs;
      agent.destroy();
      expect(exit).toEqual({ code: 0, signal: null });
      expect(tookMs).toBeLessThan(5_000);
      const messages = service.lines.map((line) => line.msg);
      expect(messages).toContain('shutting down');
      expect(messages).toContain('stopped');
      // Only the shutdown flush marks the file clean: no seq reserved past the one saved.
      const saved = JSON.parse(readFileSync(path.join(dataDir, 'room.json'), 'utf8')) as { seqReservedTo: number; room: { seq: number; message: { text: string } | null } };
      expect(saved.room.seq).toBe(before.seq);
      expect(saved.seqReservedTo).toBe(before.seq);
      expect(saved.room.message?.text).toBe('Wrap up');

      service = await startService(env);
      const after = await getState(service.api);
      // A restart carries on one reserve above what it found (a start that could not write may have used it).
      expect(after.seq).toBe(before.seq + SEQ_RESERVE);
      expect(after.running).toBe(true);
      expect(after.blackout).toBe(true);
      expect(after.onAir).toBe(true);
      expect(after.message?.text).toBe('Wrap up');
      // Still counting down across the restart: less left than before, but not much less.
      expect(after.remaining).toBeLessThan(before.remaining);
      expect(after.remaining).toBeGreaterThan(before.remaining - 15_000);
    });
  }
});

describe('Shutdown, the stop sequence', () => {
  function sequence(limitMs = 5_000) {
    const { logger, lines } = captureLog();
    const exits: number[] = [];
    const clock = { nowMs: 0 };
    const shutdown = new Shutdown({ logger, exit: (code) => void exits.push(code), limitMs, nowMs: () => clock.nowMs });
    const writes: string[] = [];
    shutdown.setDurableRoom({
      persist: async () => void writes.push('persist'),
      persistSync: () => void writes.push('persistSync'),
    });
    return { shutdown, exits, lines, clock, writes };
  }

  it('runs closers in reverse order of registration, after /healthz has turned to 503, then exits 0', async () => {
    const { shutdown, exits } = sequence();
    const clock = new FakeClock();
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    const app = createApp({
      service,
      keys: () => ({ apiKey: 'ShutdownApiKey_0123456789', viewerKey: 'ShutdownViewerKey_0123456789', audienceKey: 'ShutdownAudienceKey_0123456789' }),
      limiter: new FixedWindowLimiter({ limit: 100, nowMs: clock.monoMs }),
      logger: captureLog().logger,
      newTimerId: () => 't2',
      isShuttingDown: () => shutdown.stopping,
    });
    const order: string[] = [];
    const healthDuringStop: number[] = [];
    expect((await app.request('/healthz')).status).toBe(200);
    shutdown.add('store', () => void order.push('store'));
    shutdown.add('room service', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('room service');
    });
    shutdown.add('push streams', () => void order.push('push streams'));
    shutdown.add('http', async () => {
      healthDuringStop.push((await app.request('/healthz')).status);
      order.push('http');
    });
    shutdown.setDurableRoom({ persist: async () => void order.push('room written'), persistSync: () => void order.push('room written (sync)') });
    await shutdown.run('SIGTERM');
    // The room is made durable first, before anything that may wait.
    expect(order).toEqual(['room written', 'http', 'push streams', 'room service', 'store']);
    expect(healthDuringStop).toEqual([503]);
    const body = (await (await app.request('/healthz')).json()) as Record<string, unknown>;
    expect(body).toEqual({ ok: false, stopping: true, storage: 'ok', clock: expect.objectContaining({ synced: null, source: 'unknown' }) });
    expect(exits).toEqual([0]);
  });

  it('a failing closer is logged, the others still run, and the exit code says so', async () => {
    const { shutdown, exits, lines } = sequence();
    const ran: string[] = [];
    shutdown.add('store', () => void ran.push('store'));
    shutdown.add('gpio', () => {
      throw new Error('unexport failed');
    });
    await shutdown.run('SIGTERM');
    expect(ran).toEqual(['store']);
    expect(lines.some((l) => l.msg === 'stopping gpio failed')).toBe(true);
    expect(exits).toEqual([1]);
  });

  it('the same signal again within a second is the same stop: ignored, and the orderly stop exits 0', async () => {
    const { shutdown, exits, clock, writes, lines } = sequence();
    let finish: () => void = () => {};
    shutdown.add('draining', () => new Promise<void>((resolve) => (finish = resolve)));
    const first = shutdown.run('SIGINT');
    await new Promise((resolve) => setImmediate(resolve));
    clock.nowMs = 999;
    await shutdown.run('SIGINT');
    await shutdown.run('SIGTERM');
    expect(exits).toEqual([]);
    finish();
    await first;
    expect(exits).toEqual([0]);
    expect(writes).toEqual(['persist']);
    expect(lines.filter((l) => /the same stop again/.test(l.msg))).toHaveLength(2);
  });

  it('a signal after that forces the exit at once, writing the room synchronously first', async () => {
    const { shutdown, exits, clock, writes } = sequence();
    shutdown.add('stuck', () => new Promise<void>(() => {}));
    void shutdown.run('SIGTERM');
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([]);
    clock.nowMs = 1_000;
    await shutdown.run('SIGINT');
    expect(writes).toEqual(['persist', 'persistSync']);
    expect(exits).toEqual([1]);
  });

  it('a room write that fails at the stop is logged and the exit code says so', async () => {
    const { logger, lines } = captureLog();
    const exits: number[] = [];
    const shutdown = new Shutdown({ logger, exit: (code) => void exits.push(code) });
    shutdown.setDurableRoom({ persist: () => Promise.reject(new Error('EROFS')), persistSync: () => {} });
    await shutdown.run('SIGTERM');
    expect(lines.some((l) => l.msg === 'stopping the room (last write) failed')).toBe(true);
    expect(exits).toEqual([1]);
  });

  it('a stop that hangs past the time limit exits anyway', async () => {
    const { shutdown, exits, lines } = sequence(50);
    shutdown.add('stuck', () => new Promise<void>(() => {}));
    const writes: string[] = [];
    shutdown.setDurableRoom({ persist: async () => void writes.push('persist'), persistSync: () => void writes.push('persistSync') });
    void shutdown.run('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(exits).toEqual([1]);
    expect(writes).toEqual(['persist', 'persistSync']);
    expect(lines.some((l) => /shutdown took longer than 50 ms/.test(l.msg))).toBe(true);
  });
});
