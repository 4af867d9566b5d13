// The venue overview over HTTP: /venue/{venue_key} (the page, src/pages/venue/),
// /venue/{venue_key}/events (every room as a tile, src/venue/venue-feed.ts) and
// /venue/{venue_key}/time (this box's clock, which the page counts from). The venue
// key is checked like a viewer key: a wrong one counts against the caller's address
// and is refused as a viewer link is; a box without venue.key says how to set it.
// Nothing answered here carries any key.
import type { Context, Hono } from 'hono';
import type { RoomService } from '../app/room-service.js';
import type { FixedWindowLimiter } from '../app/rate-limit.js';
import { sameSecret } from '../app/secret-match.js';
import type { VenueOverview } from '../venue/venue-overview.js';
import { addressHost, NONCE_PATTERN, venueProof } from '../venue/venue-proof.js';
import type { AppEnv } from '../web/env.js';
import { addAnswerHeaders, answer, jsonAnswer } from '../web/answer.js';
import { boxWideMessage, hitForAddress, isBoxWide } from '../web/address-quota.js';
import { errorResponse } from '../web/api-errors.js';
import { refusal } from './error-page.js';
import { pageHead } from './page-head.js';
import { pageResponse } from './page-headers.js';
import { serverTime } from './viewer-routes.js';

export interface VenueRouteDeps {
  readonly service: RoomService;
  /** venue.key; undefined when the box has none (then there is no overview here). */
  readonly venueKey: () => string | undefined;
  /** The watching of the venue's rooms, once main.ts has started it. */
  readonly overview: () => VenueOverview | null;
  readonly limiter: FixedWindowLimiter;
  readonly clientAddress: (c: Context) => string;
  /** The address:port the request reached this box at, as its socket says (venue-proof.ts); tests give their own. */
  readonly localHost?: (c: Context) => string | null;
}

/** The local side of the request's socket; null in process (app.request), where there is none. */
function socketLocalHost(c: Context): string | null {
  const socket = (c.env as { incoming?: { socket?: { localAddress?: string; localPort?: number } } } | undefined)?.incoming?.socket;
  return socket?.localAddress === undefined || socket.localPort === undefined ? null : addressHost(socket.localAddress, socket.localPort);
}

const SSE_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' };

/** The page: tiles drawn by /assets/venue.js from the stream; nothing secret is written into it. */
export const VENUE_HTML = `${pageHead({ title: 'Showclock: venue', stylesheet: '/assets/venue.css', script: '/assets/venue.js', extra: '<meta name="color-scheme" content="dark">' })}
<body class="venue">
<header class="venue-head"><h1>Venue</h1><span id="venue-clock" class="venue-clock"></span><span id="venue-link" class="venue-link" hidden>reconnecting to this box</span></header>
<main id="tiles" class="tiles" aria-live="polite"></main>
</body>
</html>
`;

export const NO_VENUE_KEY =
  'this box has no venue key, so it has no venue overview: set `venue.key` in the config file (or `SHOWCLOCK_VENUE_KEY`) to the same key on every box of the venue, 16 to 128 characters from A-Z a-z 0-9 _ - (`openssl rand -hex 16` makes one), and restart';

export function mountVenue(app: Hono<AppEnv>, deps: VenueRouteDeps): void {
  const venue = (route: string, handle: (c: Context<AppEnv>, overview: VenueOverview) => Response) => (c: Context<AppEnv>) => {
    c.set('route', `GET /venue/{venue_key}${route}`);
    addAnswerHeaders(c, { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' });
    const expected = deps.venueKey();
    if (expected === undefined) return refusal(c, 404, 'No venue overview on this box', NO_VENUE_KEY);
    if (!sameSecret(c.req.param('venueKey') ?? '', expected)) {
      const decision = hitForAddress(c, deps.limiter, 'address', deps.clientAddress(c));
      if (!decision.allowed) {
        const why = isBoxWide(decision) ? boxWideMessage(decision) : `too many requests with a wrong venue link from your address; try again in ${decision.resetSeconds} s`;
        return refusal(c, 429, 'Too many attempts', why);
      }
      return refusal(c, 401, 'This venue link is not valid', 'this venue overview link is not valid: the key must be the venue key (`venue.key`) set on this box');
    }
    const overview = deps.overview();
    if (overview === null) return refusal(c, 503, 'Starting', 'the venue overview is starting; try again in a moment');
    return handle(c, overview);
  };
  app.get('/venue/:venueKey', venue('', (c) => pageResponse(c, VENUE_HTML, { keyInUrl: true })));
  app.get(
    '/venue/:venueKey/events',
    venue('/events', (c, overview) => {
      if (c.req.method === 'HEAD') return answer(c, null, 200, SSE_HEADERS);
      const client = overview.open();
      if (client === null) return errorResponse(c, 503, 'all venue overview streams are open; close an overview tab or try again shortly');
      return answer(c, client.stream, 200, SSE_HEADERS);
    }),
  );
  app.get('/venue/:venueKey/time', venue('/time', (c) => serverTime(c, deps.service)));

  // Another box of the venue found this one by mDNS and asks it to prove it holds the venue
  // key before it sends the key here (src/venue/venue-proof.ts). No key in the request or the answer.
  app.get('/venue-proof', (c) => {
    c.set('route', 'GET /venue-proof');
    c.set('read', true);
    addAnswerHeaders(c, { 'Cache-Control': 'no-store' });
    const key = deps.venueKey();
    if (key === undefined) return errorResponse(c, 404, NO_VENUE_KEY);
    const nonce = c.req.query('nonce') ?? '';
    if (!NONCE_PATTERN.test(nonce)) return errorResponse(c, 400, 'nonce must be 32 lowercase hex characters');
    const host = (deps.localHost ?? socketLocalHost)(c);
    if (host === null) return errorResponse(c, 503, 'this box cannot tell the address it was asked at');
    return jsonAnswer(c, { proof: venueProof(key, nonce, host) }, 200);
  });
}
