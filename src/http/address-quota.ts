// Counting a request against its client address's quota (rate-limit.ts,
// AddressBucket): wrong keys, unknown paths, the OpenAPI document. The answer
// gets the rate-limit headers and no-store, as every API answer, whatever made
// it; and the request's log line is marked, since such requests can come in
// floods and their lines are throttled per address (app.ts, requestLog).
import type { Context } from 'hono';
import type { AppEnv } from './app.js';
import { addAnswerHeaders } from './answer.js';
import { rateLimitHeaders, type AddressBucket, type FixedWindowLimiter, type RateDecision } from './rate-limit.js';

export function hitForAddress(c: Context<AppEnv>, limiter: FixedWindowLimiter, bucket: AddressBucket, address: string): RateDecision {
  const decision = limiter.hit(`${bucket}:${address}`);
  c.set('countedAddress', address);
  addAnswerHeaders(c, { 'Cache-Control': 'no-store', ...rateLimitHeaders(decision) });
  return decision;
}
