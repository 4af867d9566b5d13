// The push channel, the viewer link, the kiosk and the page assets, in process
// (app.request, no socket; the client address comes from a test header).
import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { scheduleOf } from '../../src/domain/schedule.js';
import { createApp } from '../../src/http/app.js';
import { pagesDirCandidates } from '../../src/pages/page-assets.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { isLoopback } from '../../src/web/request-origin.js';
import { createLogger } from '../../src/log/logger.js';
import { PushHub } from '../../src/push/push-hub.js';
import { API_KEY, CLIENT_HEADER, createTestApp, FakeClock, VIEWER_KEY, AUDIENCE_KEY } from '../helpers/test-app.js';
import { readStream, rebuild, stateOf } from '../push/sse-reader.js';

const V = `/view/${VIEWER_KEY}`;
/** What Chromium and Firefox send when they navigate to a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function fullStateOfApp(t: ReturnType<typeof createTestApp>): Promise<Record<string, unknown>> {
  const res = await t.get('v1', '/state');
  return ((await res.json()) as { state: Record<string, unknown> }).state;
}

/** GET /state's state as the streams carry it: without the schedule, which a client derives (scheduleOf). */
async function stateOfApp(t: ReturnType<typeof createTestApp>) {
  const { schedule: _schedule, ...rest } = await fullStateOfApp(t);
  return rest;
}

/** GET /state's state as the viewer link and the kiosk get it: without the audience questions (nor the schedule). */
async function publicStateOfApp(t: ReturnType<typeof createTestApp>) {
  const { questions: _questions, ...rest } = await stateOfApp(t);
  return rest;
}

function bodyStream(res: Response): ReadableStream<Uint8Array> {
  if (res.body === null) throw new Error(`no body (status ${res.status})`);
  return res.body;
}

