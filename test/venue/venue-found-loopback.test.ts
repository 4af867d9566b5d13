// A found box over real loopback sockets, in process: box A serves HTTP on 127.0.0.1,
// box B is told A was found (as main.ts will pass the mDNS browser's events) and watches
// it with the venue key once A proved, on its own socket's address, that it holds the
// key; a box that is slow or hostile (never answers, answers without end) only ever
// changes its own tile, and nothing rejects unhandled.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { RoomService } from '../../src/app/room-service.js';
import { systemClock, unrefScheduler } from '../../src/app/clock.js';
import { venueTag } from '../../src/config/venue-config.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/log/logger.js';
import { startVenue, type VenueWatch } from '../../src/venue/venue-overview.js';
import { proofMatches } from '../../src/venue/venue-proof.js';
import { API_KEY, AUDIENCE_KEY, VIEWER_KEY } from '../helpers/test-app.js';

const VENUE_KEY = 'VenueKeyOfTheLoopbackTest_012';

function roomService(): RoomService {
  const service = new RoomService({ initialRoom: createRoom('t1'), clock: systemClock, scheduler: unrefScheduler(systemClock.monoMs) });
  service.start();
  return service;
}

async function until(check: () => boolean, timeoutMs: number, what: () => unknown = () => ''): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${JSON.stringify(what())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

describe('a found box over loopback', () => {
  let server: ServerType;
  let port = 0;
  const hostile: Server[] = [];
  const venues: VenueWatch[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    const service = roomService();
    const app = createApp({
      service,
      keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
      limiter: new FixedWindowLimiter({ limit: 100, nowMs: systemClock.monoMs }),
      logger: createLogger({ secrets: () => [], sink: { write: () => {} } }),
      newTimerId: () => 'x',
      venue: { key: () => VENUE_KEY, name: () => 'Hall A', overview: () => null },
    });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const venue of venues) venue.close();
    for (const s of hostile) s.closeAllConnections();
    for (const s of hostile) s.close();
    (server as Server).closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    process.off('unhandledRejection', onUnhandled);
  });

  it('proves the key on the address it was asked at', async () => {
    const nonce = '0123456789abcdef0123456789abcdef';
    const res = await fetch(`http://127.0.0.1:${port}/venue-proof?nonce=${nonce}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { proof: string };
    expect(JSON.stringify(body)).not.toContain(VENUE_KEY);
    expect(proofMatches(VENUE_KEY, nonce, `127.0.0.1:${port}`, body.proof)).toBe(true);
    // Not for another address: a relay gets a proof that does not fit its own.
    expect(proofMatches(VENUE_KEY, nonce, `127.0.0.2:${port}`, body.proof)).toBe(false);
    expect((await fetch(`http://127.0.0.1:${port}/venue-proof?nonce=nope`)).status).toBe(400);
  });

  it('watches a found box of the venue live, named as it names itself, its clock offset measured', async () => {
    const b = startVenue({ config: { name: 'Hall B', advertise: false, key: VENUE_KEY, rooms: [] }, room: roomService(), port: 1, ownAddresses: () => [] });
    if (b === null) throw new Error('no venue');
    venues.push(b);
    b.found({ id: 'Hall A._showclock._tcp.local', name: 'Hall A (mDNS)', addresses: ['127.0.0.1'], port, api: 'v1', venueTag: venueTag(VENUE_KEY) });
    await until(() => b.tiles().tiles[1]?.status === 'live', 5_000);
    await until(() => b.tiles().tiles[1]?.name === 'Hall A', 5_000);
    expect(Math.abs(b.tiles().tiles[1]?.offsetMs ?? 99)).toBeLessThan(20);
  });

  it('a hostile or hung box changes only its own tile', async () => {
    const listen = async (handler: RequestListener): Promise<number> => {
      const s = createServer(handler);
      hostile.push(s);
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      return (s.address() as AddressInfo).port;
    };
    // Never answers; answers an endless event; answers proofs with garbage.
    const hung = await listen(() => {});
    const endless = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const chunk = `data: ${'x'.repeat(60_000)}\n`;
      const more = (): void => {
        while (res.write(chunk));
        res.once('drain', more);
      };
      more();
    });
    const garbage = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ proof: 'f'.repeat(64) }));
    });
    const tag = venueTag(VENUE_KEY);
    const b = startVenue({
      config: { name: 'Hall B', advertise: false, key: VENUE_KEY, rooms: [{ link: '', origin: `http://127.0.0.1:${endless}`, viewerKey: VIEWER_KEY }] },
      room: roomService(),
      port: 1,
      ownAddresses: () => [],
    });
    if (b === null) throw new Error('no venue');
    venues.push(b);
    b.found({ id: 'hung', name: 'Hung', addresses: ['127.0.0.1'], port: hung, api: 'v1', venueTag: tag });
    b.found({ id: 'garbage', name: 'Garbage', addresses: ['127.0.0.1'], port: garbage, api: 'v1', venueTag: tag });
    b.found({ id: 'a', name: 'Hall A', addresses: ['127.0.0.1'], port, api: 'v1', venueTag: tag });
    const status = (name: string): string | undefined => b.tiles().tiles.find((t) => t.name === name || t.id === `found:${name}`)?.status;
    const all = () => b.tiles().tiles.map((t) => [t.name, t.status, t.message]);
    await until(() => status('Hall A') === 'live', 5_000, all);
    await until(() => status('Hung') === 'lost', 5_000, all);
    await until(() => status('Garbage') === 'refused', 5_000, all);
    await until(() => status(`127.0.0.1:${endless}`) === 'lost', 10_000, all);
    const cut = b.tiles().tiles.find((t) => t.name === `127.0.0.1:${endless}`);
    expect(cut?.message).toMatch(/more than 1048576 bytes/);
    expect(status('Hall A')).toBe('live');
    // This process's memory stayed put meanwhile: nothing kept the endless answer.
    expect(process.memoryUsage().heapUsed).toBeLessThan(400 * 1024 * 1024);
    expect(unhandled).toEqual([]);
  }, 20_000);
});
