// What people look at, over HTTP: the read-only viewer link (/view/{viewer_key}:
// page, stream, time), the kiosk on the box itself (/display: loopback only, no
// key) and the page bundles (/assets). Viewer and kiosk traffic never touch the
// API key's quota; nothing here changes the room, and nothing a viewer receives
// carries either key. The API key's push channel is src/api/event-routes.ts.
// The venue key (venue.key, shared by the venue's boxes) opens the same routes,
// watch-only like the viewer key: the boxes of a venue watch each other with it.
import type { Context, Hono } from 'hono';
import type { RoomService } from '../app/room-service.js';
import type { FixedWindowLimiter } from '../app/rate-limit.js';
import type { LinkConfig } from '../app/urls.js';
import type { PushHub } from '../push/push-hub.js';
import type { AppEnv, Keys } from '../web/env.js';
import { errorResponse } from '../web/api-errors.js';
import { addAnswerHeaders, answer, jsonAnswer } from '../web/answer.js';
import { hitForAddress } from '../web/address-quota.js';
import { openStream } from '../web/push-stream.js';
import { refusal, wrongLinkRefusal } from './error-page.js';
import { DISPLAY_HTML } from './display-html.js';
import { askLinkImage, askUrl } from './ask-link.js';
import { SVG_CSP } from '../commands/logo-content.js';
import { assetHandler, pagesDirCandidates } from './page-assets.js';
import { pageResponse } from './page-headers.js';
import { isLoopback, linkOriginOf } from '../web/request-origin.js';
import { sameSecret } from '../app/secret-match.js';
import { viewOptionsProblem } from './display/view-options.js';
import { heartbeatSeconds } from '../web/heartbeat-query.js';

export interface ViewerDeps {
  /** The hub every stream shares; main.ts passes the one it closes at shutdown. Made and started here when absent. */
  readonly hub?: PushHub;
  /** Directories holding the page bundles, searched in order; next to the running code by default. */
  readonly pagesDirs?: readonly string[];
}

export interface ViewerRouteDeps {
  readonly service: RoomService;
  /** Read at every request, so a rotated key works at once. */
  readonly keys: () => Keys;
  readonly limiter: FixedWindowLimiter;
  /** The client's address, for limiting wrong viewer keys and telling the box itself. */
  readonly clientAddress: (c: Context) => string;
  /** What the links the box gives out start with (app/urls.ts). */
  readonly links?: LinkConfig;
  /** The hub every stream shares. */
  readonly hub: PushHub;
  /** Directories holding the page bundles, searched in order; next to the running code by default. */
  readonly pagesDirs?: readonly string[];
  /** The venue key (venue.key), accepted like the viewer key; undefined when none is set. Never in an answer. */
  readonly venueKey?: () => string | undefined;
  /** This room's name (venue.name), in the time answer: what another box's overview calls this room. */
  readonly roomName?: () => string;
  /** Whether the box's wall clock is synchronised (src/systemd/time-sync.ts): told to the kiosk only, in /display/time. */
  readonly clockSynced?: () => boolean | null;
}

/**
 * The server's time, for screens keeping their clock (and the venue's other boxes
 * measuring theirs against it), with the room's name when the box has one to give.
 */
export function serverTime(c: Context<AppEnv>, service: RoomService, roomName?: () => string, clockSynced?: () => boolean | null): Response {
  // A read, repeated by every screen to keep its clock: its request line is at debug (src/http/app.ts, requestLog).
  c.set('read', true);
  // The same clock as the snapshots' serverNow/endAt, so offsets estimated here apply to them.
  // No snapshot is made for it: a snapshot derives the whole schedule, which a clock reading has no use for.
  const named = roomName === undefined ? { serverNow: service.serverNow() } : { serverNow: service.serverNow(), room: roomName() };
  // The kiosk's only: whether the box's clock is synchronised (issue 33), for its small warning.
  const body = clockSynced === undefined ? named : { ...named, clockSynced: clockSynced() };
  return jsonAnswer(c, body, 200, { 'Cache-Control': 'no-store' });
}

