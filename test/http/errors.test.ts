// Error statuses and their order (decisions.md "Errors and order of checks"):
// key 401, then rate limit 429, then route 404, then input 400/413. Also the
// headers every API answer carries, and the CORS preflight.
import { beforeAll, describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { apiClient, call, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { API_KEY, createTestApp, FakeClock, VIEWER_KEY, AUDIENCE_KEY, type TestApp } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function setup() {
  const t = createTestApp();
  return { t, api: apiClient(t, checker, 'v1') };
}

const NEAR_MISSES = [
  `${API_KEY.slice(0, -1)}X`,
  API_KEY.slice(0, -1),
  `${API_KEY}x`,
  API_KEY.toLowerCase(),
  VIEWER_KEY,
  'x',
  encodeURIComponent(` ${API_KEY}`),
];

async function seqOf(t: TestApp): Promise<number> {
  return stateOf(await apiClient(t, checker, 'v1').get('/state')).seq;
}

describe('401: an invalid key, whatever the path', () => {
  const paths: [string, string, unknown?][] = [
    ['GET', '/api/v1/{key}/state'],
    ['GET', '/api/v1/{key}/start'],
    ['POST', '/api/v1/{key}/start', {}],
    ['GET', '/api/v1/{key}/no_such_command'],
    ['GET', '/api/v1/{key}/timer/t1/select'],
    ['GET', '/api/v1/{key}/timer/t1/explode'],
    ['GET', '/api/v1/{key}/adjust'],
    ['GET', '/api/v1/{key}/adjust?ms=nonsense'],
    ['POST', '/api/v1/{key}/adjust', '{broken'],
    ['POST', '/api/v1/{key}/adjust', 'x'.repeat(20_000)],
    ['GET', '/api/v0/{key}/start'],
    ['POST', '/api/v0/{key}/start'],
    ['GET', '/api/v0/{key}/onair'],
    ['PUT', '/api/v1/{key}/start'],
    ['DELETE', '/api/v1/{key}/timers'],
    ['GET', '/api/v9/{key}/start'],
    ['GET', '/api/v1/{key}'],
    ['GET', '/api/v1/{key}/a/b/c/d'],
  ];

  it.each(paths)('%s %s with a wrong key is 401 and changes nothing', async (method, template, body) => {
    const { t } = setup();
    for (const key of NEAR_MISSES) {
      const path = template.replace('{key}', key);
      const result = await call(t, checker, method, path, body === undefined ? {} : { body });
      expect(errorOf(result, 401), `${method} ${path}`).toMatch(/invalid API key/);
    }
    expect(await seqOf(t)).toBe(1);
  });

  it('an empty key segment is 401 too', async () => {
    const { t } = setup();
    errorOf(await call(t, checker, 'GET', '/api/v1//start'), 401);
  });

  it('the viewer key cannot control the room', async () => {
    const { t } = setup();
    const viewer = apiClient(t, checker, 'v1', VIEWER_KEY);
    for (const path of ['/start', '/state', '/blackout?on=1', '/timers']) errorOf(await viewer.get(path), 401);
    expect(await seqOf(t)).toBe(1);
  });

  it('the 401 body does not echo the key that was tried', async () => {
    const { t } = setup();
    const wrong = `${API_KEY.slice(0, -1)}Q`;
    const result = await call(t, checker, 'GET', `/api/v1/${wrong}/start`);
    expect(JSON.stringify(result.body)).not.toContain(wrong);
  });
});

describe('404: unknown command, operation, timer id or method', () => {
  it.each([
    ['GET', '/launch', /unknown command "launch"/],
    ['POST', '/launch', /unknown command "launch"/],
    ['GET', '/START', /unknown command "START"/],
    ['GET', '/timer/t1/explode', /unknown operation/],
    ['GET', '/timer/t1', /unknown operation/],
    ['GET', '/timer', /unknown command "timer"/],
    ['GET', '/message/shout', /unknown operation/],
    ['GET', '/start/now', /unknown operation/],
    ['GET', '/timer/ghost/select', /"ghost"/],
    ['POST', '/timer/ghost/delete', /"ghost"/],
    ['POST', '/state', /only GET/],
    ['PUT', '/start', /unknown operation/],
    ['DELETE', '/timers', /unknown operation/],
    ['PATCH', '/timer/t1/update', /unknown operation/],
  ])('%s %s is 404', async (method, path, message) => {
    const { api } = setup();
    expect(errorOf(await api.send(method, path), 404)).toMatch(message);
  });

  it('HEAD is not an offered method: 404, and it does not run the GET action', async () => {
    const { t } = setup();
    for (const path of ['/start', '/blackout?on=1', '/timer/t1/delete', '/state']) {
      const res = await t.request(`/api/v1/${API_KEY}${path}`, { method: 'HEAD' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('RateLimit-Remaining'), path).toMatch(/^\d+$/);
    }
    expect((await t.request(`/api/v0/${API_KEY}/start`, { method: 'HEAD' })).status).toBe(404);
    expect((await t.request('/api/v1/wrong-key/start', { method: 'HEAD' })).status).toBe(401);
    expect(await seqOf(t)).toBe(1);
  });

  it('the 404 for an unknown command lists the commands of the version', async () => {
    const { api } = setup();
    const message = errorOf(await api.get('/launch'), 404);
    for (const cmd of ['start', 'pause', 'adjust', 'onair', 'toggle_onair', 'status']) expect(message).toContain(cmd);
  });

  it('a very long unknown command is cut short in the message', async () => {
    const { api } = setup();
    const message = errorOf(await api.get(`/${'z'.repeat(5_000)}`), 404);
    expect(message.length).toBeLessThan(600);
  });

  it('route comes before input: an unknown command with bad input is 404, not 400', async () => {
    const { api } = setup();
    errorOf(await api.post('/launch', '{broken'), 404);
    errorOf(await api.get('/timer/ghost/update?duration=1'), 404);
    errorOf(await api.post('/timer/ghost/update', { duration: 'x' }), 404);
    errorOf(await api.post('/timer/ghost/update', { pad: 'x'.repeat(20_000) }), 404);
    errorOf(await api.get('/timer/ghost/move?to=x'), 404);
  });

  it('a GET to an unknown path outside /api is a JSON 404 too', async () => {
    const { t } = setup();
    const res = await t.request('/nothing/here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ ok: false });
  });
});

describe('400: JSON bodies', () => {
  it.each([
    ['{broken', /body: not valid JSON/],
    ['{"ms": 5,}', /body: not valid JSON/],
    ['null', /body: must be a JSON object/],
    ['[1, 2]', /body: must be a JSON object/],
    ['"ms=5"', /body: must be a JSON object/],
    ['5000', /body: must be a JSON object/],
    ['true', /body: must be a JSON object/],
  ])('POST adjust with body %s is 400 (%s) and changes nothing', async (body, message) => {
    const { t, api } = setup();
    expect(errorOf(await api.post('/adjust', body), 400)).toMatch(message);
    expect(await seqOf(t)).toBe(1);
  });

  it('a malformed body is 400 even where the operation takes no fields', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/start', '{broken'), 400)).toMatch(/JSON/);
    expect(errorOf(await api.post('/start', '[]'), 400)).toMatch(/object/);
  });

  it('fields the operation does not use are ignored, even with wrong types', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/start', { ms: 'five', text: 7, on: false, extra: { deep: [1] } })).running).toBe(true);
    expect(stateOf(await api.post('/adjust', { ms: 1_000, flash: 'very' })).remaining).toBe(601_000);
  });

  it('an empty or whitespace body counts as no body', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/start', '')).running).toBe(true);
    expect(stateOf(await api.post('/pause', '  \n')).running).toBe(false);
  });

  it('the body is read as JSON whatever the Content-Type says', async () => {
    const { api } = setup();
    const result = await api.post('/adjust', '{"ms": 2000}', { headers: { 'Content-Type': 'text/plain' } });
    expect(stateOf(result).remaining).toBe(602_000);
  });

  it('names every bad field at once', async () => {
    const { api } = setup();
    const message = errorOf(await api.post('/message/set', { text: '', flash: 'x', color: 'mauve', bold: 2 }), 400);
    for (const field of ['text', 'flash', 'color', 'bold']) expect(message).toContain(`${field}:`);
  });

  it('a POST reads fields from its query too, in query form, and the body wins where both give one', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/adjust?ms=5000')).remaining).toBe(605_000);
    expect(stateOf(await api.post('/adjust?ms=5000', '{"ms": 1000}')).remaining).toBe(606_000);
    expect(errorOf(await api.post('/adjust?ms=abc'), 400)).toMatch(/^ms: .*decimal/);
    expect(errorOf(await api.post('/adjust'), 400)).toMatch(/ms.*required/);
    const mixed = stateOf(await api.post('/message/set?color=red&flash=1', '{"text": "Wrap up", "bold": true}'));
    expect(mixed.message).toEqual({ text: 'Wrap up', flash: true, color: 'red', bold: true });
  });
});

describe('413: bodies over 16 KiB', () => {
  const LIMIT = 16 * 1024;

  it('a body of exactly 16 KiB is read; one byte more is 413 and changes nothing', async () => {
    const { t, api } = setup();
    const json = '{"ms": 1000}';
    expect(stateOf(await api.post('/adjust', json + ' '.repeat(LIMIT - json.length))).remaining).toBe(601_000);
    expect(errorOf(await api.post('/adjust', json + ' '.repeat(LIMIT - json.length + 1)), 413)).toMatch(/16384 bytes/);
    expect(await seqOf(t)).toBe(2);
  });

  it('counts bytes, not characters', async () => {
    const { api } = setup();
    const text = '€'.repeat(6_000); // 18 000 bytes in UTF-8, 6 000 characters
    errorOf(await api.post('/message/set', { text }), 413);
  });

  it.each(['/timers', '/timer/t1/update', '/message/set', '/settings', '/start', '/blackout'])('applies to POST %s', async (path) => {
    const { api } = setup();
    errorOf(await api.post(path, { pad: 'x'.repeat(LIMIT) }), 413);
  });

  it('a body without Content-Length (streamed) is limited too', async () => {
    const { t } = setup();
    const chunk = new TextEncoder().encode('x'.repeat(4_096));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 5) controller.close();
        else {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });
    const res = await t.request(`/api/v1/${API_KEY}/adjust`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ ok: false });
  });
});

