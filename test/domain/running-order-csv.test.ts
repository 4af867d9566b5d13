// The running order's CSV, without a browser: RFC 4180 quoting, every field's
// refusal naming its line, and an export that imports back unchanged.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Tag, Timer } from '../../src/domain/types.js';
import { formatRunningOrderCsv, parseRunningOrderCsv } from '../../src/domain/running-order-csv.js';

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
        {
          line: 2,
          fields: { label: 'Opening, part 1', speaker: 'Ada "the" Host', duration: 600_000, warnAt: 60_000, appearance: 'countdown', tagId: 'g1', scheduledAt: Date.parse('2026-05-01T09:30:00Z') },
        },
        { line: 3, fields: { label: 'Two\nlines', speaker: '', duration: 5_400_000, appearance: 'countup', tagId: null, scheduledAt: null } },
        { line: 5, fields: { label: 'Break', speaker: '', duration: 90_000, warnAt: 30_000, appearance: 'clock', tagId: null, scheduledAt: 1777627800000 } },
      ],
    });
  });

  it('reads the danger time and a countdown to a time of day, and leaves out the columns a file does not have', () => {
    const result = parseRunningOrderCsv('label,duration,dangerAt,endsAt\nDoors,5:00,0:30,2026-05-01T09:00:00Z\n', TAGS);
    expect(result).toEqual({
      ok: true,
      rows: [{ line: 2, fields: { label: 'Doors', speaker: '', duration: 300_000, dangerAt: 30_000, appearance: 'countdown', tagId: null, endsAt: Date.parse('2026-05-01T09:00:00Z') } }],
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
    expect(text.split('\r\n')[0]).toBe('label,speaker,duration,warnAt,dangerAt,appearance,tag,scheduledAt,endsAt');
    expect(text.split('\r\n')[1]).toBe('"Keynote, ""live""",Ada,20:00,2:00,0:00,countdown,Main stage,2026-05-01T09:30:00.000Z,');
    const back = parseRunningOrderCsv(text, TAGS);
    expect(back.ok && back.rows.map(({ fields: f }) => [f.label, f.duration, f.warnAt, f.appearance, f.tagId, f.scheduledAt])).toEqual([
      ['Keynote, "live"', 1_200_000, 120_000, 'countdown', 'g1', Date.parse('2026-05-01T09:30:00Z')],
      ['Q&A', 5_400_500, 0, 'countup', null, null],
    ]);
  });
});

describe('running order CSV and spreadsheet formulas (OWASP CSV injection)', () => {
  const first = createRoom('t1').timers[0] as Timer;
  const hostile = ['=HYPERLINK("http://example.invalid","Click")', '=2*3', "+cmd|' /C calc'!A0", '-2+3', '@SUM(1+1)', "'=already marked", "''=twice", "'plain quote", 'plain'];

  it.each(hostile)('exports %j so no spreadsheet runs it, and imports it back unchanged', (label) => {
    const tags: Tag[] = [{ id: 'g1', name: '=cmd|x', colour: '#0a84ff' }];
    const text = formatRunningOrderCsv([{ ...first, label, speaker: label, tagId: 'g1' }], tags);
    const cells = parseCells(text.split('\r\n')[1] ?? '');
    // A cell a spreadsheet would run starts with ' in the file: the bytes are checked, not only the round trip.
    for (const cell of [cells[0], cells[1], cells[6]]) expect(cell !== undefined && /^[=+\-@\t\r]/.test(cell)).toBe(false);
    const back = parseRunningOrderCsv(text, tags);
    expect(back.ok && back.rows.map(({ fields: f }) => [f.label, f.speaker, f.tagId])).toEqual([[label, label, 'g1']]);
  });

  it('a tab or a carriage return first is marked too', () => {
    for (const label of ['\tTabbed', '\rReturned']) {
      const line = formatRunningOrderCsv([{ ...first, label }], []).split('\r\n').slice(1).join('\r\n');
      expect(line.startsWith(`"'${label[0] ?? ''}`) || line.startsWith(`'${label[0] ?? ''}`)).toBe(true);
    }
  });
});

/** The cells of one exported line (no line breaks inside), quotes undone. */
function parseCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
