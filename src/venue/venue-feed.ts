// The overview's push streams (/venue/{venue_key}/events): every tile as one `venue`
// event, the whole list at each burst of changes (VenueRooms gathers them), and a
// heartbeat comment every 2 s so the page tells a dead link from a quiet venue within
// seconds. Each stream is the push hub's own StreamClient (src/push): bounded, a
// lagging reader's backlog coalesced to the newest list, a reader that takes nothing
// for 30 s dropped. Its own small budget: an overview is a few screens, not an audience.
import { encodeChunk, HEARTBEAT } from '../push/sse-format.js';
import type { PushChunk } from '../push/push-chunk.js';
import { StreamClient } from '../push/stream-client.js';
import { VENUE_EVENT, type VenueTiles } from '../client/venue-tile.js';

export const VENUE_HEARTBEAT_MS = 2_000;
export const MAX_VENUE_STREAMS = 32;
const STALL_MS = 30_000;

export interface TileSource {
  tiles(): VenueTiles;
  subscribe(listener: (tiles: VenueTiles) => void): () => void;
}

export interface VenueFeedOptions {
  readonly source: TileSource;
  /** Whether the streams may go on (the venue key unchanged); checked at every heartbeat. */
  readonly stillAllowed: () => boolean;
  readonly maxStreams?: number;
  readonly heartbeatMs?: number;
  readonly nowMs?: () => number;
}

export class VenueFeed {
  readonly #opts: VenueFeedOptions;
  readonly #clients = new Set<StreamClient>();
  readonly #heartbeat: PushChunk = { bytes: encodeChunk(HEARTBEAT), seq: null };
  readonly #unsubscribe: () => void;
  #seq = 0;
  #timer: ReturnType<typeof setInterval> | null = null;
  #closed = false;

  constructor(opts: VenueFeedOptions) {
    this.#opts = opts;
    this.#unsubscribe = opts.source.subscribe((tiles) => this.#send(this.#chunk(tiles)));
  }

  get streamCount(): number {
    return this.#clients.size;
  }

  /** A new stream starting with every tile as it is now; null when the feed is closed or its budget spent. */
  open(): StreamClient | null {
    if (this.#closed || this.#clients.size >= (this.#opts.maxStreams ?? MAX_VENUE_STREAMS)) return null;
    const client = new StreamClient({
      highWaterMark: 8,
      maxBacklog: 16,
      nowMs: this.#opts.nowMs ?? (() => performance.now()),
      stillAllowed: this.#opts.stillAllowed,
      onEnd: (ended) => this.#remove(ended),
    });
    client.send(this.#chunk(this.#opts.source.tiles()));
    this.#clients.add(client);
    if (this.#timer === null) {
      this.#timer = setInterval(() => this.#tick(), this.#opts.heartbeatMs ?? VENUE_HEARTBEAT_MS);
      this.#timer.unref();
    }
    return client;
  }

  close(): void {
    this.#closed = true;
    this.#unsubscribe();
    for (const client of [...this.#clients]) client.end();
    this.#stop();
  }

  #chunk(tiles: VenueTiles): PushChunk {
    this.#seq += 1;
    return { bytes: encodeChunk(`id: ${this.#seq}\nevent: ${VENUE_EVENT}\ndata: ${JSON.stringify(tiles)}\n\n`), seq: this.#seq };
  }

  #send(chunk: PushChunk): void {
    for (const client of this.#clients) client.send(chunk);
  }

  #tick(): void {
    for (const client of [...this.#clients]) {
      if (!client.isAllowed() || client.stalledFor(STALL_MS)) client.end();
      else client.send(this.#heartbeat);
    }
  }

  #remove(client: StreamClient): void {
    this.#clients.delete(client);
    if (this.#clients.size === 0) this.#stop();
  }

  #stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}
