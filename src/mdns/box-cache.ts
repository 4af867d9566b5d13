// What a browser of `_showclock._tcp` knows about other boxes, from the mDNS responses
// it hears: PTR (the instances), SRV (host and port), TXT, A/AAAA (addresses), each
// kept until its TTL runs out. Pure (no socket, the time given), so found / updated /
// gone are tested with packets made in the test.
//
// Gone is reported when a box says goodbye (its PTR or SRV with TTL 0, RFC 6762 10.1:
// at once, not after the second the RFC allows, because an overview should show a
// stopped room now), and when what it needs expires: a box unplugged without a
// goodbye stops refreshing its address records (120 s TTL at ciao and avahi) while
// the browser keeps asking (box-browser.ts), so it is gone after at most that.
import { foundBox, sameBox, SHOWCLOCK_SERVICE_NAME, type FoundBox } from './mdns-records.js';

/** A resource record as multicast-dns (dns-packet) decodes it; only the kinds used here. */
export type HeardRecord =
  | { readonly type: 'PTR'; readonly name: string; readonly ttl?: number | undefined; readonly data: string }
  | { readonly type: 'SRV'; readonly name: string; readonly ttl?: number | undefined; readonly data: { readonly port: number; readonly target: string } }
  | { readonly type: 'TXT'; readonly name: string; readonly ttl?: number | undefined; readonly data: string | Buffer | readonly (string | Buffer)[] }
  | { readonly type: 'A' | 'AAAA'; readonly name: string; readonly ttl?: number | undefined; readonly flush?: boolean | undefined; readonly data: string };

export type BoxEvent = { readonly kind: 'found' | 'updated' | 'gone'; readonly box: FoundBox };

/** What to ask for next: instances whose SRV or TXT is missing, hosts with no address. */
export interface MissingRecords {
  readonly instances: readonly string[];
  readonly hosts: readonly string[];
}

interface Timed<T> {
  readonly value: T;
  readonly expiresAtMs: number;
}

interface Instance {
  /** As the box spells it (case kept), without the trailing dot. */
  readonly fullName: string;
  ptr: number;
  srv: Timed<{ readonly port: number; readonly target: string }> | null;
  txt: Timed<readonly Buffer[]> | null;
  reported: FoundBox | null;
}

const key = (name: string): string => name.replace(/\.$/, '').toLowerCase();

function txtStrings(data: string | Buffer | readonly (string | Buffer)[]): Buffer[] {
  const list = Array.isArray(data) ? data : [data as string | Buffer];
  return list.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part));
}

export class BoxCache {
  readonly #instances = new Map<string, Instance>();
  /** Host name (lower case) → address → expiry. */
  readonly #hosts = new Map<string, Map<string, number>>();
  readonly #isOwn: (id: string) => boolean;

  /** `isOwn(id)`: true for this box's own instance (lower-case full name), which is never reported. */
  constructor(isOwn: (id: string) => boolean = () => false) {
    this.#isOwn = isOwn;
  }

