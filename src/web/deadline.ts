// Reads the Showclock-Deadline header of a request (src/commands/deadline.ts says what it is).
import type { Context } from 'hono';
import { DEADLINE_HEADER } from '../commands/deadline.js';

const HEADER_KEY = DEADLINE_HEADER.toLowerCase();

/** The header's text, from Node's own parsed headers when there are some (hono's would build a Headers object per request). */
export function deadlineText(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (incoming?.headers !== undefined) {
    const value = incoming.headers[HEADER_KEY];
    return Array.isArray(value) ? value.join(',') : value;
  }
  return c.req.header(DEADLINE_HEADER);
}
