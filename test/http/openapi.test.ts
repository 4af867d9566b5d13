// The OpenAPI document: served without a key, valid OpenAPI 3.0.3 by a real
// validator, listing every operation of the interface with its parameters, and
// describing what the API really answers.
import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/commands/openapi.js';
import { operations } from '../../src/commands/operations.js';
import { apiClient, call, OpenApiChecker, resolveRef, servedDocument, type OpenApiDocument } from '../helpers/openapi-check.js';
import type { BoxClock, ClockSync } from '../../src/domain/clock-sync.js';
import { createTestApp, roomWithTimers, SCREEN_THAT_ACKNOWLEDGES } from '../helpers/test-app.js';

type Json = Record<string, unknown>;
/** The document type swagger-parser takes. */
type ApiDocument = InstanceType<typeof SwaggerParser>['api'];
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
  example?: string;
}

let doc: OpenApiDocument;
let checker: OpenApiChecker;
beforeAll(async () => {
  doc = await servedDocument();
  checker = new OpenApiChecker(doc);
});

function op(path: string, method: 'get' | 'post'): Json {
  const found = doc.paths[path]?.[method];
  if (found === undefined) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return found;
}

function parameters(path: string, method: 'get' | 'post'): Parameter[] {
  return (op(path, method).parameters ?? []) as Parameter[];
}

function queryNames(path: string): Record<string, boolean> {
  return Object.fromEntries(parameters(path, 'get').filter((p) => p.in === 'query').map((p) => [p.name, p.required === true]));
}

/** Operations answering JSON; the push channel (/events) streams text/event-stream and is tested with it. */
function answersJson(operation: Json): boolean {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  return Object.entries(responses).some(
    ([code, r]) => code.startsWith('2') && (resolveRef(doc, r) as { content?: Json }).content?.['application/json'] !== undefined,
  );
}

function bodySchema(path: string): Json {
  const body = op(path, 'post').requestBody as { content: { 'application/json': { schema: Json } } } | undefined;
  if (body === undefined) throw new Error(`POST ${path} has no request body`);
  return body.content['application/json'].schema;
}

const V1_COMMANDS = ['start', 'pause', 'stop', 'reset', 'next', 'adjust', 'message', 'clear_message', 'blackout', 'onair', 'status'];
const V1_ADDED_COMMANDS = ['previous', 'toggle', 'toggle_blackout', 'toggle_onair'];
const V0_COMMANDS = ['start', 'pause', 'stop', 'reset', 'next', 'adjust', 'message', 'clear_message', 'blackout', 'status'];

