// The headers every /api answer carries (CORS, no-store, rate limit) whatever
// made the answer: a JSON body, an error, the push stream, a preflight. They are set before
// the handler runs (see app.ts: hono's cors() made every answer a rebuilt Web
// Response), so this pins down that none of them is lost on the way.
import { describe, expect, it } from 'vitest';
import { API_KEY, createTestApp } from '../helpers/test-app.js';

function expectApiHeaders(res: Response, remaining: string): void {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('ratelimit-limit')).toBe('100');
  expect(res.headers.get('ratelimit-remaining')).toBe(remaining);
  expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
}

describe('headers of /api answers', () => {
  it('are on a state answer, a command, a POST, an input error, a 404 and a 401', async () => {
    const t = createTestApp();
    const state = await t.get('v1', '/state');
    expect(state.status).toBe(200);
    expect(state.headers.get('content-type')).toMatch(/^application\/json/);
    expectApiHeaders(state, '99');
    const start = await t.get('v0', '/start');
    expect(start.status).toBe(200);
    expectApiHeaders(start, '98');
    const posted = await t.post('v1', '/adjust', { ms: 1000 });
    expect(posted.status).toBe(200);
    expectApiHeaders(posted, '97');
    const bad = await t.get('v1', '/adjust?ms=1.5');
    expect(bad.status).toBe(400);
    expectApiHeaders(bad, '96');
    const unknown = await t.get('v1', '/no-such-command');
    expect(unknown.status).toBe(404);
    expectApiHeaders(unknown, '95');
    // A wrong key is counted per address, in its own window.
    const wrong = await t.request('/api/v1/not-the-key-at-all/state', { client: '10.1.2.3' });
    expect(wrong.status).toBe(401);
    expectApiHeaders(wrong, '99');
  });

  it('are on the push stream, next to its own content type', async () => {
    const t = createTestApp();
    const res = await t.get('v1', '/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expectApiHeaders(res, '99');
    await res.body?.cancel();
  });

  it('are on the preflight too, which is counted like any request, with the methods of its path', async () => {
    const t = createTestApp();
    const res = await t.request(`/api/v1/${API_KEY}/adjust`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://companion.local:8000', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expectApiHeaders(res, '99');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(res.headers.get('allow')).toBe('GET, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect((await t.get('v1', '/state')).headers.get('ratelimit-remaining')).toBe('98');
  });
});
