// The HTTP adapter: hono routes built from the operation table. Order of checks
// (decisions.md): key (401), then rate limit (429), then route (404), then input
// (400/413). It translates to and from the room service and holds no room rules.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Scheduler } from '../app/clock.js';
import { DONE, NotDone, type RoomService, type CommandSource } from '../app/room-service.js';
import type { StorageHealth } from '../store/room-store.js';
import type { LogoFiles } from '../store/logo-files.js';
import type { CommandError } from '../domain/types.js';
import type { Outcome } from '../domain/engine.js';
import type { RoomKeys } from '../keys/key-file.js';
import type { Logger } from '../log/logger.js';
import type { LinkConfig } from '../app/urls.js';
import { LineThrottle } from '../log/line-throttle.js';
import { boxWideMessage, hitForAddress, isBoxWide } from './address-quota.js';
import { refusal } from './error-page.js';
import { offeredAt, preflightAnswer } from './preflight.js';
import { errorResponse } from './api-errors.js';
import { addAnswerHeaders, answer, gatherAnswerHeaders, jsonAnswer, stateAnswer } from './answer.js';
import { parseInput } from './input.js';
import { MAX_BODY_BYTES } from './body-size.js';
import { commandNames, operations, type Action, type ApiVersion, type Method, type Operation } from './operations.js';
import { addRateLimitHeaders, RATE_WINDOW_MS, rateLimitHeaders, type FixedWindowLimiter, type RateDecision } from '../app/rate-limit.js';
import { mountViewer, type ViewerDeps } from './viewer-routes.js';
import { mountLogo } from './logo-routes.js';
import { mountRunningOrder } from './running-order-routes.js';
import { notDoneResponse, statusOfRefusal } from './refusal-status.js';
import { mountControlPage } from './control-page.js';
import { mountFrontDoor } from './front-door.js';
import { mountAsk } from './ask-routes.js';
import { newQuestionIdFor } from '../app/question-ids.js';
import { CachedRouter } from './cached-router.js';
import { sameSecret } from '../app/secret-match.js';
import { clientWentAway, socketAddress } from './request-origin.js';
import { openApiText } from './openapi-text.js';


/** The room's three keys (keys/key-file.ts): API, viewer, audience. */
export type Keys = RoomKeys;

export interface HttpDeps {
  readonly service: RoomService;
  /** Read at every request, so a rotated key works at once. */
  readonly keys: () => Keys;
  readonly limiter: FixedWindowLimiter;
  readonly logger: Logger;
  readonly newTimerId: () => string;
  /** Ids for audience questions; random ones the room does not have by default. */
  readonly newQuestionId?: () => string;
  /** The client's address, for limiting invalid-key requests; the socket's by default. */
  readonly clientAddress?: (c: Context) => string;
  readonly isShuttingDown?: () => boolean;
  /** Whether the room is being saved; always "saving" when not given (tests without a store). */
  readonly storage?: () => StorageHealth;
  /** The push hub and page bundles for /events, /view, /display and /assets; see viewer-routes.ts. */
  readonly viewer?: ViewerDeps;
  /** Wakes the request log to summarise the lines it left out; unref'd timers on the limiter's clock by default. */
  readonly scheduler?: Scheduler;
  /** Where uploaded logos are kept (src/store/logo-files.ts); without them an upload is 503. */
  readonly logos?: LogoFiles;
  /** What the links the box gives out start with (`publicUrl`, else host and port: app/urls.ts); never a request's Host. */
  readonly links?: LinkConfig;
}

export type AppEnv = {
  Variables: {
    route: string;
    answerHeaders: Record<string, string>;
    /** Set when the request was counted per client address (address-quota.ts): its log line is throttled. */
    countedAddress: string;
    /** Set by a route that only reads (state, timers, health, the OpenAPI document, preflights): its line is at debug level. */
    read: boolean;
  };
};

/** Request lines per client address per minute for requests counted per address (wrong keys, unknown paths). */
export const LOG_LINES_PER_ADDRESS = 20;
/** Addresses the request log keeps apart; more share one count (line-throttle.ts). */
const LOG_ADDRESSES = 256;
/** nginx's "client closed request": logged for a client that went away mid-request, never sent (it is gone). */
export const CLIENT_CLOSED_REQUEST = 499;



const VERSIONS: readonly ApiVersion[] = ['v0', 'v1'];

function honoPath(op: Operation): string {
  return `/api/${op.version}/:key${op.path.replace('{id}', ':id')}`;
}