describe('serving', () => {
  it('GET /api/v1/openapi.json needs no key and answers JSON, no-store, CORS open', async () => {
    const t = createTestApp();
    const res = await t.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('RateLimit-Limit')).toBe('100');
    const served = (await res.json()) as Json;
    expect(served).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('holds no key', async () => {
    const t = createTestApp();
    const text = await (await t.request('/api/v1/openapi.json')).text();
    expect(text).not.toContain(t.keys.apiKey);
    expect(text).not.toContain(t.keys.viewerKey);
  });
});

describe('validity', () => {
  it('is a valid OpenAPI 3.0.3 document, version 1.0.0 (swagger-parser)', async () => {
    // validate() dereferences in place: give it a copy.
    const validated = (await SwaggerParser.validate(structuredClone(doc) as unknown as ApiDocument)) as unknown as Json;
    expect(validated.openapi).toBe('3.0.3');
    expect((validated.info as Json).version).toBe('1.0.0');
    expect(doc.openapi).toBe('3.0.3');
  }, 60_000);

  it('the validator is real: it refuses a broken copy', async () => {
    const broken = structuredClone(doc) as Json & { paths: Record<string, Record<string, Json>> };
    const adjust = broken.paths['/api/v1/{api_key}/adjust'];
    if (adjust?.get === undefined) throw new Error('no GET adjust');
    adjust.get.responses = { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } } } };
    await expect(SwaggerParser.validate(broken as unknown as ApiDocument)).rejects.toThrow();
  });

  it('operation ids are unique', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('every operation of the interface is listed', () => {
  it('v1 literal paths with their methods', () => {
    const expected: [string, ('get' | 'post')[]][] = [
      ['/state', ['get']],
      ['/timers', ['get', 'post']],
      ['/timer/{id}/select', ['get', 'post']],
      ['/timer/{id}/start', ['get', 'post']],
      ['/timer/{id}/update', ['get', 'post']],
      ['/timer/{id}/delete', ['get', 'post']],
      ['/message/set', ['get', 'post']],
      ['/message/clear', ['get', 'post']],
      ['/settings', ['get', 'post']],
    ];
    for (const [path, methods] of expected) {
      const item = doc.paths[`/api/v1/{api_key}${path}`];
      expect(item, path).toBeDefined();
      expect(Object.keys(item ?? {}).sort(), path).toEqual([...methods].sort());
    }
  });

  it('every v1 command, GET and POST; every v0 command, GET only; nothing else under v0', () => {
    for (const cmd of [...V1_COMMANDS, ...V1_ADDED_COMMANDS]) {
      expect(Object.keys(doc.paths[`/api/v1/{api_key}/${cmd}`] ?? {}).sort(), cmd).toEqual(['get', 'post']);
    }
    for (const cmd of V0_COMMANDS) expect(Object.keys(doc.paths[`/api/v0/{api_key}/${cmd}`] ?? {}), cmd).toEqual(['get']);
    const v0Paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v0/'));
    expect(v0Paths.map((p) => p.replace('/api/v0/{api_key}/', '')).sort()).toEqual([...V0_COMMANDS].sort());
  });

  it('matches the operation table the router is built from', () => {
    for (const operation of operations) {
      const item = doc.paths[`/api/${operation.version}/{api_key}${operation.path}`];
      for (const method of operation.methods) expect(item?.[method.toLowerCase()], `${method} ${operation.path}`).toBeDefined();
    }
    expect(op('/api/v1/openapi.json', 'get')).toBeDefined();
  });
});

describe('parameters', () => {
  it('every API path has the api_key path parameter, and {id} paths have id', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      // Neither takes a key: the document itself, and the logo the screens load; the audience page takes its own.
      if (path === '/api/v1/openapi.json' || path === '/logo/{version}') continue;
      if (path === '/ask/{audience_key}') {
        expect(parameters(path, 'post').filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['audience_key']);
        continue;
      }
      for (const method of Object.keys(item) as ('get' | 'post')[]) {
        const inPath = parameters(path, method).filter((p) => p.in === 'path');
        expect(inPath.map((p) => p.name).sort(), `${method} ${path}`).toEqual(path.includes('{id}') ? ['api_key', 'id'] : ['api_key']);
        expect(inPath.every((p) => p.required === true)).toBe(true);
      }
    }
  });

  it('GET query parameters, with what is required', () => {
    const v1 = (p: string) => `/api/v1/{api_key}${p}`;
    const v0 = (p: string) => `/api/v0/{api_key}${p}`;
    expect(queryNames(v1('/adjust'))).toEqual({ ms: true });
    expect(queryNames(v0('/adjust'))).toEqual({ ms: true });
    expect(queryNames(v1('/message'))).toEqual({ text: true, flash: false, color: false, bold: false });
    expect(queryNames(v1('/message/set'))).toEqual({ text: true, flash: false, color: false, bold: false });
    expect(queryNames(v0('/message'))).toEqual({ text: true, flash: false });
    expect(queryNames(v1('/blackout'))).toEqual({ on: false });
    expect(queryNames(v1('/onair'))).toEqual({ on: false });
    expect(queryNames(v0('/blackout'))).toEqual({ on: false });
    expect(queryNames(v1('/timer/{id}/update'))).toEqual({ label: false, speaker: false, duration: false, warnAt: false, dangerAt: false, appearance: false, scheduledAt: false, endsAt: false, tagId: false });
    expect(queryNames(v1('/tag/update'))).toEqual({ tagId: true, name: false, colour: false });
    expect(queryNames(v1('/tag/delete'))).toEqual({ tagId: true });
    expect(queryNames(v1('/settings'))).toEqual({
      zeroBehavior: false, autoAdvance: false, timeZone: false, clockFormat: false, chimeAtZero: false, chimeAtWarning: false, chimeVolume: false, plannedStart: false,
    });
    expect(queryNames(v1('/aux_adjust'))).toEqual({ ms: true });
    expect(queryNames(v1('/aux'))).toEqual({ duration: false, appearance: false, label: false });
    for (const cmd of ['aux_start', 'aux_pause', 'aux_toggle', 'aux_reset', 'show_reset']) expect(queryNames(v1(`/${cmd}`)), cmd).toEqual({});
    // None of issue 29's operations in v0, which never changes.
    for (const cmd of ['aux', 'aux_start', 'aux_adjust', 'show_reset']) expect(doc.paths[v0(`/${cmd}`)], cmd).toBeUndefined();
    for (const cmd of ['start', 'pause', 'stop', 'reset', 'next', 'clear_message', 'status']) {
      expect(queryNames(v1(`/${cmd}`)), cmd).toEqual({});
      expect(queryNames(v0(`/${cmd}`)), cmd).toEqual({});
    }
    expect(queryNames(v1('/state'))).toEqual({});
  });

  it('query schemas say what the router accepts', () => {
    const param = (path: string, name: string) => parameters(path, 'get').find((p) => p.name === name)?.schema;
    expect(param('/api/v1/{api_key}/message', 'flash')).toMatchObject({ type: 'string', enum: ['0', '1'] });
    expect(param('/api/v1/{api_key}/message', 'color')).toMatchObject({ type: 'string', enum: ['white', 'green', 'red'] });
    expect(param('/api/v1/{api_key}/timer/{id}/update', 'appearance')).toMatchObject({ enum: ['countdown', 'countup', 'clock'] });
    // The aux timer's own appearance, under the same name: no time of day.
    expect(param('/api/v1/{api_key}/aux', 'appearance')).toEqual({ type: 'string', enum: ['countdown', 'countup'] });
    // The show's planned start is an instant as scheduledAt is: ms in range, or empty for none.
    expect(param('/api/v1/{api_key}/settings', 'plannedStart')).toEqual(param('/api/v1/{api_key}/timer/{id}/update', 'scheduledAt'));
    expect(param('/api/v1/{api_key}/aux_adjust', 'ms')).toEqual({ type: 'integer', minimum: -3_600_000, maximum: 3_600_000 });
    // A query carries whole numbers as their decimal spelling; the document gives their type and range.
    expect(param('/api/v1/{api_key}/adjust', 'ms')).toEqual({ type: 'integer', minimum: -3_600_000, maximum: 3_600_000 });
    expect(param('/api/v0/{api_key}/adjust', 'ms')).toEqual({ type: 'integer', minimum: -3_600_000, maximum: 3_600_000 });
    expect(param('/api/v1/{api_key}/timer/{id}/update', 'duration')).toEqual({ type: 'integer', minimum: 1_000, maximum: 86_400_000 });
    expect(param('/api/v1/{api_key}/timer/{id}/update', 'warnAt')).toEqual({ type: 'integer', minimum: 0, maximum: 86_400_000 });
    expect(param('/api/v1/{api_key}/timer/{id}/move', 'to')).toEqual({ type: 'integer', minimum: 0, maximum: 9_999 });
    // Lengths in characters (JSON Schema counts code points), and the text rules as a pattern (text-patterns.test.ts).
    expect(param('/api/v1/{api_key}/timer/{id}/update', 'label')).toMatchObject({ type: 'string', maxLength: 200, pattern: expect.any(String) });
    expect(param('/api/v1/{api_key}/timer/{id}/update', 'speaker')).toMatchObject({ type: 'string', maxLength: 200, pattern: expect.any(String) });
    expect(param('/api/v1/{api_key}/message/set', 'text')).toMatchObject({ type: 'string', minLength: 1, pattern: expect.any(String) });
    const text = new RegExp(String(param('/api/v1/{api_key}/message/set', 'text')?.pattern), 'u');
    for (const good of ['Wrap up', ' 5 minutes ', '😀'.repeat(500)]) expect(text.test(good), good).toBe(true);
    for (const bad of ['', '   ', '\u200B', 'a\u0000', 'a'.repeat(501)]) expect(text.test(bad), JSON.stringify(bad)).toBe(false);
    const id = parameters('/api/v1/{api_key}/timer/{id}/select', 'get').find((p) => p.name === 'id');
    expect(id?.schema).toEqual({ type: 'string', minLength: 1, maxLength: 64 });
  });

  it('POST bodies: JSON types per field, required ones marked', () => {
    expect(bodySchema('/api/v1/{api_key}/adjust')).toMatchObject({
      type: 'object',
      properties: { ms: { type: 'integer', minimum: -3_600_000, maximum: 3_600_000 } },
      required: ['ms'],
    });
    expect(bodySchema('/api/v1/{api_key}/message')).toMatchObject({
      properties: { text: { type: 'string' }, flash: { type: 'boolean' }, color: { enum: ['white', 'green', 'red'] }, bold: { type: 'boolean' } },
      required: ['text'],
    });
    expect(bodySchema('/api/v1/{api_key}/blackout')).toMatchObject({ properties: { on: { type: 'string' } } });
    expect(bodySchema('/api/v1/{api_key}/onair')).toMatchObject({ properties: { on: { type: 'string' } } });
    expect(bodySchema('/api/v1/{api_key}/timers')).toMatchObject({
      properties: {
        label: { type: 'string' },
        speaker: { type: 'string' },
        duration: { type: 'integer', minimum: 1_000, maximum: 86_400_000 },
        warnAt: { type: 'integer' },
        appearance: { enum: ['countdown', 'countup', 'clock'] },
      },
    });
    expect(bodySchema('/api/v1/{api_key}/timer/{id}/update')).toMatchObject({ properties: { duration: { type: 'integer' } } });
    expect(bodySchema('/api/v1/{api_key}/settings')).toMatchObject({ properties: { autoAdvance: { type: 'boolean' } } });
    expect(bodySchema('/api/v1/{api_key}/timer/{id}/update')).toMatchObject({ properties: { label: { maxLength: 200 }, speaker: { maxLength: 200 } } });
    // A POST documents its fields in the body, required where the operation needs a field: what a strict
    // client checks against the document is then what the service checks. (It may also put them in the
    // query, as the description says; OpenAPI 3.0 cannot express "in the query or the body".)
    const adjustPost = op('/api/v1/{api_key}/adjust', 'post');
    expect((adjustPost.requestBody as Json).required).toBe(true);
    expect(parameters('/api/v1/{api_key}/adjust', 'post').filter((p) => p.in === 'query')).toEqual([]);
    expect(String(adjustPost.description)).toMatch(/query string/);
    expect(op('/api/v1/{api_key}/adjust', 'get').parameters).toContainEqual(expect.objectContaining({ name: 'ms', in: 'query', required: true }));
    expect((op('/api/v1/{api_key}/message/set', 'post').requestBody as Json).required).toBe(true);
    expect((op('/api/v1/{api_key}/timer/{id}/move', 'post').requestBody as Json).required).toBe(true);
    expect((op('/api/v1/{api_key}/timers', 'post').requestBody as Json).required).toBe(false);
    expect((op('/api/v1/{api_key}/blackout', 'post').requestBody as Json).required).toBe(false);
    expect(op('/api/v1/{api_key}/start', 'post').requestBody).toBeUndefined();
    // At least one field: minProperties, and anyOf so that a field the operation ignores does not count.
    for (const path of ['/timer/{id}/update', '/settings']) {
      expect((op(`/api/v1/{api_key}${path}`, 'post').requestBody as Json).required, path).toBe(true);
      const schema = bodySchema(`/api/v1/{api_key}${path}`) as { minProperties: number; anyOf: { required: string[] }[]; properties: Json };
      expect(schema.minProperties, path).toBe(1);
      expect(schema.anyOf.map((s) => s.required), path).toEqual(Object.keys(schema.properties).map((name) => [name]));
      expect(String(op(`/api/v1/{api_key}${path}`, 'get').description), path).toMatch(/At least one/);
    }
  });

  it('form-encoded bodies are documented with the query\'s spelling', () => {
    const form = (path: string) =>
      ((op(path, 'post').requestBody as { content: Record<string, { schema: Json }> }).content['application/x-www-form-urlencoded']?.schema ?? {}) as Json;
    expect(form('/api/v1/{api_key}/adjust')).toMatchObject({
      type: 'object',
      properties: { ms: { type: 'integer', minimum: -3_600_000, maximum: 3_600_000 } },
      required: ['ms'],
    });
    expect(form('/api/v1/{api_key}/message/set')).toMatchObject({ properties: { flash: { enum: ['0', '1'] }, bold: { enum: ['0', '1'] } }, required: ['text'] });
    expect(form('/api/v1/{api_key}/settings')).toMatchObject({ minProperties: 1, properties: { autoAdvance: { enum: ['0', '1'] } } });
  });
});

