// The store behind the real HTTP app and room service, in process: a 2xx on a
// running-order edit means it is on disk; a write that fails answers 503, never 2xx.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { PushHub } from '../../src/push/push-hub.js';
import { nodeFileOps, type AtomicFileOps } from '../../src/store/atomic-file.js';
import { LogoFiles } from '../../src/store/logo-files.js';
import { COALESCE_MS, RoomStore, STATE_FILE } from '../../src/store/room-store.js';
import { FakeClock } from '../helpers/test-app.js';
import { LOGO_FIXTURES } from '../helpers/logo-fixtures.js';
import { captureLog } from './log-capture.js';

const KEY = 'DurabilityApiKey_0123456789';
let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-http-store-'));
});

afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

async function setup() {
  const failing = { on: false };
  const ops: AtomicFileOps = {
    ...nodeFileOps,
    writeSynced: (file, text, mode) =>
      failing.on ? Promise.reject(Object.assign(new Error('read-only file system'), { code: 'EROFS' })) : nodeFileOps.writeSynced(file, text, mode),
  };
  const clock = new FakeClock();
  const { logger } = captureLog();
  const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger, ops });
  const room = createRoom('t1');
  await store.start(room);
  const service = new RoomService({ initialRoom: room, clock, scheduler: clock.scheduler, persistence: store });
  service.start();
  let n = 1;
  const hub = new PushHub({ source: service });
  hub.start();
  const app = createApp({
    service,
    keys: () => ({ apiKey: KEY, viewerKey: 'DurabilityViewerKey_0123456789', audienceKey: 'DurabilityAudienceKey_0123456789' }),
    limiter: new FixedWindowLimiter({ limit: 1_000, nowMs: clock.monoMs }),
    logger,
    newTimerId: () => `t${(n += 1)}`,
    storage: () => store.health(),
    viewer: { hub },
    logos: new LogoFiles({ dataDir, saved: store, ops, logger }),
  });
  const saved = () =>
    JSON.parse(readFileSync(path.join(dataDir, STATE_FILE), 'utf8')) as {
      room: { seq: number; timers: { id: string; label: string }[]; blackout: boolean; questions: { id: string; text: string; state: string }[] };
    };
  return { app, store, clock, failing, saved, service, api: `/api/v1/${KEY}`, ask: '/ask/DurabilityAudienceKey_0123456789' };
}

