// OSC feedback: the room's state sent to the configured targets (surfaces, desks)
// as /showclock/state/* messages (feedback-values.ts), on every change and at the
// server's boundaries where the display string, the phase, the schedule's offset
// or projected end, or the aux digits change, and at no other time: nothing is
// sent while nothing changes. Changes of one
// synchronous burst go out once, as the burst's final state.
//
// A target never slows the room: the room's listener only marks the state as
// changed; sending is fire-and-forget UDP to an address resolved beforehand (a
// host name is looked up at most once a minute, one lookup at a time, so a dead
// name server never queues lookups in libuv's thread pool, which file writes
// share); and a target with too many datagrams still waiting in the socket has
// updates skipped until it drains (the next update carries the whole state).
import { createSocket, type Socket } from 'node:dgram';
import { isIP, isIPv6 } from 'node:net';
import type { Scheduler } from '../app/clock.js';
import type { RoomListener } from '../app/room-service.js';
import type { OscFeedbackTarget } from '../config/config.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { Logger } from '../log/logger.js';
import { feedbackAt, feedbackMessages, timedSignature, type FeedbackValues } from './feedback-values.js';
import { encodeMessage } from './osc-packet.js';

export interface FeedbackSource {
  subscribe(listener: RoomListener): () => void;
  snapshot(): Snapshot;
}

/** Where datagrams go out; tests pass one that records them. */
export interface DatagramOut {
  send(data: Buffer, port: number, address: string, done: (error: Error | null) => void): void;
  close(): void;
}

/** A host name's address is looked up again after this long (DHCP may move a tablet). */
export const RELOOKUP_MS = 60_000;
/** After a failed lookup, the next try waits this long. */
export const LOOKUP_RETRY_MS = 10_000;
/** Datagrams waiting for one target beyond which its updates are skipped (about ten updates of twenty-one messages). */
export const MAX_IN_FLIGHT = 200;
/** A problem with one target is logged at most this often. */
const WARN_EVERY_MS = 60_000;

interface Target {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  address: string | null;
  lookedUpAtMs: number | null;
  failedAtMs: number | null;
  looking: boolean;
  inFlight: number;
  skipped: number;
  warnedAtMs: number | null;
}

export interface FeedbackDeps {
  readonly source: FeedbackSource;
  readonly targets: readonly OscFeedbackTarget[];
  readonly monoMs: () => number;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly lookup?: (host: string) => Promise<string>;
  readonly out?: DatagramOut;
}

/** Two sockets at most (IPv4, IPv6), each opened on first use, on an ephemeral port. */
export function nodeDatagrams(logger: Logger): DatagramOut {
  const sockets = new Map<'udp4' | 'udp6', Socket>();
  const socketFor = (type: 'udp4' | 'udp6'): Socket => {
    let socket = sockets.get(type);
    if (socket === undefined) {
      socket = createSocket(type);
      socket.on('error', (error) => logger.warn({ code: (error as NodeJS.ErrnoException).code }, `OSC feedback: ${error.message}`));
      // Feedback alone never keeps the process alive.
      socket.unref();
      sockets.set(type, socket);
    }
    return socket;
  };
  return {
    send(data, port, address, done) {
      socketFor(isIPv6(address) ? 'udp6' : 'udp4').send(data, port, address, (error) => done(error ?? null));
    },
    close() {
      for (const socket of sockets.values()) {
        try {
          socket.close();
        } catch {
          // Already closed.
        }
      }
      sockets.clear();
    },
  };
}

/** Loaded on first use: a box without feedback targets never resolves a name. */
async function lookupAddress(host: string): Promise<string> {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host)).address;
}

export class OscFeedback {
  readonly #deps: FeedbackDeps;
  readonly #targets: Target[];
  readonly #lookup: (host: string) => Promise<string>;
  readonly #out: DatagramOut;
  #unsubscribe: (() => void) | null = null;
  #pending: { cancel(): void } | null = null;
  #dirty = false;
  #closed = false;
  /** What was last sent of what moves by time alone (timedSignature), for the boundary check. */
  #shown: string | null = null;