describe('responses', () => {
  it('every API operation documents its success, 401, 404 and 429 (with Retry-After), POST also 413, all with the rate-limit and storage headers', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      // The audience page is not the API: its key, limits and answers are its own (documented beside it).
      if (path === '/api/v1/openapi.json' || !path.startsWith('/api/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        if (!answersJson(operation)) continue;
        const responses = operation.responses as Record<string, Json>;
        const success = (path.endsWith('/timers') || path.endsWith('/timers/import')) && method === 'post' ? '201' : '200';
        const expected = [success, '400', '401', '404', '429', ...(method === 'post' ? ['413'] : [])];
        for (const code of expected) {
          expect(responses[code], `${method} ${path} ${code}`).toBeDefined();
          const response = resolveRef(doc, responses[code]) as { headers?: Json; content?: Json };
          const headers = response.headers ?? {};
          expect(Object.keys(headers)).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Showclock-Storage']));
          for (const [name, header] of Object.entries(headers)) {
            expect(resolveRef(doc, header)).toMatchObject({ schema: { type: name === 'Showclock-Storage' ? 'string' : 'integer' } });
          }
          expect(response.content?.['application/json'], `${method} ${path} ${code}`).toBeDefined();
        }
        const tooMany = resolveRef(doc, responses['429']) as { headers: Json };
        expect(Object.keys(tooMany.headers)).toContain('Retry-After');
      }
    }
  });

  it('success bodies name the right schema', () => {
    const schemaRef = (path: string, method: 'get' | 'post', code: string) => {
      const reference = (op(path, method).responses as Json)[code];
      if (reference === undefined) return undefined;
      const response = resolveRef(doc, reference) as { content: Record<string, { schema: { $ref: string } }> };
      return response.content['application/json']?.schema.$ref;
    };
    expect(schemaRef('/api/v1/{api_key}/state', 'get', '200')).toBe('#/components/schemas/StateEnvelope');
    expect(schemaRef('/api/v1/{api_key}/timers', 'get', '200')).toBe('#/components/schemas/TimersList');
    expect(schemaRef('/api/v1/{api_key}/timers', 'post', '201')).toBe('#/components/schemas/TimerCreated');
    // v0 answers its state as it was before issue 29 (V0State: no actuals, aux or schedule).
    expect(schemaRef('/api/v0/{api_key}/start', 'get', '200')).toBe('#/components/schemas/V0StateEnvelope');
    expect(schemaRef('/api/v0/{api_key}/status', 'get', '200')).toBe('#/components/schemas/V0StateEnvelope');
    expect(schemaRef('/api/v1/{api_key}/aux', 'post', '200')).toBe('#/components/schemas/StateEnvelope');
    expect(schemaRef('/api/v1/{api_key}/show_reset', 'get', '200')).toBe('#/components/schemas/StateEnvelope');
    expect(schemaRef('/api/v1/{api_key}/start', 'get', '404')).toBe('#/components/schemas/Error');
    // Reads never wait for a write, so only operations that change the room document 503.
    expect(schemaRef('/api/v1/{api_key}/start', 'get', '503')).toBe('#/components/schemas/Error');
    expect(schemaRef('/api/v1/{api_key}/state', 'get', '503')).toBeUndefined();
    expect(schemaRef('/api/v1/{api_key}/status', 'get', '503')).toBeUndefined();
  });

  it('the State schema has every field of remote-control-api.md §2, all required', () => {
    const state = doc.components.schemas.State as { properties: Json; required: string[] };
    const fields = [
      'seq', 'serverNow', 'running', 'endAt', 'remainingAtPause', 'remaining', 'zeroBehavior', 'autoAdvance', 'blackout', 'onAir',
      'activeTimerId', 'activeLabel', 'activeSpeaker', 'warnAt', 'duration', 'message', 'timers',
    ];
    for (const field of fields) {
      expect(state.properties[field], field).toBeDefined();
      expect(state.required, field).toContain(field);
    }
    expect(state.properties.endAt).toMatchObject({ nullable: true, type: 'integer' });
    // A nullable reference as OpenAPI 3.0.3 lets one be written (nullable acts only beside a type).
    expect(state.properties.message).toEqual({ anyOf: [{ $ref: '#/components/schemas/Message' }, { type: 'object', nullable: true, enum: [null] }] });
    // Issue 29's fields, issue 31's `started`, issue 32's `tally` and issue 33's `screen`: in every v1 answer, in none of v0's (V0State is the State as it was).
    for (const field of ['started', 'actuals', 'aux', 'tally', 'screen', 'schedule']) expect(state.required, field).toContain(field);
    const v0 = doc.components.schemas.V0State as { properties: Json; required: string[] };
    expect([...v0.required].sort()).toEqual(state.required.filter((field) => !['started', 'actuals', 'aux', 'tally', 'screen', 'schedule'].includes(field)).sort());
    expect(Object.keys(v0.properties).sort()).toEqual(v0.required.sort());
    const settings = (name: string) => (doc.components.schemas[name] as { required: string[] }).required;
    expect(settings('Settings').filter((field) => !settings('V0Settings').includes(field))).toEqual(['plannedStart']);
    expect(settings('Display').filter((field) => !settings('V0Display').includes(field))).toEqual(['showOverUnder', 'showShowEnd', 'showAux']);
    expect([...settings('Schedule')].sort()).toEqual(['nextPlannedStart', 'offset', 'plannedEnd', 'plannedStart', 'projectedEnd', 'timers', 'totalDuration']);
    expect([...settings('ScheduledTimer')].sort()).toEqual(['actualEnd', 'actualStart', 'id', 'plannedEnd', 'plannedStart', 'projectedEnd', 'projectedStart']);
    expect([...settings('AuxSnapshot')].sort()).toEqual(['appearance', 'duration', 'endAt', 'label', 'remaining', 'remainingAtPause', 'running']);
    expect([...settings('Actual')].sort()).toEqual(['endedAt', 'startedAt', 'timerId']);
    // The document says the stream leaves the schedule out, and that a client derives it.
    expect(JSON.stringify(state.properties.schedule)).toMatch(/events stream leaves it out/);
    const timer = doc.components.schemas.Timer as { required: string[] };
    expect([...timer.required].sort()).toEqual(['appearance', 'dangerAt', 'duration', 'endsAt', 'id', 'label', 'scheduledAt', 'speaker', 'tagId', 'warnAt']);
  });
});

