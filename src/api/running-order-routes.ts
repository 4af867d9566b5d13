// The running order as a file, in the API (issue 26): GET /api/v1/{api_key}/timers.csv
// exports it, POST /api/v1/{api_key}/timers/import appends a CSV file (text/csv) or
// a JSON list of timers as ONE command: every row is checked with the rules of
// POST /timers, and either all are added (one seq step, one push, one save, answered
// once they are on disk) or none is, and the answer names the first bad line (or
// list position) and field. One request counts once against the quota. The CSV
// format, and its neutralising of spreadsheet formulas, is src/domain/running-order-csv.ts.
// A CSV also carries the show's planned start (settings.plannedStart, issue 29) in
// its first row: the export writes it, and an import that gives one sets it in the
// same command as its timers (so both land, or neither); a file that says nothing
// leaves the room's planned start as it is.
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { NotDone, type RoomService } from '../app/room-service.js';
import { TIMER_FIELD_NAMES } from '../domain/engine.js';
import { formatRunningOrderCsv, parseRunningOrderCsv, type CsvTimer } from '../domain/running-order-csv.js';
import type { CommandError, TimerFields } from '../domain/types.js';
import { answer, jsonAnswer } from '../web/answer.js';
import { errorResponse } from '../web/api-errors.js';
import { describeZodError } from '../commands/zod-error.js';
import type { AppEnv } from '../web/env.js';
import { MAX_IMPORT_BYTES } from '../commands/body-size.js';
import { inputSchema } from '../commands/input.js';
import { operations } from '../commands/operations.js';
import { notDoneResponse, statusOfRefusal } from '../web/refusal-status.js';

export interface RunningOrderDeps {
  readonly service: RoomService;
  readonly newTimerId: () => string;
}

/** Where each row came from, for the refusal: a CSV line, or a position in the JSON list. */
interface Row {
  readonly where: string;
  readonly fields: TimerFields;
}

/** `plannedStart`: the show's planned start the file gives, undefined when it says nothing (a JSON list never does). */
type Rows = { readonly ok: true; readonly rows: readonly Row[]; readonly plannedStart: number | undefined } | { readonly ok: false; readonly error: string };

const JSON_EXAMPLE = '{"timers":[{"label":"Keynote","duration":1200000},{"label":"Q&A","duration":600000}]}';

function mediaType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function fromCsv(text: string, service: RoomService): Rows {
  const parsed = parseRunningOrderCsv(text, service.room.tags);
  if (!parsed.ok) return parsed;
  return { ok: true, rows: parsed.rows.map((row: CsvTimer) => ({ where: `line ${row.line}`, fields: row.fields })), plannedStart: parsed.plannedStart };
}

/** The fields of POST /timers, checked by its own schema (the same words), no others. */
function fromJson(text: string): Rows {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `body: not valid JSON (${error instanceof Error ? error.message : String(error)}); send ${JSON_EXAMPLE}` };
  }
  const list = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).timers : undefined;
  if (!Array.isArray(list)) return { ok: false, error: `body: must be an object with a list "timers", such as ${JSON_EXAMPLE}` };
  const create = operations.find((op) => op.operationId === 'v1_createTimer');
  if (create === undefined) throw new Error('the operation table has no v1_createTimer');
  const schema = inputSchema(create, 'json');
  const rows: Row[] = [];
  for (const [i, item] of list.entries()) {
    const where = `timers[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return { ok: false, error: `${where}: must be an object of the fields of POST /timers` };
    const unknown = Object.keys(item).find((name) => !(TIMER_FIELD_NAMES as readonly string[]).includes(name));
    if (unknown !== undefined) return { ok: false, error: `${where}.${unknown}: unknown field (fields: ${TIMER_FIELD_NAMES.join(', ')})` };
    const parsed = schema.safeParse(item);
    if (!parsed.success) return { ok: false, error: `${where}.${describeZodError(parsed.error)}` };
    rows.push({ where, fields: parsed.data as TimerFields });
  }
  return { ok: true, rows, plannedStart: undefined };
}

/** The room's refusal of one row, named by its line or position. */
function rowRefusal(c: Context, rows: readonly Row[], error: CommandError): Response {
  const row = error.row === undefined ? undefined : rows[error.row];
  const message = row === undefined ? error.message : `${row.where}${/^[A-Za-z]+: /.test(error.message) ? ', ' : ': '}${error.message}`;
  return errorResponse(c, statusOfRefusal(error), `nothing was imported: ${message}`);
}

export function mountRunningOrder(app: Hono<AppEnv>, deps: RunningOrderDeps): void {
  const { service } = deps;

  app.get('/api/v1/:key/timers.csv', (c) => {
    c.set('route', 'GET /api/v1/{api_key}/timers.csv');
    c.set('read', true);
    const room = service.room;
    return answer(c, formatRunningOrderCsv(room.timers, room.tags, room.settings.plannedStart), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="running-order.csv"',
    });
  });

  app.post(
    '/api/v1/:key/timers/import',
    async (c, next) => {
      c.set('route', 'POST /api/v1/{api_key}/timers/import');
      return next();
    },
    bodyLimit({ maxSize: MAX_IMPORT_BYTES, onError: (c) => errorResponse(c, 413, `body too large: an import is at most ${MAX_IMPORT_BYTES} bytes`) }),
    async (c) => {
      const type = mediaType(c);
      const text = await c.req.text();
      const rows = type === 'text/csv' ? fromCsv(text.replace(/^\uFEFF/, ''), service) : type === 'application/json' ? fromJson(text) : null;
      if (rows === null) {
        return errorResponse(c, 415, `Content-Type: send the file as text/csv (curl --data-binary @running-order.csv -H 'Content-Type: text/csv') or a JSON list as application/json, such as ${JSON_EXAMPLE}`);
      }
      if (!rows.ok) return errorResponse(c, 400, `nothing was imported: ${rows.error}`);
      // Each id new to the room (newTimerId's promise) and to this import.
      const ids = new Set<string>();
      const timers = rows.rows.map((row) => {
        let id = deps.newTimerId();
        while (ids.has(id)) id = deps.newTimerId();
        ids.add(id);
        return { id, fields: row.fields };
      });
      const plannedStart = rows.plannedStart;
      const { outcome, durable } = service.dispatch({ type: 'timer.import', timers, ...(plannedStart === undefined ? {} : { plannedStart }) }, 'http-v1');
      if (!outcome.ok) return rowRefusal(c, rows.rows, outcome.error);
      try {
        await durable;
      } catch (error) {
        if (!(error instanceof NotDone)) throw error;
        if (error.kind === 'refused' && error.error !== undefined) return rowRefusal(c, rows.rows, error.error);
        return notDoneResponse(c, error);
      }
      const added = new Set(timers.map((t) => t.id));
      return jsonAnswer(c, { ok: true as const, imported: timers.length, timers: service.room.timers.filter((t) => added.has(t.id)) }, 201);
    },
  );
}
