// The push hub: owns every open push stream (consoles, viewers, the kiosk) and
// fans each room change out to them. A stream starts with the full snapshot;
// each change then goes as a delta of the snapshot the stream last got
// (snapshot-delta.ts), so a change costs what changed. A delta is serialised once
// per snapshot the streams hold (nearly always one) and the same bytes go to
// every stream that holds it; a stream that holds another gets the full
// snapshot. Changes made in one synchronous burst are sent as the burst's
// final state (decided in a microtask after the room settles), so
// seq always rises on every stream and the last state is never dropped. A
// heartbeat comment keeps idle connections open; the same tick drops streams
// whose reader stalled or whose key is no longer valid, then asks the kernel
// what each connection left unacknowledged, which is how a peer that vanished
// or never reads is told from one that reads (tcp-send-queues.ts). Each kind of
// stream has its own budget (stream-budgets.ts): viewers cannot take the
// kiosk's or the consoles' streams.
import type { RoomChange, RoomListener } from '../app/room-service.js';
import { sameValue } from '../domain/same-value.js';
import { shownQuestion } from '../domain/questions.js';
import { publicSnapshot, streamSnapshot, type PublicSnapshot, type StreamSnapshot } from '../domain/snapshot.js';
import type { Snapshot } from '../domain/snapshot.js';
import { snapshotDelta } from '../domain/snapshot-delta.js';
import { encodeChunk, HEARTBEAT, patchEvent, stateEvent } from './sse-format.js';
import { ResponseClient, type ResponseSink } from './response-client.js';
import { StreamClient } from './stream-client.js';
import type { PushChunk } from './push-chunk.js';
import { StreamBudget, type Admission, type Refusal, type StreamBudgets, type StreamKind } from './stream-budgets.js';
import { readSendQueues, type SendQueues } from './tcp-send-queues.js';

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
  /**
   * A stream whose reader takes nothing for this long while data waits (in its
   * backlog, Node's buffer, or unacknowledged in the kernel) is dropped; 30 s by
   * default, which with the 15 s heartbeat drops a vanished peer within a minute.
   */
  readonly stallLimitMs?: number;
  /** Streams of each kind beyond these are refused (DEFAULT_BUDGETS for any not given). */
  readonly budgets?: Partial<StreamBudgets>;
  /** Reads the kernel's unacknowledged bytes per connection; /proc/net/tcp by default, null where there is none. */
  readonly sendQueues?: () => Promise<SendQueues | null>;
  readonly nowMs?: () => number;
  readonly repeater?: Repeater;
  /** A failure while fanning out (it runs outside any request) is reported here, never thrown. */
  readonly onError?: (error: unknown) => void;
}

export interface OpenOptions {
  /** Whose stream it is, for its budget; 'control' (opened with the API key) also gets the hub's notice (see setNotice). */
  readonly kind: StreamKind;
  /** Where a viewer stream comes from, for the per-address cap; none (the box itself, in process) means no cap. */
  readonly address?: string;
  /** Checked at every heartbeat; false ends the stream (the key it was opened with was rotated). */
  readonly stillAllowed?: () => boolean;
  /** Tears down the connection under a stalled stream (the socket), which closing the stream cannot reach. */
  readonly abortConnection?: () => void;
  /**
   * A heartbeat of its own, in whole seconds from 1 to HEARTBEAT_MS / 1000, for a
   * client that must tell a dead link within seconds (the Companion module):
   * its silence then means the link is gone. Others get the hub's 15 s heartbeat.
   */
  readonly heartbeatSeconds?: number;
}

export const HEARTBEAT_MS = 15_000;
/** The step of the streams with a heartbeat of their own (OpenOptions.heartbeatSeconds). */
const FAST_TICK_MS = 1_000;
/**
 * Bytes of one change written to streams per turn of the event loop (about a
 * millisecond of copying on a Pi 4): a 100-timer room's 130 KB snapshot goes to
 * 7 streams a turn, a usual 1 KB one to all of them at once. BENCHMARKS.md.
 */
export const BYTES_PER_TURN = 1_000_000;
export const STALL_LIMIT_MS = 30_000;
/** Snapshots kept, per kind of stream, to make deltas from: the last change's and those streams opened on since. */
const BASES_KEPT = 4;

/** Recent snapshots of one kind (full or public) by seq: what streams may hold, to make each change's delta from. */
class Bases<S extends StreamSnapshot | PublicSnapshot> {
  readonly #bySeq = new Map<number, S>();

