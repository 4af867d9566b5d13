// The OpenAPI 3.0.3 document, generated from the operation table and the same
// zod schemas that validate requests and describe responses, so that it states
// exactly what the service accepts: test/http/requests-from-document.test.ts
// drives every operation with requests made from it, and scripts/lint-openapi.mjs
// (part of npm test) holds it to Redocly's and Spectral's rules.
import * as z from '../schema/zod.js';
import { applyCommand } from '../domain/engine.js';
import { DURATION_MAX_MS, TIMER_ID_MAX_CHARS } from '../domain/limits.js';
import { createRoom } from '../domain/room.js';
import type { Room } from '../domain/types.js';
import type { FieldName, JsonExample } from './fields.js';
import { exampleInput, parseInput, type RawRequest } from './input.js';
import { commandNames, fieldOf, operations, type Method, type Operation } from './operations.js';
import { components, type ComponentName } from './schemas.js';
import { MAX_BODY_BYTES, MAX_IMPORT_BYTES } from './body-size.js';
import { DEADLINE_HEADER } from './deadline.js';
import { LOGO_TYPES, MAX_LOGO_BYTES, SVG_CSP } from './logo-content.js';
import { CSV_COLUMNS } from '../domain/running-order-csv.js';

type JsonObject = Record<string, unknown>;

function schemaOf(schema: z.ZodMiniType): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

/** The response schemas, each nested one (Timer in State, State in StateEnvelope, ...) referenced rather than copied. */
function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(components)) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'openapi-3.0',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) delete schema.$id;
  return nullableRefs(schemas) as Record<string, JsonObject>;
}

// OpenAPI 3.0.3 lets `nullable` act only beside a `type`, so zod's `{nullable, allOf: [$ref]}`
// would not admit null to a strict reader: the nullable reference becomes
// "the referenced schema, or null" written as 3.0.3 allows it (an enum holding only null).
function nullableRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableRefs);
  if (typeof value !== 'object' || value === null) return value;
  const object: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) object[key] = nullableRefs(inner);
  if (object.nullable === true && object.type === undefined && Array.isArray(object.allOf) && object.allOf.length === 1) {
    const { allOf, ...rest } = object;
    delete rest.nullable;
    return { ...rest, anyOf: [...allOf, { type: 'object', nullable: true, enum: [null] }] };
  }
  return object;
}

// Headers and most responses are the same on every operation: written once under
// components and referenced, which keeps the document small (about 100 KB as served;
// the 400s are per operation, for their examples).
const headerComponents: Record<string, JsonObject> = {
  'RateLimit-Limit': { description: 'Requests allowed per minute', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Whole seconds until the window ends', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait, equal to RateLimit-Reset', schema: { type: 'integer' } },
  'Showclock-Storage': {
    description:
      'Present only while the room is not being saved (the SD card is read-only or full): "failing; the room is not being saved: <why>". ' +
      'Transport, messages and switches still work; running-order edits answer 503. Gone once the data directory can be written again.',
    schema: { type: 'string' },
  },
};
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

const parameterComponents: Record<string, JsonObject> = {
  Deadline: {
    name: DEADLINE_HEADER,
    in: 'header',
    required: false,
    description:
      'Addition: the instant, on the box\'s clock in ms since 1970 (as `serverNow` in the state), after which this request must not happen. ' +
      'Arriving later (a frozen link that delivers it when it comes back) it is refused with 412 and nothing is done. ' +
      'For a sender that gives up on a request after a few seconds: the Companion module sends it on every press.',
    schema: { type: 'integer', minimum: 0 },
  },
};

const rateHeaders = {
  'RateLimit-Limit': headerRef('RateLimit-Limit'),
  'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
  'RateLimit-Reset': headerRef('RateLimit-Reset'),
  'Showclock-Storage': headerRef('Showclock-Storage'),
};

function jsonResponse(description: string, schema: ComponentName, extraHeaders: JsonObject = {}): JsonObject {
  return { description, headers: { ...rateHeaders, ...extraHeaders }, content: { 'application/json': { schema: ref(schema) } } };
}

