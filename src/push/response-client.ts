// One push stream written straight to its Node HTTP response. The hub hands
// every change to hundreds of streams at once; going through a web
// ReadableStream, the adapter's read loop and chunked framing cost more than the
// write itself (a change reached the last of 500 screens a third later; see
// BENCHMARKS.md). Same rules as StreamClient: the socket's own buffer plus a
// small backlog, coalesced to the latest state when the reader lags, so a slow
// or dead reader never stalls the hub or grows memory without bound. Where the
// kernel says how much of what was written the peer has acknowledged
// (tcp-send-queues.ts), that is what tells a reader from a dead or stuck one.
import { allowedSafely, PushBacklog } from './push-backlog.js';
import type { PushChunk } from './push-chunk.js';
import { connectionKey, type SendQueues, type StreamSocket } from './tcp-send-queues.js';

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
  /** The connection underneath, to find it in the kernel's tables; absent in tests. */
  readonly socket?: StreamSocket | WritableSocket | null;
}

/** The socket's own writes (net.Socket), which the events take once the response has sent its headers. */
export interface WritableSocket extends StreamSocket {
  /** False when its buffer is full: wait for 'drain'. */
  write(chunk: Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
  readonly destroyed: boolean;
}

function writable(socket: StreamSocket | WritableSocket | null | undefined): socket is WritableSocket {
  return socket !== undefined && socket !== null && typeof (socket as Partial<WritableSocket>).write === 'function';
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
  /**
   * The socket itself, once the response's headers and everything it held went
   * to it: each event is then one plain socket write. Through the response, every
   * write also corks the socket and uncorks it in a tick of its own, for 500
   * streams 500 ticks per change (BENCHMARKS.md). Null until then, and in tests
   * whose response has no socket.
   */
  #raw: WritableSocket | null = null;
  /** The connection as the kernel's tables name it; null without a socket. */
  readonly connectionKey: string | null;
  /** Set once the kernel has told about this connection: from then on only an acknowledgement counts as reading. */
  #kernelView = false;
  /** At the last look into the kernel's table: bytes waiting to be acknowledged, and bytes acknowledged. */
  #unacked = 0;
  #acked = -1;

  constructor(sink: ResponseSink, opts: ResponseClientOptions) {
    this.#sink = sink;
    this.#opts = opts;
    this.#backlog = new PushBacklog(opts.maxBacklog, opts.nowMs);
    this.connectionKey = sink.socket === undefined || sink.socket === null ? null : connectionKey(sink.socket);
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
    return !this.#ended && this.#backlog.stalledFor(limitMs, this.#sink.writableLength + this.#unacked);
  }

  /**
   * Takes the kernel's count of this connection's unacknowledged bytes (read at
   * each heartbeat). The peer took something when that count is zero or the
   * acknowledged total moved since the last look; a peer that is gone, or whose
   * window is full because it never reads, moves neither, and the stall clock runs.
   * Null (the table could not be read): Node's own buffer decides, as without one.
   */
  observeSendQueue(queues: SendQueues | null): void {
    const socket = this.#sink.socket;
    if (this.#ended || this.connectionKey === null || socket === undefined || socket === null) return;
    const unacked = queues?.get(this.connectionKey);
    // Not in the table (closing, or another namespace): Node's own buffer decides.
    if (unacked === undefined) {
      this.#kernelView = false;
      this.#unacked = 0;
      return;
    }
    // What the kernel took (Node's buffer aside), less what it still waits to have acknowledged.
    const acked = socket.bytesWritten - socket.writableLength - unacked;
    if (unacked === 0 || acked !== this.#acked) this.#backlog.readerTook();
    this.#acked = acked;
    this.#unacked = unacked;
    this.#kernelView = true;
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
    const out = this.#raw ?? this.#sink;
    if (out.destroyed) {
      this.#finish();
      return;
    }
    let room: boolean;
    try {
      room = out.write(chunk.bytes);
    } catch {
      this.#finish();
      return;
    }
    if (this.#raw === null) this.#takeSocket();
    // Taken by the kernel at once: the reader keeps up. Unless the kernel tells what
    // the peer acknowledged: it takes writes to a dead peer at once too.
    if (!this.#kernelView && this.#sink.writableLength === 0) this.#backlog.readerTook();
    if (!room) {
      this.#waitingForDrain = true;
      // The socket's drain: the response announces one only after its own write came back false.
      out.once('drain', () => this.#drained());
    }
  }

  /**
   * After a write through the response: from now on the socket, if the response
   * holds nothing of its own (its headers went out with that write). A response
   * still queued behind an earlier one on its connection holds its bytes until
   * then; writing past it would put events before the headers, so it keeps the
   * response's path until a later write finds it empty.
   */
  #takeSocket(): void {
    const socket = this.#sink.socket;
    if (writable(socket) && this.#sink.writableLength === socket.writableLength) this.#raw = socket;
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
