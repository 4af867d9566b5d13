// The second timer over HTTP (issue 29): /aux_start, /aux_pause, /aux_toggle,
// /aux_reset, /aux_adjust and /aux (duration, appearance, label), GET with a query
// and POST with JSON, each answered with the state, whose `aux` says where it
// stands. It is its own timer: the running order's commands never move it. Bad
// input is 400 naming the field, and changes nothing.
import { describe, expect, it } from 'vitest';
import { errorOf, stateOf, useCheckedApp } from '../helpers/openapi-check.js';
import { roomWithTimers } from '../helpers/test-app.js';

const setup = useCheckedApp();

describe('the aux timer', () => {
  it('starts as a new room\'s: Aux, a five-minute countdown, paused', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/state')).aux).toEqual({
      label: 'Aux',
      duration: 300_000,
      appearance: 'countdown',
      running: false,
      endAt: null,
      remainingAtPause: 300_000,
      remaining: 300_000,
    });
  });

  it('start, pause, toggle and reset drive its own transport, one change each, and leave the main timer alone', async () => {
    const { t, api } = setup();
    const started = stateOf(await api.get('/aux_start'));
    expect(started.seq).toBe(2);
    expect(started.aux).toMatchObject({ running: true, endAt: started.serverNow + 300_000, remainingAtPause: null, remaining: 300_000 });
    expect(started).toMatchObject({ running: false, remainingAtPause: 600_000 });
    // Already running: nothing changes.
    expect(stateOf(await api.post('/aux_start')).seq).toBe(2);
    t.clock.advance(12_000);
    expect(stateOf(await api.get('/state')).aux.remaining).toBe(288_000);
    const paused = stateOf(await api.post('/aux_pause'));
    expect(paused.aux).toMatchObject({ running: false, endAt: null, remainingAtPause: 288_000 });
    t.clock.advance(5_000);
    const toggled = stateOf(await api.get('/aux_toggle'));
    expect(toggled.aux).toMatchObject({ running: true, endAt: toggled.serverNow + 288_000 });
    t.clock.advance(8_000);
    expect(stateOf(await api.post('/aux_toggle')).aux).toMatchObject({ running: false, remainingAtPause: 280_000 });
    expect(stateOf(await api.get('/aux_reset')).aux).toMatchObject({ running: false, remainingAtPause: 300_000, remaining: 300_000 });
    // The main timer never moved.
    expect(stateOf(await api.get('/state'))).toMatchObject({ running: false, remainingAtPause: 600_000 });
  });

  it('runs on past zero into overrun: nothing of the room stops it', async () => {
    const { t, api } = setup();
    await api.get('/aux?duration=2000');
    await api.get('/aux_start');
    t.clock.advance(5_000);
    expect(stateOf(await api.get('/state')).aux).toMatchObject({ running: true, remaining: -3_000 });
  });

  it('is not moved by next, previous, a reset or the main timer\'s transport', async () => {
    const { t, api } = setup({ room: roomWithTimers(3) });
    const started = stateOf(await api.get('/aux_start'));
    const endAt = started.aux.endAt;
    await api.get('/start');
    t.clock.advance(3_000);
    for (const path of ['/next', '/previous', '/reset', '/pause', '/adjust?ms=60000', '/timer/t3/start']) {
      expect(stateOf(await api.get(path)).aux, path).toMatchObject({ running: true, endAt, remaining: 297_000 });
    }
  });

  it('adjust moves it by ms, as adjust moves the main timer (a leading + in a query, a number in JSON)', async () => {
    const { t, api } = setup();
    expect(stateOf(await api.get('/aux_adjust?ms=-30000')).aux).toMatchObject({ running: false, remainingAtPause: 270_000 });
    expect(stateOf(await api.get('/aux_adjust?ms=+60000')).aux.remainingAtPause).toBe(330_000);
    await api.get('/aux_start');
    t.clock.advance(10_000);
    const adjusted = stateOf(await api.post('/aux_adjust', { ms: 5_000 }));
    expect(adjusted.aux).toMatchObject({ running: true, remaining: 325_000, endAt: adjusted.serverNow + 325_000 });
    // The main timer's remaining time is untouched.
    expect(adjusted.remainingAtPause).toBe(600_000);
  });

  it.each([
    ['', /^ms: is required: must be a whole number/],
    ['?ms=soon', /^ms: must be a whole number written in decimal: .*; got "soon"$/],
    ['?ms=1.5', /^ms: must be a whole number written in decimal/],
    ['?ms=3600001', /^ms: 3600001 is too large: .*at most 3600000 \(1 hour\) either way/],
    ['?ms=-3600001', /^ms: -3600001 is too small/],
  ])('adjust%s is 400 naming ms, with the wording of adjust, and nothing changes', async (query, message) => {
    const { api } = setup();
    const before = stateOf(await api.get('/state'));
    const refused = errorOf(await api.get(`/aux_adjust${query}`), 400);
    expect(refused).toMatch(message);
    // The same words as the main timer's adjust.
    expect(errorOf(await api.get(`/adjust${query}`), 400)).toBe(refused);
    const after = stateOf(await api.get('/state'));
    expect([after.seq, after.aux]).toEqual([before.seq, before.aux]);
  });

  it('adjust in JSON of the wrong type is 400 naming ms', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/aux_adjust', { ms: '60000' }), 400)).toMatch(/^ms: must be a whole number: /);
    expect(errorOf(await api.post('/aux_adjust', { ms: 0.5 }), 400)).toMatch(/^ms: must be a whole number, not a fraction/);
    expect(errorOf(await api.post('/aux_adjust', {}), 400)).toMatch(/^ms: is required/);
  });

  it('an adjust past 24 hours is refused by the room, saying what it would leave', async () => {
    const { api } = setup();
    await api.get('/aux?duration=86400000');
    const seq = stateOf(await api.get('/state')).seq;
    expect(errorOf(await api.get('/aux_adjust?ms=1000'), 400)).toBe(
      'ms: adjusting the aux timer by 1000 would leave 86401000 ms, above the maximum of 86400000 (24 hours)',
    );
    expect(stateOf(await api.get('/state'))).toMatchObject({ seq, aux: { remainingAtPause: 86_400_000 } });
  });
});