  keep(snapshot: S): void {
    this.#bySeq.delete(snapshot.seq);
    this.#bySeq.set(snapshot.seq, snapshot);
    for (const seq of this.#bySeq.keys()) {
      if (this.#bySeq.size <= BASES_KEPT) break;
      this.#bySeq.delete(seq);
    }
  }

  /** The chunk for a stream that holds `seq`: the delta from it when it is known, else the whole snapshot. */
  chunkFor(seq: number, next: S, whole: () => PushChunk, made: Map<number, PushChunk>, serialised: () => void): PushChunk {
    const cached = made.get(seq);
    if (cached !== undefined) return cached;
    const base = this.#bySeq.get(seq);
    let chunk: PushChunk;
    if (base === undefined) chunk = whole();
    else {
      serialised();
      chunk = { bytes: encodeChunk(patchEvent(snapshotDelta(base, next))), seq: next.seq, whole };
    }
    made.set(seq, chunk);
    return chunk;
  }
}

export class PushHub {
  readonly #source: SnapshotSource;
  readonly #heartbeatMs: number;
  readonly #highWaterMark: number;
  readonly #maxBacklog: number;
  readonly #stallLimitMs: number;
  readonly #budget: StreamBudget;
  readonly #nowMs: () => number;
  readonly #repeater: Repeater;
  readonly #onError: (error: unknown) => void;
  readonly #clients = new Set<PushClient>();
  readonly #aborts = new WeakMap<PushClient, () => void>();
  readonly #admissions = new Map<PushClient, Admission>();
  /** Null once the kernel had no table to read (not Linux): not asked again. */
  #sendQueues: (() => Promise<SendQueues | null>) | null;
  #sampling = false;
  #notice: PushChunk | null = null;
  readonly #heartbeatChunk: PushChunk = { bytes: encodeChunk(HEARTBEAT), seq: null };
  #unsubscribe: (() => void) | null = null;
  #heartbeat: { cancel(): void } | null = null;
  /** The streams with a heartbeat of their own: every how many fast ticks, and the ticks since their last one. */
  readonly #fastBeats = new Map<PushClient, { every: number; since: number }>();
  #fastTick: { cancel(): void } | null = null;
  #flushQueued = false;
  /**
   * Whether a change since the last broadcast is one the viewer and kiosk streams
   * see. Audience questions come and are moderated without anything on the screens
   * changing; a crowd of them then costs the screens nothing.
   */
  #publicStale = false;
  /** Counts broadcasts; a sliced one stops when a newer one has begun. */
  #generation = 0;
  #closed = false;
  #serialized = 0;
  readonly #controlBases = new Bases<StreamSnapshot>();
  readonly #publicBases = new Bases<PublicSnapshot>();

  constructor(opts: PushHubOptions) {
    this.#source = opts.source;
    this.#heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.#highWaterMark = opts.highWaterMark ?? 16;
    this.#maxBacklog = opts.maxBacklog ?? 64;
    this.#stallLimitMs = opts.stallLimitMs ?? STALL_LIMIT_MS;
    this.#budget = new StreamBudget(opts.budgets);
    this.#sendQueues = opts.sendQueues ?? readSendQueues;
    this.#nowMs = opts.nowMs ?? (() => performance.now());
    this.#repeater = opts.repeater ?? intervalRepeater;
    this.#onError = opts.onError ?? (() => {});
  }

