// The venue overview, put together for main.ts: the rooms (venue-rooms.ts) watched
// from this box, and the overview's streams (venue-feed.ts) that /venue/{venue_key}
// serves (src/pages/venue-routes.ts). main.ts starts it when venue.key is set and
// hands it the mDNS browser's found/gone events.
import { networkInterfaces } from 'node:os';
import { venueTag, type VenueConfig } from '../config/venue-config.js';
import type { Logger } from '../log/logger.js';
import type { StreamClient } from '../push/stream-client.js';
import type { VenueTiles } from '../client/venue-tile.js';
import { nodeWatchIo, type WatchIo } from './room-watch.js';
import { VenueFeed } from './venue-feed.js';
import { VenueRooms, type FoundBox, type OwnRoom } from './venue-rooms.js';

export type { FoundBox } from './venue-rooms.js';

/** What the overview's routes need. */
export interface VenueOverview {
  /** A stream of tiles (its first event every tile as now); null when the budget is spent or it is closing. */
  open(): StreamClient | null;
  tiles(): VenueTiles;
}

export interface VenueWatch extends VenueOverview {
  /** A box found, or found again with changes, by the mDNS browser. */
  found(box: FoundBox): void;
  /** The mDNS browser says the box with this id left. */
  gone(id: string): void;
  close(): void;
}

export interface StartVenueOptions {
  readonly config: VenueConfig;
  readonly room: OwnRoom;
  /** The port this box's HTTP server listens on: with its own addresses, how its own advertisement is told. */
  readonly port: number;
  /** Tests: a fetch and clock of their own. */
  readonly io?: WatchIo;
  /** Tests: the addresses that are this box; the network interfaces' by default. */
  readonly ownAddresses?: () => readonly string[];
  /** One line when a watched room turns live, lost or refused (its origin and why; never a key). */
  readonly logger?: Pick<Logger, 'info' | 'warn'>;
}

function interfaceAddresses(): string[] {
  const found: string[] = [];
  for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) found.push(info.address.toLowerCase());
  return found;
}

/**
 * Starts watching the venue's rooms. Null without a venue key: the overview and the
 * watching of found boxes both need it, and listed rooms are only shown on the overview.
 */
export function startVenue(opts: StartVenueOptions): VenueWatch | null {
  const key = opts.config.key;
  if (key === undefined) return null;
  const ownAddresses = opts.ownAddresses ?? interfaceAddresses;
  const rooms = new VenueRooms({
    name: opts.config.name,
    room: opts.room,
    venueKey: key,
    venueTag: venueTag(key),
    listed: opts.config.rooms,
    io: opts.io ?? nodeWatchIo(() => opts.room.serverNow()),
    isSelf: (box) => box.port === opts.port && box.addresses.some((address) => ownAddresses().includes(address.toLowerCase())),
    onStatus: (origin, state) => {
      const logger = opts.logger;
      if (logger === undefined || state.status === 'connecting') return;
      if (state.status === 'live') logger.info({ component: 'venue', room: origin }, `venue: ${origin} answers`);
      else logger.warn({ component: 'venue', room: origin, status: state.status }, `venue: ${origin} ${state.message ?? state.status}`);
    },
  });
  // The key is fixed for the life of the process (config), so a stream opened with it stays allowed.
  const feed = new VenueFeed({ source: rooms, stillAllowed: () => true });
  return {
    open: () => feed.open(),
    tiles: () => rooms.tiles(),
    found: (box) => rooms.found(box),
    gone: (id) => rooms.gone(id),
    close: () => {
      feed.close();
      rooms.close();
    },
  };
}
