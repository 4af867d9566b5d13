// Another room's box as the venue watch sees it, in process: a fetch that answers
// /view/{key}/events with a stream the test writes to (or closes, or lets go silent)
// and /view/{key}/time with a clock some seconds off, after round trips the test
// chooses. Runs on vitest's fake timers: nothing here waits on the real clock.
import type { PublicSnapshot } from '../../src/domain/snapshot.js';
import type { WatchIo } from '../../src/venue/room-watch.js';
import { venueProof } from '../../src/venue/venue-proof.js';

export interface FakeStream {
  readonly url: string;
  send(text: string): void;
  close(): void;
  readonly aborted: boolean;
}

export interface FakeRemote {
  readonly io: WatchIo;
  readonly streams: FakeStream[];
  readonly requests: string[];
  /** The status /events answers (200, 401, ...). */
  status: number;
  /** The remote clock minus the local one. */
  offsetMs: number;
  /** One [up, down] delay pair per time request, in turn; the last one repeats. */
  delays: [number, number][];
  room: string;
  /** Whether fetch fails as a refused connection. */
  down: boolean;
  /** The venue key the box proves it holds on /venue-proof; null: it has none (404). */
  proofKey: string | null;
  /** The address the box says it was asked at (its socket's local side): the request's own unless set (a relay). */
  proofHost: string | null;
}

const encoder = new TextEncoder();

function abortError(): Error {
  const error = new Error('This operation was aborted');
  error.name = 'AbortError';
  return error;
}

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function fakeRemote(): FakeRemote {
  const streams: FakeStream[] = [];
  const requests: string[] = [];
  let timeRequests = 0;
  const remote: FakeRemote = {
    streams,
    requests,
    status: 200,
    offsetMs: 5_000,
    delays: [[1, 1]],
    room: 'Hall A',
    down: false,
    proofKey: null,
    proofHost: null,
    io: {
      perfNow: () => Date.now(),
      serverNow: () => Date.now(),
      random: () => 0.5,
      fetch: async (url, init) => {
        requests.push(url);
        if (remote.down) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
        if (url.includes('/venue-proof?')) {
          const parsed = new URL(url);
          if (remote.proofKey === null) return new Response('{"ok":false}', { status: 404 });
          const proof = venueProof(remote.proofKey, parsed.searchParams.get('nonce') ?? '', remote.proofHost ?? parsed.host);
          return new Response(JSON.stringify({ proof }), { headers: { 'Content-Type': 'application/json' } });
        }
        if (url.endsWith('/time')) {
          const [up, down] = remote.delays[Math.min(timeRequests, remote.delays.length - 1)] ?? [1, 1];
          timeRequests += 1;
          await later(up);
          const serverNow = Date.now() + remote.offsetMs;
          await later(down);
          return new Response(JSON.stringify({ serverNow, room: remote.room }), { headers: { 'Content-Type': 'application/json' } });
        }
        if (remote.status !== 200) return new Response('{"ok":false}', { status: remote.status });
        let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
        let aborted = false;
        const body = new ReadableStream<Uint8Array>({
          start: (c) => {
            controller = c;
          },
        });
        init.signal.addEventListener('abort', () => {
          aborted = true;
          try {
            controller?.error(abortError());
          } catch {
            // Closed already.
          }
        });
        streams.push({
          url,
          send: (text) => {
            if (!aborted) controller?.enqueue(encoder.encode(text));
          },
          close: () => controller?.close(),
          get aborted() {
            return aborted;
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
      },
    },
  };
  return remote;
}

/** A viewer snapshot as a box's stream carries it, with what the test sets. */
export function viewerSnapshot(fields: Partial<PublicSnapshot> = {}): PublicSnapshot {
  const base = {
    seq: 1,
    serverNow: Date.now(),
    running: false,
    endAt: null,
    remainingAtPause: 600_000,
    remaining: 600_000,
    zeroBehavior: 'continue',
    autoAdvance: false,
    blackout: false,
    onAir: false,
    activeTimerId: 't1',
    activeLabel: 'Keynote',
    activeSpeaker: '',
    warnAt: 60_000,
    dangerAt: 0,
    duration: 600_000,
    message: null,
    timers: [{ id: 't1', label: 'Keynote', speaker: '', duration: 600_000, warnAt: 60_000, dangerAt: 0, appearance: 'countdown', tagId: null, scheduledAt: null, endsAt: null }],
  };
  return { ...base, ...fields } as unknown as PublicSnapshot;
}

export function stateEventText(snapshot: PublicSnapshot): string {
  return `id: ${snapshot.seq}\nevent: state\ndata: ${JSON.stringify(snapshot)}\n\n`;
}
