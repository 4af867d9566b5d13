// Where the show stands on the keys: the schedule computed from the push stream's
// snapshots at the module's estimate of the server's time (the stream carries
// none), in the words and whole seconds every surface uses, following the clock
// between snapshots. Plain numbers for time: WALL is 09:00:00 UTC on the box.
import type { CompanionFeedbackDefinition } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { ShowclockConnection } from '../../src/companion/connection.js';
import { feedbackDefinitions, feedbackSignatures, offsetMatches } from '../../src/companion/feedbacks.js';
import { scheduleViewAt } from '../../src/companion/schedule-view.js';
import { viewAt } from '../../src/companion/room-view.js';
import { scheduleOf } from '../../src/domain/schedule.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { offsetSignedText } from '../../src/domain/schedule-text.js';
import { FakeHost, waitFor } from './fake-host.js';
import { fakeBox } from './fake-box.js';
import { fakeTime } from './fake-time.js';
import { olderBox, snapshot, WALL } from './snapshots.js';

const MIN = 60_000;

/**
 * Three 10-minute talks planned from 08:58; the first started on time and runs,
 * 8 minutes left at 09:00: on time, its planned end 09:08, the show's 09:28.
 */
const onTime = (seq = 7) =>
  snapshot({
    seq,
    running: true,
    remainingMs: 8 * MIN,
    plannedStart: WALL - 2 * MIN,
    actuals: [{ timerId: 't1', startedAt: WALL - 2 * MIN, endedAt: null }],
  });

describe('scheduleViewAt: the schedule as the keys show it', () => {
  it('reads on time, then behind by each second the first talk overruns, with the show end moving with it', () => {
    const s = onTime();
    expect(scheduleViewAt(s, WALL)).toMatchObject({
      offsetMs: 0,
      offsetSeconds: 0,
      offsetSigned: '0:00',
      offsetText: 'on time',
      offsetState: 'onTime',
      showEnd: '09:28',
      plannedEnd: '09:28',
      nextStart: '09:08',
    });
    // Running towards its planned end, nothing moves: the next change is when the overrun
    // begins to count, half a second past zero (the offset is rounded to the nearest second).
    expect(scheduleViewAt(s, WALL).nextChangeAt).toBe(WALL + 8 * MIN + 500);
    expect(scheduleViewAt(s, WALL + 8 * MIN + 499).offsetSigned).toBe('0:00');
    expect(scheduleViewAt(s, WALL + 8 * MIN + 500)).toMatchObject({ offsetSigned: '+0:01', offsetText: '0:01 behind', offsetState: 'behind' });
    const late = scheduleViewAt(s, WALL + 8 * MIN + 65_000);
    expect(late).toMatchObject({ offsetMs: 65_000, offsetSeconds: 65, offsetSigned: '+1:05', offsetText: '1:05 behind', showEnd: '09:29', plannedEnd: '09:28' });
    // In overrun every second moves the offset: the next change is the next half second.
    expect(late.nextChangeAt).toBe(WALL + 8 * MIN + 65_500);
  });

  it('agrees with the domain schedule the API gives, to the second, at any instant', () => {
    const s = onTime();
    for (const at of [WALL, WALL + 8 * MIN + 1_234, WALL + 30 * MIN + 777]) {
      expect(scheduleViewAt(s, at).offsetSigned).toBe(offsetSignedText(scheduleOf(s, at).offset));
    }
  });

  it('reads ahead when the show runs early, and follows the clock while paused', () => {
    // Planned to start at 09:02, but the first talk started at 09:00 and has all its 10 minutes left: 2:00 ahead.
    const early = snapshot({ running: true, remainingMs: 10 * MIN, plannedStart: WALL + 2 * MIN, actuals: [{ timerId: 't1', startedAt: WALL, endedAt: null }] });
    expect(scheduleViewAt(early, WALL)).toMatchObject({ offsetSigned: '-2:00', offsetText: '2:00 ahead', offsetState: 'ahead', offsetSeconds: -120 });
    // Paused with 10 minutes left: every second of the pause is a second later; from -2:00 to -1:59 half a second on.
    const paused = snapshot({ running: false, remainingMs: 10 * MIN, plannedStart: WALL + 2 * MIN, actuals: [{ timerId: 't1', startedAt: WALL, endedAt: null }] });
    const view = scheduleViewAt(paused, WALL);
    expect(view.offsetSigned).toBe('-2:00');
    expect(view.nextChangeAt).toBe(WALL + 501);
    expect(scheduleViewAt(paused, WALL + 501).offsetSigned).toBe('-1:59');
    expect(scheduleViewAt(paused, WALL + 2 * MIN).offsetText).toBe('on time');
    expect(scheduleViewAt(paused, WALL + 3 * MIN).offsetText).toBe('1:00 behind');
  });

  it('waits for the planned start: nothing moves before it, and the show runs late from it', () => {
    // Planned for 09:05, nothing run yet: the first talk is projected at its planned start until the clock passes it.
    const waiting = snapshot({ running: false, plannedStart: WALL + 5 * MIN });
    expect(scheduleViewAt(waiting, WALL)).toMatchObject({ offsetText: 'on time', showEnd: '09:35', nextStart: '09:15' });
    // The next change: half a second after 09:05, when the talk has not begun.
    expect(scheduleViewAt(waiting, WALL).nextChangeAt).toBe(WALL + 5 * MIN + 500);
    expect(scheduleViewAt(waiting, WALL + 7 * MIN)).toMatchObject({ offsetText: '2:00 behind', showEnd: '09:37' });
  });

  it('has no offset without a plan, and reads a box from before the schedule as one without a plan', () => {
    const none = scheduleViewAt(snapshot({ running: true, remainingMs: 5 * MIN }), WALL);
    expect(none).toMatchObject({ offsetMs: null, offsetSeconds: null, offsetSigned: '', offsetText: '', offsetState: null, plannedEnd: '', nextStart: '', showEnd: '09:25' });
    // As such a box sends it: no actuals, no aux, no plannedStart in the settings.
    const { actuals: _actuals, aux: _aux, settings, ...rest } = olderBox(onTime());
    const { plannedStart: _plannedStart, ...olderSettings } = settings;
    const view = viewAt({ ...rest, settings: olderSettings } as unknown as Snapshot, WALL);
    expect(view.schedule).toMatchObject({ offsetSigned: '', showEnd: '09:28' });
    expect(view.aux).toMatchObject({ time: '', running: false });
  });

  it("shows times of day in the room's zone and clock format", () => {
    const s = onTime();
    const ny = { ...s, settings: { ...s.settings, timeZone: 'America/New_York', clockFormat: '12h' as const } };
    expect(scheduleViewAt(ny, WALL)).toMatchObject({ showEnd: '5:28 AM', nextStart: '5:08 AM' });
  });
});

