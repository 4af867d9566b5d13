// The flash command over HTTP (v1 addition): default count 3, at most 10, bad
// counts 400 naming `count`; in the snapshot while it lasts; v0 has none.
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

describe('/flash', () => {
  it('GET with no count flashes 3 times, starting 150 ms on, without touching the message', async () => {
    const t = createTestApp();
    const api = apiClient(t, checker, 'v1');
    stateOf(await api.get('/message/set?text=Hello'));
    const state = stateOf(await api.get('/flash'));
    expect(state.flash).toEqual({ startAt: t.clock.wallMs() + 150, count: 3, periodMs: 500, endAt: t.clock.wallMs() + 1_650 });
    expect(state.message?.text).toBe('Hello');
    t.clock.advance(1_650);
    expect(stateOf(await api.get('/state')).flash).toBeNull();
  });

  it('POST takes count up to 10', async () => {
    const t = createTestApp();
    expect(stateOf(await apiClient(t, checker, 'v1').post('/flash', { count: 10 })).flash?.count).toBe(10);
  });

  it.each(['0', '11', '1.5', 'x', ''])('refuses count=%s naming it', async (count) => {
    const t = createTestApp();
    expect(errorOf(await apiClient(t, checker, 'v1').get(`/flash?count=${count}`), 400)).toMatch(/^count: /);
  });

  it.each([[0], [11], [2.5], ['3'], [null]])('refuses JSON count %j naming it', async (count) => {
    const t = createTestApp();
    expect(errorOf(await apiClient(t, checker, 'v1').post('/flash', { count }), 400)).toMatch(/^count: /);
  });

  it('is not in v0', async () => {
    const t = createTestApp();
    expect(errorOf(await apiClient(t, checker, 'v0').get('/flash'), 404)).toMatch(/unknown command/);
  });
});
