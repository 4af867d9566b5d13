// OSC feedback on a hand-moved clock: the full state on every change (a burst of
// changes once), the display string and phase at the server's second boundaries
// while they move, nothing while nothing changes, and targets that cannot keep
// up or cannot be looked up never hold anything else back.
import { afterEach, describe, expect, it } from 'vitest';
import type { Room } from '../../src/domain/types.js';
import { feedbackAt, feedbackMessages } from '../../src/osc/feedback-values.js';
import { LOOKUP_RETRY_MS, MAX_IN_FLIGHT, OscFeedback, RELOOKUP_MS } from '../../src/osc/osc-feedback.js';
import { capturingLogger } from '../gpio/gpio-fixtures.js';
import { RecordingOut } from './recording-out.js';
import { createTestApp, roomWithTimers, type TestApp } from '../helpers/test-app.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The first timer (1 min, 2 and 3 after it) ready for a show planned an hour from the test clock's 09:00: nothing moves for an hour. */
function heldRoom(): Room {
  const base = roomWithTimers(3);
  return { ...base, settings: { ...base.settings, plannedStart: Date.UTC(2025, 5, 1, 10, 0, 0) } };
}

let feedback: OscFeedback | undefined;
afterEach(() => {
  feedback?.close();
  feedback = undefined;
});

function setup(opts: { room?: Room; targets?: { host: string; port: number }[]; lookup?: (host: string) => Promise<string> } = {}) {
  const t: TestApp = createTestApp({ room: opts.room ?? roomWithTimers(3) });
  const out = new RecordingOut();
  const { logger, records } = capturingLogger();
  feedback = new OscFeedback({
    source: t.service,
    targets: opts.targets ?? [{ host: '127.0.0.1', port: 9000 }],
    monoMs: t.clock.monoMs,
    scheduler: t.clock.scheduler,
    logger,
    out,
    ...(opts.lookup === undefined ? {} : { lookup: opts.lookup }),
  });
  feedback.start();
  return { t, out, records };
}

/** Advances the clock one step at a time, letting each update go out as it would. */
async function advance(t: TestApp, ms: number, stepMs = 250): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    t.clock.advance(Math.min(stepMs, ms - done));
    await flush();
  }
}

