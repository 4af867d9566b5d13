// Checks real API responses against the OpenAPI document the app serves: finds
// the operation by path template and method, then validates the body against
// the response schema of that status with openapi-response-validator. The
// check is stricter than the document (no properties beyond those listed), so
// a field added to a response without its schema shows up as a failure here.
import { beforeAll, expect } from 'vitest';
import validatorModule from 'openapi-response-validator';
import type * as z from '../../src/schema/zod.js';
import { ErrorSchema, StateEnvelopeSchema } from '../../src/commands/schemas.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

type Json = Record<string, unknown>;
export type OpenApiDocument = Json & { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

// The package is CommonJS with an `exports.default`; depending on the loader the class is the import or its `default`.
type ValidatorClass = typeof validatorModule.default;
const OpenAPIResponseValidator: ValidatorClass =
  (validatorModule as { default?: ValidatorClass }).default ?? (validatorModule as unknown as ValidatorClass);

let served: Promise<OpenApiDocument> | undefined;

/** The document as a fresh app serves it (GET /api/v1/openapi.json, no key). */
export function servedDocument(): Promise<OpenApiDocument> {
  served ??= (async () => {
    const res = await createTestApp().request('/api/v1/openapi.json');
    if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
    return (await res.json()) as OpenApiDocument;
  })();
  return served;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy in which every object schema with listed properties allows no others. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!isObject(schema)) return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'example' ? value : strict(value);
  if (isObject(copy.properties) && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** Follows a local `$ref` (`#/components/...`) to what it names; anything else comes back as it is. */
export function resolveRef(doc: Json, value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    const pointer = current.$ref;
    if (!pointer.startsWith('#/') || hops > 10) throw new Error(`cannot follow $ref ${pointer}`);
    let target: unknown = doc;
    for (const part of pointer.slice(2).split('/')) {
      target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    if (target === undefined) throw new Error(`$ref ${pointer} names nothing in the document`);
    current = target;
  }
  return current;
}

function templateRegex(template: string): RegExp {
  const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}$`);
}

export class OpenApiChecker {
  readonly #doc: OpenApiDocument;
  readonly #templates: { template: string; regex: RegExp }[];
  readonly #validators = new Map<string, InstanceType<ValidatorClass>>();

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
    this.#templates = Object.keys(doc.paths).map((template) => ({ template, regex: templateRegex(template) }));
  }

  /** The operation object for a concrete request path (query removed) and method, if documented. */
  operation(method: string, path: string): { template: string; op: Json } | undefined {
    // The router is not strict about a trailing slash, so neither is the lookup.
    const bare = (path.split('?')[0] ?? path).replace(/(.)\/+$/, '$1');
    const matches = this.#templates.filter((t) => t.regex.test(bare));
    // Literal paths are more specific than templated ones: prefer the one with fewest parameters.
    matches.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
    for (const match of matches) {
      const op = this.#doc.paths[match.template]?.[method.toLowerCase()];
      if (isObject(op)) return { template: match.template, op };
    }
    return undefined;
  }

  /** Validates a body against the documented response; throws with the reasons when it does not fit. */
  check(method: string, path: string, status: number, body: unknown): void {
    const found = this.operation(method, path);
    if (found === undefined) {
      // Unknown routes are not in the document; their 404 must still be the Error resource.
      if (status !== 404 && status !== 401 && status !== 429) {
        throw new Error(`${method} ${path} answered ${status} but is not in the OpenAPI document`);
      }
      const error = { $ref: '#/components/schemas/Error' };
      this.#validate('#Error', { '401': error, '404': error, '429': error }, status, body, `${method} ${path}`);
      return;
    }
    const responses = found.op.responses;
    if (!isObject(responses) || !isObject(responses[String(status)])) {
      throw new Error(`${method} ${found.template}: status ${status} is not documented`);
    }
    const key = `${method} ${found.template}`;
    const schemas: Json = {};
    for (const [code, reference] of Object.entries(responses)) {
      const response = resolveRef(this.#doc, reference);
      const content = isObject(response) && isObject(response.content) ? response.content : {};
      const media = content['application/json'];
      if (!isObject(media) || !isObject(media.schema)) throw new Error(`${key} ${code}: no application/json schema`);
      schemas[code] = media.schema;
    }
    // Most operations share their response schemas; compiling once per distinct set keeps the tests quick.
    this.#validate(JSON.stringify(schemas), schemas, status, body, key);
  }

  #validate(cacheKey: string, schemas: Json, status: number, body: unknown, label: string): void {
    let validator = this.#validators.get(cacheKey);
    if (validator === undefined) {
      const responses: Record<string, { schema: Json }> = {};
      for (const [code, schema] of Object.entries(schemas)) responses[code] = { schema: strict(schema) as Json };
      // The validator rewrites the schemas it is given (nullable), so it gets its own copy of the components.
      const components = strict(structuredClone(this.#doc.components)) as ConstructorParameters<ValidatorClass>[0]['components'];
      validator = new OpenAPIResponseValidator({ responses, ...(components === undefined ? {} : { components }) });
      this.#validators.set(cacheKey, validator);
    }
    // A copy: the validator may fill in defaults.
    const result = validator.validateResponse(String(status), structuredClone(body)) as { message: string; errors: unknown[] } | undefined;
    if (result !== undefined) {
      throw new Error(`${label} ${status}: response does not match the OpenAPI document: ${JSON.stringify(result.errors)}\nbody: ${JSON.stringify(body).slice(0, 600)}`);
    }
  }
}

export interface ApiResult {
  readonly res: Response;
  readonly status: number;
  readonly body: unknown;
}

export interface CallOptions {
  readonly body?: unknown;
  readonly client?: string;
  readonly headers?: Record<string, string>;
}

/**
 * One API request through the test app, with the checks every API response must
 * pass: JSON, Cache-Control no-store, CORS open, the rate-limit headers, and a
 * body that fits the OpenAPI document for its path, method and status.
 */
export async function call(t: TestApp, checker: OpenApiChecker, method: string, path: string, opts: CallOptions = {}): Promise<ApiResult> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await t.request(path, { method, headers, ...(body === undefined ? {} : { body }), ...(opts.client === undefined ? {} : { client: opts.client }) });
  const where = `${method} ${path.replace(t.keys.apiKey, '{api_key}')} -> ${res.status}`;
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json\b/);
  expect(res.headers.get('cache-control'), where).toBe('no-store');
  expect(res.headers.get('access-control-allow-origin'), where).toBe('*');
  for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
    expect(res.headers.get(name), `${where}: ${name}`).toMatch(/^\d+$/);
  }
  const parsed: unknown = await res.json();
  checker.check(method, path, res.status, parsed);
  if (res.status >= 400) {
    const error = ErrorSchema.parse(parsed);
    expect(error.error.length, `${where}: error message`).toBeGreaterThan(0);
  }
  return { res, status: res.status, body: parsed };
}

/** Asserts a 200 State envelope and returns the state, typed. */
export function stateOf(result: ApiResult): z.infer<typeof StateEnvelopeSchema>['state'] {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return StateEnvelopeSchema.parse(result.body).state;
}

/** Asserts an error status and returns the message. */
export function errorOf(result: ApiResult, status: number): string {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return ErrorSchema.parse(result.body).error;
}

/** GET and POST under `/api/{version}/{api_key}`, every answer checked by `call`. */
export function apiClient(t: TestApp, checker: OpenApiChecker, version: 'v0' | 'v1' = 'v1', key: string = t.keys.apiKey) {
  const base = `/api/${version}/${key}`;
  return {
    base,
    get: (path: string, opts: CallOptions = {}) => call(t, checker, 'GET', base + path, opts),
    post: (path: string, body?: unknown, opts: CallOptions = {}) =>
      call(t, checker, 'POST', base + path, body === undefined ? opts : { ...opts, body }),
    send: (method: string, path: string, opts: CallOptions = {}) => call(t, checker, method, base + path, opts),
  };
}

/**
 * For a test file whose answers are all checked against the served OpenAPI document:
 * reads the document once, before the file's tests, and returns the file's setup (a
 * fresh app and its v1 client).
 */
export function useCheckedApp(): (opts?: TestAppOptions) => { t: TestApp; api: ReturnType<typeof apiClient> } {
  let checker: OpenApiChecker | undefined;
  beforeAll(async () => {
    checker = new OpenApiChecker(await servedDocument());
  });
  return (opts = {}) => {
    if (checker === undefined) throw new Error('useCheckedApp: the document is read in beforeAll; call setup inside a test');
    const t = createTestApp(opts);
    return { t, api: apiClient(t, checker, 'v1') };
  };
}