  constructor(deps: FeedbackDeps) {
    this.#deps = deps;
    this.#lookup = deps.lookup ?? lookupAddress;
    this.#out = deps.out ?? nodeDatagrams(deps.logger);
    this.#targets = deps.targets.map((target) => ({
      name: `${target.host}:${target.port}`,
      host: target.host,
      port: target.port,
      address: isIP(target.host) === 0 ? null : target.host,
      lookedUpAtMs: null,
      failedAtMs: null,
      looking: false,
      inFlight: 0,
      skipped: 0,
      warnedAtMs: null,
    }));
  }

  /** Sends the state as it is (a surface that starts with the box shows it at once), then follows the room. */
  start(): void {
    for (const target of this.#targets) this.#refreshAddress(target);
    this.#unsubscribe = this.#deps.source.subscribe(() => this.#changed());
    this.#changed();
  }

  /**
   * Whether `sender` is a target, at the address and port this sends to (a host
   * name as last looked up): the box sends there anyway, so an answer there
   * reaches no one who did not ask for its datagrams.
   */
  sendsTo(sender: { readonly address: string; readonly port: number }): boolean {
    return this.#targets.some((target) => target.address !== null && target.address === sender.address && target.port === sender.port);
  }

  close(): void {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#pending?.cancel();
    this.#pending = null;
    this.#out.close();
  }

  #changed(): void {
    if (this.#dirty || this.#closed) return;
    this.#dirty = true;
    queueMicrotask(() => {
      this.#dirty = false;
      this.#update(true);
    });
  }

  /** `changed`: the room changed, so everything is sent; otherwise only when something that moves with the clock reads differently. */
  #update(changed: boolean): void {
    if (this.#closed) return;
    // Reading the snapshot applies a zero event that fell due, which marks a change: that update sends and re-arms.
    const snapshot = this.#deps.source.snapshot();
    if (!changed && this.#dirty) return;
    const { values, nextChangeAt } = feedbackAt(snapshot);
    const shown = timedSignature(values);
    if (changed || this.#shown !== shown) {
      this.#send(values);
      this.#shown = shown;
    }
    this.#arm(nextChangeAt === null ? null : nextChangeAt - snapshot.serverNow);
  }

  #arm(delayMs: number | null): void {
    this.#pending?.cancel();
    this.#pending = null;
    if (delayMs === null) return;
    this.#pending = this.#deps.scheduler.schedule(this.#deps.monoMs() + Math.max(0, delayMs), () => {
      this.#pending = null;
      this.#update(false);
    });
  }

  #send(values: FeedbackValues): void {
    if (this.#targets.length === 0) return;
    const datagrams = feedbackMessages(values).map(([address, value]) => encodeMessage(address, [value]));
    for (const target of this.#targets) {
      this.#refreshAddress(target);
      const address = target.address;
      if (address === null) continue;
      if (target.inFlight > MAX_IN_FLIGHT) {
        target.skipped += 1;
        this.#warn(target, { skipped: target.skipped }, `OSC feedback to ${target.name}: datagrams are not leaving as fast as they come; updates skipped until they do`);
        continue;
      }
      for (const datagram of datagrams) {
        target.inFlight += 1;
        this.#out.send(datagram, target.port, address, (error) => {
          target.inFlight -= 1;
          if (error !== null) this.#warn(target, { code: (error as NodeJS.ErrnoException).code }, `OSC feedback to ${target.name} failed: ${error.message}`);
        });
      }
    }
  }

  /** Looks a host name up when it has never been, or a minute ago; one lookup at a time, never waited for. */
  #refreshAddress(target: Target): void {
    if (isIP(target.host) !== 0 || target.looking || this.#closed) return;
    const nowMs = this.#deps.monoMs();
    if (target.failedAtMs !== null && nowMs - target.failedAtMs < LOOKUP_RETRY_MS) return;
    if (target.lookedUpAtMs !== null && nowMs - target.lookedUpAtMs < RELOOKUP_MS) return;
    target.looking = true;
    this.#lookup(target.host).then(
      (address) => {
        target.looking = false;
        target.address = address;
        target.lookedUpAtMs = this.#deps.monoMs();
        target.failedAtMs = null;
      },
      (error: unknown) => {
        target.looking = false;
        // The last address found is kept: a name server that is down does not take a working target with it.
        target.failedAtMs = this.#deps.monoMs();
        const reason = error instanceof Error ? error.message : String(error);
        this.#warn(target, {}, `OSC feedback to ${target.name}: cannot look up ${target.host} (${reason}); trying again in ${LOOKUP_RETRY_MS / 1000} s`);
      },
    );
  }

  #warn(target: Target, detail: Record<string, unknown>, message: string): void {
    const nowMs = this.#deps.monoMs();
    if (target.warnedAtMs !== null && nowMs - target.warnedAtMs < WARN_EVERY_MS) return;
    target.warnedAtMs = nowMs;
    this.#deps.logger.warn({ target: target.name, ...detail }, message);
  }
}
