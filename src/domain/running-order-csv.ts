// The running order as CSV, read and written without the network: the whole file
// is checked before anything is sent, so a bad row refuses the import (naming its
// line and field) and nothing is ever half-imported.
import { APPEARANCES, type Appearance, type Tag, type Timer } from '../../domain/types.js';
import { formatDurationText, parseDurationText } from './duration-text.js';

export const CSV_COLUMNS = ['label', 'speaker', 'duration', 'warnAt', 'appearance', 'tag', 'scheduledAt'] as const;
type Column = (typeof CSV_COLUMNS)[number];

/** The fields one row asks POST /timers for. */
export interface CsvTimer {
  readonly label: string;
  readonly speaker: string;
  readonly duration: number;
  readonly warnAt: number | null;
  readonly appearance: Appearance;
  readonly tagId: string | null;
  readonly scheduledAt: number | null;
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

function parseScheduledAt(text: string): number | null | undefined {
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
  if (!index.has('duration')) return { ok: false, error: `line ${header.line}: the header needs a duration column` };
  const rows: CsvTimer[] = [];
  for (const record of records.slice(1)) {
    const at = (column: Column): string => {
      const c = index.get(column);
      return c === undefined ? '' : (record.cells[c] ?? '').trim();
    };
    const refuse = (column: Column, why: string): CsvResult => ({ ok: false, error: `line ${record.line}, ${column}: ${why}` });
    if (record.cells.length !== header.cells.length) {
      return { ok: false, error: `line ${record.line}: ${record.cells.length} fields where the header has ${header.cells.length}` };
    }
    const duration = parseCsvDuration(at('duration'));
    if (duration === null || duration <= 0) return refuse('duration', `"${at('duration')}" is not a duration: write mm:ss, h:mm:ss or milliseconds`);
    const warnText = at('warnAt');
    const warnAt = warnText === '' ? null : parseCsvDuration(warnText);
    if (warnAt === null && warnText !== '') return refuse('warnAt', `"${warnText}" is not a duration: write mm:ss, h:mm:ss or milliseconds`);
    const appearanceText = at('appearance').toLowerCase() || 'countdown';
    if (!isAppearance(appearanceText)) return refuse('appearance', `"${at('appearance')}" is not one of ${APPEARANCES.join(', ')}`);
    const tagName = at('tag');
    const tag = tagName === '' ? null : tags.find((known) => known.name === tagName);
    if (tag === undefined) return refuse('tag', `no tag is named "${tagName}"; add it in Tags first`);
    const scheduledAt = parseScheduledAt(at('scheduledAt'));
    if (scheduledAt === undefined) return refuse('scheduledAt', `"${at('scheduledAt')}" is not an ISO date-time (2026-05-01T09:30:00Z) or milliseconds`);
    rows.push({
      label: at('label'),
      speaker: at('speaker'),
      duration,
      warnAt,
      appearance: appearanceText,
      tagId: tag === null ? null : tag.id,
      scheduledAt,
    });
  }
  if (rows.length === 0) return { ok: false, error: 'the file has a header but no rows' };
  return { ok: true, rows };
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? '"' + cell.replace(/"/g, '""') + '"' : cell;
}

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
        timer.appearance,
        tag === undefined ? '' : tag.name,
        timer.scheduledAt === null ? '' : new Date(timer.scheduledAt).toISOString(),
      ]
        .map(quote)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
