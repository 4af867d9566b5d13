// A box in a fetch, for driving the module's connection without a network: it
// serves the service's own OpenAPI document (the version check), holds the push
// stream open and sends the snapshots a test pushes as `state` events (as the
// service's streams do: no `schedule`), and records each command, answering it
// with the last snapshot pushed.
import { buildOpenApiDocument } from '../../src/commands/openapi.js';
import { streamSnapshot, type Snapshot } from '../../src/domain/snapshot.js';

export interface BoxRequest {
  readonly method: string;
  /** After `/api/v1/{key}`. */
  readonly path: string;
  readonly body: unknown;
}

export interface FakeBox {
  readonly fetch: typeof fetch;
  readonly requests: BoxRequest[];
  /** True while the module holds the push stream open. */
  streaming(): boolean;
  /** Sends `snapshot` on the push stream, as the box does after a change. */
  push(snapshot: Snapshot): void;
}

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export function fakeBox(apiKey: string): FakeBox {
  const encoder = new TextEncoder();
  const requests: BoxRequest[] = [];
  let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
  let last: Snapshot | null = null;
  const prefix = `/api/v1/${encodeURIComponent(apiKey)}`;

  const boxFetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname === '/api/v1/openapi.json') return json(200, buildOpenApiDocument());
    if (!url.pathname.startsWith(prefix)) return json(401, { ok: false, error: 'invalid API key' });
    const path = url.pathname.slice(prefix.length);
    if (path === '/events') {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          stream = controller;
        },
        cancel() {
          stream = null;
        },
      });
      init?.signal?.addEventListener('abort', () => {
        stream = null;
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    }
    requests.push({ method: init?.method ?? 'GET', path, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null });
    return json(200, { ok: true, state: last });
  };

  return {
    fetch: boxFetch,
    requests,
    streaming: () => stream !== null,
    push(snapshot) {
      if (stream === null) throw new Error('the module holds no push stream');
      last = snapshot;
      stream.enqueue(encoder.encode(`event: state\ndata: ${JSON.stringify(streamSnapshot(snapshot))}\n\n`));
    },
  };
}
