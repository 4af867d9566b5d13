// OSC feedback of the schedule and the aux timer, on the service's hand-moved
// clock: the offset a panel gets changes as the show runs late, to the second the
// API's schedule says at the same instant, and the aux addresses drive the second
// timer that the feedback then counts. The test clock starts at 09:00:00 UTC.
import { afterEach, describe, expect, it } from 'vitest';
import { offsetSignedText } from '../../src/domain/schedule-text.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { Room } from '../../src/domain/types.js';
import { feedbackAt } from '../../src/osc/feedback-values.js';
import { resolveCommand } from '../../src/osc/osc-commands.js';
import { OscFeedback } from '../../src/osc/osc-feedback.js';
import { scheduleValuesAt } from '../../src/osc/schedule-values.js';
import { capturingLogger } from '../gpio/gpio-fixtures.js';
import { createTestApp, roomWithTimers, type TestApp } from '../helpers/test-app.js';
import { RecordingOut } from './recording-out.js';

const NINE = Date.UTC(2025, 5, 1, 9, 0, 0);
const MIN = 60_000;
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

let feedback: OscFeedback | undefined;
afterEach(() => {
  feedback?.close();
  feedback = undefined;
});

/** Three timers of 1, 2 and 3 minutes, planned from 09:00: the show is planned to end at 09:06. */
function plannedRoom(): Room {
  const base = roomWithTimers(3);
  return { ...base, settings: { ...base.settings, plannedStart: NINE } };
}

function setup(room: Room = plannedRoom()) {
  const t: TestApp = createTestApp({ room });
  const out = new RecordingOut();
  feedback = new OscFeedback({
    source: t.service,
    targets: [{ host: '127.0.0.1', port: 9000 }],
    monoMs: t.clock.monoMs,
    scheduler: t.clock.scheduler,
    logger: capturingLogger().logger,
    out,
  });
  feedback.start();
  return { t, out };
}

async function advance(t: TestApp, ms: number, stepMs = 250): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    t.clock.advance(Math.min(stepMs, ms - done));
    await flush();
  }
}

/** Sends an OSC address to the room as the OSC input does. */
function osc(t: TestApp, address: string, args: readonly (string | number)[] = []): void {
  const resolution = resolveCommand(address.slice(1).split('/'), args, t.service.room);
  if (resolution.kind !== 'command') throw new Error(`${address}: ${JSON.stringify(resolution)}`);
  const outcome = t.service.dispatch(resolution.command, 'osc').outcome;
  if (!outcome.ok) throw new Error(`${address}: ${JSON.stringify(outcome)}`);
}

async function apiOffset(t: TestApp): Promise<string> {
  const body = (await (await t.get('v1', '/state')).json()) as { state: Snapshot };
  return offsetSignedText(body.state.schedule?.offset ?? null);
}

describe('the schedule in the feedback', () => {
  it('is on time while the show keeps to its plan, and behind by each second the first timer overruns', async () => {
    const { t, out } = setup();
    await flush();
    expect(out.updates()[0]).toMatchObject({ offset: 0, offset_signed: '0:00', offset_text: 'on time', offset_state: 'onTime', show_end: '09:06', planned_end: '09:06', next_start: '09:01' });
    osc(t, '/start');
    await flush();
    // A minute of the first timer, and 90 s more: its zero at 09:01:00 passes, the show runs late.
    await advance(t, MIN + 90_000, 500);
    const last = out.updates().at(-1);
    expect(last).toMatchObject({ remaining: '+1:30', offset: 90, offset_signed: '+1:30', offset_text: '1:30 behind', offset_state: 'behind', show_end: '09:07', planned_end: '09:06' });
    // Every second of the delay went out once, in order.
    const offsets = out.updates().map((u) => u.offset);
    expect(offsets.filter((o, i) => i === 0 || o !== offsets[i - 1])).toEqual(Array.from({ length: 91 }, (_, i) => i));
    // The same second as the API's schedule at this instant.
    expect(last?.offset_signed).toBe(await apiOffset(t));
  });

  it('reads ahead when the next timer comes early, and follows the clock while paused', async () => {
    const { t, out } = setup();
    osc(t, '/start');
    await advance(t, 20_000);
    // Next 40 s early: the second timer (planned 09:01 to 09:03) runs from 09:00:20, 40 s ahead.
    osc(t, '/next');
    await flush();
    expect(out.updates().at(-1)).toMatchObject({ offset: -40, offset_signed: '-0:40', offset_text: '0:40 ahead', offset_state: 'ahead', next_start: '09:03', show_end: '09:05' });
    osc(t, '/pause');
    await advance(t, 15_000);
    expect(out.updates().at(-1)).toMatchObject({ offset_signed: '-0:25', offset_text: '0:25 ahead' });
    expect(out.updates().at(-1)?.offset_signed).toBe(await apiOffset(t));
  });

  it('agrees with the API at every instant: the snapshot the service gives carries the schedule the feedback reads', async () => {
    const { t } = setup();
    osc(t, '/start');
    for (const step of [30_000, 31_000, 499, 1, 62_345]) {
      t.clock.advance(step);
      const snapshot = t.service.snapshot();
      expect(feedbackAt(snapshot).values.schedule.offsetSigned).toBe(offsetSignedText(snapshot.schedule?.offset ?? null));
      expect(feedbackAt(snapshot).values.schedule.offsetSigned).toBe(await apiOffset(t));
    }
  });

  it('wakes for nothing once the last timer has ended at zero under stop', () => {
    const base = roomWithTimers(1);
    const { t } = setup({ ...base, settings: { ...base.settings, zeroBehavior: 'stop', plannedStart: NINE } });
    osc(t, '/start');
    t.clock.advance(2 * MIN);
    const snapshot = t.service.snapshot();
    expect(snapshot.running).toBe(false);
    expect(scheduleValuesAt(snapshot)).toMatchObject({ values: { offsetSigned: '0:00', showEnd: '09:01' }, nextChangeAt: null });
    expect(feedbackAt(snapshot).nextChangeAt).toBeNull();
  });
});

describe('the aux timer over OSC', () => {
  it('is set up, started and adjusted by its addresses, and counted in the feedback each second', async () => {
    // No plan: nothing but the aux moves in these seconds.
    const { t, out } = setup(roomWithTimers(3));
    await flush();
    osc(t, '/aux/label', ['Break']);
    osc(t, '/aux/duration', [90_000]);
    osc(t, '/aux_start');
    await flush();
    expect(out.updates().at(-1)).toMatchObject({ aux: '1:30', aux_running: 1, aux_label: 'Break', running: 0 });
    await advance(t, 3_000, 100);
    expect(out.updates().slice(-3).map((u) => u.aux)).toEqual(['1:29', '1:28', '1:27']);
    osc(t, '/aux_adjust', [-60_000]);
    osc(t, '/aux_pause');
    await flush();
    expect(out.updates().at(-1)).toMatchObject({ aux: '0:27', aux_running: 0 });
    const count = out.updates().length;
    osc(t, '/aux/appearance', ['countup']);
    await flush();
    // Counting up it shows the time since its start: 1:30 less 0:27 left.
    expect(out.updates().at(-1)).toMatchObject({ aux: '1:03' });
    osc(t, '/aux_reset');
    await flush();
    expect(out.updates().at(-1)).toMatchObject({ aux: '0:00', aux_running: 0 });
    expect(out.updates()).toHaveLength(count + 2);
  });
});
