// Issue 11: a viewer link in the hands of a whole audience cannot touch the
// kiosk or the consoles. Each kind of push stream has its own budget, viewers
// are capped per address, and a peer that stops taking what is written to it is
// dropped within the stall limit. Real sockets on 127.0.0.1 where it matters
// (raw ones that send the GET and never read), in process for the 503 answers.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Context } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, timeoutScheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { socketAddress } from '../../src/web/request-origin.js';
import { createLogger } from '../../src/log/logger.js';
import { PushHub, type PushHubOptions } from '../../src/push/push-hub.js';

const API_KEY = 'BudgetApiKey_0123456789abcdefGHI';
const VIEWER_KEY = 'BudgetViewerKey_9876543210zyxwVU';
const AUDIENCE_KEY = 'BudgetAudienceKey_9876543210zyxwVU';
/** Lets a raw socket say which address it stands for; without it the socket's own address counts. */
const ADDRESS_HEADER = 'x-test-address';

interface Running {
  readonly port: number;
  readonly service: RoomService;
  readonly hub: PushHub;
  readonly app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

const running: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of running.splice(0)) await close();
});

function build(hubOptions: Omit<PushHubOptions, 'source'> = {}) {
  const service = new RoomService({ initialRoom: createRoom('t1'), clock: systemClock, scheduler: timeoutScheduler(systemClock) });
  service.start();
  const hub = new PushHub({ source: service, ...hubOptions });
  hub.start();
  const app = createApp({
    service,
    keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
    limiter: new FixedWindowLimiter({ limit: 100, nowMs: systemClock.monoMs }),
    logger: createLogger({ level: 'fatal', secrets: () => [API_KEY, VIEWER_KEY], sink: { write: () => {} } }),
    newTimerId: () => 'x2',
    clientAddress: (c: Context) => c.req.header(ADDRESS_HEADER) ?? socketAddress(c),
    viewer: { hub },
  });
  running.push(async () => {
    hub.close();
    service.close();
  });
  return { service, hub, app };
}

async function start(hubOptions: Omit<PushHubOptions, 'source'> = {}): Promise<Running> {
  const built = build(hubOptions);
  const server = await new Promise<http.Server>((resolve) => {
    const s = serve({ fetch: built.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as http.Server));
  });
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  running.unshift(close);
  return { ...built, port: (server.address() as AddressInfo).port, close };
}

/** A client that sends the GET and never reads a byte of the answer. */
function neverReads(port: number, path: string, address?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.pause();
      const header = address === undefined ? '' : `${ADDRESS_HEADER}: ${address}\r\n`;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}\r\n`, () => resolve(socket));
    });
    socket.pause();
    socket.on('error', reject);
  });
}

interface Reading {
  readonly status: number;
  readonly ids: number[];
  waitForId(id: number, timeoutMs?: number): Promise<number>;
  close(): void;
}

/** A client that reads, noting the seq of each event and when the one asked for arrived. */
async function reads(port: number, path: string): Promise<Reading> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, resolve).on('error', reject);
  });
  let text = '';
  const ids: number[] = [];
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    ids.splice(0, ids.length, ...[...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
  });
  return {
    status: res.statusCode ?? 0,
    ids,
    waitForId: async (id, timeoutMs = 5_000) => {
      const startedMs = performance.now();
      while (!ids.includes(id)) {
        if (performance.now() - startedMs > timeoutMs) throw new Error(`no event ${id} within ${timeoutMs} ms: ${text.slice(0, 200)}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return performance.now() - startedMs;
    },
    close: () => res.destroy(),
  };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('push stream budgets over real sockets', () => {
  it('2,000 viewer streams that never read, from 100 addresses, leave the kiosk and a console their streams, and every change reaches them', async () => {
    const s = await start();
    const audience: net.Socket[] = [];
    // In batches, as a crowd arrives: a storm of connects would only measure the accept queue.
    for (let batch = 0; batch < 10; batch++) {
      const group = Array.from({ length: 200 }, (_, i) => {
        const n = batch * 200 + i;
        return neverReads(s.port, `/view/${VIEWER_KEY}/events`, `10.11.${n % 100}.7`);
      });
      audience.push(...(await Promise.all(group)));
    }
    await until(() => s.hub.openOf('viewer') === 1000, 20_000, 'the viewer budget to fill');
    expect(s.hub.budgets).toEqual({ kiosk: 16, control: 500, viewer: 1000, viewerPerAddress: 20 });

    const kiosk = await reads(s.port, '/display/events');
    const consoleStream = await reads(s.port, `/api/v1/${API_KEY}/events`);
    expect([kiosk.status, consoleStream.status]).toEqual([200, 200]);
    await kiosk.waitForId(s.service.room.seq);
    await consoleStream.waitForId(s.service.room.seq);
    // Still 1,000 viewers that take nothing, and changes reach the screens that matter at once.
    for (let i = 0; i < 5; i++) {
      s.service.dispatch({ type: 'adjust', ms: i % 2 === 0 ? 1000 : -1000 }, 'http-v1');
      const seq = s.service.room.seq;
      expect(await kiosk.waitForId(seq, 2_000)).toBeLessThan(2_000);
      await consoleStream.waitForId(seq, 2_000);
    }
    expect(s.hub.openOf('viewer')).toBe(1000);

    // The next viewer, from an address not seen yet, is told which budget is full.
    const refused = await s.app.request(`/view/${VIEWER_KEY}/events`, { headers: { [ADDRESS_HEADER]: '10.12.0.1' } });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^all 1000 viewer push streams are open/);
    kiosk.close();
    consoleStream.close();
    for (const socket of audience) socket.destroy();
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'drops a viewer that stops reading once what it was sent is not acknowledged for the stall limit; a reading kiosk stays',
    async () => {
      const s = await start({ heartbeatMs: 100, stallLimitMs: 300 });
      const kiosk = await reads(s.port, '/display/events');
      const stuck = await neverReads(s.port, `/view/${VIEWER_KEY}/events`, '10.13.0.1');
      await until(() => s.hub.openOf('viewer') === 1, 5_000, 'the viewer stream');
      // A change is sent as what changed: a new 500-character message of three-byte characters
      // each time makes about 1.5 KB per event, and a few hundred fill the stuck reader's receive window.
      for (let i = 0; i < 400 && s.hub.openOf('viewer') === 1; i++) {
        s.service.dispatch({ type: 'message.set', message: { text: `${'時'.repeat(499)}${i % 10}`, color: 'white', flash: false, bold: false } }, 'http-v1');
        await new Promise((resolve) => setImmediate(resolve));
      }
      const lastWriteMs = performance.now();
      await until(() => s.hub.openOf('viewer') === 0, 5_000, 'the stuck viewer to be dropped');
      expect(performance.now() - lastWriteMs).toBeLessThan(2_000);
      await kiosk.waitForId(s.service.room.seq);
      expect(s.hub.openOf('kiosk')).toBe(1);
      kiosk.close();
      stuck.destroy();
    },
    20_000,
  );
});

