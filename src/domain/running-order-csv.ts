// The running order as CSV: the box's export (GET /timers.csv) and import (POST
// /timers/import, one command for the whole file: all rows or none), and the
// console's preview. RFC 4180 quoting. Spreadsheets run a cell that starts with
// = + - @, a tab or a CR as a formula, so the export puts a ' before such a cell
// (OWASP's CSV-injection advice) and the import takes it off again: every value
// comes back as it was, and a spreadsheet shows it as text.
//
// Instants (scheduledAt, endsAt, plannedStart) are written as ISO 8601 in UTC
// (2026-05-01T09:30:00.000Z) and read back as ISO 8601 with a zone (Z or an
// offset such as +02:00) or as milliseconds. A time without a zone is refused, not
// guessed: the console's preview would read it in the operator's device's zone and
// the box in its own, so the two could disagree by hours.
//
// The show's planned start (the room's settings.plannedStart) is one value for the
// whole file: the `plannedStart` column, given on the first row only (a value on a
// later row is refused, so a sorted or pasted file cannot carry two). An empty
// first-row cell says nothing, exactly like a file without the column: the import
// leaves the room's planned start as it is (an import only adds, it never clears a
// setting; POST /settings with plannedStart null clears it). So an export of a room
// with no planned start (an empty cell) imported into an empty room gives one
// with none, and an export with one gives it back.
import { APPEARANCES, type Appearance, type Tag, type Timer, type TimerFields } from './types.js';
import { formatDurationText, parseDurationText } from './duration-text.js';
import { SCHEDULED_AT_MAX_MS, SCHEDULED_AT_MIN_MS } from './limits.js';

export const CSV_COLUMNS = ['label', 'speaker', 'duration', 'warnAt', 'dangerAt', 'appearance', 'tag', 'scheduledAt', 'endsAt', 'plannedStart'] as const;
type Column = (typeof CSV_COLUMNS)[number];
/** A file needs these; the others may be left out (and then take POST /timers' defaults). */
const REQUIRED_COLUMNS: readonly Column[] = ['duration'];

/** One row: the fields it asks POST /timers for, and the line it starts on (for refusals). */
export interface CsvTimer {
  readonly line: number;
  readonly fields: TimerFields;
}

/** `plannedStart`: the show's planned start the file gives (first row), undefined when it says nothing. */
export type CsvResult =
  | { readonly ok: true; readonly rows: readonly CsvTimer[]; readonly plannedStart: number | undefined }
  | { readonly ok: false; readonly error: string };

interface Record {
  readonly line: number;
  readonly cells: readonly string[];
}

/** RFC 4180 records, each with the line it starts on (quoted fields may span lines). */
function splitRecords(text: string): Record[] | string {
  const records: Record[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      cells.push(cell);
      records.push({ line: start, cells });
      cells = [];
      cell = '';
      line += 1;
      start = line;
    } else if (ch === '"') return `line ${line}: a quote inside an unquoted field (wrap the field in quotes and double the quote)`;
    else cell += ch;
    i += 1;
  }
  if (quoted) return `line ${start}: a quoted field is never closed`;
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ line: start, cells });
  }
  // Blank lines (a trailing newline, spacing) are not rows.
  return records.filter((record) => !(record.cells.length === 1 && record.cells[0]?.trim() === ''));
}

/** Plain digits are milliseconds here (a spreadsheet's numbers); anything else is read as the console reads durations. */
function parseCsvDuration(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed);
  return parseDurationText(trimmed);
}

type Instant = { readonly ok: true; readonly ms: number | null } | { readonly ok: false; readonly why: string };

const INSTANT_HINT = 'write an ISO date-time with its zone (2026-05-01T09:30:00Z, or 2026-05-01T11:30:00+02:00) or milliseconds, as the export writes it';

/** ISO 8601 date and time with a zone: `T` or a space between them, seconds and their fraction optional. */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/i;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : (MONTH_DAYS[month - 1] ?? 0));

/**
 * An instant as the export writes it (ISO 8601) or milliseconds; null when empty.
 * Checked field by field rather than left to Date.parse, which rolls 31 February over
 * into March and reads a time without a zone in the local zone of whichever machine runs it.
 */
function parseInstant(text: string): Instant {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, ms: null };
  let ms: number;
  if (/^\d{1,15}$/.test(trimmed)) ms = Number(trimmed);
  else {
    const m = ISO_INSTANT.exec(trimmed);
    if (m === null) return { ok: false, why: `"${trimmed}" is not a date-time: ${INSTANT_HINT}` };
    // Page code too (the console's preview): no destructuring, which esbuild cannot lower for Safari 12.
    const n = (i: number): number => Number(m[i] ?? '0');
    const year = n(1);
    const month = n(2);
    const day = n(3);
    const hour = n(4);
    const minute = n(5);
    const second = n(6);
    if (m[8] === undefined && m[9] === undefined) {
      return { ok: false, why: `"${trimmed}" has no time zone: end it with Z for UTC or an offset such as +02:00 (the export writes UTC: 2026-05-01T09:30:00.000Z)` };
    }
    const offsetHours = n(10);
    const offsetMinutes = n(11);
    if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
      return { ok: false, why: `"${trimmed}" is not a real date and time (month 01-12, a day the month has, hours 00-23, minutes and seconds 00-59)` };
    }
    // The first three digits of a fraction are the milliseconds; finer ones are dropped.
    const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
    const date = new Date(0);
    // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, millis);
    const sign = m[9] === '-' ? -1 : 1;
    ms = date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  if (ms < SCHEDULED_AT_MIN_MS || ms > SCHEDULED_AT_MAX_MS) {
    return { ok: false, why: `"${trimmed}" is out of range: give an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z` };
  }
  return { ok: true, ms };
}

