// The one error shape of the API: { ok: false, error } (remote-control-api.md §2).
import type { Context } from 'hono';
import type * as z from '../schema/zod.js';
import { jsonAnswer } from './answer.js';

/** With the headers the request has gathered (CORS, rate limit), as every API answer. */
export function errorResponse(c: Context, status: number, message: string): Response {
  return jsonAnswer(c, { ok: false as const, error: message }, status);
}

/** "ms: is required: …; color: must be one of …" — every problem, each naming its field. */
export function describeZodError(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