describe('what is sent', () => {
  it('the full state at start, twenty-one messages in a fixed order, with the types surfaces read', async () => {
    const { out } = setup();
    await flush();
    expect(out.sent.map((s) => s.address)).toEqual(
      [
        'remaining',
        'remaining_ms',
        'phase',
        'running',
        'onair',
        'tally',
        'blackout',
        'label',
        'speaker',
        'message',
        'next_label',
        'offset',
        'offset_signed',
        'offset_text',
        'offset_state',
        'show_end',
        'planned_end',
        'next_start',
        'aux',
        'aux_running',
        'aux_label',
      ].map((name) => `/showclock/state/${name}`),
    );
    expect(out.updates()).toEqual([
      {
        // Timer 1 lasts a minute and warns from a minute left: it starts in its warning.
        remaining: '1:00',
        remaining_ms: 60_000,
        phase: 'warning',
        running: 0,
        onair: 0,
        // No tally source has reported (none configured here): 0, as for a tally that says off.
        tally: 0,
        blackout: 0,
        label: 'Timer 1',
        speaker: '',
        message: '',
        next_label: 'Timer 2',
        // No planned start and nothing run: no plan to be on time against. The show (1 + 2 + 3 minutes) ends at 09:06 if it starts now.
        offset: 0,
        offset_signed: '',
        offset_text: '',
        offset_state: '',
        show_end: '09:06',
        planned_end: '',
        next_start: '',
        aux: '5:00',
        aux_running: 0,
        aux_label: 'Aux',
      },
    ]);
  });

  it('/tally follows the tally sources, beside /onair, which a press overrides until the tally next changes', async () => {
    const { t, out } = setup();
    await flush();
    const last = () => out.updates().at(-1);
    t.service.dispatch({ type: 'tally.set', source: 'tsl', on: true }, 'tally');
    await flush();
    expect(last()).toMatchObject({ tally: 1, onair: 1 });
    // A press turns ON AIR off; the tally still says on air.
    t.service.dispatch({ type: 'onair.set', on: false }, 'osc');
    await flush();
    expect(last()).toMatchObject({ tally: 1, onair: 0 });
    // OBS says off: TSL still on, so the combined tally has not changed.
    t.service.dispatch({ type: 'tally.set', source: 'obs', on: false }, 'tally');
    await flush();
    expect(last()).toMatchObject({ tally: 1, onair: 0 });
    t.service.dispatch({ type: 'tally.set', source: 'tsl', on: false }, 'tally');
    await flush();
    expect(last()).toMatchObject({ tally: 0, onair: 0 });
    // A repeat of the same report changes nothing, so nothing is sent.
    const count = out.updates().length;
    t.service.dispatch({ type: 'tally.set', source: 'tsl', on: false }, 'tally');
    await flush();
    expect(out.updates()).toHaveLength(count);
    expect(out.sent.filter((s) => s.address === '/showclock/state/tally').map((s) => s.value)).toEqual([0, 1, 1, 1, 0]);
  });

  it('every change sends it all; a burst of changes in one turn is sent once, as its final state', async () => {
    const { t, out } = setup();
    await flush();
    t.service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    t.service.dispatch({ type: 'message.set', message: { text: 'Wrap up', color: 'red', flash: true, bold: false } }, 'http-v1');
    t.service.dispatch({ type: 'next' }, 'osc');
    // Nothing is sent from inside the room's listener: the dispatch never waits for a target.
    expect(out.updates()).toHaveLength(1);
    await flush();
    expect(out.updates()).toHaveLength(2);
    expect(out.updates()[1]).toMatchObject({ remaining: '2:00', onair: 1, message: 'Wrap up', label: 'Timer 2', next_label: 'Timer 3' });
    t.service.dispatch({ type: 'blackout.set', on: true }, 'http-v1');
    t.service.dispatch({ type: 'next' }, 'http-v1');
    await flush();
    expect(out.updates()[2]).toMatchObject({ blackout: 1, label: 'Timer 3', next_label: '' });
  });

  it('nothing while nothing changes: waiting for a show planned an hour off, ten minutes and not one datagram', async () => {
    const { t, out } = setup({ room: heldRoom() });
    await flush();
    await advance(t, 600_000, 10_000);
    expect(out.updates()).toHaveLength(1);
    expect(out.updates()[0]).toMatchObject({ offset_text: 'on time', show_end: '10:06', planned_end: '10:06', next_start: '10:01' });
  });

  it('paused with no plan, only the projected show end moves: one update as each of its minutes turns', async () => {
    const { t, out } = setup();
    await flush();
    await advance(t, 180_000, 10_000);
    expect(out.updates().map((u) => [u.remaining, u.show_end])).toEqual([
      ['1:00', '09:06'],
      ['1:00', '09:07'],
      ['1:00', '09:08'],
      ['1:00', '09:09'],
    ]);
  });
});

