// Showclock-Deadline: a v1 request that arrives after the instant its sender gave
// up on it (the box's clock) is refused with 412 and does nothing; one in time is
// done as ever; v0 never reads the header. In process (hono's header) and on a real
// socket (Node's parsed headers), since the service reads it from the latter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, API_KEY } from '../helpers/test-app.js';
import { startSocketApp, type SocketApp } from '../helpers/socket-app.js';
import { checkDeadline } from '../../src/commands/deadline.js';

const withDeadline = (deadline: string | number, body?: unknown): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  headers: { 'Showclock-Deadline': String(deadline), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe('Showclock-Deadline in process', () => {
  it('does a request that arrives by its deadline, on the box clock, to the millisecond', async () => {
    const t = createTestApp();
    const now = t.service.serverNow();
    const res = await t.request(`/api/v1/${API_KEY}/toggle_blackout`, withDeadline(now, {}));
    expect(res.status).toBe(200);
    expect(t.service.room.blackout).toBe(true);
  });

  it('refuses a late one with 412, saying how late, and nothing changes: no seq step, no push', async () => {
    const t = createTestApp();
    const before = t.service.snapshot();
    t.clock.advance(37_800);
    const deadline = before.serverNow + 0;
    const res = await t.request(`/api/v1/${API_KEY}/toggle_blackout`, withDeadline(deadline, {}));
    expect(res.status).toBe(412);
    const body = (await res.json()) as { ok: boolean; error: string };
    expect(body.ok).toBe(false);
    expect(body.error).toBe('arrived 37.8 s after its Showclock-Deadline: the sender had given up on it, so nothing was done');
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
    const after = t.service.snapshot();
    expect(after.blackout).toBe(false);
    expect(after.seq).toBe(before.seq);
  });

  it('refuses late GETs, running-order edits and timer operations alike', async () => {
    const t = createTestApp();
    const past = t.service.serverNow() - 1;
    for (const path of ['/start', '/timers', '/timer/t1/start', '/state']) {
      const res = await t.request(`/api/v1/${API_KEY}${path}`, withDeadline(past, path === '/state' ? undefined : path === '/timers' ? { label: 'Late' } : {}));
      expect(res.status, path).toBe(412);
    }
    expect(t.service.room.timers).toHaveLength(1);
    expect(t.service.snapshot().running).toBe(false);
  });

  it('is 400 naming the header when it is not a time in ms', async () => {
    const t = createTestApp();
    for (const bad of ['soon', '-5', '1.5', '2026-11-27T10:00:00Z', '9'.repeat(20)]) {
      const res = await t.request(`/api/v1/${API_KEY}/start`, withDeadline(bad, {}));
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('Showclock-Deadline must be the box\'s time in ms since 1970');
    }
    expect(t.service.snapshot().running).toBe(false);
  });

  it('keeps the order of checks: a wrong key is 401 and an unknown timer 404 before a passed deadline', async () => {
    const t = createTestApp();
    const past = t.service.serverNow() - 1;
    expect((await t.request('/api/v1/WrongKey_0123456789abcdefgh/start', withDeadline(past, {}))).status).toBe(401);
    expect((await t.request(`/api/v1/${API_KEY}/timer/nope/start`, withDeadline(past, {}))).status).toBe(404);
  });

  it('is not read by v0, which never changes', async () => {
    const t = createTestApp();
    const res = await t.request(`/api/v0/${API_KEY}/start`, withDeadline(t.service.serverNow() - 60_000));
    expect(res.status).toBe(200);
    expect(t.service.snapshot().running).toBe(true);
  });

  it('is documented in the OpenAPI document as a header of every v1 operation, with its 412', async () => {
    const t = createTestApp();
    const doc = (await (await t.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { $ref?: string }[]; responses: Record<string, unknown> }>>;
      components: { parameters: Record<string, { name: string; in: string }> };
    };
    expect(doc.components.parameters.Deadline).toMatchObject({ name: 'Showclock-Deadline', in: 'header' });
    const toggle = doc.paths['/api/v1/{api_key}/toggle_blackout']?.post;
    expect(toggle?.parameters).toContainEqual({ $ref: '#/components/parameters/Deadline' });
    expect(toggle?.responses['412']).toBeDefined();
    expect(doc.paths['/api/v0/{api_key}/start']?.get?.responses['412']).toBeUndefined();
  });
});

describe('Showclock-Deadline on a real socket', () => {
  let app: SocketApp;
  beforeAll(async () => {
    app = await startSocketApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('is read from the request as Node parsed it: late is 412 and nothing changes, in time is done', async () => {
    const url = `http://127.0.0.1:${app.port}/api/v1/${API_KEY}/toggle_onair`;
    const late = await fetch(url, withDeadline(app.service.serverNow() - 2_000, {}));
    expect(late.status).toBe(412);
    expect(app.service.room.onAir).toBe(false);
    const inTime = await fetch(url, withDeadline(app.service.serverNow() + 5_000, {}));
    expect(inTime.status).toBe(200);
    expect(app.service.room.onAir).toBe(true);
  });
});

describe('checkDeadline', () => {
  it('lets a request without the header through', () => {
    expect(checkDeadline(undefined, 1_000)).toEqual({ ok: true });
  });
  it('says late by tenths of a second', () => {
    expect(checkDeadline(' 1000 ', 2_250)).toMatchObject({ ok: false, status: 412, error: expect.stringContaining('arrived 1.3 s after') });
  });
});
