// The running order's CSV, without a browser: RFC 4180 quoting, every field's
// refusal naming its line, and an export that imports back unchanged, with the
// show's planned start (first row only) and the hard starts (issue 29).
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
    const text = formatRunningOrderCsv(timers, TAGS, null);
    expect(text.split('\r\n')[0]).toBe('label,speaker,duration,warnAt,dangerAt,appearance,tag,scheduledAt,endsAt,plannedStart');
    expect(text.split('\r\n')[1]).toBe('"Keynote, ""live""",Ada,20:00,2:00,0:00,countdown,Main stage,2026-05-01T09:30:00.000Z,,');
    const back = parseRunningOrderCsv(text, TAGS);
    // No planned start in the room: an empty cell, which says nothing on the way back.
    expect(back.ok).toBe(true);
    expect(back.ok && back.plannedStart).toBeUndefined();
    expect(back.ok && back.rows.map(({ fields: f }) => [f.label, f.duration, f.warnAt, f.appearance, f.tagId, f.scheduledAt])).toEqual([
      ['Keynote, "live"', 1_200_000, 120_000, 'countdown', 'g1', Date.parse('2026-05-01T09:30:00Z')],
      ['Q&A', 5_400_500, 0, 'countup', null, null],
    ]);
  });
});

describe("running order CSV: the show's planned start and hard starts (issue 29)", () => {
  const first = createRoom('t1').timers[0] as Timer;
  const PLANNED = Date.parse('2026-05-01T08:45:00Z');
  const show: Timer[] = [
    { ...first, id: 'a', label: 'Doors', duration: 900_000, scheduledAt: null, endsAt: null },
    // Hard starts: one on a whole minute, one with milliseconds, one on another day with an end of day.
    { ...first, id: 'b', label: 'Keynote', duration: 1_200_000, scheduledAt: Date.parse('2026-05-01T09:00:00Z'), endsAt: null },
    { ...first, id: 'c', label: 'Panel', duration: 2_400_000, scheduledAt: Date.parse('2026-05-01T09:40:12.345Z'), endsAt: null },
    { ...first, id: 'd', label: 'Party', duration: 600_000, scheduledAt: Date.parse('2026-05-02T23:30:00Z'), endsAt: Date.parse('2026-05-03T00:15:00Z') },
  ];

  it('writes the planned start on the first row only, as UTC ISO 8601 like the hard starts', () => {
    const lines = formatRunningOrderCsv(show, TAGS, PLANNED).split('\r\n');
    expect(lines[0]?.split(',').slice(-3)).toEqual(['scheduledAt', 'endsAt', 'plannedStart']);
    expect(lines[1]).toBe('Doors,,15:00,1:00,0:00,countdown,,,,2026-05-01T08:45:00.000Z');
    expect(lines[2]).toBe('Keynote,,20:00,1:00,0:00,countdown,,2026-05-01T09:00:00.000Z,,');
    expect(lines[3]).toBe('Panel,,40:00,1:00,0:00,countdown,,2026-05-01T09:40:12.345Z,,');
    expect(lines[4]).toBe('Party,,10:00,1:00,0:00,countdown,,2026-05-02T23:30:00.000Z,2026-05-03T00:15:00.000Z,');
  });

  it('imports back the same planned start and the same hard starts, to the millisecond', () => {
    const back = parseRunningOrderCsv(formatRunningOrderCsv(show, TAGS, PLANNED), TAGS);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.plannedStart).toBe(PLANNED);
    expect(back.rows.map((row) => [row.fields.label, row.fields.scheduledAt, row.fields.endsAt])).toEqual(show.map((t) => [t.label, t.scheduledAt, t.endsAt]));
  });

  it('an empty first-row cell says nothing, like a file without the column', () => {
    const empty = parseRunningOrderCsv('label,duration,plannedStart\nA,1:00,\nB,1:00,\n', TAGS);
    const without = parseRunningOrderCsv('label,duration\nA,1:00\nB,1:00\n', TAGS);
    expect(empty.ok && without.ok).toBe(true);
    if (!empty.ok || !without.ok) return;
    expect(empty.plannedStart).toBeUndefined();
    expect(without.plannedStart).toBeUndefined();
    expect(empty.rows).toEqual(without.rows);
  });

  it.each([
    ['2026-05-01T10:45:00+02:00', 0],
    ['2026-05-01T03:45-0500', 0],
    ['2026-05-01 08:45Z', 0],
    ['2026-05-01T08:45:00.1239Z', 123],
    [String(Date.parse('2026-05-01T08:45:00Z')), 0],
  ])('reads the planned start %j (an offset, a space, a fraction, milliseconds) in any column position', (cell, extraMs) => {
    expect(parseRunningOrderCsv(`plannedStart,duration\n${cell},1:00\n`, TAGS)).toMatchObject({ ok: true, plannedStart: PLANNED + extraMs });
  });

  it('reads 29 February in a leap year', () => {
    expect(parseRunningOrderCsv('duration,plannedStart\n1:00,2028-02-29T00:00:00Z\n', TAGS)).toMatchObject({ ok: true, plannedStart: Date.parse('2028-02-29T00:00:00Z') });
  });

  it('refuses a planned start on a later row, naming that line and the first row', () => {
    const text = 'label,duration,plannedStart\nA,1:00,\n"B\nsecond line",1:00,\nC,1:00,2026-05-01T08:45:00Z\n';
    const result = parseRunningOrderCsv(text, TAGS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/^line 5, plannedStart: /);
    expect(result.error).toContain('on the first row (line 2)');
    expect(result.error).toContain('"2026-05-01T08:45:00Z"');
    // The same value on the first row and again below: still refused, a file has one planned start.
    const twice = parseRunningOrderCsv('duration,plannedStart\n1:00,2026-05-01T08:45:00Z\n1:00,2026-05-01T08:45:00Z\n', TAGS);
    expect(twice).toMatchObject({ ok: false, error: expect.stringMatching(/^line 3, plannedStart: .*first row \(line 2\)/) });
  });

  it.each([
    ['09:00', 'is not a date-time'],
    ['tomorrow', 'is not a date-time'],
    ['2026-05-01T09:00:00Zjunk', 'is not a date-time'],
    ['2026-05-01T09:00:00', 'has no time zone'],
    ['2026-05-01T09:00', 'has no time zone'],
    ['2026-02-29T09:00:00Z', 'is not a real date'],
    ['2026-04-31T09:00:00Z', 'is not a real date'],
    ['2026-05-01T24:00:00Z', 'is not a real date'],
    ['2026-05-01T09:60:00Z', 'is not a real date'],
    ['2026-05-01T09:00:00+24:00', 'is not a real date'],
    ['1969-12-31T23:59:59Z', 'is out of range'],
    ['0070-01-01T00:00:00Z', 'is out of range'],
    ['999999999999999', 'is out of range'],
  ])('refuses the instant %j as a planned start and as a hard start (%s)', (cell, why) => {
    const asStart = parseRunningOrderCsv(`duration,plannedStart\n1:00,${cell}\n`, TAGS);
    expect(asStart).toMatchObject({ ok: false, error: expect.stringContaining(`line 2, plannedStart: "${cell}" ${why}`) });
    const asHard = parseRunningOrderCsv(`duration,scheduledAt\n1:00,\n2:00,${cell}\n`, TAGS);
    expect(asHard).toMatchObject({ ok: false, error: expect.stringContaining(`line 3, scheduledAt: "${cell}" ${why}`) });
  });
});

