// The running order as CSV: the box's export (GET /timers.csv) and import (POST
// /timers/import, one command for the whole file: all rows or none), and the
// console's preview. RFC 4180 quoting. Spreadsheets run a cell that starts with
// = + - @, a tab or a CR as a formula, so the export puts a ' before such a cell
// (OWASP's CSV-injection advice) and the import takes it off again: every value
// comes back as it was, and a spreadsheet shows it as text.
import { APPEARANCES, type Appearance, type Tag, type Timer, type TimerFields } from './types.js';
import { formatDurationText, parseDurationText } from './duration-text.js';

export const CSV_COLUMNS = ['label', 'speaker', 'duration', 'warnAt', 'dangerAt', 'appearance', 'tag', 'scheduledAt', 'endsAt'] as const;
type Column = (typeof CSV_COLUMNS)[number];
/** A file needs these; the others may be left out (and then take POST /timers' defaults). */
const REQUIRED_COLUMNS: readonly Column[] = ['duration'];

/** One row: the fields it asks POST /timers for, and the line it starts on (for refusals). */
export interface CsvTimer {
  readonly line: number;
  readonly fields: TimerFields;
}

export type CsvResult = { readonly ok: true; readonly rows: readonly CsvTimer[] } | { readonly ok: false; readonly error: string };

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

/** An instant as the export writes it (ISO 8601) or milliseconds; null when empty, undefined when neither. */
function parseInstant(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/^\d{1,15}$/.test(trimmed)) return Number(trimmed);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed)) return undefined;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? undefined : ms;
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
      if (instant === undefined) return refuse(column, `"${at(column)}" is not an ISO date-time (2026-05-01T09:30:00Z) or milliseconds`);
      fields[column] = instant;
    }
    rows.push({ line: record.line, fields });
  }
  if (rows.length === 0) return { ok: false, error: 'the file has a header but no rows' };
  return { ok: true, rows };
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

/** The same columns as the import reads, so an export imports back unchanged. */
export function formatRunningOrderCsv(timers: readonly Timer[], tags: readonly Tag[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const timer of timers) {
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
      ]
        .map((cell) => quote(neutralised(cell)))
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
