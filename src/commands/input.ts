// Turns a request's query (GET), JSON body or form body (POST) into an
// operation's input, validated by schemas built from the operation's own field
// list. A POST may also carry fields in its query (button panels often POST to a
// URL with its parameters in it): each field is read in the form it arrived in,
// and the body wins where both give it. A form-encoded body (what `curl -d` and
// HTML forms send) is read by the query's rules.
import * as z from '../schema/zod.js';
import type { FieldName, JsonExample } from './fields.js';
import { describeZodError } from './zod-error.js';
import { fieldOf, type Method, type Operation } from './operations.js';
import { decodeUrlEncodedMap, queryOf, type Decoded } from './url-encoded.js';

export type ParsedInput = { readonly ok: true; readonly input: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly error: string };

/** The request as it arrived, which the input is read from. */
export interface RawRequest {
  /** The request URL: its query is read here, not by hono, which passes a broken percent-encoding on raw. */
  readonly url: string;
  readonly contentType: string | undefined;
  /** '' for a GET. */
  readonly body: string;
}

export type Form = 'query' | 'json';

/** The object schema of one operation in one form; fields it does not name are ignored. */
export function inputSchema(op: Operation, form: Form): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  const add = (name: FieldName, required: boolean) => {
    const schema: z.ZodMiniType = fieldOf(op, name)[form];
    shape[name] = required ? schema : z.optional(schema);
  };
  for (const name of op.required) add(name, true);
  for (const name of op.optional) add(name, false);
  return z.object(shape);
}

const cache = new Map<Operation, Partial<Record<Form, z.ZodMiniObject>>>();

function cachedSchema(op: Operation, form: Form): z.ZodMiniObject {
  let entry = cache.get(op);
  if (entry === undefined) {
    entry = {};
    cache.set(op, entry);
  }
  return (entry[form] ??= inputSchema(op, form));
}

function fieldNames(op: Operation): readonly FieldName[] {
  return [...op.required, ...op.optional];
}

/** An input this operation takes: its required fields (and the first of those it needs one of), or else its first field, with example values. */
export function exampleInput(op: Operation): Record<string, JsonExample> {
  const names = op.required.length > 0 ? [...op.required, ...op.needsOneOf.slice(0, 1)] : op.optional.slice(0, 1);
  return Object.fromEntries(names.map((name) => [name, fieldOf(op, name).jsonExample]));
}

