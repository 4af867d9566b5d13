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

const rateHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per minute', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Whole seconds until the window ends', schema: { type: 'integer' } },
};

function jsonResponse(description: string, schema: ComponentName, extraHeaders: JsonObject = {}): JsonObject {
  return { description, headers: { ...rateHeaders, ...extraHeaders }, content: { 'application/json': { schema: ref(schema) } } };
}

const errorResponses: Record<string, JsonObject> = {
  '400': jsonResponse('Invalid input; the message names the field', 'Error'),
  '401': jsonResponse('Invalid API key', 'Error'),
  '404': jsonResponse('Unknown command, operation or timer id', 'Error'),
  '429': jsonResponse('Rate limit exceeded', 'Error', {
    'Retry-After': { description: 'Seconds to wait, equal to RateLimit-Reset', schema: { type: 'integer' } },
  }),
};

function queryParameters(op: Operation): JsonObject[] {
  const required = new Set(op.required);
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
  const object: JsonObject = {
    operationId: method === 'GET' || op.methods.length === 1 ? op.operationId : `${op.operationId}_post`,
    tags: [op.version],
    summary: op.summary,
    ...(op.description === undefined ? {} : { description: op.description }),
    parameters: [...pathParameters(op), ...(method === 'GET' ? queryParameters(op) : [])],
    responses,
  };
  if (method === 'POST') {
    responses['413'] = jsonResponse(`Body larger than ${MAX_BODY_BYTES} bytes`, 'Error');
    if (hasInput) {
      object.requestBody = {
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
      responses: { '200': { description: 'The OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } } },
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
        'Additions to v1 beyond the interface document: /settings, /timer/{id}/move, previous, toggle, toggle_blackout, toggle_onair.',
    },
    tags: [
      { name: 'v1', description: 'Current version (recommended)' },
      { name: 'v0', description: 'Frozen, reduced command set, GET only' },
    ],
    paths,
    components: { schemas },
  };
}
