// scheduledAt over HTTP (v1 addition): on create and update, GET and POST, empty
// or null clears it, every bad input is a 400 naming the field, v0 knows nothing
// of it, and the timer starts by itself at the instant, with a log line saying why.
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp, roomWithTimers } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function setup() {
  const t = createTestApp({ room: roomWithTimers(2) });
  return { t, api: apiClient(t, checker, 'v1') };
}

describe('scheduledAt', () => {
  it('is taken on create (JSON) and shown on the timer', async () => {
    const { t, api } = setup();
    const at = t.clock.wallMs() + 60_000;
    const created = await api.post('/timers', { label: 'Keynote', scheduledAt: at });
    expect(created.status).toBe(201);
    expect((created.body as { timer: { scheduledAt: number } }).timer.scheduledAt).toBe(at);
  });

  it('is set by GET update, and an empty value clears it', async () => {
    const { t, api } = setup();
    const at = t.clock.wallMs() + 60_000;
    let state = stateOf(await api.get(`/timer/t2/update?scheduledAt=${at}`));
    expect(state.timers[1]?.scheduledAt).toBe(at);
    state = stateOf(await api.get('/timer/t2/update?scheduledAt='));
    expect(state.timers[1]?.scheduledAt).toBeNull();
  });

  it('POST update takes null to clear, and a form body takes it spelled as in a query', async () => {
    const { t, api } = setup();
    const at = t.clock.wallMs() + 60_000;
    stateOf(await api.post('/timer/t2/update', undefined, { body: `scheduledAt=${at}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }));
    const state = stateOf(await api.post('/timer/t2/update', { scheduledAt: null }));
    expect(state.timers[1]?.scheduledAt).toBeNull();
  });

  it.each([
    ['-5', 'whole number written in decimal'],
    ['1.5', 'whole number written in decimal'],
    ['soon', 'whole number written in decimal'],
    ['253402300800000', 'too large'],
    ['1e12', 'whole number written in decimal'],
  ])('GET refuses scheduledAt=%s with a 400 naming it', async (value, words) => {
    const { api } = setup();
    const error = errorOf(await api.get(`/timer/t2/update?scheduledAt=${encodeURIComponent(value)}`), 400);
    expect(error).toMatch(/^scheduledAt: /);
    expect(error).toContain(words);
  });

  it.each([[-1], [1.5], ['1767261600000'], [true], [253_402_300_800_000]])('JSON refuses %j with a 400 naming it', async (value) => {
    const { api } = setup();
    const error = errorOf(await api.post('/timers', { scheduledAt: value }), 400);
    expect(error).toMatch(/^scheduledAt: /);
  });

  it('v0 has no way to set it (its commands take no such field)', async () => {
    const { t, api } = setup();
    const v0 = apiClient(t, checker, 'v0');
    const result = await v0.get(`/timer/t2/update?scheduledAt=${t.clock.wallMs() + 1_000}`);
    expect(result.status).toBe(404);
    expect(stateOf(await api.get('/state')).timers[1]?.scheduledAt).toBeNull();
  });

  it('starts the timer at the instant, pushed as one change, with a log line saying why', async () => {
    const { t, api } = setup();
    const at = t.clock.wallMs() + 90_000;
    const before = stateOf(await api.get(`/timer/t2/update?scheduledAt=${at}`));
    t.clock.advance(89_999);
    expect(stateOf(await api.get('/state')).activeTimerId).toBe('t1');
    t.clock.advance(1);
    const state = stateOf(await api.get('/state'));
    expect(state).toMatchObject({ activeTimerId: 't2', running: true, seq: before.seq + 1, endAt: at + state.duration });
    expect(t.logs().some((line) => line.msg === 'scheduled start: the timer became active and started at its scheduled time' && line.timerId === 't2')).toBe(true);
  });
});

describe('endsAt', () => {
  it('is set on create and update, cleared by empty or null, and a running one counts to it', async () => {
    const { t, api } = setup();
    const doors = t.clock.wallMs() + 1_800_000;
    const created = await api.post('/timers', { label: 'Doors', endsAt: doors });
    expect(created.status).toBe(201);
    let state = stateOf(await api.get(`/timer/t1/update?endsAt=${doors}`));
    state = stateOf(await api.get('/start'));
    expect(state).toMatchObject({ running: true, endAt: doors, remaining: 1_800_000 });
    t.clock.stepWall(60_000);
    t.clock.advance(1_000);
    expect(stateOf(await api.get('/state')).remaining).toBe(1_800_000 - 61_000);
    expect(errorOf(await api.get('/adjust?ms=60000'), 400)).toMatch(/^ms: .*counts to a time of day/);
    state = stateOf(await api.post('/timer/t1/update', { endsAt: null }));
    expect(state.timers[0]?.endsAt).toBeNull();
    state = stateOf(await api.get(`/timer/t1/update?endsAt=${doors}`));
    state = stateOf(await api.get('/timer/t1/update?endsAt='));
    expect(state.timers[0]?.endsAt).toBeNull();
  });

  it.each(['-1', '1.5', 'tonight', '253402300800000'])('refuses endsAt=%s with a 400 naming it', async (value) => {
    const { api } = setup();
    expect(errorOf(await api.get(`/timer/t1/update?endsAt=${value}`), 400)).toMatch(/^endsAt: /);
  });
});
