// Requests made from the OpenAPI document (issue 11): for every operation, in
// every method, fast-check builds requests from the document's own parameter and
// body schemas (which come from the zod field schemas), both values the schemas
// allow and values they refuse, and sends them to an in-process app in a room of
// one to four timers. The document decides whether a request is valid (ajv, with
// JSON Schema's code-point lengths and `u`-flag patterns); the service must agree:
// - never a 5xx, and every answer fits the document (call());
// - an invalid request is 400, 404 or 413 and the message names each bad field
//   (or the body, or the timer id);
// - a valid request is accepted, unless the room as it is forbids it (unknown id,
//   last timer, position past the end, ...), and then the 400/404 says why.
import fc from 'fast-check';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Room } from '../../src/domain/types.js';
import { operations, type Method, type Operation } from '../../src/commands/operations.js';
import { call, OpenApiChecker, servedDocument, type OpenApiDocument } from '../helpers/openapi-check.js';
import { createTestApp, roomWithTimers, SCREEN_THAT_ACKNOWLEDGES } from '../helpers/test-app.js';

type Json = Record<string, unknown>;
interface Schema {
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly properties?: Record<string, Schema>;
  readonly required?: readonly string[];
  readonly anyOf?: readonly Schema[];
  readonly nullable?: boolean;
}

/** The integer branch of a query schema that is "an integer, or the empty string" (an instant that may be cleared). */
function integerOrEmpty(schema: Schema | undefined): Schema | undefined {
  const branches = schema?.anyOf;
  if (branches === undefined || !branches.some((b) => b.enum?.length === 1 && b.enum[0] === '')) return undefined;
  return branches.find((b) => b.type === 'integer');
}
interface QueryParameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
}
interface Endpoint {
  readonly op: Operation;
  readonly method: Method;
  readonly query: readonly QueryParameter[];
  readonly body: { readonly required: boolean; readonly json: Schema; readonly form: Schema } | undefined;
  readonly idSchema: Schema | undefined;
  /** The fields of which at least one must be given (the body's anyOf; a GET states it in words). */
  readonly atLeastOneOf: readonly string[];
}

// What the room may refuse a valid request for, as it is at the moment.
const ROOM_REFUSALS = [
  /^no next timer/,
  /^no previous timer/,
  /^cannot delete the last timer/,
  /^to: position must be a whole number from 0 to \d+/,
  /^ms: adjusting by -?\d+ would leave -?\d+ ms, above the maximum/,
  // The same for the aux timer (/aux_adjust), whose duration may be up to 24 hours.
  /^ms: adjusting the aux timer by -?\d+ would leave -?\d+ ms, above the maximum/,
  /^duration: the active timer would have \d+ ms left, above the maximum/,
  /^the running order is full/,
  // The document gives the shape of a zone name; the box's time-zone database decides the rest.
  /^timeZone: unknown time zone /,
  /^ms: "[^"]*" counts to a time of day/,
  // A tag id of the right shape that the room does not have (or none, where one is needed).
  /^tagId: no tag with id /,
  /^tagId: give the id of one of the room's tags/,
  /^the room's tags are full/,
  // A question id of the right shape that the room does not have.
  /^questionId: no question with id /,
];

let doc: OpenApiDocument;
let checker: OpenApiChecker;
// JSON Schema as the document means it: lengths in code points, patterns with the `u` flag (ajv's defaults).
const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