const NOT_SYNCED: ClockSync = { synced: false, source: 'timesyncd', since: 1_767_261_000_000, detail: 'systemd-timesyncd has not reached a time server' };
const SETTABLE_CLOCK: BoxClock = {
  current: () => NOT_SYNCED,
  set: async (at) => ({ ok: true, clock: { ...NOT_SYNCED, setByHandAt: at } }),
};

describe('the document describes what the API answers', () => {
  it('every GET operation answers 2xx when called with the documented examples, and the body fits', async () => {
    // The room has the tag the examples name (tagId k3x9), as a room a client reads its ids from would.
    const room = {
      ...roomWithTimers(3),
      activeTimerId: 't2',
      transport: { running: false as const, remainingMs: 120_000 },
      tags: [{ id: 'k3x9', name: 'Main stage', colour: '#ff9f0a' }],
      // And the question the examples name (questionId q7f3a9c2e).
      questions: [{ id: 'q7f3a9c2e', text: 'How long did it take?', name: 'Ada', receivedAt: 1_767_261_600_000, state: 'new' as const, nameShown: false }],
    };
    let called = 0;
    const jsonGets = Object.entries(doc.paths).filter(([path, item]) => item.get !== undefined && answersJson(item.get) && path !== '/api/v1/openapi.json');
    for (const [path] of jsonGets) {
      // A box whose clock is not synchronised and can be set (GET /clock/set's example sets it).
      // And a screen over HDMI-CEC that acknowledges (GET /screen/on, /standby, /active).
      const t = createTestApp({ room, clock: SETTABLE_CLOCK, screen: () => SCREEN_THAT_ACKNOWLEDGES });
      const query = new URLSearchParams();
      for (const p of parameters(path, 'get')) {
        if (p.in === 'query') query.set(p.name, String(p.example));
      }
      const concrete = `${path.replace('{api_key}', t.keys.apiKey).replace('{id}', 't2')}?${query.toString()}`;
      const result = await call(t, checker, 'GET', concrete);
      expect([200, 201], `${path} -> ${JSON.stringify(result.body)}`).toContain(result.status);
      called += 1;
    }
    expect(called).toBe(jsonGets.length);
    // 9 v1 resources + 15 v1 commands + 10 v0 commands, and issue 29's /aux, aux_start, aux_pause, aux_toggle, aux_reset, aux_adjust and show_reset.
    expect(called).toBeGreaterThanOrEqual(41);
  }, 60_000);

  it('the response check is real: it refuses bodies that do not fit', () => {
    const statePath = '/api/v1/KEY/state';
    expect(() => checker.check('GET', statePath, 200, { ok: true })).toThrow(/does not match/);
    expect(() => checker.check('GET', statePath, 200, { ok: false, error: 'x' })).toThrow(/does not match/);
    expect(() => checker.check('GET', statePath, 404, { ok: true, state: {} })).toThrow(/does not match/);
    expect(() => checker.check('GET', statePath, 404, { ok: false })).toThrow(/does not match/);
    expect(() => checker.check('GET', statePath, 404, { ok: false, error: 'x', extra: 1 })).toThrow(/does not match/);
    expect(() => checker.check('GET', statePath, 418, { ok: false, error: 'x' })).toThrow(/not documented/);
    expect(() => checker.check('PUT', statePath, 200, {})).toThrow(/not in the OpenAPI document/);
    expect(() => checker.check('GET', statePath, 404, { ok: false, error: 'gone' })).not.toThrow();
  });

  it('a real snapshot with every nullable field filled in fits too', async () => {
    const t = createTestApp();
    const api = apiClient(t, checker, 'v1');
    await api.get('/message?text=hello&flash=1&color=red&bold=1');
    await api.get('/start');
    t.clock.advance(700_000);
    const result = await api.get('/state');
    expect(result.status).toBe(200);
    expect((result.body as { state: { remaining: number } }).state.remaining).toBe(-100_000);
  });
});