  start(): void {
    if (this.#unsubscribe !== null || this.#closed) return;
    this.#unsubscribe = this.#source.subscribe((change) => this.#changed(change));
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

  get budgets(): StreamBudgets {
    return this.#budget.limits;
  }

  /** Streams of this kind open now. */
  openOf(kind: StreamKind): number {
    return this.#budget.openOf(kind);
  }

  /** Why open() and openOn() would refuse this stream now; null when they would open it (check before writing headers). */
  refusal(kind: StreamKind, address?: string): Refusal | null {
    if (this.#closed) return 'closed';
    const admission = this.#budget.check(kind, address);
    return typeof admission === 'string' ? admission : null;
  }

  /**
   * Opens a stream that starts with the current snapshot (made now, so its
   * serverNow is fresh), then carries every change. Null when the hub is closed
   * or the stream's budget is spent (see refusal).
   */
  open(opts: OpenOptions): StreamClient | null {
    const admission = this.#admission(opts);
    if (admission === null) return null;
    const client = new StreamClient({
      highWaterMark: this.#highWaterMark,
      maxBacklog: this.#maxBacklog,
      nowMs: this.#nowMs,
      stillAllowed: opts.stillAllowed ?? (() => true),
      onEnd: (ended) => this.#remove(ended),
    });
    return this.#admit(client, opts, admission);
  }

  /**
   * As open(), writing straight to a Node response whose headers are already
   * written (see ResponseClient): what the HTTP server uses. Null when the hub
   * is closed or the stream's budget is spent (check refusal before writing the headers).
   */
  openOn(sink: ResponseSink, opts: OpenOptions): ResponseClient | null {
    const admission = this.#admission(opts);
    if (admission === null) return null;
    const client = new ResponseClient(sink, {
      maxBacklog: this.#maxBacklog,
      nowMs: this.#nowMs,
      stillAllowed: opts.stillAllowed ?? (() => true),
      onEnd: (ended) => this.#remove(ended),
    });
    return this.#admit(client, opts, admission);
  }

  /**
   * An event for the control streams only, sent now and to every control stream
   * that opens later, until it is replaced (the storage health: not for viewers).
   */
  setNotice(eventText: string): void {
    this.#notice = { bytes: encodeChunk(eventText), seq: null };
    for (const client of this.#clients) if (this.#admissions.get(client)?.kind === 'control') client.send(this.#notice);
  }

  #admission(opts: OpenOptions): Admission | null {
    if (this.#closed) return null;
    const admission = this.#budget.check(opts.kind, opts.address);
    return typeof admission === 'string' ? null : admission;
  }

  #admit<C extends PushClient>(client: C, opts: OpenOptions, admission: Admission): C {
    if (opts.abortConnection !== undefined) this.#aborts.set(client, opts.abortConnection);
    const snapshot = streamSnapshot(this.#source.snapshot());
    // The stream's first event is the whole snapshot, kept as a base for the deltas of the next change.
    if (opts.kind === 'control') {
      this.#controlBases.keep(snapshot);
      client.send({ bytes: encodeChunk(stateEvent(snapshot)), seq: snapshot.seq });
    } else {
      const shown = publicSnapshot(snapshot);
      this.#publicBases.keep(shown);
      client.send({ bytes: encodeChunk(stateEvent(shown)), seq: snapshot.seq });
    }
    if (opts.kind === 'control' && this.#notice !== null) client.send(this.#notice);
    // The connection may be gone already (closed before its first write): nothing to keep.
    if (client.ended) return client;
    this.#clients.add(client);
    this.#admissions.set(client, admission);
    this.#budget.take(admission);
    this.#heartbeat ??= this.#repeater.every(this.#heartbeatMs, () => {
      try {
        this.#tick();
      } catch (error) {
        this.#onError(error);
      }
    });
    const seconds = opts.heartbeatSeconds;
    if (seconds !== undefined && seconds * 1000 < this.#heartbeatMs) {
      this.#fastBeats.set(client, { every: Math.max(1, Math.round(seconds)), since: 0 });
      this.#fastTick ??= this.#repeater.every(FAST_TICK_MS, () => this.#beatFast());
    }
    return client;
  }

  /** Ends now every stream whose key is no longer valid (call it when keys are rotated). */
  revalidate(): void {
    for (const client of [...this.#clients]) if (!client.isAllowed()) client.end();
  }

  #changed(change: RoomChange | undefined): void {
    if (change === undefined || seenOnScreens(change)) this.#publicStale = true;
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
    const publicStale = this.#publicStale;
    this.#publicStale = false;
    if (this.#closed || this.#clients.size === 0) return;
    const snapshot = streamSnapshot(this.#source.snapshot());
    // Consoles get every change, questions and all; viewers and the kiosk only what their screens show.
    const control: PushClient[] = [];
    const onScreens: PushClient[] = [];
    for (const client of this.#clients) {
      if (client.sentSeq >= snapshot.seq) continue;
      if (this.#admissions.get(client)?.kind === 'control') control.push(client);
      else if (publicStale) onScreens.push(client);
    }
    if (control.length === 0 && onScreens.length === 0) return;
    this.#generation += 1;
    const sends: [PushClient, PushChunk][] = [];
    if (control.length > 0) this.#chunksFor(control, snapshot, this.#controlBases, sends);
    if (onScreens.length > 0) this.#chunksFor(onScreens, publicSnapshot(snapshot), this.#publicBases, sends);
    this.#sendFrom(sends, 0, this.#generation);
  }

  /** Each client's chunk: the delta from the snapshot it holds (made once per such snapshot), or the whole one. */
  #chunksFor<S extends StreamSnapshot | PublicSnapshot>(clients: readonly PushClient[], next: S, bases: Bases<S>, sends: [PushClient, PushChunk][]): void {
    let whole: PushChunk | null = null;
    const wholeChunk = (): PushChunk => {
      if (whole === null) {
        this.#serialized += 1;
        whole = { bytes: encodeChunk(stateEvent(next)), seq: next.seq };
      }
      return whole;
    };
    const made = new Map<number, PushChunk>();
    const serialised = (): void => {
      this.#serialized += 1;
    };
    for (const client of clients) sends.push([client, bases.chunkFor(client.sentSeq, next, wholeChunk, made, serialised)]);
    bases.keep(next);
  }

  /**
   * Writes each client its chunk, from `start` on, at most BYTES_PER_TURN in one
   * turn of the event loop, the rest in the next: a large room (a long running
   * order) sent whole to hundreds of screens must not hold up every other request
   * meanwhile. A change reaches every stream in one turn as a rule. A newer change,
   * which goes to every stream itself, ends an older one's remaining turns.
   */
  #sendFrom(sends: readonly [PushClient, PushChunk][], start: number, generation: number): void {
    if (this.#closed || generation !== this.#generation) return;
    let bytes = 0;
    let i = start;
    for (; i < sends.length; i += 1) {
      const [client, chunk] = sends[i] as [PushClient, PushChunk];
      if (i > start && bytes + chunk.bytes.length > BYTES_PER_TURN) break;
      client.send(chunk);
      bytes += chunk.bytes.length;
    }
    if (i < sends.length) setImmediate(() => this.#sendFrom(sends, i, generation));
  }

  /** The heartbeats of the streams that asked for their own; the stall and key checks stay with the hub's tick. */
  #beatFast(): void {
    for (const [client, beat] of this.#fastBeats) {
      beat.since += 1;
      if (beat.since < beat.every) continue;
      beat.since = 0;
      client.send(this.#heartbeatChunk);
    }
  }

  #tick(): void {
    let onSockets = false;
    for (const client of [...this.#clients]) {
      if (!client.isAllowed()) {
        client.end();
      } else if (client.stalledFor(this.#stallLimitMs)) {
        // A reader that takes nothing will not take the close either: cut the connection.
        this.#aborts.get(client)?.();
        client.end();
      } else {
        // Also what makes a vanished peer show: this write is never acknowledged.
        client.send(this.#heartbeatChunk);
        if (client instanceof ResponseClient && client.connectionKey !== null) onSockets = true;
      }
    }
    if (onSockets) this.#sampleSendQueues();
  }

  /**
   * Hands each stream on a socket the kernel's count of its unacknowledged bytes,
   * which the next tick's stall check uses. Read off the event loop; right after
   * the heartbeats is fine, since a live peer has acknowledged them by the next look.
   */
  #sampleSendQueues(): void {
    const read = this.#sendQueues;
    if (read === null || this.#sampling) return;
    this.#sampling = true;
    Promise.resolve()
      .then(read)
      .then(
        (queues) => {
          this.#sampling = false;
          if (queues === null) this.#sendQueues = null;
          for (const client of this.#clients) if (client instanceof ResponseClient) client.observeSendQueue(queues);
        },
        (error: unknown) => {
          this.#sampling = false;
          // What the streams were last told may be stale now: Node's own view decides until the next look.
          for (const client of this.#clients) if (client instanceof ResponseClient) client.observeSendQueue(null);
          this.#onError(error);
        },
      );
  }

  #remove(client: PushClient): void {
    this.#aborts.delete(client);
    if (this.#fastBeats.delete(client) && this.#fastBeats.size === 0) {
      this.#fastTick?.cancel();
      this.#fastTick = null;
    }
    const admission = this.#admissions.get(client);
    // Ended before it was kept (gone before its first write): it took nothing.
    if (!this.#clients.delete(client) || admission === undefined) return;
    this.#admissions.delete(client);
    this.#budget.giveBack(admission);
    if (this.#clients.size === 0) this.#stopHeartbeat();
  }

  #stopHeartbeat(): void {
    this.#heartbeat?.cancel();
    this.#heartbeat = null;
    this.#fastTick?.cancel();
    this.#fastTick = null;
    this.#fastBeats.clear();
  }
}

/** Whether a change shows on the screens: anything but the questions that are not on them. */
function seenOnScreens(change: RoomChange): boolean {
  const { room, previous } = change;
  if (room.questions === previous.questions) return true;
  const { seq: _seq, questions: _questions, ...rest } = room;
  const { seq: _previousSeq, questions: _previousQuestions, ...previousRest } = previous;
  return !sameValue(rest, previousRest) || !sameValue(shownQuestion(room), shownQuestion(previous));
}
