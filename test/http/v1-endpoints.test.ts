// Every v1 endpoint of remote-control-api.md §4 and the additions of decisions.md,
// in its GET and POST forms, in process. Every answer also passes `call`'s checks
// (JSON, no-store, CORS, rate-limit headers, body fits the OpenAPI document).
import { describe, expect, it } from 'vitest';
import { TimersListSchema, TimerCreatedSchema } from '../../src/commands/schemas.js';
import { errorOf, stateOf, useCheckedApp } from '../helpers/openapi-check.js';
import { roomWithTimers } from '../helpers/test-app.js';

const setup = useCheckedApp();

describe('GET /state', () => {
  it('answers the snapshot of a new room: one default timer, paused at 10 minutes, seq 1', async () => {
    const { t, api } = setup();
    const state = stateOf(await api.get('/state'));
    expect(state).toMatchObject({
      seq: 1,
      serverNow: t.clock.wallMs(),
      running: false,
      endAt: null,
      remainingAtPause: 600_000,
      remaining: 600_000,
      zeroBehavior: 'continue',
      autoAdvance: false,
      blackout: false,
      onAir: false,
      activeTimerId: 't1',
      activeLabel: 'Timer 1',
      activeSpeaker: '',
      warnAt: 60_000,
      duration: 600_000,
      message: null,
      settings: { zeroBehavior: 'continue', autoAdvance: false },
    });
    expect(state.timers).toEqual([
      { id: 't1', label: 'Timer 1', speaker: '', duration: 600_000, warnAt: 60_000, appearance: 'countdown', tagId: null, scheduledAt: null, endsAt: null, dangerAt: 0 },
    ]);
  });

  it('derives remaining from the server clock while running, and reads change nothing', async () => {
    const { t, api } = setup();
    const started = stateOf(await api.get('/start'));
    expect(started.running).toBe(true);
    expect(started.endAt).toBe(started.serverNow + 600_000);
    t.clock.advance(12_345);
    const later = stateOf(await api.get('/state'));
    expect(later.remaining).toBe(600_000 - 12_345);
    expect(later.endAt).toBe(started.endAt);
    expect(later.endAt! - later.serverNow).toBe(later.remaining);
    expect(later.remainingAtPause).toBeNull();
    expect(later.seq).toBe(started.seq);
  });
});

