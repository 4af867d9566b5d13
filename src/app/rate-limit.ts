// Fixed-window rate limiting (decisions.md, "Rate limit"): a quota per window per
// bucket, the window starting with the first request after the previous one
// ended. Every request counts, refused ones included. Time is passed in, so the
// tests drive it with plain numbers.
export const RATE_WINDOW_MS = 60_000;
/** Buckets for invalid-key addresses are capped so a scan cannot grow memory without bound. */
const MAX_BUCKETS = 10_000;

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds, rounded up, until the window ends. */
  readonly resetSeconds: number;
}

interface Bucket {
  startMs: number;
  count: number;
}

export class FixedWindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #nowMs: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(opts: { limit: number; nowMs: () => number; windowMs?: number }) {
    if (!Number.isInteger(opts.limit) || opts.limit < 1) throw new Error(`rate limit must be a whole number >= 1, got ${opts.limit}`);
    this.#limit = opts.limit;
    this.#windowMs = opts.windowMs ?? RATE_WINDOW_MS;
    this.#nowMs = opts.nowMs;
  }

  hit(bucketId: string): RateDecision {
    const nowMs = this.#nowMs();
    let bucket = this.#buckets.get(bucketId);
    if (bucket === undefined || nowMs >= bucket.startMs + this.#windowMs) {
      if (bucket === undefined && this.#buckets.size >= MAX_BUCKETS) this.#evict(nowMs);
      bucket = { startMs: nowMs, count: 0 };
      // Re-insert so the map's order stays oldest window first, for eviction.
      this.#buckets.delete(bucketId);
      this.#buckets.set(bucketId, bucket);
    }
    bucket.count += 1;
    return {
      allowed: bucket.count <= this.#limit,
      limit: this.#limit,
      remaining: Math.max(0, this.#limit - bucket.count),
      resetSeconds: Math.max(0, Math.ceil((bucket.startMs + this.#windowMs - nowMs) / 1000)),
    };
  }

  get limit(): number {
    return this.#limit;
  }

  /** The limiter's clock, so what is counted beside it (the request log's throttle) keeps the same time. */
  nowMs(): number {
    return this.#nowMs();
  }

  get bucketCount(): number {
    return this.#buckets.size;
  }

  #evict(nowMs: number): void {
    for (const [id, bucket] of this.#buckets) {
      if (nowMs >= bucket.startMs + this.#windowMs) this.#buckets.delete(id);
    }
    // Still full of live windows: drop the oldest so the newest caller is still counted.
    while (this.#buckets.size >= MAX_BUCKETS) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done === true) break;
      this.#buckets.delete(oldest.value);
    }
  }
}

/**
 * Buckets counted per client address, each with the quota: wrong keys (`address`,
 * decisions.md), unknown paths outside /api (`path`) and the OpenAPI document
 * (`openapi`). Apart, so a burst of wrong keys does not lock an address out of the
 * OpenAPI document, and a scan of paths does not spend its budget for keys.
 */
export type AddressBucket = 'address' | 'path' | 'openapi';

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return addRateLimitHeaders({}, decision);
}

/** Adds the rate-limit headers to `headers` (an answer's, being gathered) and returns it. */
export function addRateLimitHeaders(headers: Record<string, string>, decision: RateDecision): Record<string, string> {
  headers['RateLimit-Limit'] = String(decision.limit);
  headers['RateLimit-Remaining'] = String(decision.remaining);
  headers['RateLimit-Reset'] = String(decision.resetSeconds);
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}
