// What the hub hands every stream (stream-client.ts, response-client.ts) and what a
// lagging one's backlog holds (push-backlog.ts): a module of its own, so that those
// files need not import each other.
/** A chunk as the hub shares it: the same bytes go to every client. */
export interface PushChunk {
  readonly bytes: Uint8Array;
  /** The seq of a state or patch event; null for a heartbeat, which may be dropped when a client lags. */
  readonly seq: number | null;
  /** For a delta: the whole snapshot it makes, which a backlog that drops the deltas before it sends instead. */
  readonly whole?: () => PushChunk;
}