describe('/timers', () => {
  it('GET lists the running order with the active timer id', async () => {
    const { api } = setup({ room: roomWithTimers(3) });
    const result = await api.get('/timers');
    expect(result.status).toBe(200);
    const list = TimersListSchema.parse(result.body);
    expect(list.activeTimerId).toBe('t1');
    expect(list.timers.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
  });

  it('POST with no body appends a timer with the defaults and answers 201', async () => {
    const { api } = setup();
    const result = await api.post('/timers');
    expect(result.status).toBe(201);
    const { timer } = TimerCreatedSchema.parse(result.body);
    expect(timer).toEqual({
      id: 't2', label: 'Timer 2', speaker: '', duration: 600_000, warnAt: 60_000, appearance: 'countdown', tagId: null, scheduledAt: null, endsAt: null, dangerAt: 0,
    });
    const state = stateOf(await api.get('/state'));
    expect(state.timers.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(state.seq).toBe(2);
    expect(state.activeTimerId).toBe('t1');
  });

  it('POST with a JSON body takes label, speaker, duration, warnAt and appearance, appended at the end', async () => {
    const { api } = setup({ room: roomWithTimers(2) });
    const result = await api.post('/timers', { label: 'Keynote', speaker: 'Ada', duration: 1_200_000, warnAt: 120_000, appearance: 'countup' });
    expect(result.status).toBe(201);
    const { timer } = TimerCreatedSchema.parse(result.body);
    expect(timer).toMatchObject({ label: 'Keynote', speaker: 'Ada', duration: 1_200_000, warnAt: 120_000, appearance: 'countup' });
    const list = TimersListSchema.parse((await api.get('/timers')).body);
    expect(list.timers.map((t) => t.id)).toEqual(['t1', 't2', timer.id]);
  });

  it('POST with an empty JSON body ({}) uses the defaults; unknown fields are ignored', async () => {
    const { api } = setup();
    expect((await api.post('/timers', {})).status).toBe(201);
    const result = await api.post('/timers', { label: 'X', colour: 'blue', ms: 'nonsense' });
    expect(TimerCreatedSchema.parse(result.body).timer.label).toBe('X');
  });

  it.each([
    [{ duration: 999 }, 'duration'],
    [{ duration: 86_400_001 }, 'duration'],
    [{ duration: 60_000.5 }, 'duration'],
    [{ duration: '600000' }, 'duration'],
    [{ warnAt: -1 }, 'warnAt'],
    [{ label: 5 }, 'label'],
    [{ label: 'x'.repeat(201) }, 'label'],
    [{ speaker: 'x'.repeat(201) }, 'speaker'],
    [{ appearance: 'sideways' }, 'appearance'],
  ])('POST %j is refused with 400 naming %s, and nothing is created', async (body, field) => {
    const { api } = setup();
    expect(errorOf(await api.post('/timers', body), 400)).toContain(field);
    expect(stateOf(await api.get('/state')).timers).toHaveLength(1);
  });

  it('accepts the bounds of duration exactly (1000 and 86400000)', async () => {
    const { api } = setup();
    expect((await api.post('/timers', { duration: 1_000 })).status).toBe(201);
    expect((await api.post('/timers', { duration: 86_400_000 })).status).toBe(201);
  });
});

describe('/timer/{id}/select', () => {
  it.each(['GET', 'POST'])('%s makes the timer active, paused at its duration', async (method) => {
    const { t, api } = setup({ room: roomWithTimers(3) });
    await api.get('/start');
    t.clock.advance(5_000);
    const state = stateOf(await api.send(method, '/timer/t3/select'));
    expect(state).toMatchObject({ activeTimerId: 't3', running: false, remainingAtPause: 180_000, duration: 180_000, activeLabel: 'Timer 3' });
  });

  it('selecting the active timer again sets it back to its duration, paused', async () => {
    const { t, api } = setup();
    await api.get('/start');
    t.clock.advance(30_000);
    expect(stateOf(await api.get('/timer/t1/select'))).toMatchObject({ running: false, remaining: 600_000 });
  });

  it.each(['GET', 'POST'])('%s of an unknown id is 404 naming the id', async (method) => {
    const { api } = setup();
    expect(errorOf(await api.send(method, '/timer/nope/select'), 404)).toContain('"nope"');
  });
});

describe('/timer/{id}/start', () => {
  it.each(['GET', 'POST'])('%s makes the timer active and starts it at its full duration', async (method) => {
    const { t, api } = setup({ room: roomWithTimers(3) });
    await api.get('/start');
    t.clock.advance(5_000);
    const state = stateOf(await api.send(method, '/timer/t3/start'));
    expect(state).toMatchObject({ activeTimerId: 't3', running: true, remaining: 180_000, endAt: t.clock.wallMs() + 180_000, activeLabel: 'Timer 3' });
  });

  it('on the running active timer it keeps running from where it is', async () => {
    const { t, api } = setup();
    await api.get('/start');
    t.clock.advance(30_000);
    expect(stateOf(await api.post('/timer/t1/start', {}))).toMatchObject({ running: true, remaining: 570_000 });
  });

  it.each(['GET', 'POST'])('%s of an unknown id is 404 naming the id', async (method) => {
    const { api } = setup();
    expect(errorOf(await api.send(method, '/timer/nope/start'), 404)).toContain('"nope"');
  });
});

describe('/timer/{id}/update', () => {
  it('GET takes the five fields from the query', async () => {
    const { api } = setup({ room: roomWithTimers(2) });
    const state = stateOf(await api.get('/timer/t2/update?label=Panel&speaker=Grace&duration=900000&warnAt=30000&appearance=clock'));
    expect(state.timers[1]).toMatchObject({ id: 't2', label: 'Panel', speaker: 'Grace', duration: 900_000, warnAt: 30_000, appearance: 'clock' });
    expect(state.seq).toBe(2);
  });

  it('POST takes the same fields from a JSON body', async () => {
    const { api } = setup({ room: roomWithTimers(2) });
    const state = stateOf(await api.post('/timer/t2/update', { label: 'Q&A', duration: 300_000 }));
    expect(state.timers[1]).toMatchObject({ label: 'Q&A', duration: 300_000, speaker: '' });
  });

  it('a new duration on the running active timer keeps the elapsed time', async () => {
    const { t, api } = setup({ room: roomWithTimers(1) });
    await api.get('/start');
    t.clock.advance(20_000);
    const state = stateOf(await api.get('/timer/t1/update?duration=120000'));
    expect(state.running).toBe(true);
    expect(state.remaining).toBe(120_000 - 20_000);
  });

  it.each([
    ['GET', ''],
    ['GET', '?unrelated=1'],
    ['POST', undefined],
    ['POST', {}],
    ['POST', { nothing: 'here' }],
  ])('%s with no field (%j) is 400', async (method, input) => {
    const { api } = setup();
    const result =
      method === 'GET' ? await api.get(`/timer/t1/update${String(input)}`) : await api.post('/timer/t1/update', input);
    expect(errorOf(result, 400)).toMatch(/at least one field/);
  });

  it.each([
    ['?duration=999', 'duration'],
    ['?duration=86400001', 'duration'],
    ['?duration=1.5', 'duration'],
    ['?duration=abc', 'duration'],
    ['?duration=', 'duration'],
    ['?warnAt=-1', 'warnAt'],
    ['?warnAt=86400001', 'warnAt'],
    ['?appearance=bars', 'appearance'],
  ])('GET %s is 400 naming %s and changes nothing', async (query, field) => {
    const { api } = setup();
    expect(errorOf(await api.get(`/timer/t1/update${query}`), 400)).toContain(field);
    expect(stateOf(await api.get('/state')).seq).toBe(1);
  });

  it.each([
    [{ duration: '900000' }, 'duration'],
    [{ warnAt: true }, 'warnAt'],
    [{ label: null }, 'label'],
  ])('POST %j is 400 naming %s', async (body, field) => {
    const { api } = setup();
    expect(errorOf(await api.post('/timer/t1/update', body), 400)).toContain(field);
  });

  it('an unknown id is 404 (before the missing-field 400)', async () => {
    const { api } = setup();
    expect(errorOf(await api.get('/timer/ghost/update'), 404)).toContain('ghost');
    expect(errorOf(await api.post('/timer/ghost/update', { label: 'x' }), 404)).toContain('ghost');
  });
});

describe('/timer/{id}/delete', () => {
  it.each(['GET', 'POST'])('%s removes the timer; deleting the active one makes the following one active', async (method) => {
    const { api } = setup({ room: roomWithTimers(3) });
    const state = stateOf(await api.send(method, '/timer/t1/delete'));
    expect(state.timers.map((t) => t.id)).toEqual(['t2', 't3']);
    expect(state).toMatchObject({ activeTimerId: 't2', running: false, remaining: 120_000 });
  });

  it('deleting the last remaining timer is 400 and keeps it', async () => {
    const { api } = setup();
    expect(errorOf(await api.get('/timer/t1/delete'), 400)).toMatch(/last timer/);
    expect(errorOf(await api.post('/timer/t1/delete'), 400)).toMatch(/last timer/);
    const state = stateOf(await api.get('/state'));
    expect(state.timers.map((t) => t.id)).toEqual(['t1']);
    expect(state.seq).toBe(1);
  });

  it('an unknown id is 404', async () => {
    const { api } = setup({ room: roomWithTimers(2) });
    expect(errorOf(await api.get('/timer/zz/delete'), 404)).toContain('zz');
  });
});

describe('/timer/{id}/move (addition)', () => {
  it('moves a timer to a 0-based position, GET and POST', async () => {
    const { api } = setup({ room: roomWithTimers(3) });
    expect(stateOf(await api.get('/timer/t3/move?to=0')).timers.map((t) => t.id)).toEqual(['t3', 't1', 't2']);
    expect(stateOf(await api.post('/timer/t3/move', { to: 2 })).timers.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
  });

  it('needs `to` within the running order', async () => {
    const { api } = setup({ room: roomWithTimers(3) });
    expect(errorOf(await api.get('/timer/t3/move'), 400)).toContain('to');
    expect(errorOf(await api.get('/timer/t3/move?to=3'), 400)).toContain('to');
    expect(errorOf(await api.get('/timer/nope/move?to=0'), 404)).toContain('nope');
  });
});

describe('/message/set and /message/clear', () => {
  it('GET sets the message from the query, with defaults filled in', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/message/set?text=Wrap%20up')).message).toEqual({ text: 'Wrap up', flash: false, color: 'white', bold: false });
    expect(stateOf(await api.get('/message/set?text=Now&flash=1&color=red&bold=1')).message).toEqual({
      text: 'Now', flash: true, color: 'red', bold: true,
    });
    expect(stateOf(await api.get('/message/set?text=Calm&flash=0&color=green&bold=0')).message).toEqual({
      text: 'Calm', flash: false, color: 'green', bold: false,
    });
  });

  it('POST sets the message from a JSON body', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/message/set', { text: 'Hi', flash: true, color: 'green', bold: true })).message).toEqual({
      text: 'Hi', flash: true, color: 'green', bold: true,
    });
  });

  it('trims the text', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/message/set?text=%20%20Go%20')).message?.text).toBe('Go');
  });

  it.each([
    ['', 'text'],
    ['?text=', 'text'],
    ['?text=%20%20%20', 'text'],
    [`?text=${'a'.repeat(501)}`, 'text'],
    ['?text=a&flash=2', 'flash'],
    ['?text=a&flash=true', 'flash'],
    ['?text=a&bold=yes', 'bold'],
    ['?text=a&bold=', 'bold'],
    ['?text=a&color=blue', 'color'],
    ['?text=a&color=RED', 'color'],
  ])('GET %s is 400 naming %s, and the message stays unset', async (query, field) => {
    const { api } = setup();
    expect(errorOf(await api.get(`/message/set${query}`), 400)).toContain(field);
    expect(stateOf(await api.get('/state')).message).toBeNull();
  });

  it.each([
    [undefined, 'text'],
    [{}, 'text'],
    [{ text: '' }, 'text'],
    [{ text: 5 }, 'text'],
    [{ text: 'a', flash: 1 }, 'flash'],
    [{ text: 'a', flash: '1' }, 'flash'],
    [{ text: 'a', bold: 'true' }, 'bold'],
    [{ text: 'a', color: 'purple' }, 'color'],
  ])('POST %j is 400 naming %s', async (body, field) => {
    const { api } = setup();
    expect(errorOf(await api.post('/message/set', body), 400)).toContain(field);
  });

  it.each(['GET', 'POST'])('%s /message/clear removes the message', async (method) => {
    const { api } = setup();
    await api.get('/message/set?text=x');
    expect(stateOf(await api.send(method, '/message/clear')).message).toBeNull();
  });
});

