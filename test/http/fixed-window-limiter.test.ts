// FixedWindowLimiter on its own, time as plain numbers.
import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter, rateLimitHeaders, RATE_WINDOW_MS } from '../../src/app/rate-limit.js';

function limiter(limit: number, windowMs?: number) {
  let nowMs = 5_000;
  const l = new FixedWindowLimiter({ limit, nowMs: () => nowMs, ...(windowMs === undefined ? {} : { windowMs }) });
  return {
    l,
    at: (ms: number) => {
      nowMs = ms;
    },
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

describe('FixedWindowLimiter', () => {
  it('has a 60 s window by default', () => {
    expect(RATE_WINDOW_MS).toBe(60_000);
    expect(limiter(3).l.hit('a').resetSeconds).toBe(60);
  });

  it('allows `limit` hits per window and refuses the rest, remaining never below 0', () => {
    const { l } = limiter(3);
    const decisions = Array.from({ length: 5 }, () => l.hit('a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(decisions.every((d) => d.limit === 3)).toBe(true);
    expect(l.limit).toBe(3);
  });

  it('opens a new window exactly when the previous one ends', () => {
    const { l, at } = limiter(1);
    at(10_000);
    expect(l.hit('a').allowed).toBe(true);
    at(69_999);
    expect(l.hit('a')).toMatchObject({ allowed: false, resetSeconds: 1 });
    at(70_000);
    expect(l.hit('a')).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
  });

  it('starts the next window at the first hit after the last one ended, not on a grid', () => {
    const { l, at } = limiter(2);
    at(0);
    l.hit('a');
    at(100_000); // 40 s after the first window ended
    expect(l.hit('a')).toMatchObject({ remaining: 1, resetSeconds: 60 });
    at(159_999);
    expect(l.hit('a')).toMatchObject({ remaining: 0, resetSeconds: 1 });
    at(160_000);
    expect(l.hit('a')).toMatchObject({ remaining: 1, resetSeconds: 60 });
  });

  it('rounds the reset up to whole seconds', () => {
    const { l, at } = limiter(100);
    at(0);
    l.hit('a');
    for (const [nowMs, seconds] of [
      [1, 60],
      [999, 60],
      [1_000, 59],
      [1_001, 59],
      [58_999, 2],
      [59_000, 1],
      [59_999, 1],
    ] as const) {
      at(nowMs);
      expect(l.hit('a').resetSeconds, `at ${nowMs} ms`).toBe(seconds);
    }
  });

  it('keeps buckets apart', () => {
    const { l } = limiter(1);
    expect(l.hit('room').allowed).toBe(true);
    expect(l.hit('room').allowed).toBe(false);
    expect(l.hit('address:10.0.0.1').allowed).toBe(true);
    expect(l.hit('address:10.0.0.2').allowed).toBe(true);
    expect(l.bucketCount).toBe(3);
  });

  it('takes a custom window', () => {
    const { l, advance } = limiter(1, 1_500);
    expect(l.hit('a').resetSeconds).toBe(2);
    advance(1_500);
    expect(l.hit('a').allowed).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a limit of %s', (limit) => {
    expect(() => new FixedWindowLimiter({ limit, nowMs: () => 0 })).toThrow(/whole number >= 1/);
  });

  it('holds at most 10 000 buckets: ended windows go first, then the oldest, and the newest caller is still counted', () => {
    const { l, at } = limiter(1);
    at(0);
    for (let i = 0; i < 5_000; i += 1) l.hit(`old:${i}`);
    at(30_000);
    for (let i = 0; i < 5_000; i += 1) l.hit(`mid:${i}`);
    expect(l.bucketCount).toBe(10_000);
    // The old windows have ended at 60 s: they make room.
    at(61_000);
    expect(l.hit('new:0').allowed).toBe(true);
    expect(l.bucketCount).toBe(5_001);
    expect(l.hit('mid:0').allowed).toBe(false);
    // Full of live windows: the oldest live one is dropped.
    for (let i = 1; i < 5_000; i += 1) l.hit(`new:${i}`);
    expect(l.bucketCount).toBe(10_000);
    expect(l.hit('newest').allowed).toBe(true);
    expect(l.bucketCount).toBe(10_000);
    expect(l.hit('newest').allowed).toBe(false);
  });
});

describe('rateLimitHeaders', () => {
  it('gives the three headers, and Retry-After only when refused', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 100, remaining: 7, resetSeconds: 12 })).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '7',
      'RateLimit-Reset': '12',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 100, remaining: 0, resetSeconds: 12 })).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '12',
      'Retry-After': '12',
    });
  });
});
