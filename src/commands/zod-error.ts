// The refusal wording of the vocabulary: how a value zod refused is told, the same
// for the API, OSC and the room file (src/store/room-document.ts).
import type * as z from '../schema/zod.js';

/** "ms: is required: …; color: must be one of …" — every problem, each naming its field. */
export function describeZodError(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
