// hono's TrieRouter with the result of each recent (method, path) kept. The
// API's routes (/api/v1/openapi.json beside /api/v1/:key/...) are more than
// hono's RegExpRouter takes: hono's default (SmartRouter) would build one at the
// first request, fail, and fall back to the TrieRouter, which walks the route
// tree and builds the handler list anew for every request: about a tenth of the
// service's own CPU per GET /state (BENCHMARKS.md). A console, a button panel or
// a poller asks the same few paths over and over, so their results are kept: a
// match result is only read by hono (the handlers and their path parameters).
// Bounded: a scan of random paths empties it rather than growing it.
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** Distinct (method, path) results kept; a full cache starts over. */
export const CACHED_ROUTES = 256;
/** Longer paths are matched every time (no legitimate path is this long). */
const MAX_CACHED_PATH = 512;

export class CachedRouter<T> implements Router<T> {
  name = 'CachedRouter';
  /** What hono's default ends up with for these routes, without building a RegExpRouter first. */
  readonly #router: Router<T> = new TrieRouter<T>();
  #results = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#results.clear();
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_CACHED_PATH) return this.#router.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#results.get(key);
    if (result === undefined) {
      result = this.#router.match(method, path);
      if (this.#results.size >= CACHED_ROUTES) this.#results = new Map();
      this.#results.set(key, result);
    }
    return result;
  }
}
