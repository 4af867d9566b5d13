// What people look at, over HTTP: the push channel for the API key
// (/api/v1/{api_key}/events), the read-only viewer link (/view/{viewer_key}:
// page, stream, time), the kiosk on the box itself (/display: loopback only, no
// key) and the page bundles (/assets). Viewer and kiosk traffic never touch the
// API key's quota; nothing here changes the room, and nothing a viewer receives
// carries either key.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, Hono } from 'hono';
import type { RoomService } from '../app/room-service.js';
import { PushHub, type OpenOptions } from '../push/push-hub.js';
import { refusalMessage } from '../push/stream-budgets.js';
import type { ResponseSink } from '../push/response-client.js';
import type { AppEnv, HttpDeps } from './app.js';
import { errorResponse } from './api-errors.js';
import { addAnswerHeaders, answer, answerHeaders, jsonAnswer } from './answer.js';
import { hitForAddress } from './address-quota.js';
import { refusal, wrongLinkRefusal } from './error-page.js';
import { DISPLAY_HTML } from './display-html.js';
import { askLinkImage, askUrl } from './ask-link.js';
import { SVG_CSP } from './logo-content.js';
import { assetHandler, pagesDirCandidates } from './page-assets.js';
import { pageResponse } from './page-headers.js';
import { isLoopback, linkOriginOf, socketAddress } from './request-origin.js';
import { sameSecret } from '../app/secret-match.js';

export interface ViewerDeps {
  /** The hub every stream shares; main.ts passes the one it closes at shutdown. Made and started here when absent. */
  readonly hub?: PushHub;
  /** Directories holding the page bundles, searched in order; next to the running code by default. */
  readonly pagesDirs?: readonly string[];
}


const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  // Tells a reverse proxy (nginx) not to buffer the stream.
  'X-Accel-Buffering': 'no',
};

/** The Node response under a hono context (http.ServerResponse); absent in app.request() tests. */
/** Idle time before TCP keepalive probes a push stream's peer. */
const STREAM_KEEPALIVE_MS = 10_000;

interface Outgoing extends ResponseSink {
  readonly socket?: (ResponseSink['socket'] & { setKeepAlive(enable: boolean, initialDelayMs: number): unknown }) | null;
  destroy(): void;
  useChunkedEncodingByDefault: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
}

function outgoingOf(c: Context): Outgoing | undefined {
  return (c.env as { outgoing?: Outgoing } | undefined)?.outgoing;
}

/** Opens a push stream against the budget of its kind (stream-budgets.ts): 503 naming the budget when it is spent. */
function openStream(c: Context, hub: PushHub, stream: OpenOptions): Response {
  // hono answers HEAD with the GET handler and drops the body: a stream opened here would never be read.
  if (c.req.method === 'HEAD') return answer(c, null, 200, SSE_HEADERS);
  const refused = hub.refusal(stream.kind, stream.address);
  if (refused !== null) return errorResponse(c, 503, refusalMessage(refused, hub.budgets));
  // Last-Event-ID needs no handling: every stream starts with the current snapshot.
  const outgoing = outgoingOf(c);
  if (outgoing === undefined) {
    // In process (app.request): a web stream, as any fetch-style server would take it.
    // The budget was checked above, in this same turn: the hub takes it.
    const client = hub.open(stream);
    if (client === null) return errorResponse(c, 503, refusalMessage(stream.kind, hub.budgets));
    // With the headers gathered before (rate limit, CORS, Referrer-Policy).
    return answer(c, client.stream, 200, SSE_HEADERS);
  }
  // On a socket the hub writes each event straight to the response: through a web
  // stream and the adapter's read loop a change took a third longer to reach the
  // last of 500 screens (BENCHMARKS.md). The headers are those of any answer here,
  // the ones gathered before (rate limit, CORS, Referrer-Policy) included.
  const headers = answerHeaders(c, SSE_HEADERS);
  // No chunked framing: the stream ends only with its connection, so an event is one plain write.
  outgoing.useChunkedEncodingByDefault = false;
  // A peer that vanishes while nothing is in flight (between heartbeats) is found by
  // TCP keepalive; one that vanishes with data unacknowledged, by the hub's stall check.
  outgoing.socket?.setKeepAlive(true, STREAM_KEEPALIVE_MS);
  outgoing.writeHead(200, headers);
  // The budget was checked above, in this same turn: the hub takes it.
  if (hub.openOn(outgoing, { ...stream, abortConnection: () => outgoing.destroy() }) === null) outgoing.destroy();
  return RESPONSE_ALREADY_SENT;
}

