// The HTTP API: hono routes built from the operation table (src/commands/operations.ts).
// Order of checks (decisions.md): key (401), then rate limit (429), then route (404),
// then input (400/413); a v1 request sent with a Showclock-Deadline that has passed is
// 412 just before its input is read (src/commands/deadline.ts). It translates to and from the room service and holds no room
// rules. The routes of the API that are not in the table are beside it: the push
// stream (event-routes.ts), the logo upload (logo-routes.ts) and the running order
// as a file (running-order-routes.ts); src/http/app.ts mounts them all in order.
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DONE, NotDone, type RoomService, type CommandSource } from '../app/room-service.js';
import { addRateLimitHeaders, type FixedWindowLimiter, type RateDecision } from '../app/rate-limit.js';
import { sameSecret } from '../app/secret-match.js';
import type { StorageHealth } from '../store/room-store.js';
import type { Outcome } from '../domain/engine.js';
import type { AppEnv, Keys } from '../web/env.js';
import { boxWideMessage, hitForAddress, isBoxWide } from '../web/address-quota.js';
import { errorResponse } from '../web/api-errors.js';
import { addAnswerHeaders, answer, gatherAnswerHeaders, jsonAnswer, stateAnswer } from '../web/answer.js';
import { notDoneResponse, statusOfRefusal } from '../web/refusal-status.js';
import { storageHeader } from '../web/storage-header.js';
import { deadlineText } from '../web/deadline.js';
import { checkDeadline } from '../commands/deadline.js';
import { parseInput } from '../commands/input.js';
import { MAX_BODY_BYTES } from '../commands/body-size.js';
import { commandNames, operations, type Action, type ApiVersion, type Operation } from '../commands/operations.js';
import { offeredAt, preflightAnswer } from './preflight.js';
import { openApiText } from './openapi-text.js';
import { v0Snapshot } from './v0-state.js';
import type { Snapshot } from '../domain/snapshot.js';
import { NO_SCREEN, type ScreenControl } from '../domain/screen.js';

export interface ApiDeps {
  readonly service: RoomService;
  /** Read at every request, so a rotated key works at once. */
  readonly keys: () => Keys;
  readonly limiter: FixedWindowLimiter;
  /** The client's address, for limiting invalid-key requests. */
  readonly clientAddress: (c: Context) => string;
  readonly newTimerId: () => string;
  /** Whether the room is being saved, told in every command's answer. */
  readonly storage: () => StorageHealth;
  /** The screen over HDMI-CEC (src/cec); every request 409 on a box without one. */
  readonly screen?: ScreenControl;
}

const VERSIONS: readonly ApiVersion[] = ['v0', 'v1'];

function honoPath(op: Operation): string {
  return `/api/${op.version}/:key${op.path.replace('{id}', ':id')}`;
}

export function routePattern(method: string, op: Operation): string {
  return `${method} /api/${op.version}/{api_key}${op.path}`;
}

/**
 * Mounts the OpenAPI document, the key and quota middleware of everything under
 * /api, and a route per operation and method. Call it before the other /api routes
 * (events, logo, running order), so they are behind the key and the quota too.
 */
