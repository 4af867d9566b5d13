// HTTP load with autocannon (in this process), resolved as a promise.
import autocannon from 'autocannon';

/**
 * @param {import('autocannon').Options} options
 * @returns {Promise<import('autocannon').Result>}
 */
export function cannon(options) {
  return new Promise((resolve, reject) => {
    // Not tracked: no progress bar or table, the bench prints its own.
    autocannon({ ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Refuses a run where anything failed: a figure from errors or non-2xx answers
 * would measure the error path.
 * @param {string} what
 * @param {import('autocannon').Result} result
 */
export function checkClean(what, result) {
  const bad = result.errors + result.timeouts + result.non2xx;
  if (bad > 0) {
    throw new Error(`${what}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers of ${result.requests.total}`);
  }
}