/** `{"ms": 60000}`: the example as a person would type it in a message. */
function exampleText(op: Operation): string {
  return `{${Object.entries(exampleInput(op))
    .map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`)
    .join(', ')}}`;
}

const NO_INPUT: ParsedInput = { ok: true, input: {} };

interface Given {
  readonly form: Form;
  readonly value: unknown;
}

/** The fields gathered from the places a request can carry them, first place first. */
class Gathered {
  readonly given = new Map<FieldName, Given>();
  /** Fields whose value could not be decoded, and what is wrong with each. */
  readonly broken = new Map<FieldName, string>();
  readonly #taken = new Set<FieldName>();

  takeJson(names: readonly FieldName[], body: Record<string, unknown>): void {
    for (const name of names) {
      if (this.#taken.has(name) || !Object.hasOwn(body, name)) continue;
      this.#taken.add(name);
      this.given.set(name, { form: 'json', value: body[name] });
    }
  }

  takeUrlEncoded(names: readonly FieldName[], found: ReadonlyMap<string, Decoded>, where: 'query' | 'body'): void {
    for (const name of names) {
      const entry = found.get(name);
      if (this.#taken.has(name) || entry === undefined) continue;
      this.#taken.add(name);
      if (entry.ok) this.given.set(name, { form: 'query', value: entry.value });
      else {
        this.broken.set(
          name,
          `${name}: broken percent-encoding in the ${where} (${JSON.stringify(entry.raw.slice(0, 40))}): ` +
            'every % must start a %XX sequence of UTF-8 bytes; write a % itself as %25',
        );
      }
    }
  }
}

/**
 * Validates what was gathered, naming every bad field at once (broken encodings
 * first). `form` is the form of the request's main place, for the messages about missing fields.
 */
function validate(op: Operation, gathered: Gathered, form: Form): ParsedInput {
  const raw: Record<string, unknown> = {};
  const forms = new Set<Form>();
  for (const [name, given] of gathered.given) {
    raw[name] = given.value;
    forms.add(given.form);
  }
  const [only] = forms;
  const parsed = (forms.size <= 1 && gathered.broken.size === 0 ? cachedSchema(op, only ?? form) : requestSchema(op, gathered, form)).safeParse(raw);
  // Named with the other problems, so one answer says all that is wrong (the room would say only the first).
  const noneOf = op.needsOneOf.length > 0 && op.needsOneOf.every((name) => !gathered.given.has(name) && !gathered.broken.has(name));
  const problems = [
    ...gathered.broken.values(),
    ...(parsed.success ? [] : [describeZodError(parsed.error)]),
    ...(noneOf ? [`give at least one field: ${op.needsOneOf.join(' or ')}`] : []),
  ];
  return parsed.success && problems.length === 0 ? { ok: true, input: parsed.data } : { ok: false, error: problems.join('; ') };
}

/** Mixed forms and broken encodings are rare, so this schema is built per request rather than cached. */
function requestSchema(op: Operation, gathered: Gathered, form: Form): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of fieldNames(op)) {
    // A broken field is already named; it is not also "required".
    if (gathered.broken.has(name)) continue;
    const schema: z.ZodMiniType = fieldOf(op, name)[gathered.given.get(name)?.form ?? form];
    shape[name] = op.required.includes(name) ? schema : z.optional(schema);
  }
  return z.object(shape);
}

type BodyObject = { readonly ok: true; readonly body: Record<string, unknown> } | { readonly ok: false; readonly error: string };

/** An empty body is an empty object: every POST body in the API is optional. */
function readJsonObject(op: Operation, text: string): BodyObject {
  if (text.trim().length === 0) return { ok: true, body: {} };
  const takesInput = fieldNames(op).length > 0;
  // The example is this operation's own, so the message shows what to send here.
  const send = takesInput ? `send an object such as ${exampleText(op)}` : 'this operation takes no input: send no body';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `body: not valid JSON (${reason}); ${send}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      error: takesInput ? `body: must be a JSON object such as ${exampleText(op)}` : 'body: must be a JSON object, or no body: this operation takes no input',
    };
  }
  return { ok: true, body: body as Record<string, unknown> };
}

/** A form body that is really JSON: no field of a form starts with a brace or a bracket. */
function looksLikeJson(body: string): boolean {
  const first = body.trimStart()[0];
  return first === '{' || first === '[';
}

function jsonSentAsForm(op: Operation): string {
  return `body: looks like JSON but came as a form (Content-Type: application/x-www-form-urlencoded, what curl -d sends unless told otherwise): send it with Content-Type: application/json, e.g. ${exampleText(op)}`;
}

function isFormBody(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

export function parseInput(op: Operation, method: Method, request: RawRequest): ParsedInput {
  // GET /state and the plain commands take no input: nothing is read or allocated for them.
  const takesInput = op.required.length + op.optional.length > 0;
  if (method === 'GET') {
    if (!takesInput) return NO_INPUT;
    const gathered = new Gathered();
    gathered.takeUrlEncoded(fieldNames(op), decodeUrlEncodedMap(queryOf(request.url)), 'query');
    return validate(op, gathered, 'query');
  }
  const names = fieldNames(op);
  const gathered = new Gathered();
  if (isFormBody(request.contentType)) {
    if (!takesInput) return NO_INPUT;
    // `curl -d '{"ms":-30000}'` without -H sends JSON labelled as a form: read as a
    // form it is one nameless field, and the operation would go ahead without it.
    if (looksLikeJson(request.body)) return { ok: false, error: jsonSentAsForm(op) };
    gathered.takeUrlEncoded(names, decodeUrlEncodedMap(request.body), 'body');
    gathered.takeUrlEncoded(names, decodeUrlEncodedMap(queryOf(request.url)), 'query');
    return validate(op, gathered, 'query');
  }
  // Any other Content-Type, or none, is read as JSON: clients that cannot set one still get through.
  const read = readJsonObject(op, request.body);
  if (!read.ok) return read;
  if (!takesInput) return NO_INPUT;
  gathered.takeJson(names, read.body);
  gathered.takeUrlEncoded(names, decodeUrlEncodedMap(queryOf(request.url)), 'query');
  return validate(op, gathered, 'json');
}
