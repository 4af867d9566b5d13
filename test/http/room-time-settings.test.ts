// The room's time zone and clock format through /settings (v1 addition): set,
// read back in the snapshot, canonical spelling, and every bad input a 400 naming it.
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function setup() {
  const t = createTestApp();
  return { t, api: apiClient(t, checker, 'v1') };
}

describe('/settings timeZone and clockFormat', () => {
  it('a new room has the box zone (UTC here) and 24h', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/state')).settings).toMatchObject({ timeZone: 'UTC', clockFormat: '24h' });
  });

  it('GET sets them, keeping the other settings; the zone is stored as the database spells it', async () => {
    const { api } = setup();
    const state = stateOf(await api.get('/settings?timeZone=america/new_york&clockFormat=12h'));
    expect(state.settings).toEqual({ zeroBehavior: 'continue', autoAdvance: false, timeZone: 'America/New_York', clockFormat: '12h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
    const seq = state.seq;
    expect(stateOf(await api.post('/settings', { timeZone: 'America/New_York' })).seq).toBe(seq);
  });

  it('an unknown zone is 400 naming it, and nothing changes', async () => {
    const { api } = setup();
    const error = errorOf(await api.get('/settings?timeZone=Mars/Olympus_Mons'), 400);
    expect(error).toBe('timeZone: unknown time zone "Mars/Olympus_Mons"; give an IANA name such as Europe/Berlin, America/New_York or UTC');
    expect(stateOf(await api.get('/state')).settings.timeZone).toBe('UTC');
  });

  it.each([
    ['GET', 'timeZone=', /^timeZone: /],
    ['GET', 'timeZone=Europe%2FBerlin%3B', /^timeZone: /],
    ['GET', 'clockFormat=25h', /^clockFormat: must be one of 24h, 12h/],
    ['GET', 'clockFormat=', /^clockFormat: /],
  ])('%s ?%s is 400 naming the field', async (_method, query, message) => {
    const { api } = setup();
    expect(errorOf(await api.get(`/settings?${query}`), 400)).toMatch(message);
  });

  it.each([[{ timeZone: 5 }], [{ timeZone: null }], [{ clockFormat: '12H' }], [{ clockFormat: true }]])('POST %j is 400 naming the field', async (body) => {
    const { api } = setup();
    expect(errorOf(await api.post('/settings', body), 400)).toMatch(new RegExp(`^${Object.keys(body)[0] ?? ''}: `));
  });

  it('v0 has no settings', async () => {
    const { t } = setup();
    expect(errorOf(await apiClient(t, checker, 'v0').get('/settings?timeZone=UTC'), 404)).toMatch(/unknown command/);
  });
});