// Success answers too, under the name of their body's schema: every operation answers one of these three.
const successComponents: Partial<Record<ComponentName, JsonObject>> = {
  StateEnvelope: jsonResponse('Success: the room snapshot after the operation', 'StateEnvelope'),
  TimersList: jsonResponse('Success: the running order', 'TimersList'),
  TimerCreated: jsonResponse('Created: the new timer, appended at the end of the running order', 'TimerCreated'),
};

const responseComponents: Record<string, JsonObject> = {
  ...successComponents,
  InvalidInput: jsonResponse('Invalid input (the message names the field), or refused by the room as it is (the message says why)', 'Error'),
  InvalidKey: jsonResponse('Invalid API key', 'Error'),
  NotFound: jsonResponse('Unknown command, operation or timer id', 'Error'),
  RateLimited: jsonResponse('Rate limit exceeded', 'Error', { 'Retry-After': headerRef('Retry-After') }),
  BodyTooLarge: jsonResponse(`Body larger than ${MAX_BODY_BYTES} bytes`, 'Error'),
  TooLate: jsonResponse(`Nothing was done: the request arrived after its ${DEADLINE_HEADER} (the sender had given up on it)`, 'Error'),
  NotSaved: jsonResponse(
    'Nothing was changed: a running-order edit (or, with the seq reserve used up, any change) could not be saved to disk first, or the service is stopping',
    'Error',
  ),
};

const errorResponses: Record<string, JsonObject> = {
  '400': responseRef('InvalidInput'),
  '401': responseRef('InvalidKey'),
  '404': responseRef('NotFound'),
  '429': responseRef('RateLimited'),
};

/** Whether the operation can change the room: it can then be refused with 503 when it cannot be kept, or the service is stopping. */
function changesRoom(op: Operation): boolean {
  // The kind of action is fixed per operation; the input only fills it in.
  return op.toAction({}, { id: '', newTimerId: () => '' }).kind === 'command';
}

function asksScreen(op: Operation): boolean {
  return op.toAction({}, { id: '', newTimerId: () => '' }).kind === 'screen';
}

// The engine refuses these without any field ("at least one field", engine.ts); the
// document says so with minProperties and anyOf. The request property test fails
// should the two ever disagree.
const NEEDS_A_FIELD: ReadonlySet<string> = new Set(['v1_updateTimer', 'v1_settings', 'v1_display', 'v1_aux']);

function fieldNames(op: Operation): readonly FieldName[] {
  return [...op.required, ...op.optional];
}

/** An example as the document's query and form schemas type it: whole numbers as integers, the rest as a query spells them. */
function docExample(op: Operation, name: FieldName): JsonExample {
  const { jsonExample, example } = fieldOf(op, name);
  return typeof jsonExample === 'number' ? jsonExample : example;
}

/** The query parameters of a GET. A POST documents its fields in the body only (see postNote). */
function queryParameters(op: Operation): JsonObject[] {
  const required = new Set<FieldName>(op.required);
  return fieldNames(op).map((name) => ({
    name,
    in: 'query',
    required: required.has(name),
    description: fieldOf(op, name).description,
    schema: schemaOf(fieldOf(op, name).queryDoc),
    example: docExample(op, name),
  }));
}

function pathParameters(op: Operation): JsonObject[] {
  const params: JsonObject[] = [
    { name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } },
  ];
  if (op.path.includes('{id}')) {
    params.push({
      name: 'id',
      in: 'path',
      required: true,
      description: 'Timer id, as GET /timers lists them; an id not in the running order is 404',
      schema: { type: 'string', minLength: 1, maxLength: TIMER_ID_MAX_CHARS },
      example: 't1',
    });
  }
  return params;
}

/** The body's object schema, each field given by `pick`; fields the operation does not use may be there and are ignored. */
function bodySchema(op: Operation, pick: (name: FieldName) => z.ZodMiniType): JsonObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of op.required) shape[name] = pick(name);
  for (const name of op.optional) shape[name] = z.optional(pick(name));
  const schema = schemaOf(z.object(shape));
  if (NEEDS_A_FIELD.has(op.operationId)) {
    // minProperties alone would let an unused field count; anyOf says it must be one of these.
    schema.minProperties = 1;
    schema.anyOf = fieldNames(op).map((name) => ({ required: [name] }));
  }
  // Beside a required field (the tag an update changes): one of these too.
  if (op.needsOneOf.length > 0) schema.anyOf = op.needsOneOf.map((name) => ({ required: [name] }));
  return schema;
}

