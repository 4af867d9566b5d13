// dangerAt over HTTP (v1 addition): default 0, set on create and update, shown on
// the timer and in the snapshot for the active one; bad values are 400 naming it.
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

describe('dangerAt', () => {
  it('defaults to 0 and is set on create and update', async () => {
    const t = createTestApp();
    const api = apiClient(t, checker, 'v1');
    expect(stateOf(await api.get('/state')).dangerAt).toBe(0);
    const created = await api.post('/timers', { dangerAt: 15_000 });
    expect((created.body as { timer: { dangerAt: number } }).timer.dangerAt).toBe(15_000);
    const state = stateOf(await api.get('/timer/t1/update?dangerAt=30000'));
    expect(state.dangerAt).toBe(30_000);
    expect(state.timers[0]?.dangerAt).toBe(30_000);
  });

  it.each(['-1', '1.5', 'red', '86400001', ''])('GET refuses dangerAt=%s naming it', async (value) => {
    const t = createTestApp();
    expect(errorOf(await apiClient(t, checker, 'v1').get(`/timer/t1/update?dangerAt=${value}`), 400)).toMatch(/^dangerAt: /);
  });

  it.each([[-1], [0.5], ['30000'], [null]])('JSON refuses %j naming it', async (value) => {
    const t = createTestApp();
    expect(errorOf(await apiClient(t, checker, 'v1').post('/timers', { dangerAt: value }), 400)).toMatch(/^dangerAt: /);
  });
});