describe('the behind/ahead feedback', () => {
  it('matches behind, ahead and on time in whole seconds, within a tolerance', () => {
    expect([offsetMatches(65, 'behind', 0), offsetMatches(65, 'behind', 60), offsetMatches(65, 'behind', 65)]).toEqual([true, true, false]);
    expect([offsetMatches(-30, 'ahead', 0), offsetMatches(-30, 'ahead', 30), offsetMatches(-30, 'onTime', 30)]).toEqual([true, false, true]);
    expect([offsetMatches(0, 'onTime', 0), offsetMatches(0, 'behind', 0), offsetMatches(0, 'ahead', 0)]).toEqual([true, false, false]);
    // No plan: none of the three.
    expect([offsetMatches(null, 'behind', 0), offsetMatches(null, 'ahead', 0), offsetMatches(null, 'onTime', 0)]).toEqual([false, false, false]);
  });

  it('re-checks keys at each second of the offset, not otherwise', () => {
    const s = onTime();
    const at = (ms: number) => feedbackSignatures(s, viewAt(s, ms), true).schedule_offset;
    expect(at(WALL)).toBe(at(WALL + 5 * MIN));
    expect(at(WALL + 8 * MIN + 600)).not.toBe(at(WALL));
  });
});

describe('through the connection: the keys follow a show that runs late', () => {
  it('moves the offset variables and the behind feedback with the clock, between snapshots', async () => {
    const time = fakeTime(1_000);
    const box = fakeBox('k');
    const host = new FakeHost();
    // Silence watchdog far off: the fake clock jumps minutes with no byte on the stream.
    const connection = new ShowclockConnection(host, { fetch: box.fetch, perfNow: time.perfNow, timers: time.timers, silenceMs: 1e12 });
    connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
    await waitFor(() => box.streaming(), 5_000, 'the push stream');
    box.push(onTime());
    await waitFor(() => host.variables.offset === '0:00', 5_000, 'the first snapshot');

    const behind = feedbackDefinitions(connection).schedule_offset as CompanionFeedbackDefinition;
    const lit = (state: string, margin: number) =>
      behind.callback({ id: 'f', type: 'boolean', feedbackId: 'schedule_offset', controlId: 'c', options: { state, margin } }, { parseVariablesInString: async (text: string) => text });
    expect(host.variables).toMatchObject({ offset_text: 'on time', offset_seconds: 0, offset_state: 'onTime', show_end: '09:28', next_start: '09:08' });
    expect([lit('behind', 0), lit('onTime', 0)]).toEqual([false, true]);

    // Eight minutes on, the first talk reaches zero and runs on: no snapshot comes, the keys count the delay.
    const checksBefore = host.checks.length;
    time.advance(8 * MIN + 65_000);
    expect(host.variables).toMatchObject({ offset: '+1:05', offset_text: '1:05 behind', offset_seconds: 65, offset_state: 'behind', show_end: '09:29' });
    expect([lit('behind', 0), lit('behind', 60), lit('behind', 90), lit('onTime', 0)]).toEqual([true, true, false, false]);
    expect(host.checks.slice(checksBefore).some((c) => c.value.includes('schedule_offset'))).toBe(true);
    // Each second of the overrun was published: +0:01, +0:02, … +1:05.
    const offsets = host.variableUpdates.map((u) => u.value.offset).filter((v) => v !== undefined);
    expect(offsets.slice(-65)).toEqual(Array.from({ length: 65 }, (_, i) => `+${i + 1 < 60 ? `0:${String(i + 1).padStart(2, '0')}` : `1:0${i + 1 - 60}`}`));

    connection.destroy();
  });
});
