// The browser of `_showclock._tcp`: finds the other boxes on the network and says when
// one is found, changes (new address, new name) or is gone. main.ts hands these to the
// venue overview (src/venue knows nothing of mDNS).
//
// Why multicast-dns and not a second responder library: ciao (advertiser.ts) cannot
// browse, and bonjour-service would bring a second advertiser too; multicast-dns is the
// small packet layer bonjour-service itself is built on (with dns-packet), and the
// browsing on top is box-cache.ts. It listens on 0.0.0.0:5353 with SO_REUSEADDR beside
// ciao and avahi-daemon (every socket there gets every multicast packet), joins the
// mDNS group on every interface (again every 5 s, so late interfaces count), and asks
// for `_showclock._tcp` at start, after 1, 2, 4 ... s, then every minute: each answer
// refreshes the address records of the boxes still there (box-cache.ts: a box gone
// without a goodbye drops out when they expire).
import makeMdns from 'multicast-dns';
import type { Logger } from '../log/logger.js';
import { BoxCache, type BoxEvent, type HeardRecord } from './box-cache.js';
import { SHOWCLOCK_SERVICE_NAME, type FoundBox } from './mdns-records.js';

/** The longest wait between two questions for `_showclock._tcp` (RFC 6762 5.2 allows up to an hour; a venue wants a minute). */
export const BROWSE_MAX_INTERVAL_MS = 60_000;
/** How often expired records are looked for. */
const EXPIRE_EVERY_MS = 1_000;
/** The least time between two questions for the missing records of one name. */
const ASK_MISSING_EVERY_MS = 5_000;

export interface BrowseDeps {
  /** A box seen for the first time (or again after it was gone). */
  readonly onFound: (box: FoundBox) => void;
  /** A box that changed what a FoundBox holds (an address, its room name, its venue tag). */
  readonly onUpdated?: (box: FoundBox) => void;
  /** A box that said goodbye (a stop), or whose records expired (unplugged); `box` as it was last seen. */
  readonly onGone: (box: FoundBox) => void;
  readonly logger: Logger;
  /** This box's own full names (startMdns(...).ownNames), never reported; none when it does not advertise. */
  readonly ownNames?: () => readonly string[];
  /** For tests: where to send and listen (default the mDNS group on 5353). */
  readonly port?: number;
}

export interface BoxBrowser {
  /** The boxes found and not gone, now. */
  boxes(): FoundBox[];
  /** Stops listening; no event after it resolves. Safe to call twice. */
  close(): Promise<void>;
}

type Mdns = ReturnType<typeof makeMdns>;
type ResponsePacket = makeMdns.ResponsePacket;

function heard(packet: ResponsePacket): HeardRecord[] {
  const records: HeardRecord[] = [];
  for (const record of [...(packet.answers ?? []), ...(packet.additionals ?? [])]) {
    switch (record.type) {
      case 'PTR':
      case 'A':
      case 'AAAA':
        records.push({ type: record.type, name: record.name, ttl: record.ttl, flush: record.flush, data: record.data });
        break;
      case 'SRV':
        records.push({ type: 'SRV', name: record.name, ttl: record.ttl, data: record.data });
        break;
      case 'TXT':
        records.push({ type: 'TXT', name: record.name, ttl: record.ttl, data: record.data });
        break;
      default:
        break;
    }
  }
  return records;
}

export function browseBoxes(deps: BrowseDeps): BoxBrowser {
  return new Browser(deps);
}

class Browser implements BoxBrowser {
  readonly #deps: BrowseDeps;
  readonly #cache: BoxCache;
  readonly #mdns: Mdns | null;
  #queryTimer: NodeJS.Timeout | undefined;
  readonly #expireTimer: NodeJS.Timeout;
  #nextQueryMs = 1_000;
  readonly #askedAt = new Map<string, number>();
  #closed: Promise<void> | null = null;
  #warned = false;

