// The console's pure pieces, without a browser: how operators' durations are
// read and written, the rule that only a newer snapshot is ever shown, and the
// schedule's and the aux timer's words at a given server instant.
import { describe, expect, it } from 'vitest';
import { scheduleAtEstimate } from '../../src/client/schedule-clock.js';
import { createRoom } from '../../src/domain/room.js';
import type { Schedule, ScheduledTimer } from '../../src/domain/schedule.js';
import { toSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import { formatDurationText, parseDurationText } from '../../src/domain/duration-text.js';
import type { Room } from '../../src/domain/types.js';
import { auxFaceAt } from '../../src/pages/control/aux-panel.js';
import { LatestSnapshot } from '../../src/pages/control/latest-snapshot.js';
import { orderTotalOf, showLineOf, startCellsOf } from '../../src/pages/control/schedule-text.js';
import { parseInstantText } from '../../src/pages/control/time-of-day-text.js';

describe('duration text', () => {
  it.each([
    ['10:00', 600_000],
    ['0:45', 45_000],
    ['1:30:00', 5_400_000],
    ['90:00', 5_400_000],
    ['45', 2_700_000],
    ['90s', 90_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    [' 1.5 min ', 90_000],
    ['0:00.5', 500],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseDurationText(text)).toBe(ms);
  });

  it.each(['', 'soon', '1:60', '1:5', '1:60:00', '-5', '10:00:00:00', '5 hours'])('refuses %j', (text) => {
    expect(parseDurationText(text)).toBeNull();
  });

  it.each([
    [600_000, '10:00'],
    [59_000, '0:59'],
    [3_600_000, '1:00:00'],
    [5_430_000, '1:30:30'],
    [86_400_000, '24:00:00'],
    [1_500, '0:01.5'],
  ])('writes %i ms as %j, which reads back the same', (ms, text) => {
    expect(formatDurationText(ms)).toBe(text);
    expect(parseDurationText(text)).toBe(ms);
  });
});

describe('latest snapshot', () => {
  const at = (seq: number): Snapshot => ({ ...toSnapshot(createRoom('t1'), 0, 1_000_000), seq });

  it('applies only snapshots newer than the one shown, whatever order they arrive in', () => {
    const latest = new LatestSnapshot();
    const shown: number[] = [];
    latest.subscribe((s) => shown.push(s.seq));
    expect(latest.offer(at(5))).toBe(true);
    expect(latest.offer(at(4))).toBe(false);
    expect(latest.offer(at(5))).toBe(false);
    expect(latest.offer(at(7))).toBe(true);
    expect(latest.offer(at(6))).toBe(false);
    expect(shown).toEqual([5, 7]);
    expect(latest.current?.seq).toBe(7);
  });

  it('takes a new connection’s first snapshot even with a lower seq, then newer ones only', () => {
    const latest = new LatestSnapshot();
    latest.offer(at(40));
    latest.replace(at(2));
    expect(latest.current?.seq).toBe(2);
    expect(latest.offer(at(3))).toBe(true);
    expect(latest.offer(at(39))).toBe(true);
    expect(latest.offer(at(12))).toBe(false);
  });
});

/** 17:00 in Berlin on 26 November 2026 (UTC+1). */
const FIVE_PM = Date.UTC(2026, 10, 26, 16, 0, 0);
const MIN = 60_000;
const BERLIN = { timeZone: 'Europe/Berlin', clockFormat: '24h' } as const;

describe('the schedule in the console\'s words', () => {
  const row = (fields: Partial<ScheduledTimer>): ScheduledTimer => ({
    id: 't1',
    plannedStart: null,
    plannedEnd: null,
    actualStart: null,
    actualEnd: null,
    projectedStart: null,
    projectedEnd: null,
    ...fields,
  });

  it('shows what happened as it was, what is to come marked as projected, and a skipped timer as unknown', () => {
    // Began (the active timer's projected start is its actual one): actual.
    expect(startCellsOf(row({ plannedStart: FIVE_PM, actualStart: FIVE_PM + 4 * MIN, projectedStart: FIVE_PM + 4 * MIN }), BERLIN)).toEqual({ planned: '17:00', start: '17:04', kind: 'actual' });
    // Ran before, and comes again after the active one: where it stands now.
    expect(startCellsOf(row({ plannedStart: FIVE_PM, actualStart: FIVE_PM, projectedStart: FIVE_PM + 42 * MIN }), BERLIN)).toEqual({ planned: '17:00', start: '~17:42', kind: 'projected' });
    expect(startCellsOf(row({ projectedStart: FIVE_PM + 61 * MIN }), BERLIN)).toEqual({ planned: '—', start: '~18:01', kind: 'projected' });
    expect(startCellsOf(row({ plannedStart: FIVE_PM }), BERLIN)).toEqual({ planned: '17:00', start: '—', kind: 'none' });
    expect(startCellsOf(row({ actualStart: FIVE_PM }), { timeZone: 'America/New_York', clockFormat: '12h' })).toEqual({ planned: '—', start: '11:00 AM', kind: 'actual' });
  });

  const schedule = (fields: Partial<Schedule>): Schedule => ({
    plannedStart: null,
    plannedEnd: null,
    projectedEnd: FIVE_PM + 42 * MIN,
    offset: null,
    totalDuration: 0,
    nextPlannedStart: null,
    timers: [],
    ...fields,
  });

  it.each([
    [null, 'Show ends 17:42', null],
    [260_000, 'Show ends 17:42 · 4:20 behind', 'behind'],
    [-65_000, 'Show ends 17:42 · 1:05 ahead', 'ahead'],
    [400, 'Show ends 17:42 · on time', 'onTime'],
    [3_725_000, 'Show ends 17:42 · 1:02:05 behind', 'behind'],
  ] as const)('says an offset of %j as %j', (offset, text, state) => {
    expect(showLineOf(schedule({ offset }), BERLIN)).toEqual({ text, state });
  });

  it('gives the running time of the order, and its planned span when there is a plan', () => {
    expect(orderTotalOf(schedule({ totalDuration: 80 * MIN }), BERLIN)).toBe('Running time 1:20:00');
    expect(orderTotalOf(schedule({ totalDuration: 80 * MIN, plannedStart: FIVE_PM, plannedEnd: FIVE_PM + 80 * MIN }), BERLIN)).toBe('Running time 1:20:00 · planned 17:00 to 18:20');
  });

  it('follows the server clock between snapshots: a paused show falls behind by the second', () => {
    const base = createRoom('t1');
    const first = base.timers[0];
    if (first === undefined) throw new Error('createRoom gave no timer');
    const room: Room = {
      ...base,
      timers: [
        { ...first, id: 't1', duration: 10 * MIN },
        { ...first, id: 't2', duration: 20 * MIN },
      ],
      transport: { running: false, remainingMs: 10 * MIN },
      settings: { ...base.settings, timeZone: 'Europe/Berlin', plannedStart: FIVE_PM },
    };
    // At 17:00 exactly, paused at its full 10 minutes: on time, ends 17:30.
    const snapshot = toSnapshot(room, 0, FIVE_PM);
    expect(showLineOf(scheduleAtEstimate(snapshot, FIVE_PM), BERLIN).text).toBe('Show ends 17:30 · on time');
    // The same snapshot, 4:20 later by the server's clock: the show has not begun, so it is that late.
    expect(showLineOf(scheduleAtEstimate(snapshot, FIVE_PM + 260_000), BERLIN).text).toBe('Show ends 17:34 · 4:20 behind');
    // Without an estimate yet: the snapshot's own moment.
    expect(showLineOf(scheduleAtEstimate(snapshot, null), BERLIN).text).toBe('Show ends 17:30 · on time');
  });
});

describe('a time of day typed for the show\'s planned start', () => {
  const at = (h: number, m: number, dayShift = 0): number => Date.UTC(2026, 10, 26 + dayShift, h - 1, m, 0);

  it('is the nearest such time: one passed a moment ago is today, not tomorrow', () => {
    const now = at(19, 5);
    expect(parseInstantText('19:00', now, 'Europe/Berlin', 'nearest')).toBe(at(19, 0));
    expect(parseInstantText('19:00', now, 'Europe/Berlin')).toBe(at(19, 0, 1));
    expect(parseInstantText('21:30', now, 'Europe/Berlin', 'nearest')).toBe(at(21, 30));
  });

  it('crosses midnight either way', () => {
    expect(parseInstantText('23:40', at(0, 10), 'Europe/Berlin', 'nearest')).toBe(at(23, 40, -1));
    expect(parseInstantText('0:20', at(23, 50), 'Europe/Berlin', 'nearest')).toBe(at(0, 20, 1));
  });

  it('takes a date as written, and refuses what is not a time', () => {
    expect(parseInstantText('2026-11-20 09:00', at(19, 5), 'Europe/Berlin', 'nearest')).toBe(Date.UTC(2026, 10, 20, 8, 0, 0));
    expect(parseInstantText('', at(19, 5), 'Europe/Berlin', 'nearest')).toBeNull();
    expect(parseInstantText('after lunch', at(19, 5), 'Europe/Berlin', 'nearest')).toBeUndefined();
  });
});

describe('the aux timer\'s digits', () => {
  /** A snapshot at FIVE_PM (monotonic 0) with this aux timer, the main one paused. */
  const withAux = (fields: Partial<Room['aux']>): Snapshot => {
    const base = createRoom('t1');
    const aux: Room['aux'] = { label: 'Changeover', duration: 2 * MIN, appearance: 'countdown', transport: { running: false, remainingMs: 2 * MIN }, ...fields };
    return toSnapshot({ ...base, aux }, 0, FIVE_PM);
  };
  const digits = (snapshot: Snapshot, nowMs: number): string => auxFaceAt(snapshot, nowMs).time;

  it('counts down from the server instant given, into overrun, red past zero', () => {
    // Running, its end 1:30 after the snapshot's moment.
    const running = withAux({ transport: { running: true, endMonoMs: 90_000 } });
    expect(digits(running, FIVE_PM)).toBe('1:30');
    expect(digits(running, FIVE_PM + 500)).toBe('1:30');
    expect(digits(running, FIVE_PM + 1_000)).toBe('1:29');
    expect(digits(running, FIVE_PM + 90_000)).toBe('0:00');
    expect(digits(running, FIVE_PM + 91_000)).toBe('+0:01');
    expect(auxFaceAt(running, FIVE_PM + 91_000).tone).toBe('over');
    // The main timer's zero behaviour never stops it.
    const stopping = { ...running, zeroBehavior: 'stop' as const };
    expect(digits(stopping, FIVE_PM + 91_000)).toBe('+0:01');
  });

  it('counts up the time since its start, and stands still when paused', () => {
    const running = withAux({ appearance: 'countup', transport: { running: true, endMonoMs: 90_000 } });
    expect(digits(running, FIVE_PM)).toBe('0:30');
    expect(digits(running, FIVE_PM + 999)).toBe('0:30');
    expect(digits(running, FIVE_PM + 1_000)).toBe('0:31');
    const paused = withAux({ appearance: 'countup' });
    expect(digits(paused, FIVE_PM + 60 * MIN)).toBe('0:00');
  });
});
