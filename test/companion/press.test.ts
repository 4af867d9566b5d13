// A press is sent once, in time, or never (src/companion/press-timing.ts): on
// fake time, a box in a fetch that can stop answering commands, and the
// connection as Companion drives it.
import { describe, expect, it } from 'vitest';
import { ShowclockConnection } from '../../src/companion/connection.js';
import { planPress, PRESS_DEADLINE_MS, PRESS_GIVE_UP_MS, COMPANION_ACTION_LIMIT_MS } from '../../src/companion/press-timing.js';
import { fakeBox } from './fake-box.js';
import { FakeHost, waitFor } from './fake-host.js';
import { fakeTime } from './fake-time.js';
import { snapshot, WALL } from './snapshots.js';

describe('planPress', () => {
  it('gives a fresh press the whole 4 s and a deadline 3 s on, on the box clock', () => {
    expect(planPress(1_000, 1_000, WALL)).toEqual({ send: true, timeoutMs: 4_000, deadline: WALL + 3_000 });
  });

  it('counts the wait in line against both', () => {
    expect(planPress(1_000, 2_000, WALL)).toEqual({ send: true, timeoutMs: 3_000, deadline: WALL + 2_000 });
  });

  it('drops a press that could no longer reach the box by its deadline', () => {
    expect(planPress(1_000, 3_800, WALL)).toEqual({ send: false, waitedMs: 2_800 });
  });

  it('stays under Companion\'s own limit, with a second for the answer after the deadline', () => {
    expect(PRESS_GIVE_UP_MS).toBeLessThan(COMPANION_ACTION_LIMIT_MS);
    expect(PRESS_GIVE_UP_MS - PRESS_DEADLINE_MS).toBeGreaterThanOrEqual(1_000);
  });
});

interface Sent {
  readonly path: string;
  readonly deadline: string | null;
  readonly at: number;
}

/** The module against a fake box whose command answers can be held back (a link frozen one way). */
async function setup() {
  const time = fakeTime(5_000);
  const box = fakeBox('k');
  const host = new FakeHost();
  const sent: Sent[] = [];
  let holding = false;
  const boxFetch: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    const path = url.pathname.replace('/api/v1/k', '');
    if (path === '/events' || url.pathname.endsWith('openapi.json')) return box.fetch(input, init);
    const headers = new Headers(init?.headers);
    sent.push({ path, deadline: headers.get('Showclock-Deadline'), at: time.perfNow() });
    if (!holding) return box.fetch(input, init);
    // Never answered: the request ends only when the module gives up on it.
    return new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
    });
  };
  const connection = new ShowclockConnection(host, { fetch: boxFetch, perfNow: time.perfNow, timers: time.timers, silenceMs: 1e12 });
  connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
  await waitFor(() => box.streaming(), 5_000, 'the push stream');
  box.push(snapshot());
  await waitFor(() => connection.isConnected(), 5_000, 'connected');
  const dropped = () => host.logs.map((l) => l.value.message).filter((m) => m.includes('dropped: not sent'));
  return { time, box, host, connection, sent, dropped, hold: (on: boolean) => void (holding = on) };
}

/** Lets promise callbacks run (the fake box answers in microtasks). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a press through the connection', () => {
  it('carries Showclock-Deadline: the box\'s time, as the module estimates it, plus 3 s', async () => {
    const t = await setup();
    await t.connection.run({ type: 'blackout', mode: 'toggle' });
    expect(t.sent).toHaveLength(1);
    // The snapshot was taken at WALL (server time) and fake time has not moved since it came.
    expect(Number(t.sent[0]?.deadline)).toBe(WALL + PRESS_DEADLINE_MS);
    t.connection.destroy();
  });

  it('is given up after 4 s without an answer, logged as dropped with what the box will do, before Companion gives up', async () => {
    const t = await setup();
    t.hold(true);
    let finished = false;
    const pressed = t.connection.run({ type: 'blackout', mode: 'toggle' }).then(() => {
      finished = true;
    });
    await settle();
    t.time.advance(PRESS_GIVE_UP_MS - 1);
    await settle();
    expect(finished).toBe(false);
    t.time.advance(1);
    await pressed;
    expect(t.host.logs.at(-1)?.value).toEqual({
      level: 'error',
      message:
        'Showclock: "toggle_blackout" got no answer (no answer in time) and was dropped: the box does a press only if it arrives within 3 s, so it happened by then or never will',
    });
    t.connection.destroy();
  });

  it('never sends a press that waited in line past its deadline: the ones behind a stuck press are dropped, not sent late', async () => {
    const t = await setup();
    t.hold(true);
    const first = t.connection.run({ type: 'transport', command: 'toggle' });
    await settle();
    t.time.advance(500);
    const second = t.connection.run({ type: 'onair', mode: 'toggle' });
    t.time.advance(1_000);
    const third = t.connection.run({ type: 'transport', command: 'next' });
    await settle();
    // The first gives up at 4 s: the second has waited 3.5 s, the third 2.5 s (0.5 s left: still sent).
    t.time.advance(2_500);
    await first;
    await second;
    await settle();
    expect(t.sent.map((s) => s.path)).toEqual(['/toggle', '/next']);
    expect(t.dropped()).toEqual(['Showclock: "toggle_onair" dropped: not sent, it waited 3.5 s behind the presses before it; a press is never sent late']);
    // The third, pressed 1.5 s in, went out with its deadline still 3 s after its press on the box's clock.
    expect(Number(t.sent[1]?.deadline)).toBe(WALL + 1_500 + PRESS_DEADLINE_MS);
    t.time.advance(PRESS_GIVE_UP_MS);
    await third;
    t.connection.destroy();
  });

  it('is not sent, and logged as dropped, while the link is down', async () => {
    const t = await setup();
    t.connection.configure({ ok: false, problem: 'Enter the host' });
    t.connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
    // Connecting: no snapshot yet.
    expect(t.connection.isConnected()).toBe(false);
    await t.connection.run({ type: 'transport', command: 'start' });
    expect(t.sent).toEqual([]);
    expect(t.dropped()).toEqual(['Showclock: "start" dropped: not sent, not connected (connecting); a press is sent only while the link is up, never kept for later']);
    t.connection.destroy();
  });

  it('logs a 412 from the box (it arrived after its deadline) as dropped', async () => {
    const t = await setup();
    const lateBox: typeof fetch = async () =>
      new Response(JSON.stringify({ ok: false, error: 'arrived 35.2 s after its Showclock-Deadline: the sender had given up on it, so nothing was done' }), {
        status: 412,
        headers: { 'Content-Type': 'application/json' },
      });
    const host = new FakeHost();
    const connection = new ShowclockConnection(host, {
      fetch: (input, init) => (String(input).endsWith('/toggle') ? lateBox(input, init) : t.box.fetch(input, init)),
      perfNow: t.time.perfNow,
      timers: t.time.timers,
      silenceMs: 1e12,
    });
    t.connection.destroy();
    connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
    await waitFor(() => t.box.streaming(), 5_000, 'the push stream');
    t.box.push(snapshot());
    await waitFor(() => connection.isConnected(), 5_000, 'connected');
    await connection.run({ type: 'transport', command: 'toggle' });
    expect(host.logs.at(-1)?.value).toEqual({
      level: 'warn',
      message:
        'Showclock: "toggle" dropped: it reached the box too late, and the box did nothing (arrived 35.2 s after its Showclock-Deadline: the sender had given up on it, so nothing was done)',
    });
    connection.destroy();
  });
});
