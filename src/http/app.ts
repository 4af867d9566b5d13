// The HTTP side, put together: the one hono app of the service. It owns what
// every request goes through (the request log, errors, unknown paths, /healthz,
// the quota of unknown /assets) and mounts the pages (src/pages/*.ts) and the API
// (src/api) in an order that matters: the key and quota middleware of /api before
// every /api route, the catch-all of unknown commands last. Order of checks
// (decisions.md): key (401), then rate limit (429), then route (404), then input
// (400/413). Only main.ts imports it.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { unrefScheduler, type Scheduler } from '../app/clock.js';
import type { RoomService } from '../app/room-service.js';
import type { StorageHealth } from '../store/room-store.js';
import type { LogoFiles } from '../store/logo-files.js';
import type { Logger } from '../log/logger.js';
import type { LinkConfig } from '../app/urls.js';
import { LineThrottle } from '../log/line-throttle.js';
import { RATE_WINDOW_MS, rateLimitHeaders, type FixedWindowLimiter } from '../app/rate-limit.js';
import { newQuestionIdFor } from '../app/question-ids.js';
import { PushHub } from '../push/push-hub.js';
import type { AppEnv, Keys } from '../web/env.js';
import { hitForAddress } from '../web/address-quota.js';
import { errorResponse } from '../web/api-errors.js';
import { addAnswerHeaders, answer, jsonAnswer } from '../web/answer.js';
import { storageHeader } from '../web/storage-header.js';
import { clientWentAway, socketAddress } from '../web/request-origin.js';
import { refusal } from '../pages/error-page.js';
import { mountControlPage } from '../pages/control-page.js';
import { mountFrontDoor } from '../pages/front-door.js';
import { mountAsk } from '../pages/ask-routes.js';
import { mountViewer, type ViewerDeps } from '../pages/viewer-routes.js';
import { mountVenue } from '../pages/venue-routes.js';
import type { VenueOverview } from '../venue/venue-overview.js';
import { mountLogoFile } from '../pages/logo-file.js';
import { mountApi, mountUnknownCommands } from '../api/api-routes.js';
import { mountEvents } from '../api/event-routes.js';
import { mountLogo } from '../api/logo-routes.js';
import { mountRunningOrder } from '../api/running-order-routes.js';
import { mountClock, UNWATCHED_CLOCK } from '../api/clock-routes.js';
import type { BoxClock } from '../domain/clock-sync.js';
import type { ScreenControl } from '../domain/screen.js';
import { CachedRouter } from './cached-router.js';

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
  /** The push hub and page bundles for /events, /view, /display and /assets; see src/pages/viewer-routes.ts. */
  readonly viewer?: ViewerDeps;
  /** Wakes the request log to summarise the lines it left out; unref'd timers on the limiter's clock by default. */
  readonly scheduler?: Scheduler;
  /** Where uploaded logos are kept (src/store/logo-files.ts); without them an upload is 503. */
  readonly logos?: LogoFiles;
  /** What the links the box gives out start with (`publicUrl`, else host and port: app/urls.ts); never a request's Host. */
  readonly links?: LinkConfig;
  /** The venue (src/venue): its key (accepted on /view as a viewer key, and opening /venue), this room's name, the overview once started. */
  readonly venue?: VenueDeps;
  /** Whether the box's wall clock is synchronised, and setting it by hand (src/systemd/time-sync.ts); unknown and never set when not given. */
  readonly clock?: BoxClock;
  /** The screen over HDMI-CEC (src/cec); /screen/* answer 409 when not given. */
  readonly screen?: ScreenControl;
}

export interface VenueDeps {
  /** venue.key, read at every request; undefined when none is set. */
  readonly key: () => string | undefined;
  /** venue.name: what the venue's other boxes call this room (in /view/{key}/time). */
  readonly name: () => string;
  /** The overview's rooms and streams, null until main.ts has started them (or without a venue key). */
  readonly overview: () => VenueOverview | null;
}

/** Request lines per client address per minute for requests counted per address (wrong keys, unknown paths). */
export const LOG_LINES_PER_ADDRESS = 20;
/** Addresses the request log keeps apart; more share one count (line-throttle.ts). */
const LOG_ADDRESSES = 256;
/** nginx's "client closed request": logged for a client that went away mid-request, never sent (it is gone). */
export const CLIENT_CLOSED_REQUEST = 499;

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

  const boxClock = deps.clock ?? UNWATCHED_CLOCK;
  // 503 for a monitor whenever something is wrong: stopping, or the room not being saved (the body says which).
  // The clock is told, never counted: a clock not synchronised is no reason for systemd or the kiosk to restart anything.
  app.get('/healthz', (c) => {
    c.set('route', 'GET /healthz');
    c.set('read', true);
    const stopping = deps.isShuttingDown?.() ?? false;
    const health = storage();
    const clock = boxClock.current();
    const body = health.saving
      ? { ok: !stopping, stopping, storage: 'ok' as const, clock }
      : { ok: false, stopping, storage: 'failing' as const, problem: `the room is not being saved: ${health.problem}`, since: new Date(health.sinceWallMs).toISOString(), clock };
    return jsonAnswer(c, body, stopping || !health.saving ? 503 : 200, { 'Cache-Control': 'no-store' });
  });

  mountControlPage(app, { keys: deps.keys, limiter: deps.limiter, clientAddress, links: deps.links });
  mountFrontDoor(app);
  mountAsk(app, { service: deps.service, keys: deps.keys, limiter: deps.limiter, clientAddress, newQuestionId: deps.newQuestionId ?? newQuestionIdFor(() => deps.service.room) });

  mountApi(app, { service: deps.service, keys: deps.keys, limiter: deps.limiter, clientAddress, newTimerId: deps.newTimerId, storage, ...(deps.screen === undefined ? {} : { screen: deps.screen }) });

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

  // After the /api middleware and before the catch-all below, so /api/v1/{api_key}/events
  // is checked like every API call and not taken for a command.
  const hub = deps.viewer?.hub ?? startedHub(deps.service);
  mountEvents(app, { hub, keys: deps.keys });
  mountViewer(app, {
    service: deps.service,
    keys: deps.keys,
    limiter: deps.limiter,
    clientAddress,
    links: deps.links,
    hub,
    pagesDirs: deps.viewer?.pagesDirs,
    clockSynced: () => boxClock.current().synced,
    ...(deps.venue === undefined ? {} : { venueKey: deps.venue.key, roomName: deps.venue.name }),
  });
  mountVenue(app, { service: deps.service, limiter: deps.limiter, clientAddress, venueKey: deps.venue?.key ?? (() => undefined), overview: deps.venue?.overview ?? (() => null) });
  mountLogo(app, deps);
  mountLogoFile(app, deps);
  mountRunningOrder(app, deps);
  mountClock(app, { clock: boxClock, wallMs: () => deps.service.serverNow() });
  mountUnknownCommands(app);

  return app;
}

const SAVING: StorageHealth = { saving: true };

/** `/api` and below: keyed, counted by the key middleware; everything else is a page path or nothing. */
function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}


/** The hub of a service that was given none (tests): made and started with the app. */
function startedHub(service: RoomService): PushHub {
  const hub = new PushHub({ source: service });
  hub.start();
  return hub;
}

