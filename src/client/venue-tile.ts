// What the venue overview's stream (/venue/{venue_key}/events) carries: one `venue`
// event with every room as a tile, sent whole at each change (a venue has a few
// dozen rooms at most). Shared by the box's side (src/venue) and the page (src/pages/venue).
import type { PublicSnapshot } from '../domain/snapshot.js';

/**
 * `self`: this box. `listed`: a room from venue.rooms (its viewer link). `found`: a box
 * of this venue found by mDNS (same venue tag). `foreign`: a box found by mDNS that is not
 * of this venue (another or no tag): its name and front door only, no live state.
 */
export type TileKind = 'self' | 'listed' | 'found' | 'foreign';

/**
 * `connecting`: no snapshot yet on this connection. `live`: the stream delivers.
 * `lost`: it failed, ended, or was silent for 3 s; retried every 1-3 s. `refused`: the
 * box answered 401 to the key (`message` says what to fix). `foreign`: not watched.
 */
export type TileStatus = 'connecting' | 'live' | 'lost' | 'refused' | 'foreign';

export interface VenueTile {
  /** Stable for the life of the tile: `self`, `listed:<origin>`, `found:<mDNS instance>`. */
  readonly id: string;
  /** The room's name (from the box itself or its advertisement); text, never markup. */
  readonly name: string;
  readonly kind: TileKind;
  readonly status: TileStatus;
  /** This box's server time (ms since epoch) at which the status began. */
  readonly since: number;
  /** Why lost or refused, in a sentence; null otherwise. */
  readonly message: string | null;
  /** The box's front door (`http://10.0.0.12:8080/`); never a link with a key. Null for this box. */
  readonly frontDoor: string | null;
  /** The room's server clock minus this box's, ms (0 for this box; 0 until measured). */
  readonly offsetMs: number;
  /** The room's last snapshot as its viewer stream gave it (kept while lost, shown greyed); null before the first. */
  readonly snapshot: PublicSnapshot | null;
}

/** The `venue` event's data. */
export interface VenueTiles {
  /** This box's server time when the tiles were sent. */
  readonly serverNow: number;
  readonly tiles: readonly VenueTile[];
}

export const VENUE_EVENT = 'venue';