describe('/aux sets the aux timer up', () => {
  it('a new duration stands it paused at that duration, also while running', async () => {
    const { t, api } = setup();
    await api.get('/aux_start');
    t.clock.advance(4_000);
    const set = stateOf(await api.get('/aux?duration=120000'));
    expect(set.aux).toMatchObject({ duration: 120_000, running: false, remainingAtPause: 120_000, label: 'Aux', appearance: 'countdown' });
  });

  it('a label or an appearance alone keeps the time where it is, running or not', async () => {
    const { t, api } = setup();
    await api.get('/aux_start');
    t.clock.advance(20_000);
    const set = stateOf(await api.post('/aux', { label: 'Q&A', appearance: 'countup' }));
    expect(set.aux).toMatchObject({ label: 'Q&A', appearance: 'countup', duration: 300_000, running: true, remaining: 280_000, endAt: set.serverNow + 280_000 });
    // The label is trimmed, as the room keeps it.
    expect(stateOf(await api.get('/aux?label=%20Changeover%20&appearance=countdown')).aux).toMatchObject({ label: 'Changeover', appearance: 'countdown', running: true });
  });

  it('all three in one change (one seq step)', async () => {
    const { api } = setup();
    const before = stateOf(await api.get('/state')).seq;
    const set = stateOf(await api.post('/aux', { duration: 90_000, appearance: 'countup', label: 'Break' }));
    expect(set.seq).toBe(before + 1);
    expect(set.aux).toEqual({ label: 'Break', duration: 90_000, appearance: 'countup', running: false, endAt: null, remainingAtPause: 90_000, remaining: 90_000 });
  });

  it.each([
    ['', /^aux: give at least one of duration, appearance or label$/],
    ['?duration=999', /^duration: 999 is too small: .*from 1000 \(1 second\) to 86400000 \(24 hours\)/],
    ['?duration=86400001', /^duration: 86400001 is too large/],
    ['?duration=10m', /^duration: must be a whole number written in decimal/],
    // The aux timer shows a countdown or a count-up; the time of day is a timer's face, not its.
    ['?appearance=clock', /^appearance: must be one of countdown, countup; got "clock"$/],
    ['?appearance=bars', /^appearance: must be one of countdown, countup/],
    ['?label=Q%07A', /^label: /],
    [`?label=${'x'.repeat(201)}`, /^label: /],
    ['?duration=999&appearance=clock', /^duration: .*; appearance: must be one of countdown, countup/],
  ])('/aux%s is 400 naming what is wrong, and nothing changes', async (query, message) => {
    const { api } = setup();
    const before = stateOf(await api.get('/state'));
    expect(errorOf(await api.get(`/aux${query}`), 400)).toMatch(message);
    const after = stateOf(await api.get('/state'));
    expect([after.seq, after.aux]).toEqual([before.seq, before.aux]);
  });

  it('JSON of the wrong type is 400 naming the field; an empty object names what it takes', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/aux', { appearance: 5 }), 400)).toMatch(/^appearance: must be one of countdown, countup/);
    expect(errorOf(await api.post('/aux', { duration: '60000' }), 400)).toMatch(/^duration: must be a whole number/);
    expect(errorOf(await api.post('/aux', { label: null }), 400)).toMatch(/^label: must be text/);
    expect(errorOf(await api.post('/aux', {}), 400)).toBe('aux: give at least one of duration, appearance or label');
    expect(errorOf(await api.post('/aux', [1]), 400)).toMatch(/^body: must be a JSON object/);
  });

  it('a timer\'s appearance still takes clock: the aux timer\'s rules are its own', async () => {
    const { api } = setup();
    expect(errorOf(await api.get('/aux?appearance=clock'), 400)).toMatch(/^appearance: /);
    expect(stateOf(await api.get('/timer/t1/update?appearance=clock')).timers[0]?.appearance).toBe('clock');
  });
});
