// The schedule over HTTP (issue 29): `plannedStart` in /settings (an instant, as a
// timer's scheduledAt is), `actuals` and `schedule` in every v1 answer, and
// /show_reset, which clears what the show recorded. The schedule's numbers are
// worked out here from the running order and the fake clock.
import { describe, expect, it } from 'vitest';
import { errorOf, stateOf, useCheckedApp } from '../helpers/openapi-check.js';
import { roomWithTimers } from '../helpers/test-app.js';

const setup = useCheckedApp();

/** The largest instant an instant field takes (9999-12-31T23:59:59.999Z), as scheduledAt. */
const INSTANT_MAX = 253_402_300_799_999;
const M = 60_000;

describe('plannedStart in /settings', () => {
  it('GET with ms sets it, one change; the others keep their values', async () => {
    const { t, api } = setup();
    const planned = t.clock.wallMs() + 3_600_000;
    const before = stateOf(await api.get('/state'));
    const state = stateOf(await api.get(`/settings?plannedStart=${planned}`));
    expect(state.seq).toBe(before.seq + 1);
    expect(state.settings).toEqual({ ...before.settings, plannedStart: planned });
    expect(state.schedule.plannedStart).toBe(planned);
  });

  it('POST with a JSON number sets it; empty in a query and null in JSON clear it', async () => {
    const { t, api } = setup();
    const planned = t.clock.wallMs() + 60_000;
    expect(stateOf(await api.post('/settings', { plannedStart: planned })).settings.plannedStart).toBe(planned);
    expect(stateOf(await api.get('/settings?plannedStart=')).settings.plannedStart).toBeNull();
    await api.post('/settings', { plannedStart: planned });
    const cleared = stateOf(await api.post('/settings', { plannedStart: null }));
    expect(cleared.settings.plannedStart).toBeNull();
    // Nothing has run and no start is planned: the schedule cannot place the show yet.
    expect(cleared.schedule).toMatchObject({ plannedStart: null, plannedEnd: null, offset: null });
  });

  it('takes the same values as scheduledAt: the bounds of an instant', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/settings?plannedStart=0')).settings.plannedStart).toBe(0);
    expect(stateOf(await api.post('/settings', { plannedStart: INSTANT_MAX })).settings.plannedStart).toBe(INSTANT_MAX);
  });

  it.each([
    ['tonight', /^plannedStart: must be a whole number written in decimal, or empty: milliseconds since the epoch .*; got "tonight"$/],
    // An ISO time is not taken: like scheduledAt, an instant is ms since the epoch.
    ['2026-11-23T09:00:00Z', /^plannedStart: must be a whole number written in decimal, or empty/],
    ['1.5', /^plannedStart: must be a whole number written in decimal, or empty/],
    ['-5', /^plannedStart: must be a whole number written in decimal, or empty/],
    [String(INSTANT_MAX + 1), /^plannedStart: 253402300800000 is too large: milliseconds since the epoch \(1970-01-01T00:00:00Z\) from 0 to 253402300799999/],
  ])('a query plannedStart=%s is 400 naming plannedStart, and nothing changes', async (value, message) => {
    const { api } = setup();
    const before = stateOf(await api.get('/state'));
    expect(errorOf(await api.get(`/settings?plannedStart=${encodeURIComponent(value)}`), 400)).toMatch(message);
    const after = stateOf(await api.get('/state'));
    expect([after.seq, after.settings]).toEqual([before.seq, before.settings]);
  });

  it.each([
    ['tonight', /^plannedStart: must be a whole number or null: .*; got "tonight"$/],
    [true, /^plannedStart: must be a whole number or null/],
    [1.5, /^plannedStart: must be a whole number, not a fraction/],
    [-1, /^plannedStart: -1 is too small/],
    [INSTANT_MAX + 1, /^plannedStart: 253402300800000 is too large/],
  ])('a JSON plannedStart %j is 400 naming plannedStart', async (value, message) => {
    const { api } = setup();
    const seq = stateOf(await api.get('/state')).seq;
    expect(errorOf(await api.post('/settings', { plannedStart: value }), 400)).toMatch(message);
    expect(stateOf(await api.get('/state')).seq).toBe(seq);
  });

  it('an empty /settings names plannedStart among what it takes', async () => {
    const { api } = setup();
    expect(errorOf(await api.get('/settings'), 400)).toMatch(/plannedStart/);
  });
});