function requestBody(op: Operation): JsonObject | undefined {
  if (fieldNames(op).length === 0) return undefined;
  const formExample = Object.fromEntries(Object.keys(exampleInput(op)).map((name) => [name, docExample(op, name as FieldName)]));
  return {
    description: 'JSON, or form-encoded with the values spelled as in a query. The fields may come in the query string instead (see the description).',
    // Required when the operation needs a field: a strict client then sends it here, where the document can check it.
    required: op.required.length > 0 || NEEDS_A_FIELD.has(op.operationId),
    content: {
      'application/json': { schema: bodySchema(op, (name) => fieldOf(op, name).json), example: exampleInput(op) },
      'application/x-www-form-urlencoded': { schema: bodySchema(op, (name) => fieldOf(op, name).queryDoc), example: formExample },
    },
  };
}

const postNote =
  'A POST may instead carry its fields in the query string, spelled as for GET (for button panels that can only POST to a URL); ' +
  'a field given in both places is taken from the body. OpenAPI 3.0 cannot say "in the query or in the body", ' +
  'so this document lists them in the body only.';

function description(op: Operation, method: Method): string {
  const parts = [op.description ?? op.summary];
  if (method === 'GET' && NEEDS_A_FIELD.has(op.operationId)) parts.push('At least one of the query fields must be given.');
  if (method === 'POST' && fieldNames(op).length > 0) parts.push(postNote);
  return parts.join('\n\n');
}

// A room the error examples are made in: one timer, at the 24-hour maximum, so that
// next, previous, delete and adjust show how the room refuses them.
const EXAMPLE_ROOM: Room = (() => {
  const room = createRoom('t1');
  return {
    ...room,
    timers: room.timers.map((timer) => ({ ...timer, duration: DURATION_MAX_MS })),
    transport: { running: false, remainingMs: DURATION_MAX_MS },
  };
})();

function queryRequest(query: Record<string, string>): RawRequest {
  return { url: `/?${new URLSearchParams(query).toString()}`, contentType: undefined, body: '' };
}

function jsonRequest(body: string): RawRequest {
  return { url: '/', contentType: 'application/json', body };
}

function exampleQuery(op: Operation): Record<string, string> {
  return Object.fromEntries(Object.keys(exampleInput(op)).map((name) => [name, fieldOf(op, name as FieldName).example]));
}

/** What the example room answers to the operation with this (valid) input, when it refuses it. */
function roomRefusal(op: Operation, input: Readonly<Record<string, unknown>>): string | undefined {
  const action = op.toAction(input, { id: EXAMPLE_ROOM.activeTimerId, newTimerId: () => 'example' });
  if (action.kind !== 'command') return undefined;
  const { outcome } = applyCommand(EXAMPLE_ROOM, action.command, { monoMs: 0, wallMs: 0 });
  return outcome.ok || outcome.error.kind === 'not_found' ? undefined : outcome.error.message;
}

/** The service's own 400 answers for this operation: made by the code that answers, so they cannot drift. */
function badRequestExamples(op: Operation, method: Method): Record<string, JsonObject> {
  const examples: Record<string, JsonObject> = {};
  const add = (key: string, summary: string, error: string | undefined) => {
    if (error !== undefined) examples[key] = { summary, value: { ok: false, error } };
  };
  const answer = (request: RawRequest) => {
    const parsed = parseInput(op, method, request);
    return parsed.ok ? undefined : parsed.error;
  };
  const bad = fieldNames(op).find((name) => fieldOf(op, name).badExample !== undefined);
  if (bad !== undefined) {
    const value = fieldOf(op, bad).badExample ?? '';
    add(
      'badValue',
      `A bad ${bad}`,
      answer(method === 'GET' ? queryRequest({ ...exampleQuery(op), [bad]: value }) : jsonRequest(JSON.stringify({ ...exampleInput(op), [bad]: value }))),
    );
  }
  const [required] = op.required;
  if (required !== undefined) add('missing', `No ${required}`, answer(method === 'GET' ? queryRequest({}) : jsonRequest('{}')));
  if (method === 'POST') add('notAnObject', 'A body that is not a JSON object', answer(jsonRequest('[1, 2]')));
  if (NEEDS_A_FIELD.has(op.operationId)) add('noField', 'No field at all', roomRefusal(op, {}));
  const example = parseInput(op, 'GET', queryRequest(exampleQuery(op)));
  if (example.ok) add('refused', 'Refused by the room as it is', roomRefusal(op, example.input));
  return examples;
}

