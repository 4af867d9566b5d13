// Counting a request against its client address's quota (rate-limit.ts,
// AddressBucket): wrong keys, unknown paths, the OpenAPI document. The answer
// gets the rate-limit headers and no-store, as every API answer, whatever made
// it; and the request's log line is marked, since such requests can come in
// floods and their lines are throttled per address (src/http/app.ts, requestLog).
//
// Wrong keys (the `address` bucket: the API, the console, viewer and audience
// links, and refused audience input, which shares their bucket) are also capped
// for the whole box: at most WRONG_KEYS_PER_BOX of them are answered 401 a
// minute, whatever the number of addresses they come from. Past that a wrong key
// is refused at once (429, Retry-After), before its address is even counted, so
// a flood from many addresses costs the box a map lookup per request. A right
// key never comes here: the console keeps working through a flood.
import type { Context } from 'hono';
import type { AppEnv } from './env.js';
import { addAnswerHeaders } from './answer.js';
import { RATE_WINDOW_MS, rateLimitHeaders, type AddressBucket, type FixedWindowLimiter, type RateDecision } from '../app/rate-limit.js';

/**
 * Wrong-key answers (401) the whole box gives a minute, across all addresses. A
 * real LAN never comes near it: a room of stale button panels each polling once
 * a second with an old key is 60 a minute apiece, and a person mistyping a key
 * is a handful; a scan from many addresses reaches it within a second.
 */
export const WRONG_KEYS_PER_BOX = 600;

/** A refusal because the box's wrong keys for the minute are spent, not the address's: the answer says so. */
export interface BoxWideRefusal extends RateDecision {
  readonly boxWide: true;
}

export function isBoxWide(decision: RateDecision): decision is BoxWideRefusal {
  return (decision as Partial<BoxWideRefusal>).boxWide === true;
}

/** A fixed window of wrong-key answers for the whole box, on the limiter's clock. */
class BoxWindow {
  #startMs = 0;
  #count = 0;
  #open = false;
  readonly #nowMs: () => number;

  constructor(nowMs: () => number) {
    this.#nowMs = nowMs;
  }

  /** The refusal while this minute's answers are spent; null while there is room. */
  refusal(): BoxWideRefusal | null {
    const nowMs = this.#nowMs();
    if (!this.#open || nowMs >= this.#startMs + RATE_WINDOW_MS || this.#count < WRONG_KEYS_PER_BOX) return null;
    const resetSeconds = Math.max(1, Math.ceil((this.#startMs + RATE_WINDOW_MS - nowMs) / 1000));
    return { allowed: false, limit: WRONG_KEYS_PER_BOX, remaining: 0, resetSeconds, boxWide: true };
  }

  /** One more wrong key answered; the window starts with the first after the last one ended. */
  count(): void {
    const nowMs = this.#nowMs();
    if (!this.#open || nowMs >= this.#startMs + RATE_WINDOW_MS) {
      this.#open = true;
      this.#startMs = nowMs;
      this.#count = 0;
    }
    this.#count += 1;
  }
}

/**
 * The box's window, kept beside the limiter every wrong key is counted on (one
 * per app: main.ts and each test app make their own), so the API, the console,
 * the viewer and the audience routes share it without another parameter.
 */
const boxWindows = new WeakMap<FixedWindowLimiter, BoxWindow>();

function boxWindowOf(limiter: FixedWindowLimiter): BoxWindow {
  let window = boxWindows.get(limiter);
  if (window === undefined) {
    window = new BoxWindow(() => limiter.nowMs());
    boxWindows.set(limiter, window);
  }
  return window;
}

export function hitForAddress(c: Context<AppEnv>, limiter: FixedWindowLimiter, bucket: AddressBucket, address: string): RateDecision {
  c.set('countedAddress', address);
  const box = bucket === 'address' ? boxWindowOf(limiter) : undefined;
  const spent = box?.refusal() ?? null;
  const decision = spent ?? limiter.hit(`${bucket}:${address}`);
  // Only what will be answered 401 counts for the box: an address past its own quota spends nothing of the others'.
  if (spent === null && decision.allowed) box?.count();
  addAnswerHeaders(c, { 'Cache-Control': 'no-store', ...rateLimitHeaders(decision) });
  return decision;
}

/** What a wrong key refused by the box-wide cap is told (the API's JSON, the pages' 429). */
export function boxWideMessage(decision: RateDecision): string {
  return `the box is refusing wrong keys: more than ${WRONG_KEYS_PER_BOX} arrived in the last minute, from many addresses; try again in ${decision.resetSeconds} s (a right key is not affected)`;
}