export function routePattern(method: string, op: Operation): string {
  return `${method} /api/${op.version}/{api_key}${op.path}`;
}

/**
 * One line per request, at info for what a stage manager reads in the journal
 * after a show: every command (what changed the room, and when), every refusal
 * and error, pages and push streams opened. A read that answered (a console or
 * a button panel polling the state, a monitor on /healthz) is at debug: tens a
 * second from a poller would bury the commands, and the line costs about a
 * tenth of the CPU of such a read (BENCHMARKS.md). LOG_LEVEL=debug shows them.
 */
function requestLog(logger: Logger, throttle: LineThrottle, storage: () => StorageHealth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const startedMs = performance.now();
    // Every answer (pages, the audience form, streams' refusals, the API) says when the room is not
    // being saved: gathered here, where every request passes, rather than in a middleware of its own.
    const health = storage();
    if (!health.saving) addAnswerHeaders(c, storageHeader(health));
    await next();
    const status = c.res.status;
    const level = c.get('read') === true && status < 400 ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    // A scan or a loop of wrong keys would write a line per request (122 000 in
    // 10 s) and push everything else out of the journal. Requests with a valid key
    // are limited by the room's quota and always logged (reads at debug).
    const counted: string | undefined = c.get('countedAddress');
    if (counted !== undefined && !throttle.allow(counted)) return;
    // Never the path: it holds the key. Handlers name their route pattern.
    logger[level]({ method: c.req.method, route: c.get('route') ?? 'unmatched', status, durationMs: Math.round((performance.now() - startedMs) * 100) / 100 }, 'request');
  };
}

export function createApp(deps: HttpDeps): Hono<AppEnv> {
  // The router keeps recent matches (cached-router.ts): a poller asks the same paths again and again.
  const app = new Hono<AppEnv>({ strict: false, router: new CachedRouter() });
  const clientAddress = deps.clientAddress ?? socketAddress;
  // The OpenAPI document's text, kept once someone asks for it (the route below says why not at start).
  let documentText: string | undefined;

  const throttle = new LineThrottle({
    perWindow: LOG_LINES_PER_ADDRESS,
    windowMs: RATE_WINDOW_MS,
    maxKeys: LOG_ADDRESSES,
    nowMs: () => deps.limiter.nowMs(),
    scheduler: deps.scheduler ?? unrefScheduler(() => deps.limiter.nowMs()),
    report: (address, suppressed) =>
      deps.logger.warn(
        { client: address, suppressed },
        `suppressed ${suppressed} request lines from ${address}: more than ${LOG_LINES_PER_ADDRESS} a minute of wrong keys or unknown paths`,
      ),
  });
  const storage = deps.storage ?? (() => SAVING);
  app.use('*', requestLog(deps.logger, throttle, storage));

  app.onError((error, c) => {
    // Not the box's fault, and nobody is left to answer: one line, no stack, never a 500.
    if (clientWentAway(c, error)) {
      deps.logger.info({ method: c.req.method, route: c.get('route') ?? 'unmatched' }, 'client went away before the request was complete');
      return answer(c, null, CLIENT_CLOSED_REQUEST);
    }
    deps.logger.error({ err: { name: error.name, message: error.message, stack: error.stack } }, 'request failed');
    return errorResponse(c, 500, 'internal error; the service log has the details');
  });

  // Outside /api nothing is keyed, so a scan of paths is counted per address like
  // wrong keys (its own bucket, the same quota), and a browser gets a page.
  const tooManyUnknown = (c: Context<AppEnv>, resetSeconds: number): Response =>
    refusal(c, 429, 'Too many requests', `too many requests for unknown paths from your address; try again in ${resetSeconds} s`);
  const unknownPath = (c: Context<AppEnv>): Response => {
    const decision = hitForAddress(c, deps.limiter, 'path', clientAddress(c));
    if (!decision.allowed) return tooManyUnknown(c, decision.resetSeconds);
    return refusal(
      c,
      404,
      'Nothing here',
      'nothing at this address: on the box, `npm run key` prints the control room and viewer links; the API is under /api/v1/{api_key}/ (see /api/v1/openapi.json)',
    );
  };
  app.notFound((c) =>
    isApiPath(c.req.path) ? errorResponse(c, 404, 'unknown operation: see /api/v1/openapi.json for the list of operations') : unknownPath(c),
  );

  // 503 for a monitor whenever something is wrong: stopping, or the room not being saved (the body says which).
  app.get('/healthz', (c) => {
    c.set('route', 'GET /healthz');
    c.set('read', true);
    const stopping = deps.isShuttingDown?.() ?? false;
    const health = storage();
    const body = health.saving
      ? { ok: !stopping, stopping, storage: 'ok' as const }
      : { ok: false, stopping, storage: 'failing' as const, problem: `the room is not being saved: ${health.problem}`, since: new Date(health.sinceWallMs).toISOString() };
    return jsonAnswer(c, body, stopping || !health.saving ? 503 : 200, { 'Cache-Control': 'no-store' });
  });

  mountControlPage(app, { keys: deps.keys, limiter: deps.limiter, clientAddress, links: deps.links });
  mountFrontDoor(app);
  mountAsk(app, { service: deps.service, keys: deps.keys, limiter: deps.limiter, clientAddress, newQuestionId: deps.newQuestionId ?? newQuestionIdFor(() => deps.service.room) });

  // The headers of every /api answer, preflights included, are gathered up front
  // (answer.ts), where every answer picks them up: these first, by the OpenAPI
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
        // Content-Type only for a POST: reading a header makes the request build its Headers, which a GET need not pay for.
        const contentType = method === 'POST' ? c.req.header('content-type') : undefined;
        const parsed = parseInput(op, method, { url: c.req.url, contentType, body: bodyText });
        if (!parsed.ok) return errorResponse(c, 400, parsed.error);
        const action = op.toAction(parsed.input, { id: hasId ? (c.req.param('id') ?? '') : '', newTimerId: deps.newTimerId });
        return perform(c, deps.service, action, op, source, storage);
      };
      // Named before the body limit, so a 413 is logged under its route too. A GET
      // runs both in one handler: each middleware is an async step of its own per request.
      if (method === 'POST') app.post(honoPath(op), async (c, next) => named(c) ?? next(), limitBody, async (c) => handle(c, await c.req.text()));
      else app.get(honoPath(op), (c) => named(c) ?? handle(c, ''));
    }
  }

  // An asset name that is no bundle is an unknown path like any other (the pages
  // ask only for theirs): counted per address, the asset's own 404 kept within the quota.
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status !== 404) return;
    const decision = hitForAddress(c, deps.limiter, 'path', clientAddress(c));
    if (decision.allowed) {
      for (const [name, value] of Object.entries({ 'Cache-Control': 'no-store', ...rateLimitHeaders(decision) })) c.res.headers.set(name, value);
      return;
    }
    // Unset first: hono would copy the 404's headers onto the new answer.
    c.res = undefined;
    c.res = tooManyUnknown(c, decision.resetSeconds);
  });

  // Before the catch-all below, so /api/v1/{api_key}/events is not taken for a command.
  mountViewer(app, deps);
  mountLogo(app, deps);
  mountRunningOrder(app, deps);

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

  return app;
}

