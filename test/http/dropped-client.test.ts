// A client that closes its connection in the middle of sending a body (a phone
// leaving the Wi-Fi, a panel power-cycled mid-POST), over a real socket: one
// quiet line saying so, the request logged as 499 (nginx's "client closed
// request"), never a 500 with a stack; nothing changes, and the service keeps
// answering.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, timeoutScheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { CLIENT_CLOSED_REQUEST, createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { API_KEY, VIEWER_KEY, AUDIENCE_KEY } from '../helpers/test-app.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start() {
  const service = new RoomService({ initialRoom: createRoom('t1'), clock: systemClock, scheduler: timeoutScheduler(systemClock) });
  service.start();
  const lines: Record<string, unknown>[] = [];
  const app = createApp({
    service,
    keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
    limiter: new FixedWindowLimiter({ limit: 100, nowMs: systemClock.monoMs }),
    logger: createLogger({ secrets: () => [API_KEY, VIEWER_KEY], sink: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) } }),
    newTimerId: () => 'x2',
  });
  const server = await new Promise<http.Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as http.Server));
  });
  closers.push(async () => {
    service.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { port: (server.address() as AddressInfo).port, service, lines };
}

/** Headers promising 1000 bytes, a few of them, then the socket destroyed. */
async function dropMidBody(port: number, path: string): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ms": 1`);
  // Let the server start reading the body before the client goes.
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.destroy();
}

async function until<T>(find: () => T | undefined, ms = 3_000): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a client that goes away before its request is complete', () => {
  it('is one quiet line and a 499 in the request log, never a 500 with a stack', async () => {
    const { port, service, lines } = await start();
    for (const [path, route] of [
      [`/api/v1/${API_KEY}/adjust`, 'POST /api/v1/{api_key}/adjust'],
      [`/api/v1/${API_KEY}/timers`, 'POST /api/v1/{api_key}/timers'],
    ] as const) {
      await dropMidBody(port, path);
      const logged = await until(() => lines.find((l) => l.msg === 'request' && l.route === route));
      expect(logged.status).toBe(CLIENT_CLOSED_REQUEST);
      const quiet = lines.filter((l) => l.msg === 'client went away before the request was complete' && l.route === route);
      expect(quiet).toHaveLength(1);
      expect(quiet[0]).toMatchObject({ level: 30, method: 'POST' });
      expect(quiet[0]).not.toHaveProperty('err');
    }
    expect(lines.filter((l) => l.msg === 'request failed')).toEqual([]);
    expect(JSON.stringify(lines)).not.toMatch(/stack|"status":500/);
    // Nothing happened, and the next client is served.
    expect(service.room.timers).toHaveLength(1);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/${API_KEY}/state`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { state: { seq: number } }).state.seq).toBe(1);
  });
});