function serverTime(c: Context<AppEnv>, service: RoomService): Response {
  // A read, repeated by every screen to keep its clock: its request line is at debug (app.ts, requestLog).
  c.set('read', true);
  // The same clock as the snapshots' serverNow/endAt, so offsets estimated here apply to them.
  return jsonAnswer(c, { serverNow: service.snapshot().serverNow }, 200, { 'Cache-Control': 'no-store' });
}

/** The audience link's image while the display settings show it; 404 otherwise, so it is never handed out unasked. */
function askLinkAnswer(c: Context<AppEnv>, deps: HttpDeps): Response {
  if (!deps.service.room.display.showAskLink) {
    return errorResponse(c, 404, 'the audience link is not shown on the screens: the display setting showAskLink is off');
  }
  const image = askLinkImage(askUrl(linkOriginOf(c, deps.links), deps.keys().audienceKey));
  return answer(c, image, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store', 'Content-Security-Policy': SVG_CSP, 'X-Content-Type-Options': 'nosniff' });
}

function startedHub(service: RoomService): PushHub {
  const hub = new PushHub({ source: service });
  hub.start();
  return hub;
}

/**
 * Mounts the push, viewer, kiosk and asset routes. Call it after the /api key
 * and rate-limit middleware and before the /api/{version}/:key/:cmd catch-all,
 * so /events is checked like every API call and not taken for a command.
 */
export function mountViewer(app: Hono<AppEnv>, deps: HttpDeps): PushHub {
  const hub = deps.viewer?.hub ?? startedHub(deps.service);
  const clientAddress = deps.clientAddress ?? socketAddress;

  // Behind the /api middleware: key checked (401), counted once at connect (429).
  app.get('/api/v1/:key/events', (c) => {
    c.set('route', 'GET /api/v1/{api_key}/events');
    const key = c.req.param('key');
    return openStream(c, hub, { kind: 'control', stillAllowed: () => sameSecret(key, deps.keys().apiKey) });
  });

  // The viewer key is checked here; valid viewer traffic is never counted, wrong keys
  // count against the caller's address like wrong API keys, so guessing stays slow,
  // and are answered like them (rate-limit headers, no-store), as a page for a browser.
  const viewer = (route: string, handle: (c: Context<AppEnv>, key: string) => Response) => (c: Context<AppEnv>) => {
    c.set('route', `GET /view/{viewer_key}${route}`);
    const key = c.req.param('viewerKey') ?? '';
    // The URL holds a key, right or wrong: no answer here sends it on as a Referer.
    addAnswerHeaders(c, { 'Referrer-Policy': 'no-referrer' });
    if (!sameSecret(key, deps.keys().viewerKey)) {
      const decision = hitForAddress(c, deps.limiter, 'address', clientAddress(c));
      return wrongLinkRefusal(c, decision, 'viewer', 'this viewer link is not valid (the key may have been changed): ask the control room for the current link');
    }
    return handle(c, key);
  };
  app.get('/view/:viewerKey', viewer('', (c) => pageResponse(c, DISPLAY_HTML, { keyInUrl: true })));
  app.get(
    '/view/:viewerKey/events',
    viewer('/events', (c, key) => {
      // Capped per address, except the box itself: behind a proxy on the box every viewer would share one cap.
      const address = clientAddress(c);
      const stillAllowed = () => sameSecret(key, deps.keys().viewerKey);
      return openStream(c, hub, { kind: 'viewer', address: isLoopback(address) ? undefined : address, stillAllowed });
    }),
  );
  app.get('/view/:viewerKey/time', viewer('/time', (c) => serverTime(c, deps.service)));
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
  app.get('/display', kiosk('', (c) => pageResponse(c, DISPLAY_HTML, { keyInUrl: false })));
  app.get('/display/events', kiosk('/events', (c) => openStream(c, hub, { kind: 'kiosk', stillAllowed: () => true })));
  app.get('/display/time', kiosk('/time', (c) => serverTime(c, deps.service)));
  app.get('/display/ask-link.svg', kiosk('/ask-link.svg', (c) => askLinkAnswer(c, deps)));

  const assets = assetHandler(deps.viewer?.pagesDirs ?? pagesDirCandidates());
  app.get('/assets/:file', (c) => {
    c.set('route', 'GET /assets/{file}');
    return assets(c);
  });

  return hub;
}