describe('/settings (addition)', () => {
  it('GET takes zeroBehavior and autoAdvance (0/1) from the query', async () => {
    const { api } = setup();
    const state = stateOf(await api.get('/settings?zeroBehavior=stop&autoAdvance=1'));
    expect(state.settings).toEqual({ zeroBehavior: 'stop', autoAdvance: true, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
    expect(state).toMatchObject({ zeroBehavior: 'stop', autoAdvance: true });
    expect(stateOf(await api.get('/settings?autoAdvance=0')).settings).toEqual({ zeroBehavior: 'stop', autoAdvance: false, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
  });

  it('POST takes them from JSON, booleans for autoAdvance', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/settings', { zeroBehavior: 'hide', autoAdvance: true })).settings).toEqual({
      zeroBehavior: 'hide', autoAdvance: true, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null,
    });
  });

  it.each([
    ['GET', '', /at least one/],
    ['GET', '?zeroBehavior=explode', /zeroBehavior/],
    ['GET', '?autoAdvance=true', /autoAdvance/],
    ['POST', {}, /at least one/],
    ['POST', { autoAdvance: 1 }, /autoAdvance/],
  ])('%s %j is 400', async (method, input, message) => {
    const { api } = setup();
    const result = method === 'GET' ? await api.get(`/settings${String(input)}`) : await api.post('/settings', input);
    expect(errorOf(result, 400)).toMatch(message);
  });
});

describe('/{cmd} transport commands, GET and POST', () => {
  it.each(['GET', 'POST'])('%s start, pause, stop, reset', async (method) => {
    const { t, api } = setup();
    const started = stateOf(await api.send(method, '/start'));
    expect(started).toMatchObject({ running: true, remainingAtPause: null, seq: 2 });
    t.clock.advance(10_000);
    const paused = stateOf(await api.send(method, '/pause'));
    expect(paused).toMatchObject({ running: false, endAt: null, remainingAtPause: 590_000, seq: 3 });
    await api.send(method, '/start');
    t.clock.advance(1_000);
    expect(stateOf(await api.send(method, '/stop'))).toMatchObject({ running: false, remainingAtPause: 589_000 });
    expect(stateOf(await api.send(method, '/reset'))).toMatchObject({ running: false, remaining: 600_000 });
  });

  it('start while running and pause while paused answer 200 and change nothing', async () => {
    const { api } = setup();
    const paused = stateOf(await api.get('/pause'));
    expect(paused.seq).toBe(1);
    const started = stateOf(await api.get('/start'));
    expect(stateOf(await api.get('/start')).seq).toBe(started.seq);
  });

  it.each(['GET', 'POST'])('%s next and previous keep the transport; next on the last timer is 400', async (method) => {
    const { api } = setup({ room: roomWithTimers(2) });
    await api.get('/start');
    const next = stateOf(await api.send(method, '/next'));
    expect(next).toMatchObject({ activeTimerId: 't2', running: true, remaining: 120_000 });
    const seq = next.seq;
    expect(errorOf(await api.send(method, '/next'), 400)).toMatch(/no next timer/);
    expect(stateOf(await api.get('/state'))).toMatchObject({ activeTimerId: 't2', seq });
    expect(stateOf(await api.send(method, '/previous'))).toMatchObject({ activeTimerId: 't1', running: true, remaining: 60_000 });
    expect(errorOf(await api.send(method, '/previous'), 400)).toMatch(/no previous timer/);
  });

  it.each(['GET', 'POST'])('%s toggle starts when paused and pauses when running', async (method) => {
    const { api } = setup();
    expect(stateOf(await api.send(method, '/toggle')).running).toBe(true);
    expect(stateOf(await api.send(method, '/toggle')).running).toBe(false);
  });

  it.each(['GET', 'POST'])('%s status answers the snapshot and changes nothing', async (method) => {
    const { api } = setup();
    const state = stateOf(await api.send(method, '/status'));
    expect(state.seq).toBe(1);
    expect(stateOf(await api.get('/state'))).toEqual(state);
  });
});

describe('/{cmd} adjust', () => {
  it.each([
    ['ms=60000', 660_000],
    ['ms=-30000', 570_000],
    ['ms=+60000', 660_000],
    ['ms=%2B60000', 660_000],
    ['ms=3600000', 4_200_000],
    ['ms=-3600000', -3_000_000],
    ['ms=0', 600_000],
    ['ms=5&unused=x', 600_005],
  ])('GET ?%s leaves %i ms', async (query, remaining) => {
    const { api } = setup();
    expect(stateOf(await api.get(`/adjust?${query}`)).remaining).toBe(remaining);
  });

  it('moves endAt while running', async () => {
    const { api } = setup();
    const started = stateOf(await api.get('/start'));
    const adjusted = stateOf(await api.get('/adjust?ms=-30000'));
    expect(adjusted.endAt).toBe(started.endAt! - 30_000);
    expect(adjusted.running).toBe(true);
  });

  it.each([
    ['', /ms.*required/],
    ['?ms=', /ms/],
    ['?ms=1.5', /ms/],
    ['?ms=abc', /ms/],
    ['?ms=1e3', /ms/],
    ['?ms=0x10', /ms/],
    ['?ms=60000ms', /ms/],
    ['?ms=--5', /ms/],
    ['?ms=3600001', /ms.*too large/],
    ['?ms=-3600001', /ms.*too small/],
    ['?ms=99999999999999999999', /ms/],
  ])('GET %s is 400 naming ms, and nothing changes', async (query, message) => {
    const { api } = setup();
    expect(errorOf(await api.get(`/adjust${query}`), 400)).toMatch(message);
    expect(stateOf(await api.get('/state'))).toMatchObject({ seq: 1, remaining: 600_000 });
  });

  it('refuses a result above 24 hours with 400', async () => {
    const { api } = setup();
    await api.get('/timer/t1/update?duration=86000000');
    expect(errorOf(await api.get('/adjust?ms=3600000'), 400)).toMatch(/ms/);
  });

  it.each([
    [{ ms: 60_000 }, 660_000],
    [{ ms: -30_000 }, 570_000],
    [{ ms: 1_000, text: 'ignored', on: 5 }, 601_000],
  ])('POST %j leaves %i ms', async (body, remaining) => {
    const { api } = setup();
    expect(stateOf(await api.post('/adjust', body)).remaining).toBe(remaining);
  });

  it.each([
    [undefined, /ms.*required/],
    [{}, /ms.*required/],
    [{ ms: '5' }, /ms/],
    [{ ms: 1.5 }, /ms/],
    [{ ms: null }, /ms/],
    [{ ms: 3_600_001 }, /ms/],
    [{ ms: -3_600_001 }, /ms/],
  ])('POST %j is 400 naming ms', async (body, message) => {
    const { api } = setup();
    expect(errorOf(await api.post('/adjust', body), 400)).toMatch(message);
    expect(stateOf(await api.get('/state')).seq).toBe(1);
  });
});

describe('/{cmd} message and clear_message', () => {
  it('GET message takes text, flash, color, bold', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/message?text=Hello&flash=1&color=green&bold=1')).message).toEqual({
      text: 'Hello', flash: true, color: 'green', bold: true,
    });
  });

  it('POST message takes a JSON body', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/message', { text: 'Hello', color: 'red' })).message).toEqual({
      text: 'Hello', flash: false, color: 'red', bold: false,
    });
  });

  it.each([
    ['?text=', 'text'],
    ['?text=%20', 'text'],
    ['', 'text'],
    ['?text=a&flash=yes', 'flash'],
    ['?text=a&color=pink', 'color'],
    ['?text=a&bold=2', 'bold'],
  ])('GET message%s is 400 naming %s', async (query, field) => {
    const { api } = setup();
    expect(errorOf(await api.get(`/message${query}`), 400)).toContain(field);
  });

  it.each(['GET', 'POST'])('%s clear_message clears it', async (method) => {
    const { api } = setup();
    await api.get('/message?text=x');
    expect(stateOf(await api.send(method, '/clear_message')).message).toBeNull();
  });
});