describe('headers of every API answer', () => {
  it('JSON, no-store, CORS open and the rate-limit headers on 200, 201, 400, 401, 404, 413 (checked by call)', async () => {
    const { t, api } = setup();
    const statuses = [
      (await api.get('/state')).status,
      (await api.post('/timers')).status,
      (await api.get('/adjust')).status,
      (await call(t, checker, 'GET', '/api/v1/nope-nope-nope/state')).status,
      (await api.get('/launch')).status,
      (await api.post('/adjust', 'x'.repeat(17_000))).status,
    ];
    expect(statuses).toEqual([200, 201, 400, 401, 404, 413]);
  });
});

describe('OPTIONS (CORS preflight): the checks of any request, and the methods the path really takes', () => {
  const preflight = (t: TestApp, path: string, client?: string) =>
    t.request(path, {
      method: 'OPTIONS',
      headers: { Origin: 'http://companion.local:8000', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      ...(client === undefined ? {} : { client }),
    });

  it('answers 204 with Allow and the CORS headers true for the path and version, and counts like any request', async () => {
    const { t, api } = setup();
    const cases: [string, string][] = [
      [`/api/v1/${API_KEY}/adjust`, 'GET, POST'],
      [`/api/v1/${API_KEY}/state`, 'GET'],
      [`/api/v1/${API_KEY}/timers`, 'GET, POST'],
      [`/api/v1/${API_KEY}/timer/t1/select`, 'GET, POST'],
      [`/api/v1/${API_KEY}/message/set`, 'GET, POST'],
      [`/api/v1/${API_KEY}/events`, 'GET'],
      [`/api/v0/${API_KEY}/start`, 'GET'],
      [`/api/v0/${API_KEY}/status`, 'GET'],
      [`/api/v1/${API_KEY}/state/`, 'GET'],
    ];
    for (const [i, [path, methods]] of cases.entries()) {
      const res = await preflight(t, path);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-methods'), path).toBe(methods);
      expect(res.headers.get('allow'), path).toBe(`${methods}, OPTIONS`);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('content-type');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('ratelimit-limit')).toBe('100');
      expect(res.headers.get('ratelimit-remaining'), path).toBe(String(99 - i));
      expect(await res.text()).toBe('');
    }
    expect((await api.get('/state')).res.headers.get('RateLimit-Remaining')).toBe(String(99 - cases.length));
    // Nothing acted.
    expect(await seqOf(t)).toBe(1);
  });

  it('a wrong key is 401 whatever the path, with the headers, counted per address like any wrong key', async () => {
    const { t } = setup();
    for (const [i, path] of ['/api/v1/wrong-key/adjust', '/api/v1/wrong-key/launch', '/api/v0/wrong-key/start', `/api/v1/${VIEWER_KEY}/state`].entries()) {
      const res = await preflight(t, path, '10.4.4.4');
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/invalid API key/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(99 - i));
      expect(res.headers.get('allow')).toBeNull();
    }
    const wrong = await call(t, checker, 'GET', '/api/v1/wrong-key/state', { client: '10.4.4.4' });
    expect(wrong.res.headers.get('RateLimit-Remaining')).toBe('95');
  });

  it('is 429 with Retry-After once the quota is spent, before the route is looked at', async () => {
    const t = createTestApp({ limit: 2 });
    const api = apiClient(t, checker, 'v1');
    await api.get('/state');
    expect((await preflight(t, `/api/v1/${API_KEY}/start`)).status).toBe(204);
    for (const path of [`/api/v1/${API_KEY}/start`, `/api/v1/${API_KEY}/launch`]) {
      const refused = await preflight(t, path);
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    }
  });

  it('is 404 for an unknown command, operation, version or timer id, after the key', async () => {
    const { t } = setup();
    const cases: [string, RegExp][] = [
      [`/api/v1/${API_KEY}/launch`, /unknown operation.*v1 commands: .*toggle_onair/],
      [`/api/v0/${API_KEY}/onair`, /unknown operation.*v0 commands: /],
      [`/api/v0/${API_KEY}/state`, /unknown operation/],
      [`/api/v1/${API_KEY}/timer/t1/explode`, /unknown operation/],
      [`/api/v1/${API_KEY}`, /unknown operation/],
      [`/api/v9/${API_KEY}/start`, /unknown operation/],
      [`/api/v1/${API_KEY}/timer/ghost/select`, /no timer with id "ghost"/],
    ];
    for (const [path, message] of cases) {
      const res = await preflight(t, path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: string }).error, path).toMatch(message);
      expect(res.headers.get('ratelimit-remaining'), path).toMatch(/^\d+$/);
      expect(res.headers.get('access-control-allow-methods'), path).toBeNull();
    }
    expect((await preflight(t, '/api/v1/wrong-key/timer/ghost/select')).status).toBe(401);
  });

  it('for the OpenAPI document: no key, GET only, counted in the document\'s own budget', async () => {
    const { t, api } = setup();
    const res = await preflight(t, '/api/v1/openapi.json');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET');
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
    expect((await t.request('/api/v1/openapi.json')).headers.get('ratelimit-remaining')).toBe('98');
    expect((await api.get('/state')).res.headers.get('RateLimit-Remaining')).toBe('99');
  });
});

