// A push stream over HTTP: the hono side of the hub (src/push), shared by the API's
// /api/v1/{api_key}/events (src/api/event-routes.ts) and the pages' /view/{viewer_key}/events
// and /display/events (src/pages/viewer-routes.ts). On a socket the hub writes to the
// Node response itself; in process (app.request) it hands back a web stream.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { PushHub, OpenOptions } from '../push/push-hub.js';
import { refusalMessage } from '../push/stream-budgets.js';
import type { ResponseSink } from '../push/response-client.js';
import { errorResponse } from './api-errors.js';
import { answer, answerHeaders } from './answer.js';

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  // Tells a reverse proxy (nginx) not to buffer the stream.
  'X-Accel-Buffering': 'no',
};

/** Idle time before TCP keepalive probes a push stream's peer. */
const STREAM_KEEPALIVE_MS = 10_000;

interface Outgoing extends ResponseSink {
  readonly socket?: (ResponseSink['socket'] & { setKeepAlive(enable: boolean, initialDelayMs: number): unknown }) | null;
  destroy(): void;
  useChunkedEncodingByDefault: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
}

/** The Node response under a hono context (http.ServerResponse); absent in app.request() tests. */
function outgoingOf(c: Context): Outgoing | undefined {
  return (c.env as { outgoing?: Outgoing } | undefined)?.outgoing;
}

/** Opens a push stream against the budget of its kind (stream-budgets.ts): 503 naming the budget when it is spent. */
export function openStream(c: Context, hub: PushHub, stream: OpenOptions): Response {
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
