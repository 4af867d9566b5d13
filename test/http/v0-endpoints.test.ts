// Version 0: GET only, the reduced command set of remote-control-api.md §4, frozen.
import { beforeAll, describe, expect, it } from 'vitest';
import { V0StateEnvelopeSchema } from '../../src/commands/schemas.js';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf as v1StateOf, type ApiResult } from '../helpers/openapi-check.js';
import { createTestApp, roomWithTimers, type TestAppOptions } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function setup(opts: TestAppOptions = {}) {
  const t = createTestApp(opts);
  return { t, v0: apiClient(t, checker, 'v0'), v1: apiClient(t, checker, 'v1') };
}

/** Asserts a 200 with v0's state, read by v0's own schema (V0State: the state as it was before issue 29). */
function stateOf(result: ApiResult) {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return V0StateEnvelopeSchema.parse(result.body).state;
}

const V0_COMMANDS = ['start', 'pause', 'stop', 'reset', 'next', 'adjust', 'message', 'clear_message', 'blackout', 'status'];

describe('v0 commands', () => {
  it('start, pause, stop and reset drive the transport', async () => {
    const { t, v0 } = setup();
    expect(stateOf(await v0.get('/start'))).toMatchObject({ running: true, seq: 2 });
    t.clock.advance(4_000);
    expect(stateOf(await v0.get('/pause'))).toMatchObject({ running: false, remainingAtPause: 596_000 });
    await v0.get('/start');
    t.clock.advance(1_000);
    expect(stateOf(await v0.get('/stop'))).toMatchObject({ running: false, remainingAtPause: 595_000 });
    expect(stateOf(await v0.get('/reset'))).toMatchObject({ running: false, remaining: 600_000 });
  });

  it('next moves along the running order and is 400 on the last timer', async () => {
    const { v0 } = setup({ room: roomWithTimers(2) });
    expect(stateOf(await v0.get('/next')).activeTimerId).toBe('t2');
    expect(errorOf(await v0.get('/next'), 400)).toMatch(/no next timer/);
  });

  it('adjust takes ms with the same rules as v1', async () => {
    const { v0 } = setup();
    expect(stateOf(await v0.get('/adjust?ms=+60000')).remaining).toBe(660_000);
    expect(stateOf(await v0.get('/adjust?ms=-30000')).remaining).toBe(630_000);
    expect(errorOf(await v0.get('/adjust'), 400)).toMatch(/ms.*required/);
    expect(errorOf(await v0.get('/adjust?ms=1.5'), 400)).toContain('ms');
    expect(errorOf(await v0.get('/adjust?ms=3600001'), 400)).toContain('ms');
  });

  it('message takes text and flash', async () => {
    const { v0 } = setup();
    expect(stateOf(await v0.get('/message?text=Hello&flash=1')).message).toEqual({ text: 'Hello', flash: true, color: 'white', bold: false });
    expect(errorOf(await v0.get('/message?text='), 400)).toContain('text');
    expect(errorOf(await v0.get('/message?text=a&flash=2'), 400)).toContain('flash');
  });

  it('message ignores color and bold, which v0 does not have', async () => {
    const { v0 } = setup();
    expect(stateOf(await v0.get('/message?text=Hi&color=red&bold=1')).message).toEqual({ text: 'Hi', flash: false, color: 'white', bold: false });
    // Ignored means not validated either.
    expect(stateOf(await v0.get('/message?text=Hi&color=purple&bold=maybe')).message?.color).toBe('white');
  });

  it('clear_message clears the message', async () => {
    const { v0 } = setup();
    await v0.get('/message?text=x');
    expect(stateOf(await v0.get('/clear_message')).message).toBeNull();
  });

  it.each([
    ['', true],
    ['?on=0', false],
    ['?on=1', true],
    ['?on=anything', true],
  ])('blackout%s sets blackout to %s', async (query, on) => {
    const { v0 } = setup({ room: { ...roomWithTimers(1), blackout: !on } });
    expect(stateOf(await v0.get(`/blackout${query}`)).blackout).toBe(on);
  });

  it('status reads the snapshot and changes nothing', async () => {
    const { v0 } = setup();
    const state = stateOf(await v0.get('/status'));
    expect(state.seq).toBe(1);
    expect(stateOf(await v0.get('/status')).seq).toBe(1);
  });

  it('v0 and v1 drive the same room', async () => {
    const { v0, v1 } = setup();
    await v0.get('/start');
    expect(v1StateOf(await v1.get('/state')).running).toBe(true);
    await v1.get('/pause');
    expect(stateOf(await v0.get('/status')).running).toBe(false);
  });
});