function badRequestResponse(op: Operation, method: Method): JsonObject {
  const examples = badRequestExamples(op, method);
  if (Object.keys(examples).length === 0) return responseRef('InvalidInput');
  return {
    description: 'Invalid input (the message names the field), or refused by the room as it is (the message says why)',
    headers: rateHeaders,
    content: { 'application/json': { schema: ref('Error'), examples } },
  };
}

function operationObject(op: Operation, method: Method): JsonObject {
  const responses: Record<string, JsonObject> = {
    [String(op.success.status)]:
      successComponents[op.success.schema] === undefined ? jsonResponse('Success', op.success.schema) : responseRef(op.success.schema),
    ...errorResponses,
    '400': badRequestResponse(op, method),
  };
  if (changesRoom(op)) responses['503'] = responseRef('NotSaved');
  if (asksScreen(op)) {
    responses['409'] = jsonResponse('No screen is configured on this box (config `screen.cec.device`)', 'Error');
    responses['502'] = jsonResponse('The screen did not acknowledge the message, did not answer, or refused it', 'Error');
    responses['503'] = jsonResponse('The box cannot reach the HDMI-CEC bus: no cec-ctl, no CEC device, no HDMI link, or the service is stopping', 'Error');
    responses['504'] = jsonResponse('cec-ctl did not finish in time', 'Error');
  }
  const body = method === 'POST' ? requestBody(op) : undefined;
  if (method === 'POST') responses['413'] = responseRef('BodyTooLarge');
  if (op.version === 'v1') responses['412'] = responseRef('TooLate');
  return {
    operationId: method === 'GET' || op.methods.length === 1 ? op.operationId : `${op.operationId}_post`,
    tags: [op.version],
    summary: op.summary,
    description: description(op, method),
    parameters: [...pathParameters(op), ...(method === 'GET' ? queryParameters(op) : []), ...(op.version === 'v1' ? [parameterRef('Deadline')] : [])],
    ...(body === undefined ? {} : { requestBody: body }),
    responses,
  };
}

/**
 * The audience's door (src/pages/ask-routes.ts): not under /api and with its own key, which
 * opens nothing else; written by hand, since it takes a form as well as JSON and
 * answers a browser with the page.
 */
function askPaths(): Record<string, JsonObject> {
  const keyParameter = { name: 'audience_key', in: 'path', required: true, description: 'The room\'s audience key (`npm run key` prints the audience link)', schema: { type: 'string' } };
  const fieldsSchema = {
    type: 'object',
    required: ['text'],
    properties: {
      text: { type: 'string', description: 'The question: control characters are stripped, then trimmed, 1 to 280 characters (code points)' },
      name: { type: 'string', description: 'Optional: the asker\'s name, up to 60 characters after the same cleaning' },
    },
  };
  const refused = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
  return {
    '/ask/{audience_key}': {
      get: {
        operationId: 'ask_page',
        tags: ['audience'],
        summary: 'The audience page: a form to send a question',
        description: 'A small page for phones, with nothing from the internet, that works without a script. A wrong key is 401.',
        parameters: [keyParameter],
        responses: {
          '200': { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } },
          '401': refused('Not the audience key (JSON; a page for a browser)'),
          '429': refused('Too many wrong keys from this address, or from all addresses together (600 a minute for the whole box)'),
        },
      },
      post: {
        operationId: 'ask_question',
        tags: ['audience'],
        summary: 'Send a question to the moderator',
        description:
          'Adds a question in state `new`, answered 201 with its id once it is saved to disk. At most 5 questions a minute from one address and 300 for the whole box; ' +
          'none of it counts against the API key\'s rate limit. A form post from a browser (Accept: text/html) is answered with the page, saying what happened. ' +
          'When the room holds 500 questions, the oldest answered or hidden one makes way; when none can, 503.',
        parameters: [keyParameter],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: fieldsSchema }, 'application/x-www-form-urlencoded': { schema: fieldsSchema } },
        },
        responses: {
          '201': {
            description: 'Received and saved',
            content: { 'application/json': { schema: ref('QuestionReceived') } },
          },
          '400': refused('Empty, too long, or not text: the message names the field'),
          '401': refused('Not the audience key'),
          '413': refused('Body over 16 KB'),
          '429': refused('Too many questions from this address in a minute (Retry-After says when to try again)'),
          '503': refused('Not received: the question box is full, the room could not be saved, the box takes too many questions right now, or it is stopping'),
        },
      },
    },
  };
}