function validator(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

beforeAll(async () => {
  doc = await servedDocument();
  checker = new OpenApiChecker(doc);
});

function endpointOf(op: Operation, method: Method): Endpoint {
  const item = doc.paths[`/api/${op.version}/{api_key}${op.path}`] ?? {};
  const operation = item[method.toLowerCase()] as { parameters: (QueryParameter & { in: string })[]; requestBody?: Json };
  const post = item.post as { requestBody?: Json } | undefined;
  const contentOf = (body: Json | undefined) => body?.content as Record<string, { schema: Schema }> | undefined;
  const content = contentOf(operation.requestBody);
  const json = content?.['application/json']?.schema;
  const form = content?.['application/x-www-form-urlencoded']?.schema;
  const anyOf = contentOf(post?.requestBody)?.['application/json']?.schema.anyOf;
  return {
    op,
    method,
    query: operation.parameters.filter((p) => p.in === 'query'),
    body: json === undefined || form === undefined ? undefined : { required: operation.requestBody?.required === true, json, form },
    idSchema: operation.parameters.find((p) => p.in === 'path' && p.name === 'id')?.schema,
    atLeastOneOf: (anyOf ?? []).flatMap((s) => s.required ?? []),
  };
}

// ---- values, from the schemas ----------------------------------------------

/**
 * Each request is drawn either `within` the schemas (values of the right type inside their
 * bounds, no broken encodings: mostly valid, so every operation gets to act) or from
 * anywhere (the edges and beyond: mostly invalid). The document judges both alike.
 */
type Within = boolean;

const PLAIN_CHARS = ['a', 'Z', '7', ' ', 'é', '中', '😀', '%', '+', '&', '='];

/** Text with the characters the rules are about mixed in, and lengths at the bounds. */
function textValues(maxLength: number | undefined, wellFormed: boolean, within: Within): fc.Arbitrary<string> {
  if (within) return fc.array(fc.constantFrom(...PLAIN_CHARS), { maxLength: 12 }).map((chars) => `K${chars.join('')}`);
  const char = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...PLAIN_CHARS) },
    { weight: 1, arbitrary: fc.constantFrom('\t', '\n', '\u00A0', '\u3000', '\u200B', '\uFEFF', '\u0000', '\u0007', '\u007F', '\u0085') },
    { weight: 1, arbitrary: wellFormed ? fc.constantFrom('\u{E0020}', '\u0301') : fc.constantFrom('\uD800', '\uDFFF', '\u{E0020}') },
  );
  const long = [200, 201, 500, 501].flatMap((n) => ['a'.repeat(n), '😀'.repeat(n), ` ${'b'.repeat(n)} `]);
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(char, { maxLength: 12 }).map((chars) => chars.join('')) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u200B', '😀'.repeat(101), ...long, ...(maxLength === undefined ? [] : ['x'.repeat(maxLength)])) },
  );
}

/**
 * Within the schemas, a field whose pattern is a plain ASCII shape (a tag id, a colour, a zone
 * name) also gets strings drawn from that pattern: the text values above would almost never fit
 * it, and the operation would hardly ever act. Text rules (\u escapes, \p classes, lookaheads)
 * keep to the text values, which are what they are about.
 */
function patternValues(schema: Schema, within: Within): fc.Arbitrary<string> | undefined {
  const pattern = schema.pattern;
  if (!within || pattern === undefined || /\\u|\\p|\(\?/.test(pattern)) return undefined;
  return fc.stringMatching(new RegExp(pattern));
}

/** Whether a URL can carry the string (a lone surrogate has no UTF-8, so no percent-encoding). */
function encodable(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

/** A value as a query (or form body) carries it: a string, before percent-encoding. */
function queryValue(schema: Schema, within: Within): fc.Arbitrary<string> {
  const integer = integerOrEmpty(schema);
  if (integer !== undefined) return fc.oneof({ weight: 4, arbitrary: queryValue(integer, within) }, { weight: 1, arbitrary: fc.constant('') });
  if (schema.type === 'integer') {
    const min = schema.minimum ?? -1e9;
    const max = schema.maximum ?? 1e9;
    if (within) return fc.integer({ min, max }).map(String);
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min, max }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom(min, max, min - 1, max + 1, max + 1e9, min - 1e9).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '1.5', '1e3', '0x10', 'abc', '--5', '12ms', '99999999999999999999') },
    );
  }
  if (schema.enum !== undefined) {
    const values = schema.enum.map(String);
    if (within) return fc.constantFrom(...values);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...values) },
      { weight: 1, arbitrary: fc.constantFrom('', 'true', 'yes', '2', `${values[0] ?? ''} `, (values[0] ?? '').toUpperCase()) },
    );
  }
  if (schema.pattern !== undefined || schema.maxLength !== undefined) {
    const shaped = patternValues(schema, within);
    const text = textValues(schema.maxLength, true, within);
    return shaped === undefined ? text : fc.oneof({ weight: 1, arbitrary: text }, { weight: 3, arbitrary: shaped });
  }
  if (within) return fc.constantFrom('0', '1', '', 'off');
  return fc.oneof(fc.constantFrom('0', '1', '', 'off'), fc.string({ maxLength: 8 }).filter(encodable));
}