/** The state's fields as v0 answered them before issue 29, in their order. */
const V0_STATE_FIELDS = [
  'seq', 'serverNow', 'running', 'endAt', 'remainingAtPause', 'remaining', 'zeroBehavior', 'autoAdvance', 'blackout', 'onAir',
  'activeTimerId', 'activeLabel', 'activeSpeaker', 'warnAt', 'dangerAt', 'duration', 'message', 'timers', 'tags', 'settings', 'display',
  'flash', 'chimeTestAt', 'shownQuestion', 'questions',
];
const V0_SETTINGS_FIELDS = ['zeroBehavior', 'autoAdvance', 'timeZone', 'clockFormat', 'chimeAtZero', 'chimeAtWarning', 'chimeVolume'];

describe('v0 answers its state as it always did', () => {
  it('without the schedule, the actual times, the aux timer, plannedStart or the display switches of issue 29', async () => {
    const { t, v0, v1 } = setup({ room: roomWithTimers(2) });
    // A room where every one of them has something to show.
    await v1.get(`/settings?plannedStart=${t.clock.wallMs()}`);
    await v1.get('/display?showOverUnder=1&showShowEnd=1&showAux=1');
    await v1.get('/aux_start');
    await v1.get('/start');
    t.clock.advance(30_000);
    await v1.get('/next');
    for (const path of ['/status', '/start', '/pause', '/adjust?ms=1000', '/message?text=Hi', '/blackout?on=0']) {
      const state = stateOf(await v0.get(path)) as Record<string, unknown>;
      expect(Object.keys(state), path).toEqual(V0_STATE_FIELDS);
      expect(Object.keys(state.settings as object), path).toEqual(V0_SETTINGS_FIELDS);
      for (const name of ['showOverUnder', 'showShowEnd', 'showAux']) expect(state.display, `${path} ${name}`).not.toHaveProperty(name);
    }
  });

  it('byte for byte the v1 state less those fields, in the same order', async () => {
    const { t, v0, v1 } = setup({ room: roomWithTimers(3) });
    await v1.get(`/settings?plannedStart=${t.clock.wallMs() + 60_000}`);
    await v1.get('/aux?label=Q%26A&appearance=countup');
    await v1.get('/start');
    t.clock.advance(5_000);
    // The clock stands still between the two reads: the same snapshot, seen by each version.
    const fromV1 = await (await t.request(`${v1.base}/state`)).text();
    const fromV0 = await (await t.request(`${v0.base}/status`)).text();
    const expected = JSON.parse(fromV1) as { state: Record<string, unknown> & { settings: Record<string, unknown>; display: Record<string, unknown> } };
    expect(expected.state).toHaveProperty('schedule');
    for (const name of ['started', 'actuals', 'aux', 'tally', 'screen', 'schedule']) delete expected.state[name];
    delete expected.state.settings.plannedStart;
    for (const name of ['showOverUnder', 'showShowEnd', 'showAux']) delete expected.state.display[name];
    expect(fromV0).toBe(JSON.stringify(expected));
  });
});

describe('what v0 does not have', () => {
  it.each(['onair', 'previous', 'toggle', 'toggle_blackout', 'toggle_onair', 'aux', 'aux_start', 'aux_pause', 'aux_toggle', 'aux_reset', 'aux_adjust', 'show_reset'])('GET /%s is 404 unknown command, listing the v0 commands', async (cmd) => {
    const { v0 } = setup();
    const message = errorOf(await v0.get(`/${cmd}?on=1`), 404);
    expect(message).toContain(`unknown command "${cmd}"`);
    const listed = (message.split('v0 commands:')[1] ?? '').split(',').map((name) => name.trim());
    expect(listed.sort()).toEqual([...V0_COMMANDS].sort());
  });

  it.each(['/settings?autoAdvance=1', '/timers', '/state', '/timer/t1/select', '/timer/t1/update?label=x', '/timer/t1/delete', '/message/set?text=x', '/message/clear'])(
    'GET %s is 404 and changes nothing',
    async (path) => {
      const { v0, v1 } = setup({ room: roomWithTimers(2) });
      errorOf(await v0.get(path), 404);
      expect(v1StateOf(await v1.get('/state')).seq).toBe(1);
    },
  );

  it.each(V0_COMMANDS)('POST /%s is 404 (v0 is GET only) and changes nothing', async (cmd) => {
    const { v0, v1 } = setup({ room: roomWithTimers(2) });
    expect(errorOf(await v0.post(`/${cmd}`, { ms: 1000, text: 'x', on: '1' }), 404)).toMatch(/accepts only GET/);
    expect(v1StateOf(await v1.get('/state')).seq).toBe(1);
  });

  it('POST on v0 is 404 before any input check (no 400 for a missing ms, no 413 for a big body)', async () => {
    const { v0 } = setup();
    errorOf(await v0.post('/adjust'), 404);
    errorOf(await v0.post('/adjust', 'x'.repeat(20_000)), 404);
    errorOf(await v0.post('/adjust', '{not json'), 404);
  });

  it('an unknown v0 command is 404', async () => {
    const { v0 } = setup();
    expect(errorOf(await v0.get('/launch'), 404)).toContain('unknown command "launch"');
  });
});
