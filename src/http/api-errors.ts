// The one error shape of the API: { ok: false, error } (remote-control-api.md §2).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ ok: false as const, error: message }, status);
}

/** "ms: is required: …; color: must be one of …" — every problem, each naming its field. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
