// Small statistics for the bench: each figure is the median of its runs, shown
// with min and max; percentiles are nearest-rank (no interpolation), so a p99 of
// 100 samples is the 99th smallest, an observed value.

/** @param {readonly number[]} values */
export function sorted(values) {
  return [...values].sort((a, b) => a - b);
}

/**
 * Nearest-rank percentile.
 * @param {readonly number[]} values
 * @param {number} p 0..100
 */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const rank = Math.ceil((p / 100) * s.length);
  return /** @type {number} */ (s[Math.min(s.length, Math.max(1, rank)) - 1]);
}

/** @param {readonly number[]} values */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? /** @type {number} */ (s[mid]) : (/** @type {number} */ (s[mid - 1]) + /** @type {number} */ (s[mid])) / 2;
}

/** @param {readonly number[]} values */
export function summary(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}