describe('the schedule in GET /state', () => {
  // Three timers of 1, 2 and 3 minutes (roomWithTimers); the show planned to start a minute from now.

  /** The show planned a minute from W, started 30 s late (at W + 90 s), then 20 s of the first timer's minute run. */
  async function lateStart() {
    const { t, api } = setup({ room: roomWithTimers(3) });
    const W = t.clock.wallMs();
    const P = W + M;
    await api.get(`/settings?plannedStart=${P}`);
    t.clock.advance(90_000);
    await api.get('/start');
    t.clock.advance(20_000);
    return { t, api, W, P };
  }

  it('after a late start: planned, actual and projected times, and the offset', async () => {
    const { t, api, W, P } = await lateStart();
    const state = stateOf(await api.get('/state'));
    const now = W + 110_000;
    expect(state.serverNow).toBe(now);
    expect(state.actuals).toEqual([{ timerId: 't1', startedAt: W + 90_000, endedAt: null }]);
    expect(state.schedule).toEqual({
      plannedStart: P,
      plannedEnd: P + 6 * M,
      // t1 ends 40 s from now; t2 and t3 follow it, 2 and 3 minutes each.
      projectedEnd: now + 40_000 + 5 * M,
      // t1 was planned to end at P + 1 min and will end at now + 40 s = P + 90 s: 30 s behind.
      offset: 30_000,
      totalDuration: 6 * M,
      nextPlannedStart: P + M,
      timers: [
        { id: 't1', plannedStart: P, plannedEnd: P + M, actualStart: W + 90_000, actualEnd: null, projectedStart: W + 90_000, projectedEnd: now + 40_000 },
        { id: 't2', plannedStart: P + M, plannedEnd: P + 3 * M, actualStart: null, actualEnd: null, projectedStart: now + 40_000, projectedEnd: now + 40_000 + 2 * M },
        { id: 't3', plannedStart: P + 3 * M, plannedEnd: P + 6 * M, actualStart: null, actualEnd: null, projectedStart: now + 40_000 + 2 * M, projectedEnd: now + 40_000 + 5 * M },
      ],
    });
    // Every answer carries it, computed at its own serverNow: a pause 10 s later projects from then.
    t.clock.advance(10_000);
    const paused = stateOf(await api.get('/pause'));
    expect(paused.schedule.offset).toBe(30_000);
    t.clock.advance(15_000);
    // Paused, the first timer's end moves with the clock: 15 s more behind.
    expect(stateOf(await api.get('/state')).schedule.offset).toBe(45_000);
  });

  it('next ends the timer that was on and starts the next: the offset is the new one\'s', async () => {
    const { t, api, W, P } = await lateStart();
    // Cut short: t2 starts at W + 110 s, 10 s before its planned P + 1 min = W + 120 s.
    const state = stateOf(await api.get('/next'));
    const now = W + 110_000;
    expect(state.actuals).toEqual([
      { timerId: 't1', startedAt: W + 90_000, endedAt: now },
      { timerId: 't2', startedAt: now, endedAt: null },
    ]);
    const [t1, t2, t3] = state.schedule.timers;
    expect(t1).toMatchObject({ actualStart: W + 90_000, actualEnd: now, projectedStart: null, projectedEnd: null });
    expect(t2).toMatchObject({ actualStart: now, projectedStart: now, projectedEnd: now + 2 * M, plannedEnd: P + 3 * M });
    expect(t3).toMatchObject({ projectedStart: now + 2 * M, projectedEnd: now + 5 * M });
    // Planned to end at P + 3 min = W + 240 s, projected at W + 230 s: 10 s ahead.
    expect(state.schedule.offset).toBe(-10_000);
    expect(state.schedule.nextPlannedStart).toBe(P + 3 * M);
  });

  it('a hard start is never projected before its scheduledAt, and plans the timers after it', async () => {
    const { t, api } = setup({ room: roomWithTimers(3) });
    const W = t.clock.wallMs();
    const P = W + M;
    const hard = W + 30 * M;
    await api.get(`/settings?plannedStart=${P}`);
    await api.get(`/timer/t3/update?scheduledAt=${hard}`);
    t.clock.advance(M);
    const state = stateOf(await api.get('/start'));
    const [, t2, t3] = state.schedule.timers;
    // On time: t1 started at P and ends at P + 1 min, t2 at P + 3 min; t3 waits for its hard start.
    expect(state.schedule.offset).toBe(0);
    expect(t2).toMatchObject({ plannedEnd: P + 3 * M, projectedEnd: P + 3 * M });
    expect(t3).toEqual({ id: 't3', plannedStart: hard, plannedEnd: hard + 3 * M, actualStart: null, actualEnd: null, projectedStart: hard, projectedEnd: hard + 3 * M });
    expect(state.schedule.projectedEnd).toBe(hard + 3 * M);
  });

  it('without a plannedStart, the show is planned from its first actual start', async () => {
    const { t, api } = setup({ room: roomWithTimers(2) });
    const W = t.clock.wallMs();
    const before = stateOf(await api.get('/state')).schedule;
    expect(before).toMatchObject({ plannedStart: null, plannedEnd: null, offset: null, totalDuration: 3 * M, projectedEnd: W + 3 * M });
    t.clock.advance(5_000);
    const started = stateOf(await api.get('/start')).schedule;
    expect(started).toMatchObject({ plannedStart: W + 5_000, plannedEnd: W + 5_000 + 3 * M, offset: 0 });
  });
});

describe('/show_reset', () => {
  it('clears the actual times and makes the first timer active, paused at its full time; the plan and the aux timer stay', async () => {
    const { t, api } = setup({ room: roomWithTimers(3) });
    const P = t.clock.wallMs() + M;
    await api.get(`/settings?plannedStart=${P}`);
    await api.get('/aux_start');
    await api.get('/start');
    t.clock.advance(30_000);
    await api.get('/next');
    t.clock.advance(30_000);
    const before = stateOf(await api.get('/state'));
    expect(before.actuals).toHaveLength(2);
    const reset = stateOf(await api.get('/show_reset'));
    expect(reset.seq).toBe(before.seq + 1);
    expect(reset).toMatchObject({ activeTimerId: 't1', running: false, remainingAtPause: M, remaining: M, endAt: null, actuals: [] });
    expect(reset.settings.plannedStart).toBe(P);
    expect(reset.timers).toEqual(before.timers);
    expect(reset.aux).toMatchObject({ running: true, endAt: before.aux.endAt });
    expect(reset.schedule.timers.every((row) => row.actualStart === null && row.actualEnd === null)).toBe(true);
    expect(reset.schedule.plannedStart).toBe(P);
  });

  it('by POST too; a reset of a show that has not run still answers the state', async () => {
    const { api } = setup({ room: roomWithTimers(2) });
    const state = stateOf(await api.post('/show_reset'));
    expect(state).toMatchObject({ activeTimerId: 't1', running: false, actuals: [] });
    expect(errorOf(await api.post('/show_reset', '[1]'), 400)).toMatch(/^body: must be a JSON object, or no body/);
  });
});
