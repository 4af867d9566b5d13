// The push channel over a real socket (@hono/node-server on 127.0.0.1), where
// the hub writes each event straight to the Node response: the answer's
// headers, the events in order, and how the stream ends.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, timeoutScheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import type { Keys } from '../../src/web/env.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { PushHub } from '../../src/push/push-hub.js';

const API_KEY = 'SocketApiKey_0123456789abcdefGH';
const VIEWER_KEY = 'SocketViewerKey_9876543210zyxwV';
const AUDIENCE_KEY = 'SocketAudienceKey_9876543210zyxwV';

interface Running {
  readonly port: number;
  readonly service: RoomService;
  readonly hub: PushHub;
  keys: Keys;
  close(): Promise<void>;
}

const running: Running[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function start(maxKiosk = 16): Promise<Running> {
  const service = new RoomService({ initialRoom: createRoom('t1'), clock: systemClock, scheduler: timeoutScheduler(systemClock) });
  service.start();
  const hub = new PushHub({ source: service, budgets: { kiosk: maxKiosk } });
  hub.start();
  const state: Running = {
    port: 0,
    service,
    hub,
    keys: { apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY },
    close: async () => {},
  };
  const app = createApp({
    service,
    keys: () => state.keys,
    limiter: new FixedWindowLimiter({ limit: 100, nowMs: systemClock.monoMs }),
    logger: createLogger({ level: 'fatal', secrets: () => [API_KEY, VIEWER_KEY], sink: { write: () => {} } }),
    newTimerId: () => 'x2',
    viewer: { hub },
  });
  const server = await new Promise<http.Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as http.Server));
  });
  const result: Running = Object.assign(state, {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      hub.close();
      service.close();
      await new Promise((resolve) => server.close(resolve));
    },
  });
  running.push(result);
  return result;
}

interface OpenStream {
  readonly res: http.IncomingMessage;
  readonly ids: number[];
  text(): string;
  waitForIds(count: number): Promise<number[]>;
  readonly ended: Promise<void>;
  close(): void;
}

function get(port: number, path: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, resolve);
    req.on('error', reject);
  });
}

async function openStream(port: number, path: string): Promise<OpenStream> {
  const res = await get(port, path);
  let text = '';
  const ids: number[] = [];
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    ids.splice(0, ids.length, ...[...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
  });
  const ended = new Promise<void>((resolve) => {
    res.on('end', () => resolve());
    res.on('close', () => resolve());
  });
  return {
    res,
    ids,
    text: () => text,
    waitForIds: async (count) => {
      const deadline = Date.now() + 5_000;
      while (ids.length < count) {
        if (Date.now() > deadline) throw new Error(`waited for ${count} events, got ${ids.length}: ${text.slice(0, 200)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return ids.slice(0, count);
    },
    ended,
    close: () => res.destroy(),
  };
}

describe('the push channel over a socket', () => {
  it('answers with the API headers and no chunked framing, then the snapshot and every change in order', async () => {
    const s = await start();
    const stream = await openStream(s.port, `/api/v1/${API_KEY}/events`);
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.res.headers['cache-control']).toBe('no-store');
    expect(stream.res.headers['access-control-allow-origin']).toBe('*');
    expect(stream.res.headers['ratelimit-remaining']).toBe('99');
    expect(stream.res.headers['transfer-encoding']).toBeUndefined();
    expect(stream.res.headers.connection).toBe('close');
    expect(await stream.waitForIds(1)).toEqual([s.service.room.seq]);
    s.service.dispatch({ type: 'start' }, 'http-v1');
    s.service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    s.service.dispatch({ type: 'pause' }, 'http-v1');
    const ids = await stream.waitForIds(3);
    expect(ids[0]).toBeLessThan(ids[1] ?? 0);
    expect(ids[2]).toBe(s.service.room.seq);
    expect(stream.text()).toMatch(/event: state\ndata: \{"seq":\d+/);
    stream.close();
  });

  it('ends the stream of a rotated key at once, and the kiosk stream when the hub closes', async () => {
    const s = await start();
    const api = await openStream(s.port, `/api/v1/${API_KEY}/events`);
    const viewer = await openStream(s.port, `/view/${VIEWER_KEY}/events`);
    const kiosk = await openStream(s.port, '/display/events');
    expect(viewer.res.headers['referrer-policy']).toBe('no-referrer');
    await Promise.all([api.waitForIds(1), viewer.waitForIds(1), kiosk.waitForIds(1)]);
    expect(s.hub.clientCount).toBe(3);
    s.keys = { apiKey: 'RotatedApiKey_0123456789abcdefG', viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY };
    s.hub.revalidate();
    await api.ended;
    expect(s.hub.clientCount).toBe(2);
    s.hub.close();
    await Promise.all([viewer.ended, kiosk.ended]);
    expect(s.hub.clientCount).toBe(0);
  });

  it('forgets a stream whose client went away, and refuses with 503 JSON when full', async () => {
    const s = await start(1);
    const first = await openStream(s.port, '/display/events');
    await first.waitForIds(1);
    const refused = await get(s.port, '/display/events');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    refused.resume();
    first.close();
    const deadline = Date.now() + 5_000;
    while (s.hub.clientCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(s.hub.clientCount).toBe(0);
    const again = await openStream(s.port, '/display/events');
    expect(await again.waitForIds(1)).toEqual([s.service.room.seq]);
    again.close();
  });
});