describe('GET /api/v1/{api_key}/events', () => {
  it('streams the snapshot of GET /state first, as text/event-stream, and counts once against the quota', async () => {
    const t = createTestApp();
    const res = await t.get('v1', '/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
    const reader = readStream(bodyStream(res));
    const [first] = await reader.waitForEvents(1);
    expect(first?.event).toBe('state');
    const state = await stateOfApp(t);
    expect(stateOf(first!)).toEqual(state);
    expect(first?.id).toBe(String((state as { seq: number }).seq));
    // Reading the stream spent nothing more: the /state above was the second request.
    const after = await t.get('v1', '/state');
    expect(after.headers.get('ratelimit-remaining')).toBe('97');
    // The stream leaves the schedule out: derived from what it carries, at the same instant, it is GET /state's.
    const full = await fullStateOfApp(t);
    expect(full.schedule).toEqual(scheduleOf(stateOf(first!), full.serverNow as number));
    await reader.cancel();
  });

  it('pushes a change made through the API at once', async () => {
    const t = createTestApp();
    const reader = readStream(bodyStream(await t.get('v1', '/events')));
    await reader.waitForEvents(1);
    expect((await t.get('v1', '/message/set?text=Wrap%20up&color=red&flash=1')).status).toBe(200);
    await reader.waitForEvents(2);
    const pushed = rebuild(reader.events)[1];
    expect(reader.events[1]?.event).toBe('patch');
    expect(pushed?.message).toEqual({ text: 'Wrap up', color: 'red', flash: true, bold: false });
    expect(pushed).toEqual(await stateOfApp(t));
    await reader.cancel();
  });

  it('answers a reconnect with Last-Event-ID with the current snapshot', async () => {
    const t = createTestApp();
    await t.get('v1', '/start');
    await t.get('v1', '/pause');
    const res = await t.request(`/api/v1/${API_KEY}/events`, { headers: { 'Last-Event-ID': '1' } });
    const reader = readStream(bodyStream(res));
    const [first] = await reader.waitForEvents(1);
    expect(stateOf(first!)).toEqual(await stateOfApp(t));
    expect(stateOf(first!).seq).toBeGreaterThan(1);
    await reader.cancel();
  });

  it('answers 401 to a wrong key, and 429 over the quota', async () => {
    const t = createTestApp({ limit: 2 });
    const wrong = await t.request('/api/v1/not-the-key/events');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ ok: false });
    const viewerKeyAsApiKey = await t.request(`/api/v1/${VIEWER_KEY}/events`, { client: '10.0.0.9' });
    expect(viewerKeyAsApiKey.status).toBe(401);
    const streams = [await t.get('v1', '/events'), await t.get('v1', '/events')];
    expect(streams.map((r) => r.status)).toEqual([200, 200]);
    const over = await t.get('v1', '/events');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).not.toBeNull();
    for (const r of streams) await r.body?.cancel();
  });

  it('is documented in the OpenAPI document, which stays valid', async () => {
    const t = createTestApp();
    const doc = (await (await t.request('/api/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const op = doc.paths['/api/v1/{api_key}/events']?.get as { responses: Record<string, { content?: Record<string, unknown> }> } | undefined;
    expect(op).toBeDefined();
    expect(Object.keys(op!.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });
});

describe('the viewer link /view/{viewer_key}', () => {
  it('serves the display page with a strict CSP and no referrer, and writes neither key into it', async () => {
    const t = createTestApp();
    const res = await t.request(V, { client: '192.168.1.50' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<script src="/assets/display.js" defer></script>');
    // Every script is an external one from the box: no inline code for the CSP to allow.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/display.js" defer>']);
    expect(html).not.toContain(API_KEY);
    expect(html).not.toContain(VIEWER_KEY);
  });

  it('streams the same snapshots as the API, with neither key anywhere in them', async () => {
    const t = createTestApp();
    const reader = readStream(bodyStream(await t.request(`${V}/events`, { client: '192.168.1.50' })));
    const [first] = await reader.waitForEvents(1);
    expect(stateOf(first!)).toEqual(await publicStateOfApp(t));
    await t.get('v1', '/start');
    await t.post('v1', '/timers', { label: 'Panel', speaker: 'Grace' });
    await t.get('v1', '/onair?on=1');
    await reader.waitForEvents(4);
    expect(rebuild(reader.events)[3]).toEqual(await publicStateOfApp(t));
    expect(reader.text()).not.toContain(API_KEY);
    expect(reader.text()).not.toContain(VIEWER_KEY);
    await reader.cancel();
  });

  it('gives the server time for offset estimation, uncached', async () => {
    const t = createTestApp();
    const res = await t.request(`${V}/time`, { client: '192.168.1.50' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ serverNow: t.clock.wallMs() });
    t.clock.advance(1234);
    expect(await (await t.request(`${V}/time`)).json()).toEqual({ serverNow: t.clock.wallMs() });
  });

  it('cannot change anything: no route under the viewer key acts, and the viewer key opens no API', async () => {
    const t = createTestApp();
    const before = (await stateOfApp(t)) as { seq: number };
    const attempts: [string, string][] = [
      ['GET', `${V}/start`],
      ['POST', `${V}/start`],
      ['GET', `${V}/message/set?text=hacked`],
      ['GET', `${V}/blackout?on=1`],
      ['POST', `${V}/events`],
      ['POST', V],
      ['GET', `/api/v1/${VIEWER_KEY}/start`],
      ['POST', `/api/v1/${VIEWER_KEY}/start`],
      ['GET', `/api/v0/${VIEWER_KEY}/start`],
      ['GET', `/api/v1/${VIEWER_KEY}/state`],
      ['GET', `/api/v1/${VIEWER_KEY}/timer/t1/delete`],
      ['GET', `/control/${VIEWER_KEY}`],
    ];
    for (const [method, url] of attempts) {
      const res = await t.request(url, { method, client: '192.168.1.50' });
      expect([401, 404, 405], `${method} ${url}`).toContain(res.status);
      expect(await res.text(), `${method} ${url}`).not.toContain(API_KEY);
    }
    expect(((await stateOfApp(t)) as { seq: number }).seq).toBe(before.seq);
  });

  it('never spends the API key’s quota', async () => {
    const t = createTestApp({ limit: 5 });
    for (let i = 0; i < 20; i += 1) {
      expect((await t.request(V, { client: '192.168.1.50' })).status).toBe(200);
      expect((await t.request(`${V}/time`, { client: '192.168.1.50' })).status).toBe(200);
      const stream = await t.request(`${V}/events`, { client: '192.168.1.50' });
      expect(stream.status).toBe(200);
      await stream.body?.cancel();
      expect((await t.request('/display/time')).status).toBe(200);
    }
    const api = await t.get('v1', '/state');
    expect(api.status).toBe(200);
    expect(api.headers.get('ratelimit-remaining')).toBe('4');
  });

  it('counts wrong viewer keys per address like wrong API keys (401, then 429), without touching the API quota', async () => {
    const t = createTestApp({ limit: 3 });
    const wrong = (client: string) => t.request('/view/not-a-viewer-key/time', { client });
    expect((await wrong('10.1.1.1')).status).toBe(401);
    expect((await wrong('10.1.1.1')).status).toBe(401);
    expect((await wrong('10.1.1.1')).status).toBe(401);
    const limited = await wrong('10.1.1.1');
    expect(limited.status).toBe(429);
    expect(await limited.text()).not.toContain(VIEWER_KEY);
    // The same address is also held back on the API with a wrong key: one quota per address.
    expect((await t.request('/api/v1/nope/state', { client: '10.1.1.1' })).status).toBe(429);
    expect((await wrong('10.2.2.2')).status).toBe(401);
    expect((await t.request(V, { client: '10.1.1.1' })).status).toBe(200);
    expect((await t.get('v1', '/state')).headers.get('ratelimit-remaining')).toBe('2');
    // The API key is no viewer key.
    expect((await t.request(`/view/${API_KEY}`, { client: '10.3.3.3' })).status).toBe(401);
  });

  it('answers a wrong viewer key like a wrong API key (rate-limit headers, no-store, Retry-After), as a page for a browser', async () => {
    const t = createTestApp({ limit: 2 });
    const client = '10.4.1.1';
    const page = await t.request('/view/not-a-viewer-key', { client, headers: { Accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('ratelimit-limit')).toBe('2');
    expect(page.headers.get('ratelimit-remaining')).toBe('1');
    expect(page.headers.get('ratelimit-reset')).toBe('60');
    const html = await page.text();
    expect(html).toContain('This viewer link is not valid');
    expect(html).toContain('ask the control room for the current link');
    // The one script is the front door's, for the viewer field to try again (issue 31): nothing inline.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/home.js" defer>']);
    expect(html).toContain('id="viewer-key"');
    expect(html).not.toContain('id="control-key"');
    for (const key of [API_KEY, VIEWER_KEY, 'not-a-viewer-key']) expect(html).not.toContain(key);
    // The display's stream and clock ask with EventSource and fetch: JSON for them.
    const stream = await t.request('/view/not-a-viewer-key/events', { client, headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(401);
    expect(stream.headers.get('content-type')).toMatch(/^application\/json/);
    expect(stream.headers.get('cache-control')).toBe('no-store');
    expect(stream.headers.get('ratelimit-remaining')).toBe('0');
    expect(await stream.json()).toMatchObject({ ok: false, error: expect.stringMatching(/viewer link is not valid/) });
    t.clock.advance(10_000);
    const time = await t.request('/view/not-a-viewer-key/time', { client });
    expect(time.status).toBe(429);
    expect(time.headers.get('content-type')).toMatch(/^application\/json/);
    expect(time.headers.get('retry-after')).toBe('50');
    expect(time.headers.get('ratelimit-reset')).toBe('50');
    expect(time.headers.get('ratelimit-remaining')).toBe('0');
    expect(time.headers.get('cache-control')).toBe('no-store');
    const refused = await t.request('/view/not-a-viewer-key', { client, headers: { Accept: BROWSER_ACCEPT } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(await refused.text()).toMatch(/Too many attempts[\s\S]*try again in 50 s/);
  });
});

describe('the kiosk /display', () => {
  it('serves page, stream and time to loopback clients only', async () => {
    const t = createTestApp();
    for (const client of ['127.0.0.1', '127.4.5.6', '::1', '::ffff:127.0.0.1']) {
      const page = await t.request('/display', { client });
      expect(page.status, client).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).not.toContain(API_KEY);
      expect(html).not.toContain(VIEWER_KEY);
      expect((await t.request('/display/time', { client })).status).toBe(200);
      const stream = await t.request('/display/events', { client });
      expect(stream.status).toBe(200);
      const reader = readStream(bodyStream(stream));
      const [first] = await reader.waitForEvents(1);
      expect(stateOf(first!)).toEqual(await publicStateOfApp(t));
      await reader.cancel();
    }
    for (const client of ['192.168.1.20', '10.0.0.5', '::ffff:192.168.1.20', 'fe80::1', 'unknown', '128.0.0.1']) {
      for (const url of ['/display', '/display/events', '/display/time']) {
        const res = await t.request(url, { client });
        expect(res.status, `${client} ${url}`).toBe(403);
        expect(await res.json()).toMatchObject({ ok: false });
      }
    }
  });

  it('takes the address from the socket by default, so a request without one is refused', async () => {
    const clock = new FakeClock();
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    const app = createApp({
      service,
      keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
      limiter: new FixedWindowLimiter({ limit: 100, nowMs: clock.monoMs }),
      logger: createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } }),
      newTimerId: () => 'tx',
    });
    // A forged header is no address: app.request() has no socket.
    expect((await app.request('/display', { headers: { [CLIENT_HEADER]: '127.0.0.1', 'X-Forwarded-For': '127.0.0.1' } })).status).toBe(403);
  });

  it('answers a browser on another machine with a page saying where to look instead', async () => {
    const t = createTestApp();
    const res = await t.request('/display', { client: '192.168.1.20', headers: { Accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('viewer link shown in the control room');
  });

  it('recognises loopback addresses', () => {
    expect(['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '::FFFF:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['', 'localhost', '127.0.0', '1.127.0.0.1', '::2', '::ffff:10.0.0.1', '0.0.0.0'].some(isLoopback)).toBe(false);
  });
});

describe('streams opened over HTTP', () => {
  function appWithHub() {
    const clock = new FakeClock();
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    service.start();
    const hub = new PushHub({ source: service });
    hub.start();
    let keys = { apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY };
    const app = createApp({
      service,
      keys: () => keys,
      limiter: new FixedWindowLimiter({ limit: 100, nowMs: clock.monoMs }),
      logger: createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } }),
      newTimerId: () => 'tx',
      clientAddress: () => '127.0.0.1',
      viewer: { hub },
    });
    return { app, hub, service, rotate: () => (keys = { apiKey: 'new-api-key-000000000000', viewerKey: 'new-viewer-key-0000000000', audienceKey: 'new-audience-key-00000000' }) };
  }

  it('are removed from the hub when the client goes away', async () => {
    const { app, hub } = appWithHub();
    const responses = await Promise.all([app.request(`/api/v1/${API_KEY}/events`), app.request(`${V}/events`), app.request('/display/events')]);
    expect(hub.clientCount).toBe(3);
    for (const res of responses) await res.body?.cancel();
    expect(hub.clientCount).toBe(0);
  });

  it('are not opened for HEAD, which has no body to read them', async () => {
    const { app, hub } = appWithHub();
    for (const url of [`${V}/events`, '/display/events']) {
      const res = await app.request(url, { method: 'HEAD' });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    }
    expect(hub.clientCount).toBe(0);
  });

  it('end when their key is rotated', async () => {
    const { app, hub, rotate } = appWithHub();
    const api = readStream(bodyStream(await app.request(`/api/v1/${API_KEY}/events`)));
    const viewer = readStream(bodyStream(await app.request(`${V}/events`)));
    const kiosk = readStream(bodyStream(await app.request('/display/events')));
    rotate();
    hub.revalidate();
    await Promise.all([api.ended, viewer.ended]);
    expect(hub.clientCount).toBe(1);
    await kiosk.cancel();
  });
});

describe('page assets', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'showclock-assets-'));
    writeFileSync(path.join(dir, 'display.js'), 'console.log("display")');
    writeFileSync(path.join(dir, 'display.css'), 'body{background:#000}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function appWithPages(dirs: string[]) {
    const clock = new FakeClock();
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    return createApp({
      service,
      keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
      limiter: new FixedWindowLimiter({ limit: 100, nowMs: clock.monoMs }),
      logger: createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } }),
      newTimerId: () => 'tx',
      viewer: { pagesDirs: dirs },
    });
  }

  it('serves the bundles from the first directory that has them, revalidated by ETag', async () => {
    const app = appWithPages([path.join(dir, 'missing'), dir]);
    const js = await app.request('/assets/display.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('no-cache');
    expect(await js.text()).toBe('console.log("display")');
    const etag = js.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect((await app.request('/assets/display.js', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const css = await app.request('/assets/display.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('sends the gzip copy the build left beside a script to a browser that takes gzip, and the plain file otherwise', async () => {
    const gzDir = mkdtempSync(path.join(tmpdir(), 'showclock-assets-gz-'));
    try {
      const source = 'console.log("display");'.repeat(50);
      writeFileSync(path.join(gzDir, 'display.js'), source);
      writeFileSync(path.join(gzDir, 'display.js.gz'), gzipSync(source));
      const app = appWithPages([gzDir]);
      const zipped = await app.request('/assets/display.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
      const bytes = Buffer.from(await zipped.arrayBuffer());
      expect(bytes.length).toBeLessThan(source.length / 4);
      expect(gunzipSync(bytes).toString('utf8')).toBe(source);
      // Its own ETag: a cache never mixes the two.
      const plain = await app.request('/assets/display.js');
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(source);
      expect(plain.headers.get('etag')).not.toBe(zipped.headers.get('etag'));
      expect((await app.request('/assets/display.js', { headers: { 'Accept-Encoding': 'gzip;q=0, identity' } })).headers.get('content-encoding')).toBeNull();
      // A copy older than the file (a build cut off halfway) is never sent.
      const past = new Date(Date.now() - 60_000);
      utimesSync(path.join(gzDir, 'display.js.gz'), past, past);
      expect((await app.request('/assets/display.js', { headers: { 'Accept-Encoding': 'gzip' } })).headers.get('content-encoding')).toBeNull();
      // Nobody asks for the .gz itself.
      expect((await app.request('/assets/display.js.gz')).status).toBe(404);
    } finally {
      rmSync(gzDir, { recursive: true, force: true });
    }
  });

  it('serves nothing but plain bundle names', async () => {
    const app = appWithPages([dir]);
    for (const url of ['/assets/nothing.js', '/assets/display.ts', '/assets/..%2Fdisplay.js', '/assets/.display.js', '/assets/display.js.map']) {
      expect((await app.request(url)).status, url).toBe(404);
    }
  });

  it('looks beside the server bundle first, then in dist/pages of the project when running from source', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'showclock-layout-'));
    try {
      mkdirSync(path.join(root, 'dist'));
      expect(pagesDirCandidates(pathToFileURL(path.join(root, 'dist', 'showclock.mjs')).href)[0]).toBe(path.join(root, 'dist', 'pages'));
      expect(pagesDirCandidates(pathToFileURL(path.join(root, 'src', 'pages', 'page-assets.ts')).href)).toContain(path.join(root, 'dist', 'pages'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
