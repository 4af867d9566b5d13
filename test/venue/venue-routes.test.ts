// The venue's HTTP side in process (app.request): /venue/{venue_key} (page, stream,
// time), wrong keys refused and counted like wrong viewer keys, a box without a venue
// key saying how to set one, and the venue key on /view/{key}/... as a viewer key
// (watch-only, ?heartbeat=N) that changes nothing and never comes back in an answer.
import { afterEach, describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/log/logger.js';
import type { VenueTiles } from '../../src/client/venue-tile.js';
import { startVenue, type VenueWatch } from '../../src/venue/venue-overview.js';
import { API_KEY, AUDIENCE_KEY, CLIENT_HEADER, FakeClock, VIEWER_KEY } from '../helpers/test-app.js';
import { fakeRemote } from './fake-remote.js';

const VENUE_KEY = 'VenueKeyForTheRouteTests_0123';
const WRONG = 'NotTheVenueKey_0123456789abc';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const started: VenueWatch[] = [];
afterEach(() => {
  for (const venue of started.splice(0)) venue.close();
});

function setUp(opts: { venueKey?: string; limit?: number } = {}) {
  const clock = new FakeClock();
  const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
  service.start();
  const logLines: string[] = [];
  const logger = createLogger({ secrets: () => [], sink: { write: (line) => void logLines.push(line) } });
  const venueKey = 'venueKey' in opts ? opts.venueKey : VENUE_KEY;
  const venue =
    venueKey === undefined ? null : startVenue({ config: { name: 'Hall <b>B</b>', advertise: false, key: venueKey, rooms: [] }, room: service, port: 8080, io: fakeRemote().io });
  if (venue !== null) started.push(venue);
  const limiter = new FixedWindowLimiter({ limit: opts.limit ?? 100, nowMs: clock.monoMs });
  const app = createApp({
    service,
    keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
    limiter,
    logger,
    newTimerId: () => 'x',
    clientAddress: (c) => c.req.header(CLIENT_HEADER) ?? '127.0.0.1',
    venue: { key: () => venueKey, name: () => 'Hall <b>B</b>', overview: () => venue },
  });
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  return { service, get, logLines };
}

async function firstChunk(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const chunk = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(chunk.value);
}

describe('/venue/{venue_key}', () => {
  it('serves the overview page under the pages CSP, with no key in it', async () => {
    const { get } = setUp();
    const res = await get(`/venue/${VENUE_KEY}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain('/assets/venue.js');
    expect(html).not.toContain(VENUE_KEY);
  });

  it('streams every room as tiles, this room first; the time as the screens read it', async () => {
    const { get } = setUp();
    const res = await get(`/venue/${VENUE_KEY}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await firstChunk(res);
    expect(text).not.toContain(VENUE_KEY);
    const data = /^event: venue\ndata: (.*)$/m.exec(text)?.[1];
    const tiles = JSON.parse(data ?? '') as VenueTiles;
    expect(tiles.tiles[0]).toMatchObject({ id: 'self', name: 'Hall <b>B</b>', status: 'live', offsetMs: 0 });
    expect(tiles.tiles[0]?.snapshot).not.toHaveProperty('questions');
    const time = await get(`/venue/${VENUE_KEY}/time`);
    expect(time.status).toBe(200);
    expect(typeof ((await time.json()) as { serverNow: unknown }).serverNow).toBe('number');
  });

  it('refuses a wrong key as a wrong viewer link is refused: counted per address, 429 once spent, a page for a browser', async () => {
    const { get } = setUp({ limit: 3 });
    const first = await get(`/venue/${WRONG}`, { [CLIENT_HEADER]: '10.0.0.50' });
    expect(first.status).toBe(401);
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect(((await first.json()) as { error: string }).error).toMatch(/venue overview link is not valid/);
    const page = await get(`/venue/${WRONG}/events`, { [CLIENT_HEADER]: '10.0.0.50', Accept: BROWSER_ACCEPT });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).not.toContain(WRONG);
    expect((await get(`/venue/${WRONG}/time`, { [CLIENT_HEADER]: '10.0.0.50' })).status).toBe(401);
    expect((await get(`/venue/${VENUE_KEY}x/time`, { [CLIENT_HEADER]: '10.0.0.50' })).status).toBe(429);
    // Another address has its own quota; the right key is never counted.
    expect((await get(`/venue/${WRONG}`, { [CLIENT_HEADER]: '10.0.0.51' })).status).toBe(401);
    expect((await get(`/venue/${VENUE_KEY}/time`, { [CLIENT_HEADER]: '10.0.0.51' })).status).toBe(200);
    // The viewer key is not the venue key.
    expect((await get(`/venue/${VIEWER_KEY}/time`, { [CLIENT_HEADER]: '10.0.0.52' })).status).toBe(401);
  });

  it('on a box without a venue key: a 404 saying to set venue.key on every box', async () => {
    const { get } = setUp({ venueKey: undefined });
    const res = await get(`/venue/${VENUE_KEY}`, { Accept: BROWSER_ACCEPT });
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<code>venue.key</code>');
    expect(html).toContain('<code>SHOWCLOCK_VENUE_KEY</code>');
    expect(html).toContain('every box of the venue');
    // And the venue key opens nothing on /view.
    expect((await get(`/view/${VENUE_KEY}/time`)).status).toBe(401);
  });
});

describe('the venue key on /view/{key}', () => {
  it('opens the viewer page, stream and time like the viewer key, watch-only, and changes nothing', async () => {
    const { get, service } = setUp();
    const seq = service.snapshot().seq;
    const page = await get(`/view/${VENUE_KEY}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(VENUE_KEY);
    const viaVenue = await firstChunk(await get(`/view/${VENUE_KEY}/events?heartbeat=1`));
    const viaViewer = await firstChunk(await get(`/view/${VIEWER_KEY}/events`));
    const stateOf = (text: string) => {
      const { serverNow: _now, ...rest } = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? '') as Record<string, unknown>;
      return rest;
    };
    expect(stateOf(viaVenue)).toEqual(stateOf(viaViewer));
    expect(viaVenue).not.toContain(VENUE_KEY);
    const time = (await (await get(`/view/${VENUE_KEY}/time`)).json()) as { serverNow: number; room: string };
    expect(typeof time.serverNow).toBe('number');
    expect(time.room).toBe('Hall <b>B</b>');
    // Watch-only: the API refuses it.
    expect((await get(`/api/v1/${VENUE_KEY}/state`)).status).toBe(401);
    expect((await get(`/api/v1/${VENUE_KEY}/start`)).status).toBe(401);
    expect(service.snapshot().seq).toBe(seq);
  });

  it('takes ?heartbeat=N (1 to 15) on the viewer stream as the API stream does', async () => {
    const { get } = setUp();
    for (const n of ['1', '15']) {
      const res = await get(`/view/${VIEWER_KEY}/events?heartbeat=${n}`);
      expect(res.status, n).toBe(200);
      await res.body?.cancel();
    }
    for (const bad of ['0', '16', 'fast']) {
      const res = await get(`/view/${VENUE_KEY}/events?heartbeat=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(`heartbeat must be whole seconds from 1 to 15 (the default is 15), not "${bad}"`);
    }
  });
});