describe('at the server second boundaries', () => {
  it('while running, one update each time the display string changes, and none in between', async () => {
    const { t, out } = setup();
    await flush();
    t.service.dispatch({ type: 'start' }, 'http-v1');
    await flush();
    expect(out.updates()).toHaveLength(2);
    t.clock.advance(999);
    await flush();
    expect(out.updates()).toHaveLength(2);
    t.clock.advance(1);
    await flush();
    expect(out.updates()[2]).toMatchObject({ remaining: '0:59', remaining_ms: 59_000, running: 1 });
    await advance(t, 3_000, 100);
    expect(out.updates().slice(3).map((u) => [u.remaining, u.remaining_ms])).toEqual([
      ['0:58', 58_000],
      ['0:57', 57_000],
      ['0:56', 56_000],
    ]);
    t.service.dispatch({ type: 'pause' }, 'http-v1');
    await flush();
    await advance(t, 5_000);
    // Paused, the time holds; the show, planned from its first start, runs a second later
    // each second (rounded to the nearest: from half a second on).
    expect(out.updates().slice(6).map((u) => [u.remaining, u.running, u.offset_signed])).toEqual([
      ['0:56', 0, '0:00'],
      ['0:56', 0, '+0:01'],
      ['0:56', 0, '+0:02'],
      ['0:56', 0, '+0:03'],
      ['0:56', 0, '+0:04'],
      ['0:56', 0, '+0:05'],
    ]);
  });

  it('the phase changes on its own instant: warning at warnAt, overrun from 0:00, as the screen colours it', async () => {
    const base = roomWithTimers(2);
    const room: Room = { ...base, timers: base.timers.map((timer, i) => (i === 0 ? { ...timer, duration: 4_000, warnAt: 2_500 } : timer)), transport: { running: false, remainingMs: 4_000 } };
    const { t, out } = setup({ room });
    await flush();
    t.service.dispatch({ type: 'start' }, 'http-v1');
    await flush();
    await advance(t, 6_000, 100);
    // Past zero the show runs late too: its offset (whole seconds, to the nearest) turns on the half seconds between.
    expect(out.updates().slice(1).map((u) => [u.remaining, u.remaining_ms, u.phase, u.offset_signed])).toEqual([
      ['0:04', 4_000, 'normal', '0:00'],
      ['0:03', 3_000, 'normal', '0:00'],
      ['0:03', 2_500, 'warning', '0:00'],
      ['0:02', 2_000, 'warning', '0:00'],
      ['0:01', 1_000, 'warning', '0:00'],
      ['0:00', 0, 'overrun', '0:00'],
      ['0:00', -500, 'overrun', '+0:01'],
      ['+0:01', -1_000, 'overrun', '+0:01'],
      ['+0:01', -1_500, 'overrun', '+0:02'],
      ['+0:02', -2_000, 'overrun', '+0:02'],
    ]);
  });

  it('a stop at zero is one update, and then nothing', async () => {
    const base = roomWithTimers(2);
    const room: Room = { ...base, settings: { ...base.settings, zeroBehavior: 'stop' }, transport: { running: true, endMonoMs: 1_000_000 + 1_500 } };
    const { t, out } = setup({ room });
    await flush();
    await advance(t, 5_000, 100);
    expect(out.updates().map((u) => [u.remaining, u.running, u.phase])).toEqual([
      ['0:02', 1, 'warning'],
      ['0:01', 1, 'warning'],
      ['0:00', 0, 'overrun'],
    ]);
  });

  it('under hide, nothing moves past zero, so nothing is sent', async () => {
    const base = roomWithTimers(2);
    const room: Room = { ...base, settings: { ...base.settings, zeroBehavior: 'hide' }, transport: { running: true, endMonoMs: 1_000_000 + 1_000 } };
    const { t, out } = setup({ room });
    await flush();
    await advance(t, 10_000, 100);
    expect(out.updates().map((u) => [u.remaining, u.phase])).toEqual([
      ['0:01', 'warning'],
      ['', 'overrun'],
    ]);
  });

  it('a blackout or a flashing message neither stops the time nor adds datagrams', async () => {
    const { t, out } = setup();
    t.service.dispatch({ type: 'start' }, 'http-v1');
    t.service.dispatch({ type: 'blackout.set', on: true }, 'http-v1');
    t.service.dispatch({ type: 'message.set', message: { text: 'Hi', color: 'white', flash: true, bold: false } }, 'http-v1');
    await flush();
    const before = out.updates().length;
    await advance(t, 3_000, 100);
    expect(out.updates().slice(before).map((u) => u.remaining)).toEqual(['0:59', '0:58', '0:57']);
  });

  it('sends to every target the same updates', async () => {
    const { t, out } = setup({ targets: [{ host: '127.0.0.1', port: 9000 }, { host: '::1', port: 9001 }] });
    t.service.dispatch({ type: 'start' }, 'http-v1');
    await advance(t, 2_000);
    expect(out.updates('::1:9001')).toEqual(out.updates('127.0.0.1:9000'));
    expect(out.updates()).toHaveLength(3);
  });
});

