// Paths outside /api that nothing answers (a scan, a mistyped link, a stray
// favicon request): counted per client address with the API's quota, 429 past
// it, a page for a browser; and their log lines, like those of wrong keys,
// throttled per address with one summary of what was left out, so a flood
// cannot push the rest out of the journal. Requests with a valid key are
// always logged.
import { describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp, LOG_LINES_PER_ADDRESS } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { LineThrottle, OTHER_KEYS } from '../../src/log/line-throttle.js';
import { API_KEY, CLIENT_HEADER, createTestApp, FakeClock, VIEWER_KEY, AUDIENCE_KEY } from '../helpers/test-app.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('unknown paths outside /api', () => {
  it('are 404 with the rate-limit headers, counted per address, and 429 with Retry-After past the quota', async () => {
    const t = createTestApp({ limit: 3 });
    // Not / nor /favicon.ico: those are the front door and its icon (front-door.ts).
    const paths = ['/index.php', '/apple-touch-icon.png', '/wp-login.php'];
    for (const [i, path] of paths.entries()) {
      const res = await t.request(path, { client: '10.5.5.5' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(2 - i));
      expect(((await res.json()) as { error: string }).error).toMatch(/npm run key/);
    }
    t.clock.advance(15_000);
    const refused = await t.request('/.env', { client: '10.5.5.5' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.headers.get('ratelimit-reset')).toBe('45');
    expect(((await refused.json()) as { error: string }).error).toMatch(/try again in 45 s/);
    // Unknown methods on known pages are unknown paths too.
    expect((await t.request(`/view/${VIEWER_KEY}`, { method: 'POST', client: '10.5.5.5' })).status).toBe(429);
    // Its own bucket: the same address's other budgets, other addresses and the room are not held up.
    expect((await t.request('/index.php', { client: '10.5.5.6' })).status).toBe(404);
    expect((await t.request('/api/v1/wrong-key/state', { client: '10.5.5.5' })).status).toBe(401);
    expect((await t.request('/api/v1/openapi.json', { client: '10.5.5.5' })).status).toBe(200);
    expect((await t.request(`/view/${VIEWER_KEY}`, { client: '10.5.5.5' })).status).toBe(200);
    expect((await t.request(`/control/${API_KEY}`, { client: '10.5.5.5' })).status).toBe(200);
    const api = await t.request(`/api/v1/${API_KEY}/state`, { client: '10.5.5.5' });
    expect(api.status).toBe(200);
    expect(api.headers.get('ratelimit-remaining')).toBe('2');
    t.clock.advance(45_000);
    expect((await t.request('/index.php', { client: '10.5.5.5' })).headers.get('ratelimit-remaining')).toBe('2');
  });

  it('answer a browser with a page in the box\'s style, saying the same', async () => {
    const t = createTestApp({ limit: 1 });
    const res = await t.request('/index.php', { headers: { Accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    const html = await res.text();
    expect(html).toContain('<link rel="stylesheet" href="/assets/control.css">');
    expect(html).toContain('Nothing here');
    expect(html).toContain('npm run key');
    expect(html).not.toContain('<script');
    const refused = await t.request('/index.php', { headers: { Accept: BROWSER_ACCEPT } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toMatch(/Too many requests[\s\S]*try again in 60 s/);
  });

  it('include asset names that are no bundle: their own 404 within the quota, 429 past it', async () => {
    const t = createTestApp({ limit: 2 });
    const first = await t.request('/assets/nope.js', { client: '10.7.7.7' });
    expect(first.status).toBe(404);
    expect(((await first.json()) as { error: string }).error).toMatch(/no asset "nope.js"/);
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect((await t.request('/assets/..%2Fkeys.json', { client: '10.7.7.7' })).status).toBe(404);
    const refused = await t.request('/assets/nope.css', { client: '10.7.7.7' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await refused.json()) as { error: string }).error).toMatch(/too many requests for unknown paths/);
  });
});

describe('the request log under a flood', () => {
  function appWithClock(limit: number) {
    const clock = new FakeClock();
    const lines: Record<string, unknown>[] = [];
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    service.start();
    const app = createApp({
      service,
      keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
      limiter: new FixedWindowLimiter({ limit, nowMs: clock.monoMs }),
      // Debug: the reads that answered are counted too (at info they are not written at all).
      logger: createLogger({ level: 'debug', secrets: () => [API_KEY, VIEWER_KEY], sink: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) } }),
      newTimerId: () => 'n1',
      clientAddress: (c) => c.req.header(CLIENT_HEADER) ?? '127.0.0.1',
      scheduler: clock.scheduler,
    });
    const request = (path: string, client: string) => app.request(path, { headers: { [CLIENT_HEADER]: client } });
    const requestLines = () => lines.filter((l) => l.msg === 'request');
    const summaries = () => lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('suppressed'));
    return { clock, lines, request, requestLines, summaries };
  }

  it('writes at most 20 lines a minute per address for unknown paths and wrong keys, then one line with the count of the rest', async () => {
    const a = appWithClock(100);
    for (let i = 0; i < 300; i += 1) await a.request(`/probe-${i}`, '10.6.6.6');
    for (let i = 0; i < 100; i += 1) await a.request(`/api/v1/guess-${i}/state`, '10.6.6.6');
    for (let i = 0; i < 5; i += 1) await a.request(`/view/guess-${i}`, '10.6.6.7');
    expect(a.requestLines().filter((l) => l.status === 404)).toHaveLength(LOG_LINES_PER_ADDRESS);
    expect(a.requestLines()).toHaveLength(LOG_LINES_PER_ADDRESS + 5);
    expect(a.summaries()).toEqual([]);
    // The window ends: the summary comes then, without waiting for another request.
    a.clock.advance(60_000);
    const summaries = a.summaries();
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ level: 40, client: '10.6.6.6', suppressed: 400 - LOG_LINES_PER_ADDRESS });
    expect(summaries[0]?.msg).toMatch(/^suppressed 380 request lines from 10\.6\.6\.6: more than 20 a minute/);
    // A new minute, new lines.
    await a.request('/probe-again', '10.6.6.6');
    expect(a.requestLines()).toHaveLength(LOG_LINES_PER_ADDRESS + 6);
    a.clock.advance(60_000);
    expect(a.summaries()).toHaveLength(1);
  });

  it('never throttles requests with a valid key, nor the viewer with a valid viewer key', async () => {
    const a = appWithClock(1_000);
    for (let i = 0; i < 150; i += 1) await a.request(`/api/v1/${API_KEY}/state`, '10.8.8.8');
    for (let i = 0; i < 30; i += 1) await a.request(`/api/v1/${API_KEY}/launch`, '10.8.8.8');
    for (let i = 0; i < 30; i += 1) await a.request(`/view/${VIEWER_KEY}/time`, '10.8.8.8');
    expect(a.requestLines()).toHaveLength(210);
    a.clock.advance(60_000);
    expect(a.summaries()).toEqual([]);
  });
});

describe('LineThrottle', () => {
  it('keeps at most maxKeys addresses apart; more share one count until windows end', () => {
    const clock = new FakeClock();
    const reports: [string, number][] = [];
    const throttle = new LineThrottle({
      perWindow: 1,
      windowMs: 60_000,
      maxKeys: 3,
      nowMs: clock.monoMs,
      scheduler: clock.scheduler,
      report: (key, suppressed) => void reports.push([key, suppressed]),
    });
    for (const key of ['a', 'b', 'c']) expect(throttle.allow(key)).toBe(true);
    expect(throttle.allow('d')).toBe(true);
    expect(throttle.allow('e')).toBe(false);
    expect(throttle.allow('a')).toBe(false);
    expect(throttle.size).toBe(4);
    clock.advance(60_000);
    expect(reports.sort()).toEqual([
      ['a', 1],
      [OTHER_KEYS, 1],
    ]);
    expect(throttle.size).toBe(0);
    // Ended windows make room for new addresses again.
    expect(throttle.allow('f')).toBe(true);
    expect(throttle.size).toBe(1);
  });
});
