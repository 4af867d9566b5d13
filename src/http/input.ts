// Turns a request's query (GET) or JSON body (POST) into an operation's input,
// validated by schemas built from the operation's own field list. A POST may
// also carry fields in its query (button panels often POST to a URL with its
// parameters in it): each field is read in the form it arrived in, and the body
// wins where both give it.
import { z } from 'zod';
import { fields, type FieldName } from './fields.js';
import { describeZodError } from './api-errors.js';
import type { Method, Operation } from './operations.js';

export type ParsedInput = { readonly ok: true; readonly input: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly error: string };

type Form = 'query' | 'json';

/** The object schema of one operation in one form; fields it does not name are ignored. */
export function inputSchema(op: Operation, form: Form): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  const add = (name: FieldName, required: boolean) => {
    const schema: z.ZodType = fields[name][form];
    shape[name] = required ? schema : schema.optional();
  };
  for (const name of op.required) add(name, true);
  for (const name of op.optional) add(name, false);
  return z.object(shape);
}

const cache = new Map<Operation, Partial<Record<Form, z.ZodObject>>>();

function cachedSchema(op: Operation, form: Form): z.ZodObject {
  let entry = cache.get(op);
  if (entry === undefined) {
    entry = {};
    cache.set(op, entry);
  }
  return (entry[form] ??= inputSchema(op, form));
}

function validate(op: Operation, form: Form, raw: Record<string, unknown>): ParsedInput {
  if (op.required.length === 0 && op.optional.length === 0) return { ok: true, input: {} };
  const result = cachedSchema(op, form).safeParse(raw);
  return result.success ? { ok: true, input: result.data } : { ok: false, error: describeZodError(result.error) };
}

function parseQuery(op: Operation, query: Record<string, string>): ParsedInput {
  return validate(op, 'query', query);
}

type BodyObject = { readonly ok: true; readonly body: Record<string, unknown> } | { readonly ok: false; readonly error: string };

/** An empty body is an empty object: every POST body in the API is optional. */
function readBodyObject(text: string): BodyObject {
  if (text.trim().length === 0) return { ok: true, body: {} };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `body: not valid JSON (${reason}); send an object such as {"ms": 30000}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: 'body: must be a JSON object such as {"ms": 30000}' };
  }
  return { ok: true, body: body as Record<string, unknown> };
}

function parsePost(op: Operation, query: Record<string, string>, bodyText: string): ParsedInput {
  const read = readBodyObject(bodyText);
  if (!read.ok) return read;
  const fromQuery = [...op.required, ...op.optional].filter((name) => query[name] !== undefined && !Object.hasOwn(read.body, name));
  if (fromQuery.length === 0) return validate(op, 'json', read.body);
  // Mixed forms are rare, so this schema is built per request rather than cached.
  const shape: Record<string, z.ZodType> = {};
  const raw: Record<string, unknown> = { ...read.body };
  for (const name of [...op.required, ...op.optional]) {
    const inQuery = fromQuery.includes(name);
    const schema: z.ZodType = fields[name][inQuery ? 'query' : 'json'];
    shape[name] = op.required.includes(name) ? schema : schema.optional();
    if (inQuery) raw[name] = query[name];
  }
  const result = z.object(shape).safeParse(raw);
  return result.success ? { ok: true, input: result.data } : { ok: false, error: describeZodError(result.error) };
}

export function parseInput(op: Operation, method: Method, query: Record<string, string>, bodyText: string): ParsedInput {
  return method === 'GET' ? parseQuery(op, query) : parsePost(op, query, bodyText);
}
