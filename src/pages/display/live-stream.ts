// The page's push connection: reads the SSE stream with fetch, reconnects by
// itself with capped, jittered backoff (so a room full of screens does not
// reconnect in lockstep after a restart), notices a silent connection by the
// missing heartbeats, and reloads the page when it stays broken for long (a new
// server version may have been installed meanwhile).
import type { Snapshot } from '../../domain/snapshot.js';
import { createSseParser } from '../../client/sse-parser.js';
import { readStreamText } from '../../client/read-stream-text.js';
import { streamSnapshots } from '../../client/stream-snapshots.js';

/** The box's own stream sends nothing else as `state` than a snapshot. */
const isObject = (value: unknown): value is Snapshot => typeof value === 'object' && value !== null;

export interface LiveStreamHandlers {
  onSnapshot(snapshot: Snapshot): void;
  /** True when a stream delivers again, false when it is lost. */
  onLink(up: boolean): void;
  /** Any other event (the console's `storage`); the display has none to read. */
  onEvent?(name: string, data: string): void;
}

export interface LiveStreamOptions {
  /** No byte (not even a heartbeat, sent every 15 s) for this long: the connection is dead. */
  readonly silenceMs?: number;
  readonly firstRetryMs?: number;
  readonly maxRetryMs?: number;
  /** Broken this long: reload the page, once the server answers again. */
  readonly reloadAfterMs?: number;
}

export function startLiveStream(url: string, handlers: LiveStreamHandlers, opts: LiveStreamOptions = {}): void {
  const silenceMs = opts.silenceMs ?? 40_000;
  const firstRetryMs = opts.firstRetryMs ?? 1_000;
  const maxRetryMs = opts.maxRetryMs ?? 15_000;
  const reloadAfterMs = opts.reloadAfterMs ?? 5 * 60_000;
  let failures = 0;
  let downSinceMs: number | null = null;
  let up: boolean | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const setLink = (next: boolean): void => {
    if (next === up) return;
    up = next;
    handlers.onLink(next);
  };

  const connectOnce = async (): Promise<void> => {
    const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin', headers: { Accept: 'text/event-stream' } });
    if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
    const reader = response.body.getReader();
    // This connection's snapshots: the first event is whole, the changes after it are deltas of it.
    const take = streamSnapshots(isObject);
    const parse = createSseParser((event) => {
      const snapshot = take(event.event, event.data);
      if (snapshot === undefined) {
        if (event.event !== 'state' && handlers.onEvent !== undefined) handlers.onEvent(event.event, event.data);
      } else if (snapshot === null) {
        // A change that does not fit what this page holds: a new connection starts with the whole snapshot.
        void reader.cancel().catch(() => {});
      } else {
        failures = 0;
        downSinceMs = null;
        setLink(true);
        handlers.onSnapshot(snapshot);
      }
    });
    await readStreamText(reader, parse, silenceMs);
  };

  const reloadWhenServerAnswers = (): void => {
    fetch(location.href, { cache: 'no-store', credentials: 'same-origin' })
      .then((response) => {
        // Reload only onto a page that will load: a kiosk must never end on an error page.
        if (response.ok) location.reload();
      })
      .catch(() => {});
  };

  const run = (): void => {
    retryTimer = null;
    connectOnce().then(lost, lost);
  };

  const lost = (): void => {
    setLink(false);
    failures += 1;
    const nowMs = performance.now();
    if (downSinceMs === null) downSinceMs = nowMs;
    else if (nowMs - downSinceMs > reloadAfterMs) reloadWhenServerAnswers();
    const capped = Math.min(maxRetryMs, firstRetryMs * Math.pow(2, failures - 1));
    retryTimer = setTimeout(run, capped * (0.75 + Math.random() * 0.5));
  };

  // Back on the network (laptop lid, Wi-Fi): try at once rather than wait out the backoff.
  window.addEventListener('online', () => {
    if (retryTimer === null) return;
    clearTimeout(retryTimer);
    run();
  });

  run();
}