function isAppearance(value: string): value is Appearance {
  return (APPEARANCES as readonly string[]).includes(value);
}

/** Every row, or the first problem as `line N, field: why`. */
export function parseRunningOrderCsv(text: string, tags: readonly Tag[]): CsvResult {
  const records = splitRecords(text.replace(/^\uFEFF/, ''));
  if (typeof records === 'string') return { ok: false, error: records };
  const header = records[0];
  if (header === undefined) return { ok: false, error: 'the file is empty: it needs a header row (' + CSV_COLUMNS.join(',') + ')' };
  const index = new Map<Column, number>();
  for (let c = 0; c < header.cells.length; c += 1) {
    const name = (header.cells[c] ?? '').trim();
    const column = CSV_COLUMNS.find((known) => known.toLowerCase() === name.toLowerCase());
    if (column === undefined) return { ok: false, error: `line ${header.line}: unknown column "${name}" (columns: ${CSV_COLUMNS.join(', ')})` };
    index.set(column, c);
  }
  for (const column of REQUIRED_COLUMNS) if (!index.has(column)) return { ok: false, error: `line ${header.line}: the header needs a ${column} column` };
  const rows: CsvTimer[] = [];
  let plannedStart: number | undefined;
  for (const record of records.slice(1)) {
    const given = (column: Column): boolean => index.has(column);
    const at = (column: Column): string => {
      const c = index.get(column);
      return c === undefined ? '' : unneutralised((record.cells[c] ?? '').trim());
    };
    const refuse = (column: Column, why: string): CsvResult => ({ ok: false, error: `line ${record.line}, ${column}: ${why}` });
    if (record.cells.length !== header.cells.length) {
      return { ok: false, error: `line ${record.line}: ${record.cells.length} fields where the header has ${header.cells.length}` };
    }
    const first = rows[0];
    if (first === undefined) {
      // The first row: an empty cell, like no column, leaves the room's planned start as it is.
      const instant = parseInstant(at('plannedStart'));
      if (!instant.ok) return refuse('plannedStart', instant.why);
      if (instant.ms !== null) plannedStart = instant.ms;
    } else if (at('plannedStart') !== '') {
      return refuse('plannedStart', `the show's planned start is given once, on the first row (line ${first.line}): put "${at('plannedStart')}" there and leave this cell empty`);
    }
    const duration = parseCsvDuration(at('duration'));
    if (duration === null || duration <= 0) return refuse('duration', `"${at('duration')}" is not a duration: write mm:ss, h:mm:ss or milliseconds`);
    const fields: { -readonly [K in keyof TimerFields]: TimerFields[K] } = { label: at('label'), speaker: at('speaker'), duration };
    for (const column of ['warnAt', 'dangerAt'] as const) {
      const text = at(column);
      if (text === '') continue;
      const ms = parseCsvDuration(text);
      if (ms === null) return refuse(column, `"${text}" is not a duration: write mm:ss, h:mm:ss or milliseconds`);
      fields[column] = ms;
    }
    const appearanceText = at('appearance').toLowerCase() || 'countdown';
    if (!isAppearance(appearanceText)) return refuse('appearance', `"${at('appearance')}" is not one of ${APPEARANCES.join(', ')}`);
    fields.appearance = appearanceText;
    const tagName = at('tag');
    const tag = tagName === '' ? null : tags.find((known) => known.name === tagName);
    if (tag === undefined) return refuse('tag', `no tag is named "${tagName}"; add it in Tags first (an import never makes tags)`);
    fields.tagId = tag === null ? null : tag.id;
    for (const column of ['scheduledAt', 'endsAt'] as const) {
      if (!given(column)) continue;
      const instant = parseInstant(at(column));
      if (!instant.ok) return refuse(column, instant.why);
      fields[column] = instant.ms;
    }
    rows.push({ line: record.line, fields });
  }
  if (rows.length === 0) return { ok: false, error: 'the file has a header but no rows' };
  return { ok: true, rows, plannedStart };
}

/** A cell a spreadsheet would run as a formula: = + - @, a tab or a CR first, after any quote marks. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** What the export writes: a ' before a cell a spreadsheet would run (and before one that already starts with ' and then would). */
function neutralised(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The import's undoing of `neutralised`: exactly one ' comes off a cell that the export marked. */
function unneutralised(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? '"' + cell.replace(/"/g, '""') + '"' : cell;
}

const instantText = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString());

/**
 * The same columns as the import reads, so an export imports back unchanged; the
 * show's planned start (the room's settings.plannedStart) on the first row only.
 */
export function formatRunningOrderCsv(timers: readonly Timer[], tags: readonly Tag[], plannedStart: number | null): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (let row = 0; row < timers.length; row += 1) {
    const timer = timers[row] as Timer;
    const tag = timer.tagId === null ? undefined : tags.find((known) => known.id === timer.tagId);
    lines.push(
      [
        timer.label,
        timer.speaker,
        formatDurationText(timer.duration),
        formatDurationText(timer.warnAt),
        formatDurationText(timer.dangerAt),
        timer.appearance,
        tag === undefined ? '' : tag.name,
        instantText(timer.scheduledAt),
        instantText(timer.endsAt),
        row === 0 ? instantText(plannedStart) : '',
      ]
        .map((cell) => quote(neutralised(cell)))
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
