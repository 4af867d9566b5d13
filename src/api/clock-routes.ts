// The box's clock in the API (issue 33): GET /api/v1/{api_key}/clock reads whether
// it is synchronised (never waits: the last reading of src/systemd/time-sync.ts),
// GET|POST /api/v1/{api_key}/clock/set?at=<ms since the epoch> sets it from the
// sender's clock, only while it is not synchronised (409 otherwise), answered 200
// only once timedatectl did it. Not in the operation table: neither changes the
// room. Behind the key and the quota as every /api route (mounted after mountApi).
import type { Context, Hono } from 'hono';
import type { BoxClock, ClockSync } from '../domain/clock-sync.js';
import type { AppEnv } from '../web/env.js';
import { errorResponse } from '../web/api-errors.js';
import { jsonAnswer } from '../web/answer.js';
import { MAX_BODY_BYTES } from '../commands/body-size.js';

/** A box whose clock is not watched (tests of other things, a box built without it): unknown, and never set. */
export const UNWATCHED_CLOCK: BoxClock = {
  current: () => ({ synced: null, source: 'unknown', since: 0, detail: 'the box does not watch its clock' }),
  set: async () => ({ ok: false, status: 503, error: 'this box does not set its clock' }),
};

/** `at` from the query, or from a JSON body (which wins): a decimal integer, or a number in JSON. */
async function readAt(c: Context<AppEnv>): Promise<{ ok: true; at: number } | { ok: false; error: string }> {
  let raw: unknown = c.req.query('at');
  if (c.req.method === 'POST') {
    const text = await c.req.text();
    if (text.length > MAX_BODY_BYTES) return { ok: false, error: `body too large: at most ${MAX_BODY_BYTES} bytes` };
    if (text.trim() !== '') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { ok: false, error: 'body: not valid JSON; send {"at": <ms since 1970>} or ?at= in the query' };
      }
      if (typeof body === 'object' && body !== null && 'at' in body) raw = (body as { at: unknown }).at;
    }
  }
  if (raw === undefined || raw === '') return { ok: false, error: 'at: required, the time to set in ms since 1970 (a device\'s Date.now())' };
  const at = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(at)) return { ok: false, error: 'at: must be whole milliseconds since 1970 (a device\'s Date.now()), such as 1767261600000' };
  return { ok: true, at };
}

/** The clock as the API gives it: the reading, with the box's clock when it answered. */
export function clockBody(clock: ClockSync, serverNow: number): { ok: true; clock: ClockSync; serverNow: number } {
  return { ok: true, clock, serverNow };
}

export function mountClock(app: Hono<AppEnv>, deps: { readonly clock: BoxClock; readonly wallMs: () => number }): void {
  app.get('/api/v1/:key/clock', (c) => {
    c.set('route', 'GET /api/v1/{api_key}/clock');
    c.set('read', true);
    return jsonAnswer(c, clockBody(deps.clock.current(), Math.round(deps.wallMs())), 200);
  });
  app.on(['GET', 'POST'], '/api/v1/:key/clock/set', async (c) => {
    c.set('route', `${c.req.method} /api/v1/{api_key}/clock/set`);
    const input = await readAt(c);
    if (!input.ok) return errorResponse(c, 400, input.error);
    const result = await deps.clock.set(input.at);
    if (!result.ok) return errorResponse(c, result.status, result.error);
    return jsonAnswer(c, clockBody(result.clock, Math.round(deps.wallMs())), 200);
  });
}