/**
 * The logo (src/api/logo-routes.ts): written by hand, not from the operation table, because its
 * body is the image itself (one binary media type per accepted type), not fields.
 */
function logoPaths(): Record<string, JsonObject> {
  const keyParameter = { name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } };
  const binary = { schema: { type: 'string', format: 'binary' } };
  const changed = {
    '200': responseRef('StateEnvelope'),
    '401': errorResponses['401'],
    '404': errorResponses['404'],
    '429': errorResponses['429'],
    '503': responseRef('NotSaved'),
  };
  const deleteLogo = (method: Method): JsonObject => ({
    operationId: `v1_display_logo_delete_${method.toLowerCase()}`,
    tags: ['v1'],
    summary: 'Addition: remove the logo',
    description: 'Addition to v1: removes the uploaded logo; `display.logo` becomes null and the screens show none. Without a logo it changes nothing.',
    parameters: [keyParameter],
    responses: { ...changed, '400': errorResponses['400'], ...(method === 'POST' ? { '413': responseRef('BodyTooLarge') } : {}) },
  });
  return {
    '/api/v1/{api_key}/display/logo': {
      post: {
        operationId: 'v1_display_logo',
        tags: ['v1'],
        summary: 'Addition: upload the logo the screens show in the top-left corner',
        description:
          `Addition to v1: the image is the raw body, at most ${MAX_LOGO_BYTES} bytes (1 MB), with its Content-Type: ${Object.keys(LOGO_TYPES).join(', ')}. ` +
          'The content is checked against the type (PNG, JPEG and WebP by their signature; SVG must be well-formed UTF-8 XML with an <svg> root and no DOCTYPE): ' +
          'a wrong type or content of another kind is 400 naming what is wrong. Stored in the data directory; `display.logo` in the state becomes its version ' +
          'and the screens load `/logo/{version}` (no key; a new logo is a new URL). An SVG is served with `Content-Security-Policy: ' +
          `${SVG_CSP}\` so no script in it runs. \`showLogo\` in /display hides it without removing it.`,
        parameters: [keyParameter],
        requestBody: { required: true, content: Object.fromEntries(Object.keys(LOGO_TYPES).map((type) => [type, binary])) },
        responses: {
          ...changed,
          '400': errorResponses['400'],
          '413': jsonResponse(`Body larger than ${MAX_LOGO_BYTES} bytes`, 'Error'),
        },
      },
    },
    '/api/v1/{api_key}/display/logo/delete': { get: deleteLogo('GET'), post: deleteLogo('POST') },
    '/logo/{version}': {
      get: {
        operationId: 'logo',
        tags: ['v1'],
        summary: 'The logo, for the screens; no key needed',
        description:
          'The room\'s current logo, `display.logo` in the state, with its own Content-Type, `X-Content-Type-Options: nosniff` and a year\'s cache ' +
          `(the version names the content). An SVG carries \`Content-Security-Policy: ${SVG_CSP}\`. Any other version is 404.`,
        parameters: [{ name: 'version', in: 'path', required: true, description: '`display.logo` of the state', schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The image', content: Object.fromEntries(Object.keys(LOGO_TYPES).map((type) => [type, binary])) },
          '404': { description: 'Not the room\'s current logo', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
  };
}

/**
 * The running order as a file (running-order-routes.ts): written by hand, because
 * the import's body is a CSV file or a list, not the fields of one operation.
 */
function runningOrderPaths(): Record<string, JsonObject> {
  const keyParameter = { name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } };
  const columns = CSV_COLUMNS.join(',');
  return {
    '/api/v1/{api_key}/timers.csv': {
      get: {
        operationId: 'v1_timers_csv',
        tags: ['v1'],
        summary: 'Addition: the running order as a CSV file',
        description:
          `Addition to v1: every timer in running order, one row each, with the header \`${columns}\` (durations as m:ss or h:mm:ss, ` +
          'times of day as ISO 8601, the tag by its name). A cell that a spreadsheet would run as a formula (one starting with = + - @, a tab or a carriage return) ' +
          'is written with a \' first, so it opens as text; the import takes that \' off again. A read: nothing changes.',
        parameters: [keyParameter],
        responses: {
          '200': { description: 'The CSV file (RFC 4180, CRLF line ends)', headers: rateHeaders, content: { 'text/csv': { schema: { type: 'string' } } } },
          '401': errorResponses['401'],
          '429': errorResponses['429'],
        },
      },
    },
    '/api/v1/{api_key}/timers/import': {
      post: {
        operationId: 'v1_timers_import',
        tags: ['v1'],
        summary: 'Addition: append a CSV file, or a list of timers, to the running order: all rows or none',
        description:
          'Addition to v1: the body is a CSV file (`Content-Type: text/csv`, the columns of GET /timers.csv in any order; `duration` is required, ' +
          'the others take the defaults of POST /timers; a tag is named and must exist already: an import never makes tags) ' +
          'or `application/json` `{"timers": [ {fields of POST /timers}, ... ]}`. Every row is checked with the rules of POST /timers, ' +
          'then all are appended as one change (one seq step, one event, one save; answered once on disk), or, if any row is refused, none: ' +
          `the 400 names the first bad CSV line (or list position) and field. At most ${MAX_IMPORT_BYTES} bytes; the running order holds at most 100 timers. ` +
          'Counts once against the rate limit. POST only: a file does not fit in a GET.',
        parameters: [keyParameter],
        requestBody: {
          required: true,
          content: {
            'text/csv': { schema: { type: 'string' } },
            'application/json': {
              schema: { type: 'object', required: ['timers'], properties: { timers: { type: 'array', items: { type: 'object' } } } },
            },
          },
        },
        responses: {
          '201': {
            description: 'Every row appended, in order',
            headers: rateHeaders,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'imported', 'timers'],
                  properties: { ok: { type: 'boolean', enum: [true] }, imported: { type: 'integer', minimum: 1 }, timers: { type: 'array', items: ref('Timer') } },
                },
              },
            },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '404': errorResponses['404'],
          '413': jsonResponse(`Body larger than ${MAX_IMPORT_BYTES} bytes`, 'Error'),
          '415': jsonResponse('Neither text/csv nor application/json', 'Error'),
          '429': errorResponses['429'],
          '503': responseRef('NotSaved'),
        },
      },
    },
  };
}