describe('push stream budgets, as answered', () => {
  const events = (app: ReturnType<typeof createApp>, path: string, address?: string) =>
    app.request(path, address === undefined ? {} : { headers: { [ADDRESS_HEADER]: address } });

  it('refuses the 21st viewer stream from one address with 503 naming the cap; other addresses and the box itself are not capped', async () => {
    const { app, hub } = build();
    const open: Response[] = [];
    for (let i = 0; i < 20; i++) open.push(await events(app, `/view/${VIEWER_KEY}/events`, '10.14.0.1'));
    expect(open.map((r) => r.status)).toEqual(Array(20).fill(200));
    const over = await events(app, `/view/${VIEWER_KEY}/events`, '::ffff:10.14.0.1');
    expect(over.status).toBe(503);
    expect(((await over.json()) as { error: string }).error).toMatch(/^your address already has 20 viewer push streams open/);
    expect((await events(app, `/view/${VIEWER_KEY}/events`, '10.14.0.2')).status).toBe(200);
    for (let i = 0; i < 25; i++) open.push(await events(app, `/view/${VIEWER_KEY}/events`, '127.0.0.1'));
    expect(hub.openOf('viewer')).toBe(46);
    // One closes: its address may open one again.
    await open[0]?.body?.cancel();
    expect((await events(app, `/view/${VIEWER_KEY}/events`, '10.14.0.1')).status).toBe(200);
    for (const res of open) await res.body?.cancel().catch(() => {});
  });

  it('gives the kiosk and the API key budgets of their own, each refused with 503 naming it', async () => {
    const { app, hub } = build({ budgets: { control: 2, viewer: 1 } });
    const open = [await events(app, `/view/${VIEWER_KEY}/events`, '10.15.0.1')];
    expect((await events(app, `/view/${VIEWER_KEY}/events`, '10.15.0.2')).status).toBe(503);
    for (let i = 0; i < 16; i++) open.push(await events(app, '/display/events', '127.0.0.1'));
    const kioskOver = await events(app, '/display/events', '127.0.0.1');
    expect(kioskOver.status).toBe(503);
    expect(((await kioskOver.json()) as { error: string }).error).toMatch(/^all 16 kiosk push streams/);
    for (let i = 0; i < 2; i++) open.push(await events(app, `/api/v1/${API_KEY}/events`));
    const controlOver = await events(app, `/api/v1/${API_KEY}/events`);
    expect(controlOver.status).toBe(503);
    expect(((await controlOver.json()) as { error: string }).error).toMatch(/^all 2 push streams for API-key clients/);
    expect(open.map((r) => r.status)).toEqual(Array(19).fill(200));
    expect([hub.openOf('kiosk'), hub.openOf('control'), hub.openOf('viewer')]).toEqual([16, 2, 1]);
    for (const res of open) await res.body?.cancel();
  });
});