/** A value in a JSON body: of the schema's type or not. */
function jsonValue(schema: Schema, within: Within): fc.Arbitrary<unknown> {
  const wrongType = fc.constantFrom<unknown>(null, true, 0, '1', [], {});
  let right: fc.Arbitrary<unknown>;
  if (schema.type === 'integer') {
    const min = schema.minimum ?? -1e9;
    const max = schema.maximum ?? 1e9;
    right = within ? fc.integer({ min, max }) : fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min, max }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max, min - 1, max + 1, 0.5, max - 0.5, 1e21) },
      { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    );
  } else if (schema.type === 'boolean') {
    right = fc.boolean();
  } else if (schema.enum !== undefined) {
    right = within
      ? fc.constantFrom(...schema.enum)
      : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: fc.constantFrom('', 'Red', 'purple') });
  } else if (schema.pattern !== undefined || schema.maxLength !== undefined) {
    const shaped = patternValues(schema, within);
    const text = textValues(schema.maxLength, false, within);
    right = shaped === undefined ? text : fc.oneof({ weight: 1, arbitrary: text }, { weight: 3, arbitrary: shaped });
  } else {
    right = fc.string({ maxLength: 8 });
  }
  if (schema.nullable === true) right = fc.oneof({ weight: 4, arbitrary: right }, { weight: 1, arbitrary: fc.constant(null) });
  return within ? right : fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: wrongType });
}

// ---- requests -----------------------------------------------------------------

/** One field of a url-encoded request: its value, or a percent-encoding that does not decode. */
interface UrlField {
  readonly name: string;
  readonly value: string;
  readonly broken: string | undefined;
}

type Body =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly object: Json }
  | { readonly kind: 'form'; readonly fields: readonly UrlField[] }
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'oversized'; readonly object: Json };

interface Request {
  readonly id: string;
  readonly query: readonly UrlField[];
  readonly body: Body;
  readonly room: Room;
}

const BROKEN = fc.constantFrom('%', '%E0%A4%A', '%ZZ', '%C3', '%ED%A0%80');

/** `arbitrary` once in `n` times, else undefined. */
function onceIn<T>(n: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

/** `arbitrary` twice in three times, else undefined (a field left out). */
function mostly<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary });
}

function urlFields(params: readonly { name: string; schema: Schema }[], within: Within): fc.Arbitrary<UrlField[]> {
  const broken = within ? fc.constant(undefined) : onceIn(4, BROKEN);
  const one = (p: { name: string; schema: Schema }) =>
    mostly(fc.record({ value: queryValue(p.schema, within), broken }).map(({ value, broken }) => ({ name: p.name, value, broken })));
  const extra = onceIn(6, fc.constant<UrlField>({ name: 'unused', value: 'x', broken: '%ZZ' }));
  return fc.tuple(fc.tuple(...params.map(one)), extra).map(([given, more]) => [...given, more].filter((f): f is UrlField => f !== undefined));
}

function encode(fields: readonly UrlField[]): string {
  return fields.map((f) => `${encodeURIComponent(f.name)}=${encodeURIComponent(f.value)}${f.broken ?? ''}`).join('&');
}

function jsonObject(schema: Schema, within: Within): fc.Arbitrary<Json> {
  const properties = Object.entries(schema.properties ?? {});
  const one = ([name, s]: [string, Schema]) => mostly(jsonValue(s, within).map((value) => [name, value] as const));
  const extra = onceIn(6, fc.constant(['unused', { any: 'thing' }] as const));
  return fc.tuple(fc.tuple(...properties.map(one)), extra).map(([given, more]) =>
    Object.fromEntries([...given, more].filter((entry) => entry !== undefined)),
  );
}

function bodies(endpoint: Endpoint, within: Within): fc.Arbitrary<Body> {
  const raw = fc.constantFrom('[]', '[1, 2]', '5000', '"ms=5"', 'null', 'true', '{', '{"ms": }', 'nope').map((text): Body => ({ kind: 'raw', text }));
  const none = fc.constant<Body>({ kind: 'none' });
  if (endpoint.body === undefined) return fc.oneof({ weight: 4, arbitrary: none }, { weight: 1, arbitrary: raw });
  const { json, form } = endpoint.body;
  const formParams = Object.entries(form.properties ?? {}).map(([name, schema]) => ({ name, schema }));
  const inJson = jsonObject(json, within).map((object): Body => ({ kind: 'json', object }));
  const inForm = urlFields(formParams, within).map((fields): Body => ({ kind: 'form', fields }));
  if (within) return fc.oneof({ weight: 3, arbitrary: inJson }, { weight: 2, arbitrary: inForm }, { weight: 1, arbitrary: none });
  return fc.oneof(
    { weight: 6, arbitrary: inJson },
    { weight: 3, arbitrary: inForm },
    { weight: 1, arbitrary: none },
    { weight: 2, arbitrary: raw },
    { weight: 1, arbitrary: jsonObject(json, within).map((object): Body => ({ kind: 'oversized', object: { ...object, pad: 'x'.repeat(17_000) } })) },
  );
}

