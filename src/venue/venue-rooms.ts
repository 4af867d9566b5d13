// The venue's rooms as this box's overview sees them: this room itself, the rooms
// listed by their viewer links (venue.rooms), and the boxes mDNS found (fed in by
// main.ts as found/gone; this folder never imports src/mdns). A found box with this
// venue's tag is watched with the venue key; one with another tag or none is shown
// as found but not of this venue, and not watched; a found box that is also listed
// is one tile, watched with the listed viewer key. Changes are gathered for a short
// moment and handed on as one list (coalesced, sent on change, never on a timer).
import { isIP } from 'node:net';
import type { RoomListener } from '../app/room-service.js';
import type { VenueRoomLink } from '../config/venue-config.js';
import { publicSnapshot, type PublicSnapshot, type Snapshot } from '../domain/snapshot.js';
import type { VenueTile, VenueTiles } from '../client/venue-tile.js';
import { RoomWatch, type RoomWatchState, type WatchIo } from './room-watch.js';

/**
 * A box found by the mDNS browser (src/mdns, which reports this shape), as main.ts hands it over.
 * `id` is the DNS-SD instance's full name (the same box keeps it across updates, unique on the
 * link); `name` is what to show: TXT `room`, else the instance name.
 */
export interface FoundBox {
  readonly id: string;
  readonly name: string;
  /** IPv4 first (what a venue's network routes), then IPv6. */
  readonly addresses: readonly string[];
  readonly port: number;
  /** TXT `api`: the newest API version it serves. */
  readonly api: string | null;
  /** TXT `venue`: venueTag(its venue key), or null when it has none. */
  readonly venueTag: string | null;
}

/** What the overview needs of this room. */
export interface OwnRoom {
  subscribe(listener: RoomListener): () => void;
  snapshot(): Snapshot;
  serverNow(): number;
}

export interface VenueRoomsOptions {
  /** This room's name (venue.name). */
  readonly name: string;
  readonly room: OwnRoom;
  /** The venue key, for found boxes of this venue. */
  readonly venueKey: string;
  /** venueTag(venueKey): what found boxes of this venue advertise. */
  readonly venueTag: string;
  readonly listed: readonly VenueRoomLink[];
  readonly io: WatchIo;
  /** Whether a found box is this box (its own advertisement comes back to its browser). */
  readonly isSelf: (box: FoundBox) => boolean;
  /** How long changes are gathered before the list goes out; 50 ms by default. */
  readonly coalesceMs?: number;
  /** A watched room's status turned (for the log): its origin, never its key. */
  readonly onStatus?: (origin: string, state: RoomWatchState) => void;
}

/** More found boxes than this are a network full of someone else's: the oldest gone ones make room, then new ones wait. */
export const MAX_FOUND = 64;
const NAME_MAX_CHARS = 64;

interface ListedRoom {
  readonly link: VenueRoomLink;
  readonly host: string;
  readonly watch: RoomWatch;
  /** The found box that is this room, when mDNS sees it too: its advertised name. */
  foundId: string | null;
  foundName: string | null;
}

interface FoundRoom {
  readonly box: FoundBox;
  readonly origin: string;
  /** Null when not watched here: not of this venue, or the same box as a listed room. */
  readonly watch: RoomWatch | null;
  readonly foreign: boolean;
  /** mDNS said it left; a watched room stays on the overview (lost) until it is found again. */
  gone: boolean;
  readonly foundOrder: number;
}

/** `http://10.0.0.5:8080` for an address as mDNS gives it (IPv6 in brackets). */
export function originOf(address: string, port: number): string {
  return address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

/** host:port of an origin, the way URL writes it, so a listed room and a found box compare. */
function hostOf(origin: string): string {
  try {
    const url = new URL(origin);
    return `${url.hostname.toLowerCase()}:${url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port}`;
  } catch {
    return origin;
  }
}

function cleanName(raw: string): string {
  const clean = raw.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, NAME_MAX_CHARS);
  return clean === '' ? 'Showclock' : clean;
}

export class VenueRooms {
  readonly #opts: VenueRoomsOptions;
  readonly #listed: ListedRoom[] = [];
  readonly #found = new Map<string, FoundRoom>();
  readonly #listeners = new Set<(tiles: VenueTiles) => void>();
  readonly #unsubscribe: () => void;
  #own: PublicSnapshot;
  #ownStale = false;
  #flush: ReturnType<typeof setTimeout> | null = null;
  #order = 0;
  #closed = false;