describe('HTTP answers and the store', () => {
  it('a 201 for a new timer means it is already in room.json', async () => {
    const { app, saved, api } = await setup();
    const response = await app.request(`${api}/timers`, { method: 'POST', body: JSON.stringify({ label: 'Keynote' }), headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(201);
    expect(saved().room.timers.map((t) => t.label)).toEqual(['Timer 1', 'Keynote']);
  });

  it('a 200 for an update, a move and a delete means each is in room.json', async () => {
    const { app, saved, api } = await setup();
    await app.request(`${api}/timers`, { method: 'POST' });
    expect((await app.request(`${api}/timer/t1/update?label=Opening`)).status).toBe(200);
    expect(saved().room.timers[0]?.label).toBe('Opening');
    expect((await app.request(`${api}/timer/t2/move?to=0`)).status).toBe(200);
    expect(saved().room.timers.map((t) => t.id)).toEqual(['t2', 't1']);
    expect((await app.request(`${api}/timer/t1/delete`)).status).toBe(200);
    expect(saved().room.timers.map((t) => t.id)).toEqual(['t2']);
  });

  it('a switch answers at once and reaches the disk within the second', async () => {
    const { app, saved, api, clock, store } = await setup();
    expect((await app.request(`${api}/blackout?on=1`)).status).toBe(200);
    expect(saved().room.blackout).toBe(false);
    clock.advance(COALESCE_MS);
    await new Promise((resolve) => setImmediate(resolve));
    await store.idle();
    expect(saved().room.blackout).toBe(true);
  });

  it('the show\'s planned start, its actual times and the aux timer reach the disk within the second; a 200 for show_reset means it is on disk', async () => {
    const { app, saved, api, clock, store } = await setup();
    const settle = async () => {
      clock.advance(COALESCE_MS);
      await new Promise((resolve) => setImmediate(resolve));
      await store.idle();
    };
    const file = () =>
      saved() as unknown as { savedAtWallMs: number; room: { settings: { plannedStart: number | null }; actuals: { timerId: string }[]; aux: { label: string; transport: unknown } } };
    const planned = clock.wallMs() + 60_000;
    expect((await app.request(`${api}/settings?plannedStart=${planned}`)).status).toBe(200);
    expect((await app.request(`${api}/aux?label=Changeover`)).status).toBe(200);
    expect((await app.request(`${api}/aux_start`)).status).toBe(200);
    const auxEnd = clock.wallMs() + 300_000;
    expect((await app.request(`${api}/start`)).status).toBe(200);
    await settle();
    expect(file().room.settings.plannedStart).toBe(planned);
    expect(file().room.actuals.map((a) => a.timerId)).toEqual(['t1']);
    // Kept as its wall-clock end, for a restart to run on from.
    expect(file().room.aux).toMatchObject({ label: 'Changeover', transport: { running: true, endWallMs: auxEnd } });
    // Clearing what happened is not left to the next second: answered once it is in the file.
    expect((await app.request(`${api}/show_reset`)).status).toBe(200);
    expect(file().room.actuals).toEqual([]);
  });

  it('a running timer costs one write for its start and none while it runs; a zero event costs one', async () => {
    const { app, api, clock, store } = await setup();
    const settle = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await store.idle();
    };
    const atStart = store.writes;
    expect((await app.request(`${api}/start`)).status).toBe(200);
    clock.advance(COALESCE_MS);
    await settle();
    expect(store.writes).toBe(atStart + 1);
    // The default 10-minute timer under `continue` runs into overrun: nothing to write for an hour.
    for (let minute = 0; minute < 60; minute += 1) {
      clock.advance(60_000);
      await settle();
    }
    expect(store.writes).toBe(atStart + 1);

    expect((await app.request(`${api}/settings?zeroBehavior=stop`)).status).toBe(200);
    expect((await app.request(`${api}/reset`)).status).toBe(200);
    expect((await app.request(`${api}/start`)).status).toBe(200);
    clock.advance(COALESCE_MS);
    await settle();
    const beforeZero = store.writes;
    clock.advance(600_000);
    await settle();
    clock.advance(COALESCE_MS);
    await settle();
    expect(store.writes).toBe(beforeZero + 1);
  });

  it('when the write fails, the edit answers 503 with a message a person can act on', async () => {
    const { app, saved, api, failing } = await setup();
    failing.on = true;
    const response = await app.request(`${api}/timers`, { method: 'POST' });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/could not be saved to disk/);
    expect(saved().room.timers).toHaveLength(1);
  });

  it('a 201 for an audience question means it is already in room.json', async () => {
    const { app, saved, ask } = await setup();
    const response = await app.request(ask, { method: 'POST', body: JSON.stringify({ text: 'Is it on disk?' }), headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(saved().room.questions).toEqual([expect.objectContaining({ id, text: 'Is it on disk?', state: 'new' })]);
  });

  it('a 200 for a moderation step means it is already in room.json', async () => {
    const { app, saved, ask, api } = await setup();
    const { id } = (await (await app.request(ask, { method: 'POST', body: JSON.stringify({ text: 'Show me?' }), headers: { 'Content-Type': 'application/json' } })).json()) as { id: string };
    expect((await app.request(`${api}/question/show?questionId=${id}`)).status).toBe(200);
    expect(saved().room.questions[0]?.state).toBe('shown');
    expect((await app.request(`${api}/question/delete?questionId=${id}`)).status).toBe(200);
    expect(saved().room.questions).toEqual([]);
  });

  it('when the write fails, a question answers 503 and is not in the room, on disk or later', async () => {
    const { app, saved, ask, failing, service, clock, store } = await setup();
    failing.on = true;
    const response = await app.request(ask, { method: 'POST', body: JSON.stringify({ text: 'Lost?' }), headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/could not be saved, so it was not received; try again/);
    expect(service.room.questions).toEqual([]);
    failing.on = false;
    clock.advance(10_000);
    await new Promise((resolve) => setImmediate(resolve));
    await store.idle();
    expect(saved().room.questions).toEqual([]);
  });
});

describe('while storage fails, from every door', () => {
  it('every answer carries the Showclock-Storage header: pages, the audience form, health and the API', async () => {
    const { app, api, ask, failing } = await setup();
    failing.on = true;
    // A refused edit is what makes the store find out.
    expect((await app.request(`${api}/timers`, { method: 'POST' })).status).toBe(503);
    for (const url of ['/', `/control/${KEY}`, '/view/DurabilityViewerKey_0123456789', ask, '/healthz', `${api}/state`, '/display', '/control/wrong-key-0123456789']) {
      const response = await app.request(url);
      expect(response.headers.get('Showclock-Storage'), url).toMatch(/^failing; the room is not being saved: /);
    }
  });

  it('a logo upload whose file cannot be written is the storage 503: nothing changed, the card named', async () => {
    const { app, api, failing, service } = await setup();
    failing.on = true;
    const response = await app.request(`${api}/display/logo`, { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: LOGO_FIXTURES['image/png'] });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { ok: boolean; error: string };
    expect(body).toMatchObject({ ok: false, error: expect.stringMatching(/^nothing was changed: the logo could not be saved to disk \(EROFS\).*SD card/) });
    expect(service.room.display.logo).toBeNull();
  });
});
