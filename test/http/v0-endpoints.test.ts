// Version 0: GET only, the reduced command set of remote-control-api.md §4, frozen.
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp, roomWithTimers, type TestAppOptions } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function setup(opts: TestAppOptions = {}) {
  const t = createTestApp(opts);
  return { t, v0: apiClient(t, checker, 'v0'), v1: apiClient(t, checker, 'v1') };
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
    expect(stateOf(await v1.get('/state')).running).toBe(true);
    await v1.get('/pause');
    expect(stateOf(await v0.get('/status')).running).toBe(false);
  });
});

describe('what v0 does not have', () => {
  it.each(['onair', 'previous', 'toggle', 'toggle_blackout', 'toggle_onair'])('GET /%s is 404 unknown command, listing the v0 commands', async (cmd) => {
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
      expect(stateOf(await v1.get('/state')).seq).toBe(1);
    },
  );

  it.each(V0_COMMANDS)('POST /%s is 404 (v0 is GET only) and changes nothing', async (cmd) => {
    const { v0, v1 } = setup({ room: roomWithTimers(2) });
    expect(errorOf(await v0.post(`/${cmd}`, { ms: 1000, text: 'x', on: '1' }), 404)).toMatch(/accepts only GET/);
    expect(stateOf(await v1.get('/state')).seq).toBe(1);
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