/**
 * The box's clock (src/api/clock-routes.ts, issue 33): written by hand, because neither
 * operation changes the room, and the answer is the clock's state, not the room's.
 */
function clockPaths(): Record<string, JsonObject> {
  const keyParameter = { name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } };
  const clockSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['synced', 'source', 'since', 'detail'],
    properties: {
      synced: { type: 'boolean', nullable: true, description: 'true: a time server keeps the clock; false: nothing does (a Pi booted without network has fake-hwclock\'s time); null: the box cannot tell' },
      source: { type: 'string', enum: ['timesyncd', 'chrony', 'none', 'unknown'], description: 'The NTP client that answered (chrony wins when both answer), none when no NTP service is enabled' },
      offsetMs: { type: 'number', description: 'The box\'s clock minus its time server\'s, ms, when the source says' },
      maxErrorMs: { type: 'number', description: 'How far off the clock may be at most, ms: |offset| + root distance (timesyncd), |offset| + root delay / 2 + root dispersion (chrony)' },
      server: { type: 'string', description: 'The time server in use, when the source names it' },
      since: { type: 'integer', description: 'Since when (ms since 1970, on the box\'s clock) `synced` and `source` have been as they are' },
      setByHandAt: { type: 'integer', description: 'When the clock was last set through /clock/set (ms since 1970), since the service started' },
      detail: { type: 'string', description: 'What the box knows of its clock, in a sentence' },
    },
  };
  const body = {
    type: 'object',
    additionalProperties: false,
    required: ['ok', 'clock', 'serverNow'],
    properties: { ok: { type: 'boolean', enum: [true] }, clock: clockSchema, serverNow: { type: 'integer', description: 'The box\'s clock when it answered, ms since 1970' } },
  };
  const success = (description: string) => ({ description, headers: rateHeaders, content: { 'application/json': { schema: body } } });
  const atParameter = {
    name: 'at',
    in: 'query',
    required: false,
    description: 'The time to set, whole ms since 1970 (the console sends its device\'s Date.now()); required, in the query or (POST) the JSON body',
    schema: { type: 'integer', minimum: 0 },
    example: 1767261600000,
  };
  const set = (method: 'GET' | 'POST'): JsonObject => ({
    operationId: `v1_clock_set_${method.toLowerCase()}`,
    tags: ['v1'],
    summary: 'Addition: set the box\'s clock, only while it is not synchronised',
    description:
      'Addition to v1: sets the box\'s wall clock to `at` (with the time the request took on the box added) through systemd-timedated (`timedatectl set-time`; ' +
      'install.sh allows the service that one action, and set-ntp, with a polkit rule). While an NTP service is enabled but reaches no server, NTP is turned off for the step ' +
      'and on again after. 200 only once the clock was set. Refused with 409 while the box is synchronised (a clock a server keeps is never set by hand), 400 for `at` missing, ' +
      'not whole milliseconds, or more than a year from the box\'s clock; 503 when the box could not set it (the message says what to do). Running timers are not moved: they count on the monotonic clock.',
    parameters: [keyParameter, atParameter],
    ...(method === 'POST'
      ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { at: { type: 'integer', minimum: 0 } } } } } } }
      : {}),
    responses: {
      '200': success('The clock was set: its state after'),
      '400': errorResponses['400'],
      '401': errorResponses['401'],
      '404': errorResponses['404'],
      '409': jsonResponse('The box\'s clock is synchronised (or being set already): it is not set by hand', 'Error'),
      ...(method === 'POST' ? { '413': responseRef('BodyTooLarge') } : {}),
      '429': errorResponses['429'],
      '503': jsonResponse('The clock could not be set: the box is not allowed to (polkit), timedated did not answer, or the box does not set its clock; the message says what to do', 'Error'),
    },
  });
  return {
    '/api/v1/{api_key}/clock': {
      get: {
        operationId: 'v1_clock',
        tags: ['v1'],
        summary: 'Addition: whether the box\'s clock is synchronised, and how far off it may be',
        description:
          'Addition to v1: the box\'s wall clock as it last checked it (every 30 s, with chronyc or timedatectl): synchronised or not, the source, offset and maximum error when known. ' +
          'While it is not synchronised, the time of day, scheduled starts and end-at timers may be wrong (running timers are not affected). A read: nothing changes. /healthz carries the same `clock`.',
        parameters: [keyParameter],
        responses: {
          '200': success('The clock\'s state'),
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '404': errorResponses['404'],
          '429': errorResponses['429'],
        },
      },
    },
    '/api/v1/{api_key}/clock/set': { get: set('GET'), post: set('POST') },
  };
}