  /** The boxes reported found and not gone. */
  boxes(): FoundBox[] {
    return [...this.#instances.values()].flatMap((instance) => (instance.reported === null ? [] : [instance.reported]));
  }

  /** Takes the records of one response (answers and additionals alike); returns what changed. */
  hear(records: readonly HeardRecord[], nowMs: number): BoxEvent[] {
    const touched = new Set<string>();
    const flushed = new Set<string>();
    // Addresses first: a packet announcing a box carries its A records among the additionals.
    for (const record of records) {
      if (record.type !== 'A' && record.type !== 'AAAA') continue;
      const host = key(record.name);
      let addresses = this.#hosts.get(host);
      if (addresses === undefined) {
        addresses = new Map();
        this.#hosts.set(host, addresses);
      }
      // The cache-flush bit (RFC 6762 10.2): this packet holds the whole set of this kind; older ones go.
      const flushKey = `${host} ${record.type}`;
      if (record.flush === true && !flushed.has(flushKey)) {
        flushed.add(flushKey);
        for (const address of [...addresses.keys()]) if (address.includes(':') === (record.type === 'AAAA')) addresses.delete(address);
      }
      const ttl = record.ttl ?? 0;
      if (ttl === 0) addresses.delete(record.data);
      else addresses.set(record.data, nowMs + ttl * 1_000);
      for (const instance of this.#instances.values()) if (instance.srv !== null && key(instance.srv.value.target) === host) touched.add(key(instance.fullName));
    }
    for (const record of records) {
      switch (record.type) {
        case 'PTR': {
          if (key(record.name) !== SHOWCLOCK_SERVICE_NAME) break;
          const id = key(record.data);
          if (this.#isOwn(id)) break;
          const ttl = record.ttl ?? 0;
          const instance = this.#instances.get(id);
          if (ttl === 0) {
            if (instance !== undefined) instance.ptr = nowMs;
          } else if (instance === undefined) {
            this.#instances.set(id, { fullName: record.data.replace(/\.$/, ''), ptr: nowMs + ttl * 1_000, srv: null, txt: null, reported: null });
          } else {
            instance.ptr = nowMs + ttl * 1_000;
          }
          touched.add(id);
          break;
        }
        case 'SRV': {
          const instance = this.#instances.get(key(record.name));
          if (instance === undefined) break;
          const ttl = record.ttl ?? 0;
          instance.srv = ttl === 0 ? null : { value: { port: record.data.port, target: record.data.target }, expiresAtMs: nowMs + ttl * 1_000 };
          touched.add(key(record.name));
          break;
        }
        case 'TXT': {
          const instance = this.#instances.get(key(record.name));
          if (instance === undefined) break;
          const ttl = record.ttl ?? 0;
          // A TXT goodbye alone does not end a box (its SRV and PTR say that); a new TXT replaces it.
          if (ttl > 0) instance.txt = { value: txtStrings(record.data), expiresAtMs: nowMs + ttl * 1_000 };
          touched.add(key(record.name));
          break;
        }
        case 'A':
        case 'AAAA':
          break;
      }
    }
    return this.#settle(touched, nowMs);
  }

  /** Drops what expired by `nowMs`; returns the boxes that are gone (or changed) by it. */
  expire(nowMs: number): BoxEvent[] {
    const touched = new Set<string>();
    for (const [host, addresses] of this.#hosts) {
      for (const [address, expiresAtMs] of addresses) if (expiresAtMs <= nowMs) addresses.delete(address);
      if (addresses.size === 0) this.#hosts.delete(host);
    }
    for (const [id, instance] of this.#instances) {
      if (instance.srv !== null && instance.srv.expiresAtMs <= nowMs) instance.srv = null;
      if (instance.txt !== null && instance.txt.expiresAtMs <= nowMs) instance.txt = null;
      touched.add(id);
    }
    return this.#settle(touched, nowMs);
  }

  /** What the browser should ask for: the pieces of known instances it has not heard (yet). */
  missing(): MissingRecords {
    const instances: string[] = [];
    const hosts: string[] = [];
    for (const instance of this.#instances.values()) {
      if (instance.srv === null || instance.txt === null) instances.push(instance.fullName);
      else if (!this.#hosts.has(key(instance.srv.value.target))) hosts.push(instance.srv.value.target);
    }
    return { instances, hosts };
  }

  #settle(touched: ReadonlySet<string>, nowMs: number): BoxEvent[] {
    const events: BoxEvent[] = [];
    for (const id of touched) {
      const instance = this.#instances.get(id);
      if (instance === undefined) continue;
      const ended = instance.ptr <= nowMs;
      const box = ended || instance.srv === null || instance.txt === null ? null : this.#resolve(instance, instance.srv.value, instance.txt.value);
      const before = instance.reported;
      if (box === null) {
        if (before !== null) events.push({ kind: 'gone', box: before });
        instance.reported = null;
        // An instance that said goodbye is forgotten; one only missing a piece waits for it.
        if (ended) this.#instances.delete(id);
      } else {
        if (before === null) events.push({ kind: 'found', box });
        else if (!sameBox(before, box)) events.push({ kind: 'updated', box });
        instance.reported = box;
      }
    }
    return events;
  }

  #resolve(instance: Instance, srv: { readonly port: number; readonly target: string }, txt: readonly Buffer[]): FoundBox | null {
    const addresses = this.#hosts.get(key(srv.target));
    return foundBox({ fullName: instance.fullName, port: srv.port, txt, addresses: addresses === undefined ? [] : [...addresses.keys()] });
  }
}
