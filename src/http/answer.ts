// Answers with their headers in a plain object. hono's c.header() keeps headers in
// a Web `Headers` object (Node's undici), and @hono/node-server sorts and copies
// that into Node's headers again: with the CORS and rate-limit headers of every
// API answer, that was about a tenth of the CPU of GET /state (BENCHMARKS.md). A
// Response made with a plain object goes straight to Node's writeHead.
import type { Context } from 'hono';

export type HeaderMap = Record<string, string>;

/** Adds headers that every answer to this request carries (CORS, rate limit, Referrer-Policy). */
export function addAnswerHeaders(c: Context, headers: HeaderMap): void {
  const gathered: HeaderMap | undefined = c.get('answerHeaders');
  if (gathered === undefined) c.set('answerHeaders', { ...headers });
  else Object.assign(gathered, headers);
}

/** The headers added so far, with `extra` on top. */
export function answerHeaders(c: Context, extra: HeaderMap = {}): HeaderMap {
  const gathered: HeaderMap | undefined = c.get('answerHeaders');
  return gathered === undefined ? { ...extra } : { ...gathered, ...extra };
}

export function answer(c: Context, body: BodyInit | null, status: number, extra: HeaderMap = {}): Response {
  return new Response(body, { status, headers: answerHeaders(c, extra) });
}

export function jsonAnswer(c: Context, body: unknown, status: number, extra: HeaderMap = {}): Response {
  return answer(c, JSON.stringify(body), status, { 'Content-Type': 'application/json', ...extra });
}
