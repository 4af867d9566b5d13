// Rate limiting over HTTP with a fake clock (decisions.md "Rate limit"): 100 per
// fixed 60 s window per key, v0 and v1 together, the window starting with the
// first request after the previous one ended; every request counts; invalid-key
// requests are limited per client address.
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { apiClient, call, errorOf, OpenApiChecker, servedDocument, stateOf, type ApiResult } from '../helpers/openapi-check.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function headers(result: ApiResult): { limit: number; remaining: number; reset: number; retryAfter: string | null } {
  const get = (name: string) => Number(result.res.headers.get(name));
  return {
    limit: get('RateLimit-Limit'),
    remaining: get('RateLimit-Remaining'),
    reset: get('RateLimit-Reset'),
    retryAfter: result.res.headers.get('Retry-After'),
  };
}

async function spend(t: TestApp, count: number, path = '/status', version: 'v0' | 'v1' = 'v1'): Promise<ApiResult[]> {
  const api = apiClient(t, checker, version);
  const results: ApiResult[] = [];
  for (let i = 0; i < count; i += 1) results.push(await api.get(path));
  return results;
}

const wrongKey = (t: TestApp, client: string, path = '/state') => call(t, checker, 'GET', `/api/v1/not-the-key-at-all/${path.slice(1)}`, { client });

describe('the room quota', () => {
  it('counts down from 100, with Reset in whole seconds until the window ends', async () => {
    const t = createTestApp();
    const [first, second] = await spend(t, 2);
    expect(headers(first!)).toEqual({ limit: 100, remaining: 99, reset: 60, retryAfter: null });
    expect(headers(second!)).toMatchObject({ remaining: 98, reset: 60 });
  });

  it('rounds Reset up: 29.8 s left is 30, 0.001 s left is 1', async () => {
    const t = createTestApp();
    await spend(t, 1);
    t.clock.advance(30_200);
    expect(headers((await spend(t, 1))[0]!).reset).toBe(30);
    t.clock.advance(29_799);
    expect(headers((await spend(t, 1))[0]!)).toMatchObject({ reset: 1, remaining: 97 });
  });

  it('allows 100 in a window; the 101st is 429 with Retry-After equal to Reset, and the window ending lets requests in again', async () => {
    const t = createTestApp();
    const results = await spend(t, 100);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(headers(results[99]!).remaining).toBe(0);
    t.clock.advance(12_500);
    const refused = (await spend(t, 1))[0]!;
    expect(errorOf(refused, 429)).toMatch(/rate limit/);
    const h = headers(refused);
    expect(h).toMatchObject({ limit: 100, remaining: 0, reset: 48 });
    expect(h.retryAfter).toBe('48');
    t.clock.advance(47_499);
    expect(headers((await spend(t, 1))[0]!)).toMatchObject({ remaining: 0, reset: 1 });
    t.clock.advance(1);
    const again = (await spend(t, 1))[0]!;
    expect(again.status).toBe(200);
    expect(headers(again)).toEqual({ limit: 100, remaining: 99, reset: 60, retryAfter: null });
  }, 60_000);

  it('a 429 changes nothing in the room', async () => {
    const t = createTestApp({ limit: 3 });
    const api = apiClient(t, checker, 'v1');
    await spend(t, 3);
    errorOf(await api.get('/start'), 429);
    errorOf(await api.post('/blackout'), 429);
    t.clock.advance(60_000);
    expect(stateOf(await api.get('/state'))).toMatchObject({ seq: 1, running: false, blackout: false });
  });

  it('the window starts with the first request after the previous window ended, not on a clock boundary', async () => {
    const t = createTestApp();
    await spend(t, 1); // window [0, 60)
    t.clock.advance(90_000); // idle past the end: the next request opens [90, 150)
    expect(headers((await spend(t, 1))[0]!)).toMatchObject({ remaining: 99, reset: 60 });
    t.clock.advance(59_500);
    expect(headers((await spend(t, 1))[0]!)).toMatchObject({ remaining: 98, reset: 1 });
    t.clock.advance(500);
    expect(headers((await spend(t, 1))[0]!)).toMatchObject({ remaining: 99, reset: 60 });
  });

  it('refused requests count: 400s, 404s and 429s all spend the quota', async () => {
    const t = createTestApp({ limit: 10 });
    const api = apiClient(t, checker, 'v1');
    for (let i = 0; i < 3; i += 1) errorOf(await api.get('/adjust?ms=oops'), 400);
    for (let i = 0; i < 3; i += 1) errorOf(await api.get('/no_such_thing'), 404);
    for (let i = 0; i < 2; i += 1) errorOf(await api.get('/timer/ghost/select'), 404);
    expect(headers(await api.get('/state')).remaining).toBe(1);
    await api.get('/state');
    const refused = await api.get('/state');
    errorOf(refused, 429);
    // A 429 is itself a request of the window; it neither resets nor extends it.
    t.clock.advance(30_000);
    expect(headers(await api.get('/state'))).toMatchObject({ remaining: 0, reset: 30 });
  });

  it('v0 and v1 share one quota', async () => {
    const t = createTestApp();
    await spend(t, 50, '/status', 'v0');
    await spend(t, 50, '/status', 'v1');
    errorOf((await spend(t, 1, '/status', 'v0'))[0]!, 429);
    errorOf((await spend(t, 1, '/state', 'v1'))[0]!, 429);
  }, 60_000);

  it('a spent quota answers 429 before the route and the input are looked at', async () => {
    const t = createTestApp({ limit: 1 });
    const api = apiClient(t, checker, 'v1');
    await api.get('/state');
    errorOf(await api.get('/no_such_command'), 429);
    errorOf(await api.get('/adjust?ms=bad'), 429);
    errorOf(await api.post('/adjust', '{broken'), 429);
    errorOf(await api.post('/adjust', 'x'.repeat(20_000)), 429);
    errorOf(await apiClient(t, checker, 'v0').post('/start'), 429);
  });

  it('the quota is the key\'s, whichever address calls with it', async () => {
    const t = createTestApp({ limit: 4 });
    const api = apiClient(t, checker, 'v1');
    await api.get('/state', { client: '10.0.0.1' });
    await api.get('/state', { client: '10.0.0.2' });
    await api.get('/state', { client: '10.0.0.3' });
    expect(headers(await api.get('/state', { client: '10.0.0.4' })).remaining).toBe(0);
    errorOf(await api.get('/state', { client: '10.0.0.5' }), 429);
  });
});