describe('running order CSV and spreadsheet formulas (OWASP CSV injection)', () => {
  const first = createRoom('t1').timers[0] as Timer;
  const hostile = ['=HYPERLINK("http://example.invalid","Click")', '=2*3', "+cmd|' /C calc'!A0", '-2+3', '@SUM(1+1)', "'=already marked", "''=twice", "'plain quote", 'plain'];

  it.each(hostile)('exports %j so no spreadsheet runs it, and imports it back unchanged', (label) => {
    const tags: Tag[] = [{ id: 'g1', name: '=cmd|x', colour: '#0a84ff' }];
    const text = formatRunningOrderCsv([{ ...first, label, speaker: label, tagId: 'g1' }], tags, null);
    const cells = parseCells(text.split('\r\n')[1] ?? '');
    // A cell a spreadsheet would run starts with ' in the file: the bytes are checked, not only the round trip.
    for (const cell of [cells[0], cells[1], cells[6]]) expect(cell !== undefined && /^[=+\-@\t\r]/.test(cell)).toBe(false);
    const back = parseRunningOrderCsv(text, tags);
    expect(back.ok && back.rows.map(({ fields: f }) => [f.label, f.speaker, f.tagId])).toEqual([[label, label, 'g1']]);
  });

  it('a tab or a carriage return first is marked too', () => {
    for (const label of ['\tTabbed', '\rReturned']) {
      const line = formatRunningOrderCsv([{ ...first, label }], [], null).split('\r\n').slice(1).join('\r\n');
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
