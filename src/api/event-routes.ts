// The push channel for the API key: /api/v1/{api_key}/events, the room's snapshots
// and changes as server-sent events (src/push, src/web/push-stream.ts).
import type { Hono } from 'hono';
import type { PushHub } from '../push/push-hub.js';
import { heartbeatSeconds } from '../web/heartbeat-query.js';
import { sameSecret } from '../app/secret-match.js';
import { errorResponse } from '../web/api-errors.js';
import type { AppEnv, Keys } from '../web/env.js';
import { openStream } from '../web/push-stream.js';

export interface EventDeps {
  /** The hub every stream shares. */
  readonly hub: PushHub;
  /** Read at every heartbeat, so a rotated key ends the stream. */
  readonly keys: () => Keys;
}

/**
 * Mounts /api/v1/{api_key}/events. Call it after the /api key and rate-limit
 * middleware (src/api/api-routes.ts) and before the /api/{version}/:key/:cmd
 * catch-all, so /events is checked like every API call and not taken for a command.
 */
export function mountEvents(app: Hono<AppEnv>, deps: EventDeps): void {
  const { hub } = deps;

  // Behind the /api middleware: key checked (401), counted once at connect (429).
  app.get('/api/v1/:key/events', (c) => {
    c.set('route', 'GET /api/v1/{api_key}/events');
    const key = c.req.param('key');
    const heartbeat = heartbeatSeconds(c.req.query('heartbeat'));
    if (typeof heartbeat === 'string') return errorResponse(c, 400, heartbeat);
    return openStream(c, hub, {
      kind: 'control',
      stillAllowed: () => sameSecret(key, deps.keys().apiKey),
      ...(heartbeat === undefined ? {} : { heartbeatSeconds: heartbeat }),
    });
  });
}

/** Read in src/web/heartbeat-query.ts, shared with the viewer's stream; exported here for its tests. */
export { heartbeatSeconds };
