// What a push stream holds back while its reader is behind: bounded, and
// coalesced to the newest state event when it overflows, since only the latest
// state matters to a screen (heartbeats and older states in between are dropped).
// Both kinds of stream (web ReadableStream and raw Node response) keep to it.
import type { PushChunk } from './stream-client.js';

export class PushBacklog {
  readonly #max: number;
  #chunks: PushChunk[] = [];
  #coalesced = 0;

  constructor(max: number) {
    this.#max = max;
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
      this.#chunks = latest === null ? [] : [latest];
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
}
