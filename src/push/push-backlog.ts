// What a push stream holds back while its reader is behind: bounded, and
// coalesced to the newest state event when it overflows, since only the latest
// state matters to a screen (heartbeats and older states in between are dropped).
// It also keeps the time the reader last took something, which tells a stalled
// reader from a slow one. Both kinds of stream (web ReadableStream and raw Node
// response) keep to it.
import type { PushChunk } from './push-chunk.js';

export class PushBacklog {
  readonly #max: number;
  readonly #nowMs: () => number;
  #chunks: PushChunk[] = [];
  #coalesced = 0;
  #lastTakenMs: number;

  constructor(max: number, nowMs: () => number) {
    this.#max = max;
    this.#nowMs = nowMs;
    this.#lastTakenMs = nowMs();
  }

  get length(): number {
    return this.#chunks.length;
  }

  /** How many times the backlog was coalesced because the reader lagged. */
  get coalescedCount(): number {
    return this.#coalesced;
  }

  add(chunk: PushChunk): void {
    this.#chunks.push(chunk);
    if (this.#chunks.length > this.#max) {
      const latest = this.#chunks.reduce<PushChunk | null>((found, c) => (c.seq === null ? found : c), null);
      // A delta needs the events before it, which are dropped here: the whole snapshot goes instead.
      this.#chunks = latest === null ? [] : [latest.whole?.() ?? latest];
      this.#coalesced += 1;
    }
  }

  /** The oldest chunk held back, removed from the backlog. */
  take(): PushChunk | undefined {
    return this.#chunks.shift();
  }

  clear(): void {
    this.#chunks = [];
  }

  /** The reader took what was waiting for it (or there was nothing): its stall clock restarts. */
  readerTook(): void {
    this.#lastTakenMs = this.#nowMs();
  }

  /**
   * True when data has waited, here or `inTransport` (the stream's own queue, the
   * socket's buffer), and the reader has taken nothing for longer than `limitMs`.
   */
  stalledFor(limitMs: number, inTransport: number): boolean {
    const waiting = this.#chunks.length > 0 || inTransport > 0;
    return waiting && this.#nowMs() - this.#lastTakenMs > limitMs;
  }
}

/** Asks whether a stream may go on; a check that throws means no. */
export function allowedSafely(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