describe('invalid keys are limited per client address', () => {
  it('401s carry the headers, count per address, and turn into 429 with Retry-After', async () => {
    const t = createTestApp();
    for (let i = 0; i < 100; i += 1) {
      const result = await wrongKey(t, '10.0.0.9');
      errorOf(result, 401);
      expect(headers(result).remaining).toBe(99 - i);
    }
    t.clock.advance(20_000);
    const refused = await wrongKey(t, '10.0.0.9');
    expect(errorOf(refused, 429)).toMatch(/rate limit/);
    expect(headers(refused)).toMatchObject({ remaining: 0, reset: 40, retryAfter: '40' });
  }, 60_000);

  it('do not spend the room\'s quota, and one address does not spend another\'s', async () => {
    const t = createTestApp({ limit: 5 });
    for (let i = 0; i < 7; i += 1) await wrongKey(t, '192.168.1.50');
    errorOf(await wrongKey(t, '192.168.1.50'), 429);
    // Another address guessing is counted apart.
    const other = await wrongKey(t, '192.168.1.51');
    errorOf(other, 401);
    expect(headers(other).remaining).toBe(4);
    // The valid key, even from the address that is locked out, still has its whole quota.
    const valid = await apiClient(t, checker, 'v1').get('/state', { client: '192.168.1.50' });
    expect(valid.status).toBe(200);
    expect(headers(valid).remaining).toBe(4);
  });

  it('every path counts for the address: unknown versions, unknown commands, v0, POST', async () => {
    const t = createTestApp({ limit: 4 });
    const client = '10.1.1.1';
    await call(t, checker, 'GET', '/api/v9/bad-key/whatever', { client });
    await call(t, checker, 'POST', '/api/v0/bad-key/start', { client });
    await call(t, checker, 'GET', '/api/v1/bad-key/timer/t1/select', { client });
    await call(t, checker, 'POST', '/api/v1/bad-key/adjust', { client, body: '{' });
    errorOf(await call(t, checker, 'GET', '/api/v1/bad-key/state', { client }), 429);
  });

  it('the address may guess again once its window has ended', async () => {
    const t = createTestApp({ limit: 2 });
    await wrongKey(t, '10.2.2.2');
    await wrongKey(t, '10.2.2.2');
    errorOf(await wrongKey(t, '10.2.2.2'), 429);
    t.clock.advance(60_000);
    expect(headers(await wrongKey(t, '10.2.2.2'))).toMatchObject({ remaining: 1, reset: 60 });
  });
});

describe('the OpenAPI document', () => {
  it('is limited per address and does not spend the room\'s quota', async () => {
    const t = createTestApp({ limit: 2 });
    const fetchDoc = () => t.request('/api/v1/openapi.json', { client: '10.3.3.3' });
    expect((await fetchDoc()).headers.get('RateLimit-Remaining')).toBe('1');
    expect((await fetchDoc()).status).toBe(200);
    const refused = await fetchDoc();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(headers(await apiClient(t, checker, 'v1').get('/state')).remaining).toBe(1);
  });

  it('has a budget of its own: a burst of wrong keys from the address does not block it, nor the other way round', async () => {
    const t = createTestApp({ limit: 3 });
    for (let i = 0; i < 3; i += 1) errorOf(await wrongKey(t, '10.3.3.4'), 401);
    errorOf(await wrongKey(t, '10.3.3.4'), 429);
    const doc = await t.request('/api/v1/openapi.json', { client: '10.3.3.4' });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('RateLimit-Remaining')).toBe('2');
    await t.request('/api/v1/openapi.json', { client: '10.3.3.5' });
    await t.request('/api/v1/openapi.json', { client: '10.3.3.5' });
    await t.request('/api/v1/openapi.json', { client: '10.3.3.5' });
    expect((await t.request('/api/v1/openapi.json', { client: '10.3.3.5' })).status).toBe(429);
    expect(headers(await wrongKey(t, '10.3.3.5'))).toMatchObject({ remaining: 2 });
  });
});

describe('the quota is configurable', () => {
  it('createApp with a limiter of 5 allows 5 per window and says so in RateLimit-Limit', async () => {
    const t = createTestApp({ limit: 5 });
    const results = await spend(t, 6);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(results.map((r) => headers(r).limit)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(results.map((r) => headers(r).remaining)).toEqual([4, 3, 2, 1, 0, 0]);
  });

  it('SHOWCLOCK_RATE_LIMIT sets it, 100 by default, and a bad value is a config error', () => {
    expect(loadConfig({}).rateLimit).toBe(100);
    expect(loadConfig({ SHOWCLOCK_RATE_LIMIT: '5' }).rateLimit).toBe(5);
    expect(loadConfig({ SHOWCLOCK_RATE_LIMIT: '100000' }).rateLimit).toBe(100_000);
    for (const bad of ['0', '-1', '1.5', 'lots', '1e3']) {
      expect(() => loadConfig({ SHOWCLOCK_RATE_LIMIT: bad }), bad).toThrow(ConfigError);
    }
  });
});
