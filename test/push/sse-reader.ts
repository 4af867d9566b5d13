// Reads a push stream in tests: raw chunks as they arrive, parsed into events.
import { createSseParser, type SseEvent } from '../../src/client/sse-parser.js';
import type { PublicSnapshot, Snapshot } from '../../src/domain/snapshot.js';
import { applyDelta, isSnapshotDelta } from '../../src/domain/snapshot-delta.js';

export interface StreamReader {
  readonly events: SseEvent[];
  readonly comments: string[];
  readonly chunks: Uint8Array[];
  /** All text received so far. */
  text(): string;
  /** Resolves once `count` events arrived; rejects after `timeoutMs`. */
  waitForEvents(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  waitForComments(count: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves when the stream ends. */
  readonly ended: Promise<void>;
  cancel(): Promise<void>;
}

export function stateOf(event: SseEvent): Snapshot {
  return JSON.parse(event.data) as Snapshot;
}

/**
 * The snapshot after each state or patch event, as a client rebuilds it: a state
 * event is the whole snapshot, a patch is applied to the one before (and must
 * apply: a delta from another snapshot fails the test). Other events are skipped.
 */
export function rebuild<S extends Snapshot | PublicSnapshot = Snapshot>(events: readonly SseEvent[]): S[] {
  const out: S[] = [];
  let current: S | null = null;
  for (const event of events) {
    if (event.event === 'state') current = JSON.parse(event.data) as S;
    else if (event.event === 'patch') {
      const delta: unknown = JSON.parse(event.data);
      if (!isSnapshotDelta(delta) || current === null) throw new Error(`a patch with nothing to apply it to: ${event.data.slice(0, 200)}`);
      const next: S | null = applyDelta(current, delta);
      if (next === null) throw new Error(`a patch from seq ${delta.from} on a stream at seq ${current.seq}`);
      current = next;
    } else continue;
    out.push(current);
  }
  return out;
}

export function readStream(stream: ReadableStream<Uint8Array>): StreamReader {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const chunks: Uint8Array[] = [];
  const decoder = new TextDecoder();
  let all = '';
  const parse = createSseParser(
    (e) => events.push(e),
    (c) => comments.push(c),
  );
  const reader = stream.getReader();
  const ended = (async () => {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        return;
      }
      if (result.done) return;
      chunks.push(result.value);
      const text = decoder.decode(result.value, { stream: true });
      all += text;
      parse(text);
    }
  })();

  const waitFor = async <T>(list: T[], count: number, timeoutMs: number): Promise<T[]> => {
    const deadline = Date.now() + timeoutMs;
    while (list.length < count) {
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${count} items, got ${list.length}: ${all.slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return list.slice(0, count);
  };

  return {
    events,
    comments,
    chunks,
    text: () => all,
    waitForEvents: (count, timeoutMs = 2000) => waitFor(events, count, timeoutMs),
    waitForComments: (count, timeoutMs = 2000) => waitFor(comments, count, timeoutMs),
    ended,
    cancel: async () => {
      await reader.cancel().catch(() => {});
    },
  };
}