  constructor(opts: VenueRoomsOptions) {
    this.#opts = opts;
    this.#own = publicSnapshot(opts.room.snapshot());
    for (const link of opts.listed) {
      const watch = this.#watch(link.origin, link.viewerKey);
      this.#listed.push({ link, host: hostOf(link.origin), watch, foundId: null, foundName: null });
    }
    this.#unsubscribe = opts.room.subscribe(() => {
      this.#ownStale = true;
      this.#changed();
    });
    for (const listed of this.#listed) listed.watch.start();
  }

  /** A box found (or found again with new addresses, port, name or tag) by mDNS. */
  found(box: FoundBox): void {
    if (this.#closed || this.#opts.isSelf(box)) return;
    // What mDNS says is anyone's to write: only IP addresses and a port make an origin (and a front-door link).
    if (!Number.isInteger(box.port) || box.port < 1 || box.port > 65_535) return;
    const origins = box.addresses.filter((address) => isIP(address) !== 0).map((address) => originOf(address, box.port));
    const origin = origins[0];
    if (origin === undefined) return;
    const before = this.#found.get(box.id);
    const foreign = box.venueTag !== this.#opts.venueTag;
    if (before !== undefined && before.origin === origin && before.foreign === foreign) {
      this.#found.set(box.id, { ...before, box, gone: false });
      this.#mergeListed(box, origins);
      this.#changed();
      return;
    }
    if (before !== undefined) this.#drop(box.id, before);
    if (!this.#roomForOneMore()) return;
    const listed = this.#mergeListed(box, origins);
    const watch =
      listed || foreign ? null : this.#watch(origin, this.#opts.venueKey, true);
    this.#found.set(box.id, { box, origin, watch, foreign, gone: false, foundOrder: (this.#order += 1) });
    watch?.start();
    this.#changed();
  }

  /** mDNS says the box left (its goodbye, or its records expired). */
  gone(id: string): void {
    const room = this.#found.get(id);
    if (room === undefined) return;
    if (room.watch === null) this.#drop(id, room);
    // A room of this venue stays, shown as its stream shows it (not answering, once it is gone).
    else room.gone = true;
    this.#changed();
  }

  /** Every tile as it is now. */
  tiles(): VenueTiles {
    const serverNow = this.#opts.room.serverNow();
    if (this.#ownStale) {
      this.#ownStale = false;
      this.#own = publicSnapshot(this.#opts.room.snapshot());
    }
    const tiles: VenueTile[] = [
      { id: 'self', name: cleanName(this.#opts.name), kind: 'self', status: 'live', since: serverNow, message: null, frontDoor: null, offsetMs: 0, snapshot: this.#own },
    ];
    for (const listed of this.#listed) {
      const state = listed.watch.state;
      tiles.push({
        id: `listed:${listed.link.origin}`,
        name: cleanName(state.name ?? listed.foundName ?? listed.host),
        kind: 'listed',
        status: state.status,
        since: state.since,
        message: state.message,
        frontDoor: `${listed.link.origin}/`,
        offsetMs: state.offsetMs ?? 0,
        snapshot: state.snapshot,
      });
    }
    const found = [...this.#found.entries()].filter(([, room]) => !this.#listed.some((listed) => listed.foundId === room.box.id));
    found.sort(([, a], [, b]) => a.box.name.localeCompare(b.box.name) || a.foundOrder - b.foundOrder);
    for (const [id, room] of found) {
      const state = room.watch?.state;
      tiles.push({
        id: `found:${id}`,
        name: cleanName(state?.name ?? room.box.name),
        kind: room.foreign ? 'foreign' : 'found',
        status: state?.status ?? 'foreign',
        since: state?.since ?? serverNow,
        message: room.foreign ? 'found on the network, not of this venue (another venue key, or none)' : state?.message ?? null,
        frontDoor: `${room.origin}/`,
        offsetMs: state?.offsetMs ?? 0,
        snapshot: state?.snapshot ?? null,
      });
    }
    return { serverNow, tiles };
  }

  /** Called with the whole list after each burst of changes. */
  subscribe(listener: (tiles: VenueTiles) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    this.#unsubscribe();
    if (this.#flush !== null) clearTimeout(this.#flush);
    this.#flush = null;
    for (const listed of this.#listed) listed.watch.close();
    for (const room of this.#found.values()) room.watch?.close();
    this.#found.clear();
    this.#listeners.clear();
  }

  #watch(origin: string, key: string, proveFirst = false): RoomWatch {
    const onStatus = this.#opts.onStatus;
    return new RoomWatch({
      origin,
      key,
      proveFirst,
      io: this.#opts.io,
      onChange: () => this.#changed(),
      ...(onStatus === undefined ? {} : { onStatus: (state: RoomWatchState) => onStatus(origin, state) }),
    });
  }

  /** Marks the listed room that is this box as found; true when there is one. */
  #mergeListed(box: FoundBox, origins: readonly string[]): boolean {
    const hosts = origins.map(hostOf);
    const listed = this.#listed.find((room) => hosts.includes(room.host));
    if (listed === undefined) return false;
    listed.foundId = box.id;
    listed.foundName = box.name;
    return true;
  }

  #drop(id: string, room: FoundRoom): void {
    room.watch?.close();
    this.#found.delete(id);
    for (const listed of this.#listed) {
      if (listed.foundId !== id) continue;
      listed.foundId = null;
      listed.foundName = null;
    }
  }

  #roomForOneMore(): boolean {
    if (this.#found.size < MAX_FOUND) return true;
    let oldest: [string, FoundRoom] | null = null;
    for (const entry of this.#found) if (entry[1].gone && (oldest === null || entry[1].foundOrder < oldest[1].foundOrder)) oldest = entry;
    if (oldest === null) return false;
    this.#drop(oldest[0], oldest[1]);
    return true;
  }

  #changed(): void {
    if (this.#closed || this.#flush !== null) return;
    this.#flush = setTimeout(() => {
      this.#flush = null;
      if (this.#closed || this.#listeners.size === 0) return;
      const tiles = this.tiles();
      for (const listener of this.#listeners) {
        try {
          listener(tiles);
        } catch {
          // A listener's failure is its own (the feed guards its streams); the others still get the list.
        }
      }
    }, this.#opts.coalesceMs ?? 50);
  }
}