describe('/{cmd} blackout and onair', () => {
  const cases: [string, boolean][] = [
    ['', true],
    ['?on=1', true],
    ['?on=0', false],
    ['?on=', true],
    ['?on=yes', true],
    ['?on=off', true],
    ['?on=false', true],
    ['?on=00', true],
  ];
  it.each(cases)('GET blackout%s sets blackout to %s', async (query, on) => {
    const { api } = setup({ room: { ...roomWithTimers(1), blackout: !on } });
    expect(stateOf(await api.get(`/blackout${query}`)).blackout).toBe(on);
  });

  it.each(cases)('GET onair%s sets onAir to %s', async (query, on) => {
    const { api } = setup({ room: { ...roomWithTimers(1), onAir: !on } });
    expect(stateOf(await api.get(`/onair${query}`)).onAir).toBe(on);
  });

  const jsonCases: [unknown, boolean][] = [
    [undefined, true],
    [{}, true],
    [{ on: '1' }, true],
    [{ on: '0' }, false],
    [{ on: '' }, true],
    [{ on: 'no' }, true],
  ];
  it.each(jsonCases)('POST blackout and onair with %j set them to %s', async (body, on) => {
    const { api } = setup({ room: { ...roomWithTimers(1), blackout: !on, onAir: !on } });
    expect(stateOf(await api.post('/blackout', body)).blackout).toBe(on);
    expect(stateOf(await api.post('/onair', body)).onAir).toBe(on);
  });

  it.each([[{ on: 0 }], [{ on: false }], [{ on: null }]])('POST with a non-string on (%j) is 400 naming on', async (body) => {
    const { api } = setup();
    expect(errorOf(await api.post('/blackout', body), 400)).toContain('on');
    expect(errorOf(await api.post('/onair', body), 400)).toContain('on');
  });

  it.each(['GET', 'POST'])('%s toggle_blackout and toggle_onair switch them over', async (method) => {
    const { api } = setup();
    expect(stateOf(await api.send(method, '/toggle_blackout')).blackout).toBe(true);
    expect(stateOf(await api.send(method, '/toggle_blackout')).blackout).toBe(false);
    expect(stateOf(await api.send(method, '/toggle_onair')).onAir).toBe(true);
    expect(stateOf(await api.send(method, '/toggle_onair')).onAir).toBe(false);
  });
});

