// The OpenAPI 3.0.3 document, generated from the operation table and the same
// zod schemas that validate requests and describe responses.
import { z } from 'zod';
import { fields } from './fields.js';
import { inputSchema } from './input.js';
import { commandNames, operations, type Method, type Operation } from './operations.js';
import { components, type ComponentName } from './schemas.js';
import { MAX_BODY_BYTES } from './body-size.js';

type JsonObject = Record<string, unknown>;

function schemaOf(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

// Headers and error responses are the same on every operation: written once under
// components and referenced, which keeps the document small (about 200 KB written inline, 70 KB so).
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

const rateHeaders = {
  'RateLimit-Limit': headerRef('RateLimit-Limit'),
  'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
  'RateLimit-Reset': headerRef('RateLimit-Reset'),
  'Showclock-Storage': headerRef('Showclock-Storage'),
};

function jsonResponse(description: string, schema: ComponentName, extraHeaders: JsonObject = {}): JsonObject {
  return { description, headers: { ...rateHeaders, ...extraHeaders }, content: { 'application/json': { schema: ref(schema) } } };
}

const responseComponents: Record<string, JsonObject> = {
  InvalidInput: jsonResponse('Invalid input; the message names the field', 'Error'),
  InvalidKey: jsonResponse('Invalid API key', 'Error'),
  NotFound: jsonResponse('Unknown command, operation or timer id', 'Error'),
  RateLimited: jsonResponse('Rate limit exceeded', 'Error', { 'Retry-After': headerRef('Retry-After') }),
  BodyTooLarge: jsonResponse(`Body larger than ${MAX_BODY_BYTES} bytes`, 'Error'),
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

/** On a POST every query field is optional: it may come in the body instead, which wins. */
function queryParameters(op: Operation, method: Method): JsonObject[] {
  const required = new Set(method === 'GET' ? op.required : []);
  return [...op.required, ...op.optional].map((name) => ({
    name,
    in: 'query',
    required: required.has(name),
    description: fields[name].description,
    schema: schemaOf(fields[name].query),
    example: fields[name].example,
  }));
}

function pathParameters(op: Operation): JsonObject[] {
  const params: JsonObject[] = [
    { name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } },
  ];
  if (op.path.includes('{id}')) {
    params.push({ name: 'id', in: 'path', required: true, description: 'Timer id', schema: { type: 'string' } });
  }
  return params;
}

function operationObject(op: Operation, method: Method): JsonObject {
  const hasInput = op.required.length + op.optional.length > 0;
  const responses: Record<string, JsonObject> = {
    [String(op.success.status)]: jsonResponse(op.success.status === 201 ? 'Created' : 'Success', op.success.schema),
    ...errorResponses,
  };
  if (changesRoom(op)) responses['503'] = responseRef('NotSaved');
  const object: JsonObject = {
    operationId: method === 'GET' || op.methods.length === 1 ? op.operationId : `${op.operationId}_post`,
    tags: [op.version],
    summary: op.summary,
    ...(op.description === undefined ? {} : { description: op.description }),
    parameters: [...pathParameters(op), ...queryParameters(op, method)],
    responses,
  };
  if (method === 'POST') {
    responses['413'] = responseRef('BodyTooLarge');
    if (hasInput) {
      object.requestBody = {
        // Required fields may come in the query instead, so the body itself is optional.
        required: false,
        content: { 'application/json': { schema: schemaOf(inputSchema(op, 'json')) } },
      };
    }
  }
  return object;
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
      summary: 'Push channel (Server-Sent Events): the snapshot now, then one event per change',
      description:
        'Addition to v1. Each change of the room is one event `id: <seq>`, `event: state`, `data: <State as JSON>` (the `state` of GET /state), ' +
        'in seq order; the stream starts with the current snapshot, also on a reconnect with Last-Event-ID. ' +
        'A comment line `: heartbeat` every 15 s. Counts once against the rate limit, when it connects.',
      parameters: [{ name: 'api_key', in: 'path', required: true, description: 'The room\'s API key', schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'An endless text/event-stream; each event\'s data is a State',
          headers: rateHeaders,
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        '401': errorResponses['401'],
        '429': errorResponses['429'],
        '503': jsonResponse('The service cannot open more streams right now', 'Error'),
      },
    },
  };
  const schemas: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(components)) schemas[name] = schemaOf(schema);
  return {
    openapi: '3.0.3',
    info: {
      title: 'Showclock remote control API',
      version: '1.0.0',
      description:
        'Remote control of a live-event countdown timer. Every operation is a plain GET; v1 mutations also take POST with JSON. ' +
        'The room\'s API key is in the path. 100 requests per minute per key (v0 and v1 together). ' +
        `v0 is frozen and GET only (${commandNames('v0').join(', ')}). ` +
        'Additions to v1 beyond the interface document: /settings, /timer/{id}/move, /events (push channel), previous, toggle, toggle_blackout, toggle_onair.',
    },
    tags: [
      { name: 'v1', description: 'Current version (recommended)' },
      { name: 'v0', description: 'Frozen, reduced command set, GET only' },
    ],
    paths,
    components: { schemas, responses: responseComponents, headers: headerComponents },
  };
}