/** The audience link's image while the display settings show it; 404 otherwise, so it is never handed out unasked. */
function askLinkAnswer(c: Context<AppEnv>, deps: ViewerRouteDeps): Response {
  if (!deps.service.room.display.showAskLink) {
    return errorResponse(c, 404, 'the audience link is not shown on the screens: the display setting showAskLink is off');
  }
  const image = askLinkImage(askUrl(linkOriginOf(c, deps.links), deps.keys().audienceKey));
  return answer(c, image, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store', 'Content-Security-Policy': SVG_CSP, 'X-Content-Type-Options': 'nosniff' });
}

/**
 * The display page, unless its link asks for an option the page does not have
 * (`?layout=`, `?show=`): then a page saying what to write, rather than a screen
 * quietly showing the room's layout or the main timer instead.
 */
function displayPage(c: Context<AppEnv>, keyInUrl: boolean): Response {
  const problem = viewOptionsProblem(c.req.query('layout'), c.req.query('show'));
  if (problem !== null) {
    addAnswerHeaders(c, { 'Cache-Control': 'no-store' });
    return refusal(c, 400, 'This screen link asks for an unknown option', problem);
  }
  return pageResponse(c, DISPLAY_HTML, { keyInUrl });
}

/** Mounts the viewer, kiosk and asset routes. */
export function mountViewer(app: Hono<AppEnv>, deps: ViewerRouteDeps): void {
  const { hub, clientAddress } = deps;
  /** The viewer key, or the venue key where one is set: both only watch. */
  const watchKey = (key: string): boolean => {
    if (sameSecret(key, deps.keys().viewerKey)) return true;
    const venueKey = deps.venueKey?.();
    return venueKey !== undefined && sameSecret(key, venueKey);
  };

  // The viewer key is checked here; valid viewer traffic is never counted, wrong keys
  // count against the caller's address like wrong API keys, so guessing stays slow,
  // and are answered like them (rate-limit headers, no-store), as a page for a browser.
  const viewer = (route: string, handle: (c: Context<AppEnv>, key: string) => Response) => (c: Context<AppEnv>) => {
    c.set('route', `GET /view/{viewer_key}${route}`);
    const key = c.req.param('viewerKey') ?? '';
    // The URL holds a key, right or wrong: no answer here sends it on as a Referer.
    addAnswerHeaders(c, { 'Referrer-Policy': 'no-referrer' });
    if (!watchKey(key)) {
      const decision = hitForAddress(c, deps.limiter, 'address', clientAddress(c));
      return wrongLinkRefusal(c, decision, 'viewer', 'this viewer link is not valid (the key may have been changed): ask the control room for the current link');
    }
    return handle(c, key);
  };
  app.get('/view/:viewerKey', viewer('', (c) => displayPage(c, true)));
  app.get(
    '/view/:viewerKey/events',
    viewer('/events', (c, key) => {
      // Capped per address, except the box itself: behind a proxy on the box every viewer would share one cap.
      const address = clientAddress(c);
      // `?heartbeat=N` as on the API's stream: another box watching this one tells a dead link in seconds.
      const heartbeat = heartbeatSeconds(c.req.query('heartbeat'));
      if (typeof heartbeat === 'string') return errorResponse(c, 400, heartbeat);
      const stillAllowed = () => watchKey(key);
      return openStream(c, hub, {
        kind: 'viewer',
        address: isLoopback(address) ? undefined : address,
        stillAllowed,
        ...(heartbeat === undefined ? {} : { heartbeatSeconds: heartbeat }),
      });
    }),
  );
  app.get('/view/:viewerKey/time', viewer('/time', (c) => serverTime(c, deps.service, deps.roomName)));
  app.get('/view/:viewerKey/ask-link.svg', viewer('/ask-link.svg', (c) => askLinkAnswer(c, deps)));

  // The kiosk: the browser on this box's HDMI output, no key in its URL.
  const kiosk = (route: string, handle: (c: Context<AppEnv>) => Response) => (c: Context<AppEnv>) => {
    c.set('route', `GET /display${route}`);
    if (!isLoopback(clientAddress(c))) {
      addAnswerHeaders(c, { 'Cache-Control': 'no-store' });
      return refusal(c, 403, 'Only on the box itself', '/display is for the browser on the box itself; other screens use the viewer link shown in the control room');
    }
    return handle(c);
  };
  app.get('/display', kiosk('', (c) => displayPage(c, false)));
  app.get('/display/events', kiosk('/events', (c) => openStream(c, hub, { kind: 'kiosk', stillAllowed: () => true })));
  app.get('/display/time', kiosk('/time', (c) => serverTime(c, deps.service, undefined, deps.clockSynced ?? (() => null))));
  app.get('/display/ask-link.svg', kiosk('/ask-link.svg', (c) => askLinkAnswer(c, deps)));

  const assets = assetHandler(deps.pagesDirs ?? pagesDirCandidates());
  app.get('/assets/:file', (c) => {
    c.set('route', 'GET /assets/{file}');
    return assets(c);
  });
}
