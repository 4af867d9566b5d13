// OPTIONS under /api (a browser's CORS preflight, or a client asking what a
// path takes). It goes through the checks of any request (key 401, quota 429,
// route 404, see api-routes.ts) and counts like one: decisions.md, "every request
// counts". The key is in the path, so a preflight, which carries no
// credentials, can still be checked. The answer names the methods the path
// really takes in its version: v0 is GET only; v1 reads GET; v1 changes GET, POST.
import type { Context } from 'hono';
import { answer } from '../web/answer.js';
import { operations, type ApiVersion, type Method } from '../commands/operations.js';

export interface Offered {
  /** The operation path, `{id}` templated: `/timer/{id}/select`. */
  readonly path: string;
  readonly methods: readonly Method[];
  /** The timer id in the path, when the path has one. */
  readonly id?: string;
}

interface Route {
  readonly path: string;
  readonly segments: readonly string[];
  readonly methods: Method[];
}

/** Routes outside the operation table: the push channel (event-routes.ts), the logo (logo-routes.ts), the running order as a file (running-order-routes.ts). */
const OTHER_ROUTES: Readonly<Record<ApiVersion, readonly { readonly path: string; readonly methods: readonly Method[] }[]>> = {
  v0: [],
  v1: [
    { path: '/events', methods: ['GET'] },
    { path: '/display/logo', methods: ['POST'] },
    { path: '/display/logo/delete', methods: ['GET', 'POST'] },
    { path: '/timers.csv', methods: ['GET'] },
    { path: '/timers/import', methods: ['POST'] },
  ],
};

function routesOf(version: ApiVersion): Route[] {
  const routes: Route[] = [];
  const add = (path: string, methods: readonly Method[]) => {
    const known = routes.find((r) => r.path === path);
    // One path can be two operations (GET /timers lists, POST /timers creates).
    if (known !== undefined) known.methods.push(...methods.filter((m) => !known.methods.includes(m)));
    else routes.push({ path, segments: path.split('/').slice(1), methods: [...methods] });
  };
  for (const op of operations) if (op.version === version) add(op.path, op.methods);
  for (const route of OTHER_ROUTES[version]) add(route.path, route.methods);
  return routes;
}

const ROUTES: Readonly<Record<ApiVersion, readonly Route[]>> = { v0: routesOf('v0'), v1: routesOf('v1') };

/** What is offered at `segments` (the path after `/api/{version}/{api_key}`, split at `/`), or null. */
export function offeredAt(version: ApiVersion, segments: readonly string[]): Offered | null {
  // hono is not strict about a trailing slash, so neither is this.
  const parts = segments.length > 1 && segments[segments.length - 1] === '' ? segments.slice(0, -1) : segments;
  for (const route of ROUTES[version]) {
    if (route.segments.length !== parts.length) continue;
    let id: string | undefined;
    const matches = route.segments.every((segment, i) => {
      if (segment !== '{id}') return segment === parts[i];
      id = parts[i];
      return id !== undefined && id !== '';
    });
    if (matches) return { path: route.path, methods: route.methods, ...(id === undefined ? {} : { id }) };
  }
  return null;
}

/** 204 with what the path takes; CORS, no-store and rate-limit headers come from the request's gathered headers. */
export function preflightAnswer(c: Context, methods: readonly Method[]): Response {
  return answer(c, null, 204, {
    Allow: [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': 'Content-Type',
    'Access-Control-Max-Age': '600',
  });
}