  constructor(deps: BrowseDeps) {
    this.#deps = deps;
    const own = deps.ownNames;
    this.#cache = new BoxCache(own === undefined ? undefined : (id) => own().includes(id));
    let mdns: Mdns | null = null;
    try {
      mdns = makeMdns(deps.port === undefined ? {} : { port: deps.port });
    } catch (error) {
      this.#warn(error);
    }
    this.#mdns = mdns;
    this.#expireTimer = setInterval(() => this.#report(this.#cache.expire(Date.now())), EXPIRE_EVERY_MS);
    this.#expireTimer.unref();
    if (mdns === null) return;
    mdns.on('error', (error: unknown) => this.#warn(error));
    // Bad packets from other devices, a membership on an interface that went away: not worth a line each.
    mdns.on('warning', (error: unknown) => deps.logger.debug({ err: error }, 'mDNS browser: a packet or interface it could not use'));
    mdns.on('response', (packet: ResponsePacket) => {
      this.#report(this.#cache.hear(heard(packet), Date.now()));
      this.#askForMissing();
    });
    mdns.on('ready', () => this.#ask());
  }

  boxes(): FoundBox[] {
    return this.#cache.boxes();
  }

  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      clearTimeout(this.#queryTimer);
      clearInterval(this.#expireTimer);
      if (this.#mdns === null) resolve();
      else this.#mdns.destroy(() => resolve());
    });
    return this.#closed;
  }

  #warn(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#deps.logger.warn({ err: error }, 'mDNS: cannot listen for other boxes (port 5353); the overview shows only the rooms listed in venue.rooms');
  }

  #ask(): void {
    if (this.#closed !== null || this.#mdns === null) return;
    this.#mdns.query({ questions: [{ name: SHOWCLOCK_SERVICE_NAME, type: 'PTR' }] }, (error: Error | null) => {
      if (error) this.#deps.logger.debug({ err: error }, 'mDNS browser: a question could not be sent');
    });
    this.#queryTimer = setTimeout(() => this.#ask(), this.#nextQueryMs);
    this.#queryTimer.unref();
    this.#nextQueryMs = Math.min(this.#nextQueryMs * 2, BROWSE_MAX_INTERVAL_MS);
  }

  /**
   * A PTR heard without the rest (a responder may leave the additionals out): asked for
   * directly, each name at most once per ASK_MISSING_EVERY_MS, so a broken responder
   * that never sends its SRV does not make this box ask at every packet on the network.
   */
  #askForMissing(): void {
    if (this.#closed !== null || this.#mdns === null) return;
    const nowMs = Date.now();
    const due = (name: string): boolean => {
      const last = this.#askedAt.get(name);
      if (last !== undefined && nowMs - last < ASK_MISSING_EVERY_MS) return false;
      this.#askedAt.set(name, nowMs);
      return true;
    };
    const missing = this.#cache.missing();
    const questions = [
      ...missing.instances.filter(due).flatMap((name) => [
        { name, type: 'SRV' as const },
        { name, type: 'TXT' as const },
      ]),
      ...missing.hosts.filter(due).flatMap((name) => [
        { name, type: 'A' as const },
        { name, type: 'AAAA' as const },
      ]),
    ];
    // Names no longer missing are forgotten, so the map stays as small as the gaps.
    const stillMissing = new Set([...missing.instances, ...missing.hosts]);
    for (const name of this.#askedAt.keys()) if (!stillMissing.has(name)) this.#askedAt.delete(name);
    if (questions.length > 0) this.#mdns.query({ questions }, () => undefined);
  }

  #report(events: readonly BoxEvent[]): void {
    if (this.#closed !== null) return;
    for (const event of events) {
      try {
        switch (event.kind) {
          case 'found':
            this.#deps.onFound(event.box);
            break;
          case 'updated':
            this.#deps.onUpdated?.(event.box);
            break;
          case 'gone':
            this.#deps.onGone(event.box);
            break;
        }
      } catch (error) {
        this.#deps.logger.error({ err: error }, 'mDNS browser: a listener of found boxes failed');
      }
    }
  }
}
