// The `venue` section of the config file (issue 32, README "Venue"): how this box is
// named and found on the network (mDNS/DNS-SD), the venue key that opens the overview
// of every room and lets the venue's boxes watch each other, and the rooms listed by
// their viewer links (boxes that mDNS cannot reach, on another subnet).
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import * as z from '../schema/zod.js';
import { checkedString, envText } from './field-checks.js';

/** A DNS-SD instance name is at most 63 bytes of UTF-8 (RFC 6763 4.1.1). */
export const VENUE_NAME_MAX_BYTES = 63;
/** More listed rooms than a venue has rooms is a list pasted twice. */
export const VENUE_ROOMS_MAX = 32;
/** Keys travel in URL paths: URL-safe characters, long enough to resist guessing (as the room's own keys). */
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export interface VenueRoomLink {
  /** As written in the config, for messages. */
  readonly link: string;
  /** `http://10.0.0.12:8080`: where the room's box answers. */
  readonly origin: string;
  /** The room's viewer key: it watches, nothing more. Never logged. */
  readonly viewerKey: string;
}

export interface VenueConfig {
  /** This room's name on the network and on overviews; the host name unless given. */
  readonly name: string;
  /** Advertise the box over mDNS/DNS-SD (`_showclock._tcp`, `_http._tcp`). */
  readonly advertise: boolean;
  /** Shared by the venue's boxes; undefined: no overview on this box, and other boxes cannot watch it. Never logged. */
  readonly key: string | undefined;
  /** Other rooms by their viewer links, shown on the overview beside those found by mDNS. */
  readonly rooms: readonly VenueRoomLink[];
}

/** The name a box has when nobody gave it one: its host name without the domain (`stage-a`). */
export function defaultVenueName(name: string = hostname()): string {
  const first = name.split('.')[0] ?? '';
  return first === '' ? 'Showclock' : first;
}

/**
 * What a box advertises of its venue key (TXT `venue=`): enough for another box of the same
 * venue to tell it is one of its own, nothing that gives the key away. 12 hex characters of
 * SHA-256 under a label of its own.
 */
export function venueTag(key: string): string {
  return createHash('sha256').update(`showclock venue\n${key}`).digest('hex').slice(0, 12);
}

export function venueNameProblem(raw: string): string | null {
  if (raw.trim() === '') return 'expected a name for this room, such as "Main hall"';
  // Control characters would end up in DNS records and on screens.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return 'expected a name without control characters (tabs, line breaks)';
  if (Buffer.byteLength(raw, 'utf8') > VENUE_NAME_MAX_BYTES) return `expected at most ${VENUE_NAME_MAX_BYTES} bytes (mDNS limits a name to that); shorten it`;
  return null;
}

export function venueKeyProblem(raw: string): string | null {
  return KEY_PATTERN.test(raw)
    ? null
    : 'expected 16 to 128 characters from A-Z a-z 0-9 _ - (the key goes in URLs); `openssl rand -hex 16` makes one';
}

/** A viewer link as the control room gives it out: `http(s)://host[:port]/view/{viewer_key}`, nothing after. */
export function parseVenueRoomLink(raw: string): VenueRoomLink | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'expected a viewer link such as http://10.0.0.12:8080/view/<viewer key> (the control room shows it)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `expected http:// or https://, got ${url.protocol}//`;
  if (url.username !== '' || url.password !== '') return 'expected no user name or password in the link';
  const match = /^\/view\/([^/]+)\/?$/.exec(url.pathname);
  if (match === null || match[1] === undefined) return 'expected a viewer link, ending /view/<viewer key> (a control link is not one: it would hand out the API key)';
  if (!KEY_PATTERN.test(match[1])) return 'the viewer key in the link is not one a box makes (16 to 128 characters from A-Z a-z 0-9 _ -)';
  if (url.search !== '' || url.hash !== '') return 'expected nothing after the key (no ?layout= or #): the overview reads the room, not a screen of it';
  return { link: raw, origin: url.origin, viewerKey: match[1] };
}

export function venueConfigSchema() {
  return z.strictObject({
    name: z.optional(checkedString(venueNameProblem)),
    advertise: z.optional(z.boolean({ error: 'expected true or false' })),
    key: z.optional(checkedString(venueKeyProblem)),
    rooms: z.optional(
      z
        .array(
          checkedString((raw) => {
            const parsed = parseVenueRoomLink(raw);
            return typeof parsed === 'string' ? parsed : null;
          }),
          { error: 'expected a list of viewer links, such as ["http://10.0.0.12:8080/view/<viewer key>"]' },
        )
        .check(z.maxLength(VENUE_ROOMS_MAX, `expected at most ${VENUE_ROOMS_MAX} rooms`)),
    ),
  });
}

export type VenueFile = z.infer<ReturnType<typeof venueConfigSchema>>;

/** Thrown with the field's name in front; config.ts turns it into its ConfigError. */
export class VenueConfigProblem extends Error {}

function envBoolean(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = envText(env, name);
  if (raw === undefined) return undefined;
  if (raw === 'true' || raw === '1' || raw === 'on') return true;
  if (raw === 'false' || raw === '0' || raw === 'off') return false;
  throw new VenueConfigProblem(`environment ${name}: expected true or false, got ${JSON.stringify(raw)}`);
}

/** The section with the environment on top (SHOWCLOCK_VENUE_*), and what only the whole can tell. */
export function resolveVenueConfig(env: NodeJS.ProcessEnv, file: VenueFile | undefined, roomKeys: readonly (string | undefined)[]): VenueConfig {
  const envName = envText(env, 'SHOWCLOCK_VENUE_NAME');
  const nameProblem = envName === undefined ? null : venueNameProblem(envName);
  if (nameProblem !== null) throw new VenueConfigProblem(`environment SHOWCLOCK_VENUE_NAME: ${nameProblem}`);
  const envKey = envText(env, 'SHOWCLOCK_VENUE_KEY');
  const keyProblem = envKey === undefined ? null : venueKeyProblem(envKey);
  if (keyProblem !== null) throw new VenueConfigProblem(`environment SHOWCLOCK_VENUE_KEY: ${keyProblem}`);
  const key = envKey ?? file?.key;
  if (key !== undefined && roomKeys.includes(key)) {
    throw new VenueConfigProblem('venue.key: must differ from the room\'s API, viewer and audience keys (the venue key is shared with the other boxes, and only watches)');
  }
  const rooms: VenueRoomLink[] = [];
  for (const [index, raw] of (file?.rooms ?? []).entries()) {
    const parsed = parseVenueRoomLink(raw);
    // The schema checked each already; a string here would be a schema that disagrees with the parser.
    if (typeof parsed === 'string') throw new VenueConfigProblem(`venue.rooms[${index}]: ${parsed}`);
    if (rooms.some((room) => room.origin === parsed.origin)) {
      throw new VenueConfigProblem(`venue.rooms[${index}]: ${parsed.origin} is listed twice; a box is one room`);
    }
    rooms.push(parsed);
  }
  return {
    name: envName ?? file?.name ?? defaultVenueName(),
    advertise: envBoolean(env, 'SHOWCLOCK_VENUE_ADVERTISE') ?? file?.advertise ?? true,
    key,
    rooms,
  };
}