const rooms: fc.Arbitrary<Room> = fc
  .record({ count: fc.integer({ min: 1, max: 4 }), active: fc.nat(), running: fc.boolean() })
  .map(({ count, active, running }) => {
    const room = roomWithTimers(count);
    const timer = room.timers[active % count] ?? room.timers[0];
    if (timer === undefined) throw new Error('no timer');
    // The test app's clock starts at 1 000 000 ms (monotonic).
    const transport = running ? { running: true as const, endMonoMs: 1_000_000 + 30_000 } : { running: false as const, remainingMs: timer.duration };
    return { ...room, activeTimerId: timer.id, transport };
  });

function requests(endpoint: Endpoint): fc.Arbitrary<Request> {
  return fc.boolean().chain((within) =>
    fc.record({
      room: rooms,
      id: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('t1', 't2', 't3', 't4') }, { weight: 1, arbitrary: fc.constantFrom('ghost', 'été', 'x'.repeat(65)) }),
      query: endpoint.method === 'GET' ? urlFields(endpoint.query, within) : fc.constant([]),
      body: endpoint.method === 'POST' ? bodies(endpoint, within) : fc.constant<Body>({ kind: 'none' }),
    }),
  );
}

// ---- what the document says of a request -------------------------------------

type Verdict = { readonly kind: 'valid' } | { readonly kind: 'invalid'; readonly names: ReadonlySet<string>; readonly status: readonly number[] };

/** Field names an ajv error is about: the property it is in, or the one missing. */
function namesOf(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).flatMap((e) => {
    const [, top] = e.instancePath.split('/');
    if (top !== undefined && top !== '') return [top];
    if (e.keyword === 'required') return [String((e.params as { missingProperty: string }).missingProperty)];
    if (e.keyword === 'type') return ['body'];
    return [];
  });
}

/** A url-encoded value typed as the document types it: integers as numbers when they are written as one. */
function typed(value: string, schema: Schema | undefined): unknown {
  const integer = schema?.type === 'integer' || integerOrEmpty(schema) !== undefined;
  return integer && /^-?\d+$/.test(value) ? Number(value) : value;
}

function urlObject(fields: readonly UrlField[], schemas: Record<string, Schema | undefined>): { object: Json; broken: string[] } {
  const object: Json = {};
  const broken: string[] = [];
  for (const f of fields) {
    if (f.name === 'unused') continue;
    if (f.broken !== undefined) broken.push(f.name);
    else object[f.name] = typed(f.value, schemas[f.name]);
  }
  return { object, broken };
}

function verdict(endpoint: Endpoint, request: Request): Verdict {
  const invalid = (names: Iterable<string>, status: readonly number[] = [400]): Verdict => ({ kind: 'invalid', names: new Set(names), status });
  if (endpoint.idSchema !== undefined) {
    const known = request.room.timers.some((t) => t.id === request.id);
    if (!known || !validator(endpoint.idSchema)(request.id)) return invalid(['id'], [404]);
  }
  const body = request.body;
  if (body.kind === 'oversized') return invalid(['body'], [413]);
  if (body.kind === 'raw') return invalid(['body']);
  if (endpoint.method === 'GET') {
    const schemas = Object.fromEntries(endpoint.query.map((p) => [p.name, p.schema]));
    const { object, broken } = urlObject(request.query, schemas);
    const names = new Set(broken);
    for (const p of endpoint.query) {
      if (broken.includes(p.name)) continue;
      if (object[p.name] === undefined) {
        if (p.required) names.add(p.name);
      } else if (!validator(p.schema)(object[p.name])) names.add(p.name);
    }
    // The one rule a GET's separate query parameters cannot state in OpenAPI 3.0; its description does.
    if (endpoint.atLeastOneOf.length > 0 && endpoint.atLeastOneOf.every((name) => object[name] === undefined && !broken.includes(name))) {
      for (const name of endpoint.atLeastOneOf) names.add(name);
    }
    return names.size > 0 ? invalid(names) : { kind: 'valid' };
  }
  if (endpoint.body === undefined) return { kind: 'valid' };
  if (body.kind === 'form') {
    const { object, broken } = urlObject(body.fields, endpoint.body.form.properties ?? {});
    // A broken field is there (so not missing, and it counts as the one field given): named as broken only.
    for (const name of broken) object[name] = null;
    const validate = validator(endpoint.body.form);
    const names = new Set([...broken, ...(validate(object) ? [] : namesOf(validate.errors))]);
    return names.size > 0 ? invalid(names) : { kind: 'valid' };
  }
  // No body is read as {}; where the body is required, {} lacks what makes it required.
  const object = body.kind === 'json' ? body.object : {};
  const validate = validator(endpoint.body.json);
  return validate(object) ? { kind: 'valid' } : invalid(namesOf(validate.errors));
}

