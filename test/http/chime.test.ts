// The chime's settings and the test chime over HTTP (v1 additions).
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

describe('chime', () => {
  it('settings: off by default, volume 70; set by GET and POST', async () => {
    const t = createTestApp();
    const api = apiClient(t, checker, 'v1');
    expect(stateOf(await api.get('/state')).settings).toMatchObject({ chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70 });
    expect(stateOf(await api.get('/settings?chimeAtZero=1&chimeVolume=40')).settings).toMatchObject({ chimeAtZero: true, chimeVolume: 40 });
    expect(stateOf(await api.post('/settings', { chimeAtWarning: true, chimeVolume: 0 })).settings).toMatchObject({
      chimeAtZero: true,
      chimeAtWarning: true,
      chimeVolume: 0,
    });
  });

  it.each([
    ['chimeVolume=101', /^chimeVolume: /],
    ['chimeVolume=-1', /^chimeVolume: /],
    ['chimeVolume=5.5', /^chimeVolume: /],
    ['chimeAtZero=yes', /^chimeAtZero: must be 0 or 1/],
    ['chimeAtWarning=2', /^chimeAtWarning: must be 0 or 1/],
  ])('refuses %s naming it', async (query, message) => {
    const t = createTestApp();
    expect(errorOf(await apiClient(t, checker, 'v1').get(`/settings?${query}`), 400)).toMatch(message);
  });

  it('/chime puts a test chime in the snapshot for a second, 150 ms on', async () => {
    const t = createTestApp();
    const api = apiClient(t, checker, 'v1');
    const state = stateOf(await api.get('/chime'));
    expect(state.chimeTestAt).toBe(t.clock.wallMs() + 150);
    t.clock.advance(1_150);
    expect(stateOf(await api.get('/state')).chimeTestAt).toBeNull();
    expect(errorOf(await apiClient(t, checker, 'v0').get('/chime'), 404)).toMatch(/unknown command/);
  });
});