describe('failures behind the HTTP layer', () => {
  function appWith(service: RoomService) {
    const lines: string[] = [];
    const clock = new FakeClock();
    const app = createApp({
      service,
      keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
      limiter: new FixedWindowLimiter({ limit: 100, nowMs: clock.monoMs }),
      logger: createLogger({ secrets: () => [API_KEY, VIEWER_KEY], sink: { write: (line) => void lines.push(line) } }),
      newTimerId: () => 'n1',
    });
    return { app, lines };
  }

  it('an edit that cannot be saved answers 503 and did not happen; transport still answers 200', async () => {
    const clock = new FakeClock();
    const service = new RoomService({
      initialRoom: createRoom('t1'),
      clock,
      scheduler: clock.scheduler,
      persistence: { canPublish: () => true, saveFirst: () => Promise.reject(new Error('ENOSPC')), record: () => {} },
    });
    const { app } = appWith(service);
    const res = await app.request(`/api/v1/${API_KEY}/timers`, { method: 'POST' });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ok: boolean; error: string };
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/nothing was changed: the change could not be saved/);
    checker.check('POST', `/api/v1/${API_KEY}/timers`, 503, body);
    expect(service.room.timers).toHaveLength(1);
    expect((await app.request(`/api/v1/${API_KEY}/start`)).status).toBe(200);
    expect(service.room.transport.running).toBe(true);
  });

  it('a body whose client went away (ECONNRESET while reading) is one quiet line and a 499, not a 500', async () => {
    const t = createTestApp();
    const gone = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(gone);
        else {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"ms": 1'));
        }
      },
    });
    const res = await t.request(`/api/v1/${API_KEY}/adjust`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(499);
    const logs = t.logs();
    expect(logs.filter((l) => l.msg === 'client went away before the request was complete')).toEqual([
      expect.objectContaining({ level: 30, method: 'POST', route: 'POST /api/v1/{api_key}/adjust' }),
    ]);
    expect(logs.find((l) => l.msg === 'request')).toMatchObject({ status: 499, route: 'POST /api/v1/{api_key}/adjust' });
    expect(logs.filter((l) => l.msg === 'request failed')).toEqual([]);
    expect(await seqOf(t)).toBe(1);
  });

  it('an unexpected exception answers a JSON 500 without the stack, and the service keeps answering', async () => {
    const clock = new FakeClock();
    class Exploding extends RoomService {
      override snapshot(): never {
        throw new Error(`snapshot exploded near ${API_KEY}`);
      }
    }
    const service = new Exploding({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    const { app, lines } = appWith(service);
    const res = await app.request(`/api/v1/${API_KEY}/state`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ ok: false });
    expect(text).not.toContain('exploded');
    expect(text).not.toContain(API_KEY);
    expect((await app.request(`/api/v1/${API_KEY}/timers`)).status).toBe(200);
    const logged = lines.join('');
    expect(logged).toContain('snapshot exploded');
    expect(logged).not.toContain(API_KEY);
  });
});