describe('the document as a whole', () => {
  it('has a relative server, a licence and a contact', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect((doc.info as Json).license).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^https:/) });
    expect((doc.info as Json).contact).toMatchObject({ name: expect.any(String) });
  });

  it('every operation has a description, and every one of the table its own', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) expect(String(operation.description ?? '').length, `${method} ${path}`).toBeGreaterThan(20);
    }
    for (const operation of operations) expect(operation.description, operation.operationId).toEqual(expect.any(String));
  });

  it('components are referenced, not copied', () => {
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Json> }>;
    const refTo = (name: string) => `#/components/schemas/${name}`;
    expect(schemas.State?.properties.timers).toEqual({ type: 'array', items: { $ref: refTo('Timer') } });
    expect(schemas.State?.properties.settings).toEqual({ $ref: refTo('Settings') });
    expect(schemas.StateEnvelope?.properties.state).toEqual({ $ref: refTo('State') });
    expect(schemas.TimersList?.properties.timers).toEqual({ type: 'array', items: { $ref: refTo('Timer') } });
    expect(schemas.TimerCreated?.properties.timer).toEqual({ $ref: refTo('Timer') });
    expect(schemas.State?.properties.schedule).toMatchObject({ allOf: [{ $ref: refTo('Schedule') }] });
    expect(schemas.State?.properties.aux).toMatchObject({ allOf: [{ $ref: refTo('AuxSnapshot') }] });
    expect(schemas.State?.properties.actuals).toMatchObject({ type: 'array', items: { $ref: refTo('Actual') } });
    expect(schemas.Schedule?.properties.timers).toMatchObject({ type: 'array', items: { $ref: refTo('ScheduledTimer') } });
    expect(schemas.V0StateEnvelope?.properties.state).toEqual({ $ref: refTo('V0State') });
    expect(schemas.V0State?.properties.timers).toEqual({ type: 'array', items: { $ref: refTo('Timer') } });
    expect(schemas.V0State?.properties.settings).toEqual({ $ref: refTo('V0Settings') });
    // No snapshot field is written out anywhere but in its components: the state (v1's and v0's) and the aux timer's own transport.
    expect(JSON.stringify(doc.paths)).not.toContain('"remainingAtPause"');
    expect(JSON.stringify({ ...schemas, State: undefined, V0State: undefined, AuxSnapshot: undefined })).not.toContain('"remainingAtPause"');
  });

  it('400 answers carry the service\'s own messages for that operation as examples', () => {
    const examples = (path: string, method: 'get' | 'post') => {
      const response = resolveRef(doc, (op(path, method).responses as Json)['400']) as { content: Record<string, { examples?: Record<string, { value: { error: string } }> }> };
      return Object.fromEntries(Object.entries(response.content['application/json']?.examples ?? {}).map(([key, example]) => [key, example.value.error]));
    };
    const v1 = (p: string) => `/api/v1/{api_key}${p}`;
    expect(examples(v1('/adjust'), 'get')).toMatchObject({ badValue: expect.stringMatching(/^ms: /), missing: expect.stringMatching(/^ms: is required/) });
    expect(examples(v1('/adjust'), 'post')).toMatchObject({ notAnObject: 'body: must be a JSON object such as {"ms": 60000}' });
    expect(examples(v1('/message/set'), 'post')).toMatchObject({ notAnObject: 'body: must be a JSON object such as {"text": "Wrap up please"}' });
    expect(examples(v1('/timer/{id}/update'), 'get')).toMatchObject({ badValue: expect.stringMatching(/^label: contains a control character/), noField: expect.stringMatching(/at least one field/) });
    expect(examples(v1('/settings'), 'get')).toMatchObject({ badValue: expect.stringMatching(/^zeroBehavior: must be one of/) });
    expect(examples(v1('/next'), 'get')).toMatchObject({ refused: expect.stringMatching(/^no next timer/) });
    expect(examples(v1('/aux_adjust'), 'get')).toMatchObject({ badValue: expect.stringMatching(/^ms: /), missing: expect.stringMatching(/^ms: is required/) });
    expect(examples(v1('/aux'), 'get')).toMatchObject({ badValue: expect.stringMatching(/^duration: /), noField: 'aux: give at least one of duration, appearance or label' });
    expect(examples(v1('/timer/{id}/delete'), 'get')).toMatchObject({ refused: expect.stringMatching(/last timer/) });
    expect(examples(v1('/adjust'), 'get')).toMatchObject({ refused: expect.stringMatching(/above the maximum/) });
    expect(examples('/api/v0/{api_key}/message', 'get')).toMatchObject({ badValue: 'text: is empty; give some text' });
  });

  it('the lint configs switch off only what OpenAPI 3.0 cannot express, with the reason beside it', () => {
    const redocly = readFileSync(new URL('../../redocly.yaml', import.meta.url), 'utf8');
    const spectral = readFileSync(new URL('../../.spectral.yaml', import.meta.url), 'utf8');
    expect(redocly).toMatch(/^extends:\n\s+- recommended$/m);
    expect([...redocly.matchAll(/^\s+([\w-]+):\s*off\s*$/gm)].map((m) => m[1])).toEqual(['security-defined']);
    expect(redocly).toMatch(/OpenAPI 3\.0 cannot express it: the API key is a segment of the path/);
    expect(spectral).toMatch(/^extends: \["spectral:oas"\]$/m);
    expect(spectral).not.toMatch(/^\s*rules:/m);
  });
});