const SAVING: StorageHealth = { saving: true };

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

/** `/api` and below: keyed, counted by the key middleware; everything else is a page path or nothing. */
function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Timers that never hold a process open (a stopping service, a test run): a pending log summary is worth no wait. */
function unrefScheduler(nowMs: () => number): Scheduler {
  return {
    schedule(atMonoMs, run) {
      const handle = setTimeout(run, Math.max(0, atMonoMs - nowMs()));
      handle.unref();
      return { cancel: () => clearTimeout(handle) };
    },
  };
}

/** Exposed to browsers too (CORS), so the console can read it from any answer. */
export const STORAGE_HEADER = 'Showclock-Storage';

/** Every answer says loudly when the room is not being saved; nothing at all when it is. */
function storageHeader(health: StorageHealth): Record<string, string> {
  if (health.saving) return {};
  // Header values are ASCII: a path or message with other characters must not break the answer.
  const problem = health.problem.replace(/[^\x20-\x7e]/g, '?');
  return { [STORAGE_HEADER]: `failing; the room is not being saved: ${problem}`, 'Access-Control-Expose-Headers': STORAGE_HEADER };
}

/** An answer at once for a read and for a change that happened at once; a promise of it for a change that waits for its save. */
function perform(
  c: Context<AppEnv>,
  service: RoomService,
  action: Action,
  op: Operation,
  source: CommandSource,
  storage: () => StorageHealth,
): Response | Promise<Response> {
  switch (action.kind) {
    case 'read-state':
      c.set('read', true);
      return stateAnswer(c, service.snapshot(), 200);
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
  return stateAnswer(c, service.snapshot(), 200);
}

export type { Method };