export function buildOpenApiDocument(): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const op of operations) {
    const path = `/api/${op.version}/{api_key}${op.path}`;
    const item = (paths[path] ??= {});
    for (const method of op.methods) item[method.toLowerCase()] = operationObject(op, method);
  }
  paths['/api/v1/openapi.json'] = {
    get: {
      operationId: 'v1_openapi',
      tags: ['v1'],
      summary: 'This document; no key needed',
      description:
        'This OpenAPI 3.0.3 document, generated by the service from the same schemas that check its requests. ' +
        'Needs no key; counts against the rate limit of the client\'s address.',
      responses: {
        '200': { description: 'The OpenAPI document', headers: rateHeaders, content: { 'application/json': { schema: { type: 'object' } } } },
        '429': errorResponses['429'],
      },
    },
  };
  paths['/api/v1/{api_key}/events'] = {
    get: {
      operationId: 'v1_events',
      tags: ['v1'],
      summary: 'Push channel (Server-Sent Events): the snapshot now, then one event per change, as what changed',
      description:
        'Addition to v1. The stream starts with the current snapshot, `id: <seq>`, `event: state`, `data: <State as JSON>` (the `state` of GET /state), ' +
        'also on a reconnect with Last-Event-ID. Each change of the room is then one event in seq order, `id: <seq>`, `event: patch`, ' +
        '`data: {"seq", "from", "set"?, "timers"?, "tags"?, "questions"?}`: `from` is the seq of the snapshot it applies to; `set` holds the fields whose value changed, whole; ' +
        'each list holds `put` (items new, appended, or changed, replaced where they stand), `remove` (ids) and `order` (every id, only when the order changed). ' +
        'Applied in turn they give exactly the State at each seq, less `schedule`: the stream leaves it out, since it is derived from fields the stream carries ' +
        'and changes with the clock; a client derives it with the same rules (see Schedule) at its estimate of the server\'s time. ' +
        'A stream that falls behind may get a whole `state` event again. ' +
        'A comment line `: heartbeat` every 15 s, or every `heartbeat` seconds when the stream asks (a client that must see a dead link within seconds: ' +
        'silence longer than a few heartbeats then means the link is gone). Counts once against the rate limit, when it connects.',
      parameters: [
        { name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } },
        {
          name: 'heartbeat',
          in: 'query',
          required: false,
          description: 'Addition: this stream\'s heartbeat, whole seconds from 1 to 15 (default 15). The Companion module asks for 1.',
          schema: { type: 'integer', minimum: 1, maximum: 15 },
        },
      ],
      responses: {
        '200': {
          description: 'An endless text/event-stream; each event\'s data is a State without its `schedule`, or a patch of one',
          headers: rateHeaders,
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        '400': jsonResponse('`heartbeat` is not whole seconds from 1 to 15', 'Error'),
        '401': errorResponses['401'],
        '429': errorResponses['429'],
        '503': jsonResponse('The service cannot open more streams right now', 'Error'),
      },
    },
  };
  Object.assign(paths, logoPaths());
  Object.assign(paths, runningOrderPaths());
  Object.assign(paths, clockPaths());
  Object.assign(paths, askPaths());
  return {
    openapi: '3.0.3',
    info: {
      title: 'Showclock remote control API',
      version: '1.0.0',
      description:
        'Remote control of a live-event countdown timer. Every operation is a plain GET; v1 mutations also take POST with JSON. ' +
        'The room\'s API key is in the path (OpenAPI 3.0 security schemes cannot describe a key in the path, so none is declared). ' +
        '100 requests per minute per key (v0 and v1 together). ' +
        `v0 is frozen and GET only (${commandNames('v0').join(', ')}). ` +
        'Additions to v1 beyond the interface document: /settings, /timer/{id}/move, /events (push channel), previous, toggle, toggle_blackout, toggle_onair, flash, chime, ' +
        'and `dangerAt` (red threshold), `scheduledAt` (scheduled starts) and `endsAt` (countdown to a time of day) as inputs of POST /timers and /timer/{id}/update, ' +
        'with `timeZone`, `clockFormat`, `chimeAtZero`, `chimeAtWarning` and `chimeVolume` in /settings; tags, /display, the logo, ' +
        'audience questions (sent to /ask/{audience_key}, moderated with /questions and /question/*, the shown one on the screens), ' +
        'and the schedule and the aux timer: `plannedStart` in /settings, /show_reset, the second timer (/aux, aux_start, aux_pause, aux_toggle, aux_reset, aux_adjust), ' +
        'and `actuals`, `aux` and `schedule` in the state (v0 answers its state as it always was, without them); ' +
        'the box\'s clock: /clock (synchronised or not) and /clock/set (set it by hand while it is not). ' +
        'Text lengths count characters as code points (an emoji is one), as JSON Schema does; patterns are ECMA-262 regular expressions read with the `u` flag.',
      contact: { name: 'Showclock' },
      // The project has not chosen a licence: this states that none is granted.
      license: {
        name: 'UNLICENSED (private; no licence is granted)',
        url: 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license',
      },
    },
    // Relative: the document is served by the box it describes, whatever its address.
    servers: [{ url: '/', description: 'The Showclock box serving this document' }],
    tags: [
      { name: 'v1', description: 'Current version (recommended)' },
      { name: 'v0', description: 'Frozen, reduced command set, GET only' },
      { name: 'audience', description: 'Audience questions, sent from phones with the audience key (not the API key)' },
    ],
    paths,
    components: { schemas: componentSchemas(), responses: responseComponents, headers: headerComponents, parameters: parameterComponents },
  };
}
