// The push hub: owns every open push stream (consoles, viewers, the kiosk) and
// fans each room change out to them. A change is serialised once and the same
// bytes go to every stream. Changes made in one synchronous burst are sent as
// the burst's final state (decided in a microtask after the room settles), so
// seq always rises on every stream and the last state is never dropped. A
// heartbeat comment keeps idle connections open; the same tick drops streams
// whose reader stalled or whose key is no longer valid.
import type { RoomListener } from '../app/room-service.js';
import type { Snapshot } from '../domain/snapshot.js';
import { encodeChunk, HEARTBEAT, stateEvent } from './sse-format.js';
import { ResponseClient, type ResponseSink } from './response-client.js';
import { StreamClient, type PushChunk } from './stream-client.js';

/** A stream the hub writes to: a web ReadableStream (StreamClient) or a Node response (ResponseClient). */
export type PushClient = StreamClient | ResponseClient;

/** What the hub needs of the room service. */
export interface SnapshotSource {
  subscribe(listener: RoomListener): () => void;
  snapshot(): Snapshot;
}

/** Runs a callback every `ms`; tests pass one they tick by hand. */
export interface Repeater {
  every(ms: number, run: () => void): { cancel(): void };
}

export const intervalRepeater: Repeater = {
  every(ms, run) {
    const handle = setInterval(run, ms);
    // The heartbeat alone must never keep the process alive at shutdown.
    handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};

export interface PushHubOptions {
  readonly source: SnapshotSource;
  /** Heartbeat comment interval; 15 s by default. */
  readonly heartbeatMs?: number;
  /** Chunks a stream may hold before its backlog takes over. */
  readonly highWaterMark?: number;
  /** Backlog length per stream before it is coalesced to the latest state. */
  readonly maxBacklog?: number;
  /** A stream whose reader takes nothing for this long while data waits is dropped. */
  readonly stallLimitMs?: number;
  /** Streams beyond this are refused, so a flood of connections cannot exhaust the box. */
  readonly maxClients?: number;
  readonly nowMs?: () => number;
  readonly repeater?: Repeater;
  /** A failure while fanning out (it runs outside any request) is reported here, never thrown. */
  readonly onError?: (error: unknown) => void;
}

export interface OpenOptions {
  /** A stream opened with the API key (a console): it also gets the hub's notice (see setNotice). */
  readonly control?: boolean;
  /** Checked at every heartbeat; false ends the stream (the key it was opened with was rotated). */
  readonly stillAllowed?: () => boolean;
  /** Tears down the connection under a stalled stream (the socket), which closing the stream cannot reach. */
  readonly abortConnection?: () => void;
}

export const HEARTBEAT_MS = 15_000;

export class PushHub {
  readonly #source: SnapshotSource;
  readonly #heartbeatMs: number;
  readonly #highWaterMark: number;
  readonly #maxBacklog: number;
  readonly #stallLimitMs: number;
  readonly #maxClients: number;
  readonly #nowMs: () => number;
  readonly #repeater: Repeater;
  readonly #onError: (error: unknown) => void;
  readonly #clients = new Set<PushClient>();
  readonly #aborts = new WeakMap<PushClient, () => void>();
  readonly #control = new WeakSet<PushClient>();
  #notice: PushChunk | null = null;
  readonly #heartbeatChunk: PushChunk = { bytes: encodeChunk(HEARTBEAT), seq: null };
  #unsubscribe: (() => void) | null = null;
  #heartbeat: { cancel(): void } | null = null;
  #flushQueued = false;
  #closed = false;
  #serialized = 0;

  constructor(opts: PushHubOptions) {
    this.#source = opts.source;
    this.#heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.#highWaterMark = opts.highWaterMark ?? 16;
    this.#maxBacklog = opts.maxBacklog ?? 64;
    this.#stallLimitMs = opts.stallLimitMs ?? 60_000;
    this.#maxClients = opts.maxClients ?? 500;
    this.#nowMs = opts.nowMs ?? (() => performance.now());
    this.#repeater = opts.repeater ?? intervalRepeater;
    this.#onError = opts.onError ?? (() => {});
  }

  start(): void {
    if (this.#unsubscribe !== null || this.#closed) return;
    this.#unsubscribe = this.#source.subscribe(() => this.#changed());
  }

  /** Ends every stream and refuses new ones; the HTTP server can then close. */
  close(): void {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    for (const client of [...this.#clients]) client.end();
    this.#stopHeartbeat();
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  /** How many state events were serialised so far (once per change, however many streams). */
  get serializedCount(): number {
    return this.#serialized;
  }

  get clients(): readonly PushClient[] {
    return [...this.#clients];
  }

  /**
   * Opens a stream that starts with the current snapshot (made now, so its
   * serverNow is fresh), then carries every change. Null when the hub is closed
   * or full.
   */
  open(opts: OpenOptions = {}): StreamClient | null {
    if (!this.canOpen) return null;
    const client = new StreamClient({
      highWaterMark: this.#highWaterMark,
      maxBacklog: this.#maxBacklog,
      nowMs: this.#nowMs,
      stillAllowed: opts.stillAllowed ?? (() => true),
      onEnd: (ended) => this.#remove(ended),
    });
    return this.#admit(client, opts);
  }

  /** False when open() and openOn() would refuse a stream: the hub is closed or full. */
  get canOpen(): boolean {
    return !this.#closed && this.#clients.size < this.#maxClients;
  }

  /**
   * As open(), writing straight to a Node response whose headers are already
   * written (see ResponseClient): what the HTTP server uses. Null when the hub
   * is closed or full (check canOpen before writing the headers).
   */
  openOn(sink: ResponseSink, opts: OpenOptions = {}): ResponseClient | null {
    if (!this.canOpen) return null;
    const client = new ResponseClient(sink, {
      maxBacklog: this.#maxBacklog,
      nowMs: this.#nowMs,
      stillAllowed: opts.stillAllowed ?? (() => true),
      onEnd: (ended) => this.#remove(ended),
    });
    return this.#admit(client, opts);
  }

  /**
   * An event for the control streams only, sent now and to every control stream
   * that opens later, until it is replaced (the storage health: not for viewers).
   */
  setNotice(eventText: string): void {
    this.#notice = { bytes: encodeChunk(eventText), seq: null };
    for (const client of this.#clients) if (this.#control.has(client)) client.send(this.#notice);
  }

  #admit<C extends PushClient>(client: C, opts: OpenOptions): C {
    if (opts.abortConnection !== undefined) this.#aborts.set(client, opts.abortConnection);
    if (opts.control === true) this.#control.add(client);
    const snapshot = this.#source.snapshot();
    client.send({ bytes: encodeChunk(stateEvent(snapshot)), seq: snapshot.seq });
    if (opts.control === true && this.#notice !== null) client.send(this.#notice);
    // The connection may be gone already (closed before its first write): nothing to keep.
    if (client.ended) return client;
    this.#clients.add(client);
    this.#heartbeat ??= this.#repeater.every(this.#heartbeatMs, () => {
      try {
        this.#tick();
      } catch (error) {
        this.#onError(error);
      }
    });
    return client;
  }

  /** Ends now every stream whose key is no longer valid (call it when keys are rotated). */
  revalidate(): void {
    for (const client of [...this.#clients]) if (!client.isAllowed()) client.end();
  }

  #changed(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // After the current synchronous work: the listener loop of the room service has
    // finished, so reading the snapshot here cannot re-enter it out of order.
    queueMicrotask(() => {
      this.#flushQueued = false;
      try {
        this.#broadcast();
      } catch (error) {
        this.#onError(error);
      }
    });
  }

  #broadcast(): void {
    if (this.#closed || this.#clients.size === 0) return;
    const snapshot = this.#source.snapshot();
    let chunk: PushChunk | null = null;
    for (const client of [...this.#clients]) {
      if (client.sentSeq >= snapshot.seq) continue;
      if (chunk === null) {
        chunk = { bytes: encodeChunk(stateEvent(snapshot)), seq: snapshot.seq };
        this.#serialized += 1;
      }
      client.send(chunk);
    }
  }

  #tick(): void {
    for (const client of [...this.#clients]) {
      if (!client.isAllowed()) {
        client.end();
      } else if (client.stalledFor(this.#stallLimitMs)) {
        // A reader that takes nothing will not take the close either: cut the connection.
        this.#aborts.get(client)?.();
        client.end();
      } else {
        client.send(this.#heartbeatChunk);
      }
    }
  }

  #remove(client: PushClient): void {
    this.#clients.delete(client);
    this.#aborts.delete(client);
    if (this.#clients.size === 0) this.#stopHeartbeat();
  }

  #stopHeartbeat(): void {
    this.#heartbeat?.cancel();
    this.#heartbeat = null;
  }
}
