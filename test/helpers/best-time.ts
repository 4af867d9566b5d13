// How long a synchronous piece of work takes, for tests that prove work is
// linear (milliseconds, not seconds): the best of up to three runs, a second and
// third run only when the first was slow but not hopeless, so a busy machine's
// pause does not fail a test while a quadratic check (seconds) still does.
export function bestMs(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && (attempt === 0 || (best >= 50 && best < 1000)); attempt += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
