// The running order's CSV, without a browser: RFC 4180 quoting, every field's
// refusal naming its line, and an export that imports back unchanged.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Tag, Timer } from '../../src/domain/types.js';
import { formatRunningOrderCsv, parseRunningOrderCsv } from '../../src/pages/control/running-order-csv.js';

const TAGS: readonly Tag[] = [{ id: 'g1', name: 'Main stage', colour: '#0a84ff' }];
const HEADER = 'label,speaker,duration,warnAt,appearance,tag,scheduledAt\n';

describe('running order CSV import', () => {
  it('reads quoted fields, every duration form and the optional fields', () => {
    const text =
      HEADER +
      '"Opening, part 1","Ada ""the"" Host",10:00,1:00,countdown,Main stage,2026-05-01T09:30:00Z\r\n' +
      '"Two\nlines",,1:30:00,,countup,,\n' +
      'Break,,90000,30000,clock,,1777627800000\n\n';
    const result = parseRunningOrderCsv(text, TAGS);
    expect(result).toEqual({
      ok: true,
      rows: [
        { label: 'Opening, part 1', speaker: 'Ada "the" Host', duration: 600_000, warnAt: 60_000, appearance: 'countdown', tagId: 'g1', scheduledAt: Date.parse('2026-05-01T09:30:00Z') },
        { label: 'Two\nlines', speaker: '', duration: 5_400_000, warnAt: null, appearance: 'countup', tagId: null, scheduledAt: null },
        { label: 'Break', speaker: '', duration: 90_000, warnAt: 30_000, appearance: 'clock', tagId: null, scheduledAt: 1777627800000 },
      ],
    });
  });

  it.each([
    ['A,,ten,,countdown,,\n', 'line 2, duration'],
    ['A,,10:00,soon,countdown,,\n', 'line 2, warnAt'],
    ['A,,10:00,,bars,,\n', 'line 2, appearance'],
    ['A,,10:00,,countdown,Nowhere,\n', 'line 2, tag'],
    ['A,,10:00,,countdown,,tomorrow\n', 'line 2, scheduledAt'],
    ['A,,10:00,,countdown\n', 'line 2: 5 fields'],
    ['"A\nB",,10:00,,countdown,,\nC,,0:00,,countdown,,\n', 'line 4, duration'],
  ])('refuses %j naming %s', (rows, named) => {
    const result = parseRunningOrderCsv(HEADER + rows, TAGS);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(named);
  });

  it('refuses an unknown column, a missing header and an unclosed quote', () => {
    expect(parseRunningOrderCsv('label,colour\nA,red\n', TAGS)).toMatchObject({ ok: false, error: expect.stringContaining('unknown column "colour"') });
    expect(parseRunningOrderCsv('', TAGS).ok).toBe(false);
    expect(parseRunningOrderCsv(HEADER + '"A,,10:00\n', TAGS)).toMatchObject({ ok: false, error: expect.stringContaining('line 2') });
  });
});

describe('running order CSV export', () => {
  it('writes the same columns and imports back unchanged', () => {
    const first = createRoom('t1').timers[0] as Timer;
    const timers: Timer[] = [
      { ...first, id: 'a', label: 'Keynote, "live"', speaker: 'Ada', duration: 1_200_000, warnAt: 120_000, tagId: 'g1', scheduledAt: Date.parse('2026-05-01T09:30:00Z') },
      { ...first, id: 'b', label: 'Q&A', speaker: '', duration: 5_400_500, warnAt: 0, appearance: 'countup', tagId: null, scheduledAt: null },
    ];
    const text = formatRunningOrderCsv(timers, TAGS);
    expect(text.split('\r\n')[1]).toBe('"Keynote, ""live""",Ada,20:00,2:00,countdown,Main stage,2026-05-01T09:30:00.000Z');
    const back = parseRunningOrderCsv(text, TAGS);
    expect(back.ok && back.rows.map((row) => [row.label, row.duration, row.warnAt, row.appearance, row.tagId, row.scheduledAt])).toEqual([
      ['Keynote, "live"', 1_200_000, 120_000, 'countdown', 'g1', Date.parse('2026-05-01T09:30:00Z')],
      ['Q&A', 5_400_500, 0, 'countup', null, null],
    ]);
  });
});
