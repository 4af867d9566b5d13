// The module's connection code against the real bundled service on a loopback
// port, without Companion: ShowclockConnection with a FakeHost in place of
// InstanceBase (the connection needs only its updateStatus, log,
// setVariableValues and checkFeedbacks), and the actions and feedbacks built
// from it exactly as the Companion instance builds them.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InstanceStatus, type CompanionActionDefinition, type CompanionOptionValues } from '@companion-module/base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { actionDefinitions } from '../../src/companion/actions.js';
import { setupOf } from '../../src/companion/config.js';
import { ShowclockConnection } from '../../src/companion/connection.js';
import { feedbackDefinitions } from '../../src/companion/feedbacks.js';
import { offsetSeconds } from '../../src/domain/schedule-text.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { countdownText } from '../../src/client/face.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { countingFetch, FakeHost, waitFor } from './fake-host.js';
import { direct, serverState } from './live-box.js';

interface Module {
  readonly host: FakeHost;
  readonly connection: ShowclockConnection;
  readonly seen: ReturnType<typeof countingFetch>['seen'];
  fire(actionId: string, options?: CompanionOptionValues): Promise<void>;
}

/** The audience link's key, fixed so the tests can ask questions as a phone in the hall does. */
const AUDIENCE_KEY = 'CompanionTestAudienceKey_0123';

const modules: ShowclockConnection[] = [];
const dirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-companion-'));
  dirs.push(dir);
  return dir;
}

function startModule(port: number, apiKey = TEST_API_KEY): Module {
  const host = new FakeHost();
  const { fetch, seen } = countingFetch(apiKey);
  const connection = new ShowclockConnection(host, { fetch });
  modules.push(connection);
  const actions = actionDefinitions(connection);
  connection.configure(setupOf({ host: '127.0.0.1', port }, { apiKey }));
  return {
    host,
    connection,
    seen,
    async fire(actionId, options = {}) {
      const def = actions[actionId] as CompanionActionDefinition;
      await def.callback(
        { id: 'test', controlId: 'bank', actionId, options, surfaceId: undefined },
        { parseVariablesInString: async (text) => text, setCustomVariableValue: () => {} },
      );
    },
  };
}

async function connected(module: Module): Promise<void> {
  await waitFor(() => module.host.status()?.status === InstanceStatus.Ok && module.connection.snapshot() !== null, 10_000, 'the module to connect');
}

/** The parts of a snapshot that are the room (not the instant it was taken). */
function room(s: Snapshot) {
  return {
    seq: s.seq,
    running: s.running,
    remainingAtPause: s.remainingAtPause,
    activeTimerId: s.activeTimerId,
    message: s.message,
    blackout: s.blackout,
    onAir: s.onAir,
    settings: s.settings,
    timers: s.timers,
  };
}

beforeAll(() => {
  ensureBundle();
});

afterEach(() => {
  for (const m of modules.splice(0)) m.destroy();
});

afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Companion module against the real service', () => {
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    // A high quota: this file sends a few dozen requests within the minute.
    service = await startService(
      serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir(), SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_AUDIENCE_KEY: AUDIENCE_KEY, SHOWCLOCK_RATE_LIMIT: '1000' }),
    );
  });

  afterAll(async () => {
    await stopService(service);
  });

  it('connects with a version check and one push stream, and shows the API version', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    expect(m.host.status()).toEqual({ status: InstanceStatus.Ok, message: 'Connected (Showclock API 1.0.0)' });
    await waitFor(() => m.host.variables.connection === 'connected', 1_000, 'the connection variable');
    expect(m.host.variables).toMatchObject({ server_version: '1.0.0', active_label: 'Timer 1', remaining: '10:00', phase: 'ready', timer_count: 1 });
    // No polling: the document (not counted against the key) and the stream, nothing else.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(m.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/openapi.json', 'GET /api/v1/{key}/events']);
    // Companion calls configUpdated on a label change too: the same box keeps its stream.
    m.connection.configure(setupOf({ host: '127.0.0.1', port: s.port }, { apiKey: TEST_API_KEY }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(m.seen).toHaveLength(2);
    expect(m.connection.isConnected()).toBe(true);
  });

  it('changes the room with every action as the same HTTP command does', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    const steps: { action: string; options?: CompanionOptionValues; request: [string, Record<string, unknown>]; effect: (after: Snapshot, before: Snapshot) => void }[] = [
      {
        action: 'timer_create',
        options: { label: 'Keynote', speaker: 'Ada', duration: '20:00', warnAt: '2:00', appearance: 'countdown' },
        request: ['/timers', { label: 'Keynote', speaker: 'Ada', duration: 1_200_000, warnAt: 120_000, appearance: 'countdown' }],
        effect: (a) => expect(a.timers.at(-1)).toMatchObject({ label: 'Keynote', speaker: 'Ada', duration: 1_200_000, warnAt: 120_000 }),
      },
      {
        action: 'timer_create',
        options: { label: 'Panel', speaker: '', duration: '5m', warnAt: '', appearance: 'countup' },
        request: ['/timers', { label: 'Panel', duration: 300_000, appearance: 'countup' }],
        effect: (a) => expect(a.timers.map((t) => t.label)).toEqual(['Timer 1', 'Keynote', 'Panel']),
      },
      { action: 'timer_select', options: { by: 'position', timer: '2' }, request: ['/timer/{id2}/select', {}], effect: (a) => expect(a).toMatchObject({ activeLabel: 'Keynote', running: false, remainingAtPause: 1_200_000 }) },
      { action: 'start', request: ['/start', {}], effect: (a) => expect(a.running).toBe(true) },
      { action: 'pause', request: ['/pause', {}], effect: (a) => expect(a.running).toBe(false) },
      { action: 'toggle', request: ['/toggle', {}], effect: (a) => expect(a.running).toBe(true) },
      { action: 'stop', request: ['/stop', {}], effect: (a) => expect(a.running).toBe(false) },
      {
        action: 'adjust',
        options: { sign: '-', minutes: 1, seconds: 0 },
        request: ['/adjust', { ms: -60_000 }],
        effect: (a, b) => expect(a.remainingAtPause).toBe((b.remainingAtPause as number) - 60_000),
      },
      { action: 'adjust_ms', options: { ms: '+30000' }, request: ['/adjust', { ms: 30_000 }], effect: (a, b) => expect(a.remainingAtPause).toBe((b.remainingAtPause as number) + 30_000) },
      { action: 'reset', request: ['/reset', {}], effect: (a) => expect(a.remainingAtPause).toBe(1_200_000) },
      { action: 'next', request: ['/next', {}], effect: (a) => expect(a.activeLabel).toBe('Panel') },
      { action: 'previous', request: ['/previous', {}], effect: (a) => expect(a.activeLabel).toBe('Keynote') },
      {
        action: 'message_set',
        options: { text: 'Wrap up', color: 'red', flash: true, bold: true },
        request: ['/message/set', { text: 'Wrap up', color: 'red', flash: true, bold: true }],
        effect: (a) => expect(a.message).toEqual({ text: 'Wrap up', color: 'red', flash: true, bold: true }),
      },
      { action: 'message_toggle', options: { text: 'Wrap up', color: 'red', flash: true, bold: true }, request: ['/message/clear', {}], effect: (a) => expect(a.message).toBeNull() },
      {
        action: 'message_toggle',
        options: { text: 'Five minutes', color: 'white', flash: false, bold: false },
        request: ['/message/set', { text: 'Five minutes', color: 'white', flash: false, bold: false }],
        effect: (a) => expect(a.message?.text).toBe('Five minutes'),
      },
      { action: 'message_clear', request: ['/message/clear', {}], effect: (a) => expect(a.message).toBeNull() },
      { action: 'blackout', options: { mode: 'on' }, request: ['/blackout', { on: '1' }], effect: (a) => expect(a.blackout).toBe(true) },
      { action: 'blackout', options: { mode: 'toggle' }, request: ['/toggle_blackout', {}], effect: (a) => expect(a.blackout).toBe(false) },
      { action: 'onair', options: { mode: 'on' }, request: ['/onair', { on: '1' }], effect: (a) => expect(a.onAir).toBe(true) },
      { action: 'onair', options: { mode: 'off' }, request: ['/onair', { on: '0' }], effect: (a) => expect(a.onAir).toBe(false) },
      { action: 'onair', options: { mode: 'toggle' }, request: ['/toggle_onair', {}], effect: (a) => expect(a.onAir).toBe(true) },
      { action: 'zero_behavior', options: { zeroBehavior: 'stop' }, request: ['/settings', { zeroBehavior: 'stop' }], effect: (a) => expect(a.zeroBehavior).toBe('stop') },
      { action: 'auto_advance', options: { mode: 'on' }, request: ['/settings', { autoAdvance: true }], effect: (a) => expect(a.autoAdvance).toBe(true) },
      { action: 'auto_advance', options: { mode: 'toggle' }, request: ['/settings', { autoAdvance: false }], effect: (a) => expect(a.autoAdvance).toBe(false) },
      {
        action: 'timer_update',
        options: { by: 'position', timer: '3', label: 'Panel talk', speaker: '', duration: '6:00', warnAt: '', appearance: 'unchanged' },
        request: ['/timer/{id3}/update', { label: 'Panel talk', duration: 360_000 }],
        effect: (a) => expect(a.timers[2]).toMatchObject({ label: 'Panel talk', duration: 360_000 }),
      },
      { action: 'timer_move', options: { by: 'position', timer: '3', to: '1' }, request: ['/timer/{id3}/move', { to: 0 }], effect: (a) => expect(a.timers[0]?.label).toBe('Panel talk') },
      { action: 'timer_delete', options: { by: 'position', timer: '1' }, request: ['/timer/{id1}/delete', {}], effect: (a) => expect(a.timers.map((t) => t.label)).toEqual(['Timer 1', 'Keynote']) },
    ];
    for (const step of steps) {
      const before = await serverState(s);
      const ids = before.timers.map((t) => t.id);
      const sentBefore = m.seen.length;
      await m.fire(step.action, step.options);
      // The request is the README's: POST to the same path with the same fields.
      const [expectedPath, expectedBody] = step.request;
      const sent = m.seen.slice(sentBefore);
      expect(sent.map((r) => ({ method: r.method, path: r.path, body: r.body })), step.action).toEqual([
        { method: 'POST', path: `/api/v1/{key}${expectedPath.replace(/\{id(\d)\}/, (_, n: string) => ids[Number(n) - 1] as string)}`, body: expectedBody },
      ]);
      const after = await serverState(s);
      step.effect(after, before);
      // And the module sees the room as it is.
      await waitFor(() => m.connection.snapshot()?.seq === after.seq, 1_000, `the module to see seq ${after.seq} after ${step.action}`);
      expect(room(m.connection.snapshot() as Snapshot), step.action).toEqual(room(after));
    }
    expect(m.host.logs.filter((l) => l.value.level === 'error')).toEqual([]);
  });

  it('logs the API\'s own message when a command is refused', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    await m.fire('timer_select', { by: 'id', timer: 'no-such-timer' });
    await m.fire('adjust_ms', { ms: '7200000' });
    const errors = m.host.logs.filter((l) => l.value.level === 'error').map((l) => l.value.message);
    expect(errors[0]).toMatch(/^Showclock refused "select timer" \(404\): no timer with id "no-such-timer"/);
    expect(errors[1]).toMatch(/^Showclock refused "adjust \+7200000 ms" \(400\): .*3600000/);
  });

  it('follows a change made elsewhere within 100 ms, in variables and feedbacks', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    const feedbacks = feedbackDefinitions(m.connection);
    const context = { parseVariablesInString: async (text: string) => text };
    const check = async (id: 'onair' | 'running' | 'message') =>
      feedbacks[id].callback({ type: 'boolean', id: 'f', controlId: 'c', feedbackId: id, options: { color: 'any' } }, context);
    await direct(s, '/onair', { on: '0' });
    await waitFor(() => m.host.variables.onair === false);
    const changes: [string, Record<string, unknown> | undefined, string, unknown, 'onair' | 'running' | 'message'][] = [
      ['/toggle_onair', undefined, 'onair', true, 'onair'],
      ['/start', undefined, 'running', true, 'running'],
      ['/message/set', { text: 'From the console' }, 'message_text', 'From the console', 'message'],
    ];
    for (const [cmd, body, variable, value, feedback] of changes) {
      const since = performance.now();
      const answer = await direct(s, cmd, body);
      expect(answer.status).toBe(200);
      const variableAt = await waitFor(() => m.host.variableAfter(variable, value, since), 1_000, `${variable} = ${String(value)}`);
      const feedbackAt = await waitFor(() => m.host.checkedAfter(feedback, since), 1_000, `a re-check of ${feedback}`);
      expect(variableAt - since, variable).toBeLessThan(100);
      expect(feedbackAt - since, feedback).toBeLessThan(100);
      expect(await check(feedback)).toBe(true);
    }
    await direct(s, '/pause');
    await direct(s, '/message/clear');
  });

  it('shows the audience questions on the keys and takes one off the screens, as a moderator with a Stream Deck does', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    const feedbacks = feedbackDefinitions(m.connection);
    const context = { parseVariablesInString: async (text: string) => text };
    const lit = async (id: 'question_on_screen' | 'questions_waiting') =>
      feedbacks[id].callback({ type: 'boolean', id: 'f', controlId: 'c', feedbackId: id, options: {} }, context);
    await waitFor(() => m.host.variables.questions_new === 0, 1_000, 'the question variables');
    expect(m.host.variables).toMatchObject({ questions_new: 0, questions_approved: 0, question_text: '', question_name: '' });
    expect(await lit('questions_waiting')).toBe(false);

    // Two questions from phones in the hall, through the audience link (not the API key).
    const ask = async (text: string, name: string): Promise<string> => {
      const answer = await fetch(`http://127.0.0.1:${s.port}/ask/${AUDIENCE_KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text, name }) });
      expect(answer.status).toBe(201);
      return ((await answer.json()) as { id: string }).id;
    };
    const arrivedSince = performance.now();
    const first = await ask('Will the slides be shared?', 'Ada');
    await ask('Is there a break?', '');
    await waitFor(() => m.host.variables.questions_new === 2, 1_000, 'two new questions');
    await waitFor(() => m.host.checkedAfter('questions_waiting', arrivedSince), 1_000, 'a re-check of questions_waiting');
    expect(await lit('questions_waiting')).toBe(true);

    // The moderator shows the first, with its name, from the console.
    expect((await direct(s, '/question/show', { questionId: first, withName: true })).status).toBe(200);
    await waitFor(() => m.host.variables.question_text === 'Will the slides be shared?', 1_000, 'the shown question');
    expect(m.host.variables).toMatchObject({ question_name: 'Ada', questions_new: 1 });
    expect(await lit('question_on_screen')).toBe(true);

    // Off the screens from the panel: back to approved.
    let sent = m.seen.length;
    await m.fire('question_unshow');
    expect(m.seen.slice(sent).map((r) => ({ method: r.method, path: r.path, body: r.body }))).toEqual([{ method: 'POST', path: '/api/v1/{key}/question/unshow', body: {} }]);
    await waitFor(() => m.host.variables.question_text === '', 1_000, 'the question off the screens');
    expect(m.host.variables).toMatchObject({ question_name: '', questions_approved: 1 });
    expect(await lit('question_on_screen')).toBe(false);
    expect((await serverState(s)).questions?.find((q) => q.id === first)?.state).toBe('approved');

    // Answered in the console, then cleared from the panel.
    await direct(s, '/question/answered', { questionId: first });
    await waitFor(() => m.host.variables.questions_approved === 0, 1_000, 'the question answered');
    sent = m.seen.length;
    await m.fire('questions_clear_answered');
    expect(m.seen.slice(sent).map((r) => ({ method: r.method, path: r.path, body: r.body }))).toEqual([{ method: 'POST', path: '/api/v1/{key}/questions/clear_answered', body: {} }]);
    expect((await serverState(s)).questions?.map((q) => q.text)).toEqual(['Is there a break?']);
    expect(m.host.logs.filter((l) => l.value.level === 'error')).toEqual([]);
  });

  it('updates the remaining time once a second, on the server second boundary, and not while paused (only the schedule moves then)', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    await direct(s, '/start');
    const state = await waitFor(() => {
      const snap = m.connection.snapshot();
      return snap?.running === true ? snap : null;
    });
    const since = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 3_300));
    const updates = m.host.variableUpdates.filter((u) => u.at >= since && 'remaining' in u.value);
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(updates.length).toBeLessThanOrEqual(4);
    for (const u of updates) {
      // Server and test share this machine's wall clock: map each update to server time.
      const serverAt = performance.timeOrigin + u.at;
      const lateMs = (((serverAt - (state.endAt as number)) % 1000) + 1000) % 1000;
      expect(lateMs, 'ms after the boundary').toBeLessThan(100);
      expect(u.value.remaining).toBe(countdownText((state.endAt as number) - serverAt));
    }
    await direct(s, '/pause');
    await waitFor(() => m.host.variables.running === false);
    const pausedSince = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Paused midway the show runs later by each second (its plan is its first start): the offset
    // and, at a minute's turn, the projected end move; nothing of the time left does.
    const SCHEDULE = new Set(['offset', 'offset_text', 'offset_seconds', 'offset_state', 'show_end']);
    const paused = m.host.variableUpdates.filter((u) => u.at >= pausedSince);
    expect(paused.length).toBeLessThanOrEqual(3);
    for (const u of paused) expect(Object.keys(u.value).filter((id) => !SCHEDULE.has(id))).toEqual([]);
  });

  it('agrees with the API on the offset as the show runs late, to the second, and drives the aux timer', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    // A new run, planned to have begun 30 s ago: nothing runs yet, so the show is 30 s behind and counting.
    await m.fire('show_reset');
    expect((await direct(s, '/settings', { plannedStart: Date.now() - 30_000 })).status).toBe(200);
    await waitFor(() => m.host.variables.offset_state === 'behind', 5_000, 'the offset to say behind');
    const apiSeconds = async () => {
      const offset = (await serverState(s)).schedule?.offset;
      if (offset === undefined || offset === null) throw new Error('the API gives no offset');
      return offsetSeconds(offset);
    };
    for (let i = 0; i < 3; i += 1) {
      // The key read between two readings of the API: the same second as one of them.
      const before = await apiSeconds();
      const key = m.host.variables.offset_seconds as number;
      const after = await apiSeconds();
      expect(key).toBeGreaterThanOrEqual(before);
      expect(key).toBeLessThanOrEqual(after);
      expect(m.host.variables.offset_text).toMatch(/^0:3\d behind$/);
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
    const behind = feedbackDefinitions(m.connection).schedule_offset;
    expect(await behind?.callback({ id: 'f', type: 'boolean', feedbackId: 'schedule_offset', controlId: 'c', options: { state: 'behind', margin: 10 } }, { parseVariablesInString: async (text: string) => text })).toBe(true);

    await m.fire('aux_set', { duration: '1:00', appearance: 'countdown', label: 'Break' });
    await m.fire('aux_start');
    await waitFor(() => m.host.variables.aux_running === true, 5_000, 'the aux to run');
    expect(m.host.variables).toMatchObject({ aux_label: 'Break', aux_duration: '1:00' });
    await waitFor(() => m.host.variables.aux_time === '0:58', 5_000, 'the aux to count');
    await m.fire('aux_pause');
    await waitFor(() => m.host.variables.aux_running === false, 5_000, 'the aux to pause');
    const aux = (await serverState(s)).aux;
    expect(aux).toMatchObject({ label: 'Break', duration: 60_000, running: false });
    expect(m.host.variables.aux_time).toBe(countdownText(aux.remainingAtPause as number));
    await direct(s, '/settings', { plannedStart: null });
  });

  it('shows "wrong key" for a wrong key and does not retry in a storm', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port, 'not-the-key');
    await waitFor(() => m.host.status()?.status === InstanceStatus.AuthenticationFailure, 5_000, 'the wrong-key status');
    expect(m.host.status()?.message).toMatch(/^Wrong API key: invalid API key/);
    expect(m.host.variables.connection).toBe('wrong key');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // One try: the version document and the stream's 401; the next try is a minute away.
    expect(m.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/openapi.json', 'GET /api/v1/{key}/events']);
    expect(m.host.logs.filter((l) => l.value.level === 'error')).toHaveLength(1);
  });
});

describe('the Companion module across a restart and the rate limit', () => {
  let service: ServiceProcess | undefined;

  afterEach(async () => {
    await stopService(service);
    service = undefined;
  });

  it('survives a restart of the service: reconnects by itself and re-reads /state', async () => {
    const dir = dataDir();
    const env = { SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_RATE_LIMIT: '1000' };
    service = await startService(serviceEnv(env));
    const port = service.port;
    const m = startModule(port);
    await connected(m);
    await direct(service, '/onair', { on: '1' });
    await waitFor(() => m.host.variables.onair === true);

    service.child.kill('SIGTERM');
    await service.exited;
    await waitFor(() => m.host.status()?.status === InstanceStatus.ConnectionFailure, 5_000, 'the unreachable status');
    expect(m.host.variables.connection).toBe('unreachable');

    const downAt = performance.now();
    service = await startService(serviceEnv({ ...env, PORT: String(port) }));
    await waitFor(() => m.host.status()?.status === InstanceStatus.Ok && m.host.statuses.at(-1)!.at > downAt, 15_000, 'the reconnection');
    await waitFor(() => m.seen.some((r) => r.at > downAt && r.path === '/api/v1/{key}/state'), 2_000, 'the re-read of /state');
    expect(m.host.variables).toMatchObject({ connection: 'connected', onair: true });
    // Retried with backoff while down, not in a loop.
    expect(m.seen.filter((r) => r.path === '/api/v1/openapi.json').length).toBeLessThan(8);

    await m.fire('onair', { mode: 'off' });
    await waitFor(() => m.host.variables.onair === false, 1_000, 'ON AIR off after the restart');
  });

  it('on a 429 logs the API\'s message and sends no command before RateLimit-Reset', async () => {
    service = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir(), SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_RATE_LIMIT: '5' }));
    const m = startModule(service.port);
    await connected(m);
    // The stream took 1 of the 5; other clients take the rest.
    for (let i = 0; i < 4; i += 1) await direct(service, '/status');
    await m.fire('start');
    const refused = m.host.logs.map((l) => l.value.message).find((text) => text.includes('(429)'));
    expect(refused).toMatch(/^Showclock refused "start" \(429\): rate limit exceeded: at most 5 requests per minute; try again in \d+ s$/);
    expect(m.host.status()?.status).toBe(InstanceStatus.UnknownWarning);
    const sent = m.seen.length;
    await m.fire('next');
    await m.fire('toggle');
    expect(m.seen.length).toBe(sent);
    expect(m.host.logs.filter((l) => /dropped: not sent, the rate limit is reached; the box takes commands again in \d+ s/.test(l.value.message))).toHaveLength(2);
  });
});

describe('the Companion module against a box too old for it', () => {
  let old: Server | undefined;

  afterEach(async () => {
    await new Promise((resolve) => (old === undefined ? resolve(undefined) : old.close(resolve)));
  });

  it('says so in its status and asks again only once a minute', async () => {
    // A box from before the OpenAPI document and the push channel: 404 for both.
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'unknown command' }));
    });
    old = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const m = startModule((server.address() as AddressInfo).port);
    await waitFor(() => m.host.status()?.message?.startsWith('Showclock is too old for this module'), 5_000, 'the too-old status');
    expect(m.host.status()).toEqual({
      status: InstanceStatus.ConnectionFailure,
      message: 'Showclock is too old for this module: it has no API description (/api/v1/openapi.json), so it predates the push channel. Update Showclock.',
    });
    expect(m.host.variables.connection).toBe('too old');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(m.seen.map((r) => r.path)).toEqual(['/api/v1/openapi.json']);
  });
});
