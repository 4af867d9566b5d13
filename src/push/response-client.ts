// One push stream written straight to its Node HTTP response. The hub hands
// every change to hundreds of streams at once; going through a web
// ReadableStream, the adapter's read loop and chunked framing cost more than the
// write itself (a change reached the last of 500 screens a third later; see
// BENCHMARKS.md). Same rules as StreamClient: the socket's own buffer plus a
// small backlog, coalesced to the latest state when the reader lags, so a slow
// or dead reader never stalls the hub or grows memory without bound.
import { allowedSafely, PushBacklog } from './push-backlog.js';
import type { PushChunk } from './stream-client.js';

/** What is used of the Node response (http.ServerResponse), headers already written. */
export interface ResponseSink {
  /** False when the socket's buffer is full: wait for 'drain'. */
  write(chunk: Uint8Array): boolean;
  end(): void;
  /** Bytes accepted but not yet handed to the kernel. */
  readonly writableLength: number;
  readonly destroyed: boolean;
  once(event: 'drain', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface ResponseClientOptions {
  /** Backlog length beyond which the backlog is coalesced to the latest state. */
  readonly maxBacklog: number;
  /** Monotonic milliseconds, to tell how long a reader has taken nothing. */
  readonly nowMs: () => number;
  /** Checked at every heartbeat: false ends the stream (a rotated key, for example). */
  readonly stillAllowed: () => boolean;
  /** Called once when the stream ends, whichever side ended it. */
  readonly onEnd: (client: ResponseClient) => void;
}

export class ResponseClient {
  /** Seq of the newest state event handed to this client (written or backlogged). */
  sentSeq = 0;
  readonly #sink: ResponseSink;
  readonly #opts: ResponseClientOptions;
  readonly #backlog: PushBacklog;
  #waitingForDrain = false;
  #ended = false;

  constructor(sink: ResponseSink, opts: ResponseClientOptions) {
    this.#sink = sink;
    this.#opts = opts;
    this.#backlog = new PushBacklog(opts.maxBacklog, opts.nowMs);
    // The reader went away (or the connection was cut).
    sink.on('close', () => this.#finish());
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Chunks waiting in this client's backlog (not yet written). */
  get backlogLength(): number {
    return this.#backlog.length;
  }

  /** How many times the backlog was coalesced because the reader lagged. */
  get coalescedCount(): number {
    return this.#backlog.coalescedCount;
  }

  send(chunk: PushChunk): void {
    if (this.#ended) return;
    if (chunk.seq !== null) this.sentSeq = chunk.seq;
    if (this.#backlog.length === 0 && !this.#waitingForDrain) {
      this.#write(chunk);
      return;
    }
    this.#backlog.add(chunk);
  }

  /** True when the reader has had data waiting and taken nothing for longer than `limitMs`. */
  stalledFor(limitMs: number): boolean {
    return !this.#ended && this.#backlog.stalledFor(limitMs, this.#sink.writableLength);
  }

  isAllowed(): boolean {
    return allowedSafely(this.#opts.stillAllowed);
  }

  /** Ends the stream from the server side; what is already written is still delivered. */
  end(): void {
    if (this.#ended) return;
    try {
      this.#sink.end();
    } catch {
      // The connection is already gone: nothing left to end.
    }
    this.#finish();
  }

  #write(chunk: PushChunk): void {
    if (this.#sink.destroyed) {
      this.#finish();
      return;
    }
    let room: boolean;
    try {
      room = this.#sink.write(chunk.bytes);
    } catch {
      this.#finish();
      return;
    }
    // Taken by the kernel at once: the reader keeps up.
    if (this.#sink.writableLength === 0) this.#backlog.readerTook();
    if (!room) {
      this.#waitingForDrain = true;
      this.#sink.once('drain', () => this.#drained());
    }
  }

  #drained(): void {
    this.#waitingForDrain = false;
    this.#backlog.readerTook();
    while (!this.#ended && !this.#waitingForDrain && this.#backlog.length > 0) {
      const next = this.#backlog.take();
      if (next !== undefined) this.#write(next);
    }
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#backlog.clear();
    this.#opts.onEnd(this);
  }
}