describe('literal paths take precedence over /{cmd}', () => {
  it('/state, /timers and /settings are operations, not unknown commands', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/state')).seq).toBe(1);
    expect(TimersListSchema.parse((await api.get('/timers')).body).timers).toHaveLength(1);
    expect((await api.post('/timers')).status).toBe(201);
    expect(stateOf(await api.get('/settings?autoAdvance=1')).autoAdvance).toBe(true);
  });

  it('/message/set is the literal operation while /message is the command', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/message/set?text=literal')).message?.text).toBe('literal');
    expect(stateOf(await api.get('/message?text=cmd')).message?.text).toBe('cmd');
    expect(stateOf(await api.get('/message/clear')).message).toBeNull();
  });

  it('a literal path used with a method it lacks is 404 naming the methods, not a command', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/state'), 404)).toMatch(/\/state.*only GET/);
  });

  it('a trailing slash reaches the same operation', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/start/')).running).toBe(true);
    expect(stateOf(await api.get('/state/')).running).toBe(true);
  });
});

describe('every answer changes seq by exactly one per change', () => {
  it('commands that change something raise seq by 1; reads and no-ops leave it', async () => {
    const { api } = setup({ room: roomWithTimers(2) });
    const steps: [string, number][] = [
      ['/status', 1],
      ['/start', 2],
      ['/start', 2],
      ['/state', 2],
      ['/adjust?ms=1000', 3],
      ['/blackout?on=1', 4],
      ['/blackout?on=1', 4],
      ['/next', 5],
      ['/timers', 5],
      ['/message?text=a', 6],
      ['/clear_message', 7],
      ['/clear_message', 7],
    ];
    for (const [path, seq] of steps) {
      const result = await api.get(path);
      expect(result.status, path).toBe(200);
      expect(stateOf(await api.get('/state')).seq, path).toBe(seq);
    }
  });
});
