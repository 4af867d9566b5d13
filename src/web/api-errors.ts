// The one error shape of the API: { ok: false, error } (remote-control-api.md §2).
import type { Context } from 'hono';
import { jsonAnswer } from './answer.js';

/** With the headers the request has gathered (CORS, rate limit), as every API answer. */
export function errorResponse(c: Context, status: number, message: string): Response {
  return jsonAnswer(c, { ok: false as const, error: message }, status);
}
