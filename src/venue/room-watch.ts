// One other room of the venue, watched from this box: its viewer stream
// (`{origin}/view/{key}/events?heartbeat=1`) read with fetch and the same parser and
// snapshot rebuilding as the pages and the Companion module, and its clock against
// this box's, measured NTP-style on `{origin}/view/{key}/time`. The other box is not
// trusted to be well: every wait has a deadline, every read a size cap, every
// promise a catch, and a failure only ever changes this room's status, never
// anything else on this box. Retried every 1 to 3 s (jittered, so the boxes of a
// venue restarted together do not knock in step).
import { createSseParser } from '../client/sse-parser.js';
import { createServerClock, type ServerClock } from '../client/server-clock.js';
import { streamSnapshots } from '../client/stream-snapshots.js';
import type { PublicSnapshot } from '../domain/snapshot.js';
import type { TileStatus } from '../client/venue-tile.js';
import { newNonce, originHost, proofMatches } from './venue-proof.js';

/** The stream asks for a heartbeat every second; three missed ones and the room is lost. */
export const SILENCE_MS = 3_000;
/** A retry waits 1 s plus up to 2 s of jitter. */
export const RETRY_MIN_MS = 1_000;
export const RETRY_JITTER_MS = 2_000;
/** A box that refuses the key is asked again less often: someone must change a config first. */
export const REFUSED_RETRY_MS = 10_000;
/** A room's snapshot with a long running order is about 130 KB; no one event may hold more than this. */
export const MAX_EVENT_BYTES = 1_048_576;
/** The time endpoint answers about 60 bytes. */
const MAX_TIME_BYTES = 4_096;
const TIME_TIMEOUT_MS = 2_000;
/** The clock offset measured again now and then while the room is live (crystals drift apart). */
export const RESYNC_MS = 60_000;
/** A room name as the box gives it: DNS-SD allows 63 bytes; more is cut here rather than drawn. */
const NAME_MAX_CHARS = 64;

export interface WatchIo {
  readonly fetch: (url: string, init: { signal: AbortSignal; headers?: Record<string, string>; redirect: 'error' }) => Promise<Response>;
  /** Monotonic ms (performance.now()), for the clock estimate. */
  readonly perfNow: () => number;
  /** This box's server time, ms since epoch (RoomService.serverNow): what offsets are measured against. */
  readonly serverNow: () => number;
  readonly random: () => number;
}

export const nodeWatchIo = (serverNow: () => number): WatchIo => ({
  fetch: (url, init) => fetch(url, init),
  perfNow: () => performance.now(),
  serverNow,
  random: Math.random,
});

export interface RoomWatchState {
  readonly status: Exclude<TileStatus, 'foreign'>;
  readonly since: number;
  readonly message: string | null;
  /** The room's name as its box gave it on /time; null until then (the tile uses what it has). */
  readonly name: string | null;
  /** Remote server clock minus this box's, ms; null before a measurement. */
  readonly offsetMs: number | null;
  readonly snapshot: PublicSnapshot | null;
}

export interface RoomWatchOptions {
  /** `http://10.0.0.12:8080` */
  readonly origin: string;
  /** The viewer key or the venue key; never logged, never in a tile. */
  readonly key: string;
  readonly io: WatchIo;
  /** Called after every change of the state (status, snapshot, offset, name). */
  readonly onChange: () => void;
  /**
   * The key is the venue key and the box was found, not listed: it must prove it holds
   * the key (venue-proof.ts) before the key is sent to it, at every connection.
   */
  readonly proveFirst?: boolean;
  /** Called when the status turns (live, lost, refused): for the log. */
  readonly onStatus?: (state: RoomWatchState) => void;
}

/** Ended by the watch itself, with the words the tile shows. */
class Lost extends Error {}

/** The fields the overview reads of a snapshot; anything else from another box is not drawn. */
function isViewerSnapshot(value: unknown): value is PublicSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.seq === 'number' &&
    typeof v.running === 'boolean' &&
    (v.endAt === null || typeof v.endAt === 'number') &&
    (v.remainingAtPause === null || typeof v.remainingAtPause === 'number') &&
    typeof v.activeLabel === 'string' &&
    typeof v.warnAt === 'number' &&
    typeof v.duration === 'number' &&
    typeof v.onAir === 'boolean' &&
    Array.isArray(v.timers)
  );
}

/** Reads a body up to `max` bytes; more is refused (a box that answers without end is not waited for). */
async function readCapped(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      throw new Lost(`answered more than ${max} bytes`);
    }
    parts.push(chunk.value);
  }
  return Buffer.concat(parts).toString('utf8');
}

