// The box's clock over HTTP: /healthz tells it (never turning red for it), GET
// /api/v1/{key}/clock reads it, /clock/set sets it (the real setter, with a fake
// timedatectl behind it), refusing while synchronised and bad input.
import { describe, expect, it } from 'vitest';
import { API_KEY, createTestApp } from '../helpers/test-app.js';
import { call, OpenApiChecker, servedDocument } from '../helpers/openapi-check.js';
import type { BoxClock, ClockSync } from '../../src/domain/clock-sync.js';
import { boxClock } from '../../src/systemd/clock-setter.js';
import type { CommandResult } from '../../src/systemd/run-command.js';
import { createLogger } from '../../src/log/logger.js';

const WALL = Date.UTC(2025, 5, 1, 9, 0, 0);
const logger = createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } });

/** The real setter over a fake timedatectl; the state flips to synchronised-by-hand once set. */
function fakeBox(start: ClockSync, answer: (args: readonly string[]) => CommandResult = () => ({ ok: true, stdout: '' })) {
  let state = start;
  const asked: string[] = [];
  const clock: BoxClock = boxClock({
    run: async (file, args) => {
      asked.push(`${file} ${args.join(' ')}`);
      return answer(args);
    },
    current: () => state,
    refresh: async () => state,
    ntpEnabled: () => false,
    markSetByHand: (at) => void (state = { ...state, setByHandAt: at }),
    wallMs: () => WALL,
    monoMs: () => 0,
    logger,
  });
  return { clock, asked };
}

const NOT_SYNCED: ClockSync = { synced: false, source: 'none', since: WALL - 60_000, detail: 'no network time service is enabled on the box (timedatectl: NTP=no)' };

describe('the clock over HTTP', () => {
  it('/healthz carries the clock and stays 200 while it is not synchronised', async () => {
    const t = createTestApp({ clock: fakeBox(NOT_SYNCED).clock });
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, stopping: false, storage: 'ok', clock: NOT_SYNCED });
  });

  it('/healthz of a box that does not watch its clock says unknown', async () => {
    const t = createTestApp();
    expect(await (await t.request('/healthz')).json()).toMatchObject({ ok: true, clock: { synced: null, source: 'unknown' } });
  });

  it('GET /clock reads it with the box\'s time; a wrong key is 401; it is a read (no seq change)', async () => {
    const t = createTestApp({ clock: fakeBox(NOT_SYNCED).clock });
    const res = await t.get('v1', '/clock');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(await res.json()).toEqual({ ok: true, clock: NOT_SYNCED, serverNow: WALL });
    expect((await t.request('/api/v1/wrong-key-0123456789abcdef/clock')).status).toBe(401);
    expect((await t.request(`/api/v0/${API_KEY}/clock`)).status).toBe(404);
  });

  it('sets the clock with GET ?at= and POST {"at"}: 200 once timedatectl did it, with the state after', async () => {
    const box = fakeBox(NOT_SYNCED);
    const t = createTestApp({ clock: box.clock });
    const get = await t.get('v1', `/clock/set?at=${WALL + 192_000}`);
    expect(get.status).toBe(200);
    expect(await get.json()).toMatchObject({ ok: true, clock: { synced: false, setByHandAt: WALL } });
    const post = await t.post('v1', '/clock/set', { at: WALL - 5_000 });
    expect(post.status).toBe(200);
    expect(box.asked).toEqual(['timedatectl --no-ask-password set-time @1748768592.000', 'timedatectl --no-ask-password set-time @1748768395.000']);
  });

  it('refuses: not a number or missing (400), over a year away (400), synchronised (409), timedatectl refusing (503 in words)', async () => {
    const box = fakeBox(NOT_SYNCED);
    const t = createTestApp({ clock: box.clock });
    for (const query of ['', '?at=', '?at=soon', '?at=1.5', '?at=-1']) {
      const res = await t.get('v1', `/clock/set${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/^at: /);
    }
    expect((await t.post('v1', '/clock/set', { at: 'soon' })).status).toBe(400);
    expect((await t.post('v1', '/clock/set', '{not json')).status).toBe(400);
    const far = await t.get('v1', `/clock/set?at=${WALL + 400 * 86_400_000}`);
    expect(far.status).toBe(400);
    expect(((await far.json()) as { error: string }).error).toMatch(/more than a year/);
    expect(box.asked).toEqual([]);

    const synced = createTestApp({ clock: fakeBox({ ...NOT_SYNCED, synced: true, source: 'chrony', detail: 'chrony keeps the clock' }).clock });
    const conflict = await synced.get('v1', `/clock/set?at=${WALL}`);
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: string }).error).toMatch(/synchronised already/);

    const denied = createTestApp({ clock: fakeBox(NOT_SYNCED, () => ({ ok: false, missing: false, timedOut: false, reason: 'Failed to set time: Access denied' })).clock });
    const refused = await denied.get('v1', `/clock/set?at=${WALL}`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/not allowed to set its clock.*polkit/);
  });

  it('a box that does not watch its clock never sets it (503)', async () => {
    const t = createTestApp();
    expect((await t.get('v1', `/clock/set?at=${WALL}`)).status).toBe(503);
  });
});

describe('the clock\'s answers fit the OpenAPI document', () => {
  it('200 reads and sets, 400, 409 and 503 refusals, GET and POST', async () => {
    const checker = new OpenApiChecker(await servedDocument());
    const base = `/api/v1/${API_KEY}`;
    const box = createTestApp({ clock: fakeBox(NOT_SYNCED).clock });
    expect((await call(box, checker, 'GET', `${base}/clock`)).status).toBe(200);
    expect((await call(box, checker, 'GET', `${base}/clock/set?at=${WALL}`)).status).toBe(200);
    expect((await call(box, checker, 'POST', `${base}/clock/set`, { body: { at: WALL } })).status).toBe(200);
    expect((await call(box, checker, 'GET', `${base}/clock/set?at=x`)).status).toBe(400);
    const synced = createTestApp({ clock: fakeBox({ ...NOT_SYNCED, synced: true, source: 'chrony', offsetMs: -0.5, maxErrorMs: 7.9, server: 'ntp.lan' }).clock });
    expect((await call(synced, checker, 'GET', `${base}/clock`)).status).toBe(200);
    expect((await call(synced, checker, 'POST', `${base}/clock/set`, { body: { at: WALL } })).status).toBe(409);
    expect((await call(createTestApp(), checker, 'GET', `${base}/clock/set?at=${WALL}`)).status).toBe(503);
  });
});
