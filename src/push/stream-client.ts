// One open push stream. It owns a bounded queue so that a slow or dead reader
// can never stall the hub or grow memory without bound: the stream itself holds
// at most `highWaterMark` chunks, a small backlog holds what did not fit, and
// when the backlog overflows it is coalesced to the latest state event (seq
// still rises, and the last state is never dropped).
import { allowedSafely, PushBacklog } from './push-backlog.js';
import type { PushChunk } from './push-chunk.js';

export interface StreamClientOptions {
  /** Chunks the stream may hold before the hub keeps them in the backlog instead. */
  readonly highWaterMark: number;
  /** Backlog length beyond which the backlog is coalesced to the latest state. */
  readonly maxBacklog: number;
  /** Monotonic milliseconds, to tell how long a reader has taken nothing. */
  readonly nowMs: () => number;
  /** Checked at every heartbeat: false ends the stream (a rotated key, for example). */
  readonly stillAllowed: () => boolean;
  /** Called once when the stream ends, whichever side ended it. */
  readonly onEnd: (client: StreamClient) => void;
}

export class StreamClient {
  readonly stream: ReadableStream<Uint8Array>;
  /** Seq of the newest state event handed to this client (enqueued or backlogged). */
  sentSeq = 0;
  readonly #opts: StreamClientOptions;
  #controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  readonly #backlog: PushBacklog;
  #ended = false;
  /** Queue length when last looked at, to tell a reader's progress from new chunks. */
  #observedQueue = 0;

  constructor(opts: StreamClientOptions) {
    this.#opts = opts;
    this.#backlog = new PushBacklog(opts.maxBacklog, opts.nowMs);
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        // Called whenever there is room in the queue: after the reader took a chunk, but also
        // right after an enqueue that left room. Only a shorter (or empty) queue means a reader.
        pull: () => {
          const queued = this.queuedLength;
          if (queued === 0 || queued < this.#observedQueue) this.#backlog.readerTook();
          this.#observedQueue = queued;
          this.#flushBacklog();
        },
        // The reader went away (the HTTP client disconnected).
        cancel: () => {
          this.#finish();
        },
      },
      new CountQueuingStrategy({ highWaterMark: opts.highWaterMark }),
    );
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Chunks waiting in this client's backlog (not yet in the stream). */
  get backlogLength(): number {
    return this.#backlog.length;
  }

  /** Chunks in the stream's own queue, not yet taken by the reader. */
  get queuedLength(): number {
    if (this.#ended) return 0;
    const desired = this.#controller?.desiredSize ?? 0;
    return Math.max(0, this.#opts.highWaterMark - desired);
  }

  /** How many times the backlog was coalesced because the reader lagged. */
  get coalescedCount(): number {
    return this.#backlog.coalescedCount;
  }

  send(chunk: PushChunk): void {
    if (this.#ended) return;
    if (chunk.seq !== null) this.sentSeq = chunk.seq;
    if (this.#backlog.length === 0 && this.#hasRoom()) {
      this.#enqueue(chunk);
      return;
    }
    this.#backlog.add(chunk);
  }

  /** True when the reader has had data waiting and taken nothing for longer than `limitMs`. */
  stalledFor(limitMs: number): boolean {
    return this.#backlog.stalledFor(limitMs, this.queuedLength);
  }

  isAllowed(): boolean {
    return allowedSafely(this.#opts.stillAllowed);
  }

  /** Ends the stream from the server side; what is already queued is still delivered. */
  end(): void {
    if (this.#ended) return;
    try {
      this.#controller?.close();
    } catch {
      // Already closed or errored by the reader: nothing left to end.
    }
    this.#finish();
  }

  #hasRoom(): boolean {
    return (this.#controller?.desiredSize ?? 0) > 0;
  }

  #enqueue(chunk: PushChunk): void {
    try {
      this.#controller?.enqueue(chunk.bytes);
      this.#observedQueue = this.queuedLength;
    } catch {
      // The stream closed under us (reader cancelled between checks): treat as gone.
      this.#finish();
    }
  }

  #flushBacklog(): void {
    while (!this.#ended && this.#backlog.length > 0 && this.#hasRoom()) {
      const next = this.#backlog.take();
      if (next !== undefined) this.#enqueue(next);
    }
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#backlog.clear();
    this.#opts.onEnd(this);
  }
}