function shortName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const clean = raw.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' ? null : clean.slice(0, NAME_MAX_CHARS);
}

export class RoomWatch {
  readonly #opts: RoomWatchOptions;
  #state: RoomWatchState;
  #closed = false;
  #abort: AbortController | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #resync: ReturnType<typeof setTimeout> | null = null;
  #clock: ServerClock;
  #measured = false;
  /** Whether the current connection has delivered a snapshot (a new connection starts `connecting`). */
  #delivered = false;

  constructor(opts: RoomWatchOptions) {
    this.#opts = opts;
    this.#state = { status: 'connecting', since: opts.io.serverNow(), message: null, name: null, offsetMs: null, snapshot: null };
    this.#clock = this.#newClock();
  }

  get state(): RoomWatchState {
    // The offset is read now: the estimate is against this box's monotonic clock, its wall clock may have stepped.
    const remote = this.#measured ? this.#clock.now() : null;
    return remote === null ? this.#state : { ...this.#state, offsetMs: Math.round(remote - this.#opts.io.serverNow()) };
  }

  get origin(): string {
    return this.#opts.origin;
  }

  start(): void {
    if (this.#closed) return;
    this.#connect();
  }

  close(): void {
    this.#closed = true;
    this.#abort?.abort();
    if (this.#retry !== null) clearTimeout(this.#retry);
    if (this.#resync !== null) clearTimeout(this.#resync);
    this.#retry = null;
    this.#resync = null;
  }

  #url(path: string): string {
    return `${this.#opts.origin}/view/${encodeURIComponent(this.#opts.key)}${path}`;
  }

  #set(next: Partial<RoomWatchState>): void {
    if (this.#closed) return;
    const status = next.status ?? this.#state.status;
    // A retry that fails as the last one did changes nothing on the overview: nothing is sent.
    const same = (Object.keys(next) as (keyof RoomWatchState)[]).every((field) => next[field] === this.#state[field]);
    if (same) return;
    const turned = status !== this.#state.status;
    const since = turned ? this.#opts.io.serverNow() : this.#state.since;
    this.#state = { ...this.#state, ...next, status, since };
    if (turned) this.#opts.onStatus?.(this.#state);
    this.#opts.onChange();
  }

  #connect(): void {
    this.#retry = null;
    if (this.#closed) return;
    this.#delivered = false;
    if (this.#state.status === 'lost' || this.#state.status === 'refused') {
      // Still lost (or refused) while trying again: the tile keeps saying since when.
    } else if (this.#state.status !== 'connecting') this.#set({ status: 'connecting' });
    this.#stream().then(
      () => this.#lost('the stream ended'),
      (error: unknown) => {
        if (error instanceof Refused) this.#refused(error.message);
        else this.#lost(error instanceof Lost ? error.message : describe(error));
      },
    );
  }

  #lost(why: string): void {
    if (this.#closed) return;
    this.#abort?.abort();
    if (this.#resync !== null) clearTimeout(this.#resync);
    this.#resync = null;
    this.#set({ status: 'lost', message: `not answering: ${why}` });
    this.#retry = setTimeout(() => this.#connect(), RETRY_MIN_MS + this.#opts.io.random() * RETRY_JITTER_MS);
  }

  #refused(message: string): void {
    if (this.#closed) return;
    this.#set({ status: 'refused', message });
    this.#retry = setTimeout(() => this.#connect(), REFUSED_RETRY_MS);
  }

  /** One connection, until it fails (rejects) or ends (resolves). */
  async #stream(): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    let silence: ReturnType<typeof setTimeout> | null = null;
    let why = '';
    const arm = (): void => {
      if (silence !== null) clearTimeout(silence);
      silence = setTimeout(() => {
        why = `nothing for ${SILENCE_MS / 1000} s`;
        abort.abort();
      }, SILENCE_MS);
    };
    arm();
    try {
      if (this.#opts.proveFirst === true) await this.#proven(abort.signal, () => why);
      let response: Response;
      try {
        response = await this.#opts.io.fetch(this.#url('/events?heartbeat=1'), { signal: abort.signal, headers: { Accept: 'text/event-stream' }, redirect: 'error' });
      } catch (error) {
        throw new Lost(why !== '' ? why : describe(error));
      }
      if (response.status === 401) {
        void response.body?.cancel().catch(() => {});
        throw new Refused(
          'refused the key (401): give both boxes the same venue.key (SHOWCLOCK_VENUE_KEY), or for a listed room the current viewer link (the viewer key may have been rotated)',
        );
      }
      if (!response.ok || response.body === null) {
        void response.body?.cancel().catch(() => {});
        throw new Lost(`answered HTTP ${response.status}`);
      }
      if (!(response.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) {
        void response.body.cancel().catch(() => {});
        throw new Lost('answered something other than a Showclock stream');
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const take = streamSnapshots(isViewerSnapshot);
      let sinceEvent = 0;
      let broken: string | null = null;
      const parse = createSseParser(
        (event) => {
          sinceEvent = 0;
          const snapshot = take(event.event, event.data);
          if (snapshot === null) broken = 'sent a change that does not fit its last snapshot';
          else if (snapshot !== undefined) this.#snapshot(snapshot);
        },
        () => {
          sinceEvent = 0;
        },
      );
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw new Lost(why !== '' ? why : describe(error));
        }
        if (chunk.done) return;
        arm();
        sinceEvent += chunk.value.byteLength;
        parse(decoder.decode(chunk.value, { stream: true }));
        if (sinceEvent > MAX_EVENT_BYTES) broken = `sent an event of more than ${MAX_EVENT_BYTES} bytes`;
        if (broken !== null) {
          void reader.cancel().catch(() => {});
          throw new Lost(broken);
        }
      }
    } finally {
      if (silence !== null) clearTimeout(silence);
      abort.abort();
    }
  }

  /** Asks the found box to prove it holds the venue key, at the address this box reaches it at; throws when it does not. */
  async #proven(signal: AbortSignal, silent: () => string): Promise<void> {
    const nonce = newNonce();
    let body: { proof?: unknown };
    try {
      const response = await this.#opts.io.fetch(`${this.#opts.origin}/venue-proof?nonce=${nonce}`, { signal, redirect: 'error' });
      if (!response.ok) {
        void response.body?.cancel().catch(() => {});
        body = {};
      } else body = JSON.parse(await readCapped(response, MAX_TIME_BYTES)) as { proof?: unknown };
    } catch (error) {
      if (error instanceof SyntaxError) body = {};
      else throw new Lost(silent() !== '' ? silent() : error instanceof Lost ? error.message : describe(error));
    }
    const host = originHost(this.#opts.origin);
    if (host === null || !proofMatches(this.#opts.key, nonce, host, body.proof)) {
      throw new Refused(
        'advertises this venue but did not prove it holds the venue key, so the key was not sent to it: a machine that is not one of the venue\'s boxes, or a box with another venue.key',
      );
    }
  }

  #snapshot(snapshot: PublicSnapshot): void {
    const first = !this.#delivered;
    this.#delivered = true;
    this.#set({ status: 'live', message: null, snapshot });
    if (first) this.#measure();
  }

  #newClock(): ServerClock {
    return createServerClock(this.#url('/time'), {
      perfNow: this.#opts.io.perfNow,
      fetchTime: (url) => this.#fetchTime(url),
    });
  }

  /** A burst of round trips (server-clock.ts keeps the lowest-round-trip sample), then again in RESYNC_MS while live. */
  #measure(): void {
    if (this.#resync !== null) clearTimeout(this.#resync);
    this.#resync = null;
    this.#clock
      .sync()
      .then(() => {
        if (this.#closed) return;
        const was = this.#measured;
        this.#measured = this.#clock.bestRoundTripMs() !== null;
        if (this.#measured || was) this.#opts.onChange();
        if (this.#state.status === 'live') this.#resync = setTimeout(() => this.#measure(), RESYNC_MS);
      })
      .catch(() => {});
  }

  async #fetchTime(url: string): Promise<number> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIME_TIMEOUT_MS);
    try {
      const response = await this.#opts.io.fetch(url, { signal: abort.signal, redirect: 'error' });
      if (!response.ok) {
        void response.body?.cancel().catch(() => {});
        throw new Lost(`time answered HTTP ${response.status}`);
      }
      const body = JSON.parse(await readCapped(response, MAX_TIME_BYTES)) as { serverNow?: unknown; room?: unknown };
      if (typeof body.serverNow !== 'number' || !Number.isFinite(body.serverNow)) throw new Lost('time gave no serverNow');
      const name = shortName(body.room);
      if (name !== null && name !== this.#state.name) this.#set({ name });
      return body.serverNow;
    } finally {
      clearTimeout(timer);
    }
  }
}

class Refused extends Error {}

/** A fetch failure in words for the tile: Node's `fetch failed` hides the cause (ECONNREFUSED and the like). */
function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused' : code;
    if (error.name === 'AbortError') return 'timed out';
    return error.message.slice(0, 120);
  }
  return 'failed';
}
