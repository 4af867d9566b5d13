// The console's pure pieces, without a browser: how operators' durations are
// read and written, and the rule that only a newer snapshot is ever shown.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import { formatDurationText, parseDurationText } from '../../src/domain/duration-text.js';
import { LatestSnapshot } from '../../src/pages/control/latest-snapshot.js';

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