// ---- sending ---------------------------------------------------------------------

async function send(endpoint: Endpoint, request: Request) {
  // A box with a screen that acknowledges: /screen/* answer as the document says they do when they did it.
  const t = createTestApp({ room: request.room, limit: 1_000_000, screen: () => SCREEN_THAT_ACKNOWLEDGES });
  const path = endpoint.op.path.replace('{id}', encodeURIComponent(request.id));
  const query = encode(request.query);
  const url = `/api/${endpoint.op.version}/${t.keys.apiKey}${path}${query === '' ? '' : `?${query}`}`;
  const body = request.body;
  switch (body.kind) {
    case 'none':
      return call(t, checker, endpoint.method, url);
    case 'json':
    case 'oversized':
      return call(t, checker, endpoint.method, url, { body: JSON.stringify(body.object) });
    case 'raw':
      return call(t, checker, endpoint.method, url, { body: body.text });
    case 'form':
      return call(t, checker, endpoint.method, url, { body: encode(body.fields), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    default: {
      const unknown: never = body;
      throw new Error(`unhandled body ${JSON.stringify(unknown)}`);
    }
  }
}

/** Requests sent in all, by what the document said of them. */
const tally = { valid: 0, invalid: 0 };

const endpoints = operations.flatMap((op) => op.methods.map((method) => ({ name: `${method} /api/${op.version}/{api_key}${op.path}`, op, method })));

describe('requests made from the document', () => {
  it.each(endpoints)('$name', async ({ op, method }) => {
    const endpoint = endpointOf(op, method);
    let valid = 0;
    // Rounds of 150 until enough valid requests reached the operation: one whose bodies are mostly drawn
    // outside the schemas (POST /tag/update: about 1 in 9 valid) would otherwise fall short by chance now and then.
    for (let round = 0; round < 4 && valid <= 10; round += 1) await fc.assert(
      fc.asyncProperty(requests(endpoint), async (request) => {
        const expected = verdict(endpoint, request);
        const result = await send(endpoint, request);
        const error = (result.body as { error?: string }).error ?? '';
        const where = `${JSON.stringify(expected, (_k, v: unknown) => (v instanceof Set ? [...v] : v))} -> ${result.status} ${error}`;
        expect(result.status, where).toBeLessThan(500);
        if (expected.kind === 'invalid') {
          tally.invalid += 1;
          expect(expected.status, where).toContain(result.status);
          // Named as a word ("ms: ...", "... at least one field: label, speaker, ..."), not as part of another.
          for (const name of expected.names) expect(error, where).toMatch(new RegExp(`(^|\\W)${name}(\\W|$)`));
        } else {
          valid += 1;
          tally.valid += 1;
          if (result.status >= 400) {
            expect(result.status, where).toBe(400);
            expect(ROOM_REFUSALS.some((reason) => reason.test(error)), where).toBe(true);
          } else {
            expect(result.status, where).toBe(op.success.status);
          }
        }
      }),
      { numRuns: 150 },
    );
    // An operation that refused everything would pass the rest: enough valid requests reached it.
    expect(valid, 'valid requests').toBeGreaterThan(10);
  });

  it('both kinds were sent, many of each', () => {
    expect(tally.valid).toBeGreaterThan(3_000);
    expect(tally.invalid).toBeGreaterThan(1_000);
  });
});