describe('targets never slow the room', () => {
  it('a host name is looked up beforehand, once a minute, retried after a failure; others are served meanwhile', async () => {
    const lookups: { host: string; settle: (address: string | Error) => void }[] = [];
    const lookup = (host: string) =>
      new Promise<string>((resolve, reject) => {
        lookups.push({ host, settle: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer)) });
      });
    const { t, out, records } = setup({ room: heldRoom(), targets: [{ host: 'ipad.local', port: 9000 }, { host: '127.0.0.1', port: 9000 }], lookup });
    await flush();
    expect(lookups.map((l) => l.host)).toEqual(['ipad.local']);
    // Not resolved yet: the literal address is served, the name is not waited for.
    expect(out.updates('127.0.0.1:9000')).toHaveLength(1);
    expect(out.updates('10.0.0.7:9000')).toHaveLength(0);
    lookups[0]?.settle(new Error('getaddrinfo ENOTFOUND ipad.local'));
    await flush();
    expect(records().filter((r) => r.level === 40).map((r) => r.msg)).toEqual([`OSC feedback to ipad.local:9000: cannot look up ipad.local (getaddrinfo ENOTFOUND ipad.local); trying again in ${LOOKUP_RETRY_MS / 1000} s`]);
    t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    await flush();
    expect(lookups).toHaveLength(1);
    t.clock.advance(LOOKUP_RETRY_MS);
    t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    await flush();
    expect(lookups).toHaveLength(2);
    lookups[1]?.settle('10.0.0.7');
    await flush();
    t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    await flush();
    expect(out.updates('10.0.0.7:9000')).toEqual([out.updates('127.0.0.1:9000').at(-1)]);
    t.clock.advance(RELOOKUP_MS - 1);
    t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    await flush();
    expect(lookups).toHaveLength(2);
    t.clock.advance(1);
    t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    await flush();
    expect(lookups).toHaveLength(3);
    // The last address found is used while the next lookup runs.
    expect(out.updates('10.0.0.7:9000')).toHaveLength(3);
  });

  it('a target whose datagrams do not leave has updates skipped, logged once, then catches up with the whole state', async () => {
    const { t, out, records } = setup();
    out.completes = false;
    for (let i = 0; i < 20; i += 1) {
      t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
      await flush();
    }
    const sent = out.sent.length;
    const perUpdate = feedbackMessages(feedbackAt(t.service.snapshot()).values).length;
    expect(sent).toBeLessThanOrEqual(MAX_IN_FLIGHT + perUpdate);
    expect(records().filter((r) => r.level === 40).map((r) => r.msg)).toEqual([
      'OSC feedback to 127.0.0.1:9000: datagrams are not leaving as fast as they come; updates skipped until they do',
    ]);
  });

  it('close stops everything: no boundary, no change is sent after it', async () => {
    const { t, out } = setup();
    t.service.dispatch({ type: 'start' }, 'http-v1');
    await flush();
    const count = out.sent.length;
    feedback?.close();
    t.service.dispatch({ type: 'onair.toggle' }, 'http-v1');
    await advance(t, 3_000);
    expect(out.sent).toHaveLength(count);
    expect(out.closed).toBe(true);
  });
});

describe('feedbackAt', () => {
  it('is the display string of the screen: count up, time of day, hours', () => {
    const t = createTestApp({ room: roomWithTimers(2) });
    const snapshot = t.service.snapshot();
    const countup = { ...snapshot, timers: snapshot.timers.map((timer) => ({ ...timer, appearance: 'countup' as const })), remainingAtPause: 45_500, remaining: 45_500 };
    expect(feedbackAt(countup).values.remaining).toBe('0:14');
    const long = { ...snapshot, remainingAtPause: 3_723_000, remaining: 3_723_000 };
    expect(feedbackAt(long).values.remaining).toBe('1:02:03');
    const clock = { ...snapshot, timers: snapshot.timers.map((timer) => ({ ...timer, appearance: 'clock' as const })) };
    expect(feedbackAt(clock).values.remaining).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(feedbackAt(clock).nextChangeAt).toBe(Math.floor(snapshot.serverNow / 1000) * 1000 + 1000);
    const huge = { ...snapshot, remaining: -3e9 };
    expect(feedbackAt(huge).values.remainingMs).toBe(-2_147_483_647);
  });
});