export function mountApi(app: Hono<AppEnv>, deps: ApiDeps): void {
  const { clientAddress, storage } = deps;
  const screen = deps.screen ?? NO_SCREEN;
  // The OpenAPI document's text, kept once someone asks for it (the route below says why not at start).
  let documentText: string | undefined;

  // The headers of every /api answer, preflights included, are gathered up front
  // (src/web/answer.ts), where every answer picks them up: these first, by the OpenAPI
  // route and the key middleware below (one middleware less per request than a
  // middleware of their own, see BENCHMARKS.md). Not hono's cors(): it touches
  // c.res before the handler runs, which makes hono rebuild every answer as a full
  // Web Response with a stream body (half the throughput of GET /state, see
  // BENCHMARKS.md). Preflights go through the checks below like any request.
  // The storage header, when there is one, was gathered already by requestLog, as for every answer.
  const apiHeaders = (): Record<string, string> => ({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
  const tooMany = (c: Context, resetSeconds: number) =>
    errorResponse(c, 429, `rate limit exceeded: at most ${deps.limiter.limit} requests per minute; try again in ${resetSeconds} s`);

  // No key: counted per address, in a bucket of its own, so a burst of wrong keys
  // from a client does not keep it from reading the document it needs to get them right.
  app.on(['GET', 'OPTIONS'], '/api/v1/openapi.json', async (c) => {
    gatherAnswerHeaders(c, apiHeaders());
    c.set('route', `${c.req.method} /api/v1/openapi.json`);
    c.set('read', true);
    const decision = hitForAddress(c, deps.limiter, 'openapi', clientAddress(c));
    if (!decision.allowed) return tooMany(c, decision.resetSeconds);
    if (c.req.method === 'OPTIONS') return preflightAnswer(c, ['GET']);
    // Made (or, in the bundle, read) at the first request for it: the document's schemas are a
    // few hundred KB of heap that a box nobody asks for the document need not hold.
    documentText ??= await openApiText();
    return answer(c, documentText, 200, { 'Content-Type': 'application/json' });
  });

  // The key, then the quota, for everything else under /api.
  app.use('/api/*', async (c, next) => {
    const { version, key } = versionAndKey(c.req.path);
    c.set('route', unmatchedRoute(c.req.method, version));
    const valid = key.length > 0 && sameSecret(key, deps.keys().apiKey);
    const headers = apiHeaders();
    let decision: RateDecision;
    if (valid) {
      decision = deps.limiter.hit('room');
      addRateLimitHeaders(headers, decision);
      gatherAnswerHeaders(c, headers);
    } else {
      gatherAnswerHeaders(c, headers);
      decision = hitForAddress(c, deps.limiter, 'address', clientAddress(c));
    }
    if (!decision.allowed) return isBoxWide(decision) ? errorResponse(c, 429, boxWideMessage(decision)) : tooMany(c, decision.resetSeconds);
    if (!valid) return errorResponse(c, 401, 'invalid API key: use the key shown in the control room (npm run key prints it)');
    // hono answers HEAD with the GET handler, and here a GET acts: `curl -I` or a link
    // checker would start the show. HEAD is not an offered method, so it is 404.
    if (c.req.method === 'HEAD') return errorResponse(c, 404, 'HEAD is not offered: every operation is a GET (v1 mutations also take POST)');
    if (c.req.method === 'OPTIONS') return preflight(c, version);
    return next();
  });

  // After the key and the quota: the route (404), then what it takes.
  const preflight = (c: Context<AppEnv>, version: string): Response => {
    const segments = c.req.path.split('/').slice(4);
    const offered = VERSIONS.includes(version as ApiVersion) ? offeredAt(version as ApiVersion, segments) : null;
    if (offered === null) {
      const known = VERSIONS.includes(version as ApiVersion) ? `; ${version} commands: ${commandNames(version as ApiVersion).join(', ')}` : '';
      return errorResponse(c, 404, `unknown operation: see /api/v1/openapi.json for the list of operations${known}`);
    }
    c.set('route', `OPTIONS /api/${version}/{api_key}${offered.path}`);
    c.set('read', true);
    if (offered.id !== undefined && !deps.service.room.timers.some((t) => t.id === offered.id)) {
      return errorResponse(c, 404, `no timer with id "${offered.id.slice(0, 64)}" in the running order; GET /timers lists them`);
    }
    return preflightAnswer(c, offered.methods);
  };

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => errorResponse(c, 413, `body too large: at most ${MAX_BODY_BYTES} bytes`),
  });

  for (const op of operations) {
    const hasId = op.path.includes('{id}');
    const source: CommandSource = `http-${op.version}`;
    for (const method of op.methods) {
      const route = routePattern(method, op);
      // Names the route; a refusal when the timer id in the path is unknown.
      const named = (c: Context<AppEnv>): Response | undefined => {
        c.set('route', route);
        if (!hasId) return undefined;
        // The timer id is part of the route: an unknown one is 404 before any input is read (400/413).
        const id = c.req.param('id');
        if (id !== undefined && !deps.service.room.timers.some((t) => t.id === id)) {
          return errorResponse(c, 404, `no timer with id "${id.slice(0, 64)}" in the running order; GET /timers lists them`);
        }
        return undefined;
      };
      // Not async: a GET, and a command that happens at once, are answered without a promise of their own.
      const handle = (c: Context<AppEnv>, bodyText: string): Response | Promise<Response> => {
        // v1 only (v0 never changes), and after the body is read: a request that comes in late does nothing at all.
        const deadline = op.version === 'v1' ? deadlineText(c) : undefined;
        if (deadline !== undefined) {
          // Only a request that carries one reads the clock: every other answer goes on as before.
          const timely = checkDeadline(deadline, deps.service.serverNow());
          if (!timely.ok) return errorResponse(c, timely.status, timely.error);
        }
        // Content-Type only for a POST: reading a header makes the request build its Headers, which a GET need not pay for.
        const contentType = method === 'POST' ? c.req.header('content-type') : undefined;
        const parsed = parseInput(op, method, { url: c.req.url, contentType, body: bodyText });
        if (!parsed.ok) return errorResponse(c, 400, parsed.error);
        const action = op.toAction(parsed.input, { id: hasId ? (c.req.param('id') ?? '') : '', newTimerId: deps.newTimerId });
        return perform(c, deps.service, action, op, source, storage, screen);
      };
      // Named before the body limit, so a 413 is logged under its route too. A GET
      // runs both in one handler: each middleware is an async step of its own per request.
      if (method === 'POST') app.post(honoPath(op), async (c, next) => named(c) ?? next(), limitBody, async (c) => handle(c, await c.req.text()));
      else app.get(honoPath(op), (c) => named(c) ?? handle(c, ''));
    }
  }
}

/**
 * The catch-all of /api/{version}/:key/:cmd: a known command reached through a
 * method it does not offer, or an unknown one. Call it after every other /api route.
 */
