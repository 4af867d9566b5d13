// Answers with their headers in a plain object. hono's c.header() keeps headers in
// a Web `Headers` object (Node's undici), and @hono/node-server sorts and copies
// that into Node's headers again: with the CORS and rate-limit headers of every
// API answer, that was about a tenth of the CPU of GET /state (BENCHMARKS.md). A
// Response made with a plain object goes straight to Node's writeHead.
import type { Context } from 'hono';
import { snapshotJson } from '../domain/snapshot-json.js';

export type HeaderMap = Record<string, string>;

/**
 * A copy of `from` with `extra` on top, made field by field. Not `{ ...from }`:
 * V8's object spread of these per-request header objects left about 170 bytes
 * per answer that outlived two young-generation collections (promoted, found by
 * bisecting the answer path with --trace-gc-nvp): under a poller that was a
 * mark-compact every 0.4 s and an old generation grown to twice its live size.
 * The same copy made this way promotes nothing (BENCHMARKS.md).
 */
export function copyHeaders(from: HeaderMap | undefined, extra?: HeaderMap): HeaderMap {
  const copy: HeaderMap = {};
  if (from !== undefined) for (const name in from) copy[name] = from[name] as string;
  if (extra !== undefined) for (const name in extra) copy[name] = extra[name] as string;
  return copy;
}

/** Adds headers that every answer to this request carries (CORS, rate limit, Referrer-Policy). */
export function addAnswerHeaders(c: Context, headers: HeaderMap): void {
  const gathered: HeaderMap | undefined = c.get('answerHeaders');
  if (gathered === undefined) c.set('answerHeaders', copyHeaders(headers));
  else Object.assign(gathered, headers);
}

/**
 * As addAnswerHeaders, for an object made for this request alone: the first one
 * is kept as it is rather than copied (the hot path of every /api request).
 */
export function gatherAnswerHeaders(c: Context, fresh: HeaderMap): void {
  const gathered: HeaderMap | undefined = c.get('answerHeaders');
  if (gathered === undefined) c.set('answerHeaders', fresh);
  else Object.assign(gathered, fresh);
}

/** The headers added so far, with `extra` on top. */
export function answerHeaders(c: Context, extra: HeaderMap = {}): HeaderMap {
  const gathered: HeaderMap | undefined = c.get('answerHeaders');
  return copyHeaders(gathered, extra);
}

export function answer(c: Context, body: BodyInit | null, status: number, extra: HeaderMap = {}): Response {
  return new Response(body, { status, headers: answerHeaders(c, extra) });
}

export function jsonAnswer(c: Context, body: unknown, status: number, extra?: HeaderMap): Response {
  return jsonTextAnswer(c, JSON.stringify(body), status, extra);
}

const JSON_TYPE: HeaderMap = { 'Content-Type': 'application/json' };

/** An answer whose body is JSON text made already (src/domain/snapshot-json.ts): the headers of jsonAnswer, in one object. */
export function jsonTextAnswer(c: Context, json: string, status: number, extra?: HeaderMap): Response {
  const gathered: HeaderMap | undefined = c.get('answerHeaders');
  const headers = copyHeaders(gathered, JSON_TYPE);
  if (extra !== undefined) Object.assign(headers, extra);
  return new Response(json, { status, headers });
}

/** `{ ok: true, state }`: the answer of GET /state and of every command, its snapshot serialised by snapshotJson. */
export function stateAnswer(c: Context, snapshot: object, status: number): Response {
  return jsonTextAnswer(c, `{"ok":true,"state":${snapshotJson(snapshot)}}`, status);
}