export function mountUnknownCommands(app: Hono<AppEnv>): void {
  for (const version of VERSIONS) {
    const known = commandNames(version).join(', ');
    app.on(['GET', 'POST'], `/api/${version}/:key/:cmd`, (c) => {
      c.set('route', `${c.req.method} /api/${version}/{api_key}/{cmd}`);
      const cmd = c.req.param('cmd');
      // A known path reached here only through a method it does not offer (POST on v0, POST /state).
      const methods = operations.filter((op) => op.version === version && op.path === `/${cmd}`).flatMap((op) => op.methods);
      const reason =
        methods.length > 0 ? `/${cmd} in ${version} accepts only ${methods.join(' and ')}` : `unknown command "${cmd.slice(0, 64)}"`;
      return errorResponse(c, 404, `${reason}; ${version} commands: ${known}`);
    });
  }
}

/** The second and third segments of an /api path (`/api/{version}/{key}/...`), '' where there is none; as `path.split('/')` would give them, without its array. */
export function versionAndKey(path: string): { version: string; key: string } {
  const afterApi = path.indexOf('/', 1);
  if (afterApi === -1) return { version: '', key: '' };
  const afterVersion = path.indexOf('/', afterApi + 1);
  if (afterVersion === -1) return { version: path.slice(afterApi + 1), key: '' };
  const afterKey = path.indexOf('/', afterVersion + 1);
  return { version: path.slice(afterApi + 1, afterVersion), key: path.slice(afterVersion + 1, afterKey === -1 ? path.length : afterKey) };
}

/** `GET /api/v1/{api_key}/{unmatched}`: the route an /api request is logged under until a route names it, made once per method and version. */
const unmatchedRoutes = new Map<string, string>();
function unmatchedRoute(method: string, version: string): string {
  const shown = VERSIONS.includes(version as ApiVersion) ? version : '{version}';
  const cacheKey = shown === 'v1' ? method : `${shown} ${method}`;
  let route = unmatchedRoutes.get(cacheKey);
  if (route === undefined) {
    route = `${method} /api/${shown}/{api_key}/{unmatched}`;
    // Methods are the parser's known ones, so this stays small; bounded all the same.
    if (unmatchedRoutes.size < 128) unmatchedRoutes.set(cacheKey, route);
  }
  return route;
}

/** An answer at once for a read and for a change that happened at once; a promise of it for a change that waits for its save. */
function perform(
  c: Context<AppEnv>,
  service: RoomService,
  action: Action,
  op: Operation,
  source: CommandSource,
  storage: () => StorageHealth,
  screen: ScreenControl,
): Response | Promise<Response> {
  switch (action.kind) {
    case 'read-state':
      c.set('read', true);
      return stateAnswer(c, answeredSnapshot(op, service.snapshot()), 200);
    case 'list-timers': {
      c.set('read', true);
      const room = service.room;
      return jsonAnswer(c, { ok: true as const, activeTimerId: room.activeTimerId, timers: room.timers }, 200);
    }
    case 'list-questions':
      c.set('read', true);
      return jsonAnswer(c, { ok: true as const, questions: service.room.questions }, 200);
    case 'command': {
      const { outcome, durable } = service.dispatch(action.command, source);
      if (!outcome.ok) return errorResponse(c, statusOfRefusal(outcome.error), outcome.error.message);
      // Happened already (transport, messages, switches): answered now, without a turn of the microtask queue.
      if (durable === DONE) return commandAnswer(c, service, outcome, op, storage);
      // A change that is saved before it happens is answered once it has happened, or not at all.
      return durable.then(
        () => commandAnswer(c, service, outcome, op, storage),
        (error: unknown) => {
          addAnswerHeaders(c, storageHeader(storage()));
          if (!(error instanceof NotDone)) throw error;
          return notDoneResponse(c, error);
        },
      );
    }
    case 'screen':
      // Answered once the screen acknowledged (or not): the snapshot then carries what it answered.
      return screen.request(action.request).then((answered) =>
        answered.ok ? stateAnswer(c, answeredSnapshot(op, service.snapshot()), 200) : errorResponse(c, answered.status, answered.error),
      );
    default: {
      const unknown: never = action;
      throw new Error(`unhandled action ${JSON.stringify(unknown)}`);
    }
  }
}

/** The answer to a command that happened. */
function commandAnswer(c: Context<AppEnv>, service: RoomService, outcome: Outcome & { ok: true }, op: Operation, storage: () => StorageHealth): Response {
  // The save may have just failed or recovered: the answer tells how it is now.
  const health = storage();
  if (!health.saving) addAnswerHeaders(c, storageHeader(health));
  if (op.success.schema === 'TimerCreated' && outcome.timer !== undefined) {
    return jsonAnswer(c, { ok: true as const, timer: outcome.timer }, 201);
  }
  return stateAnswer(c, answeredSnapshot(op, service.snapshot()), 200);
}

/** The snapshot as the operation's version answers it: v0's as it always was. */
function answeredSnapshot(op: Operation, snapshot: Snapshot): object {
  return op.version === 'v0' ? v0Snapshot(snapshot) : snapshot;
}
