// What this box says about itself over mDNS/DNS-SD, and what it makes of what other
// boxes say (README "Found on the network (mDNS)"). Pure: no sockets here, so the
// records and the parsing are tested without a network.
//
// Two services, one instance name (the room's name, venue.name):
//   _showclock._tcp  for other boxes and the Companion module: TXT room, api, versions,
//                    path, and venue=<tag> when a venue key is set (the tag, never the key);
//   _http._tcp       the front door, for browsers that list web servers: TXT path=/.
// FoundBox, another box as a browser sees it, is the shape the venue overview takes (src/venue), defined there.
import type { FoundBox } from '../venue/venue-rooms.js';

export type { FoundBox };

export const SHOWCLOCK_SERVICE_TYPE = 'showclock';
export const HTTP_SERVICE_TYPE = 'http';
/** The name a browser asks for (PTR), as it appears in DNS: lower case, with the trailing dot left off. */
export const SHOWCLOCK_SERVICE_NAME = '_showclock._tcp.local';

/** What the advertisement is made from: the room as configured, nothing secret. */
export interface AdvertisedRoom {
  /** venue.name: the DNS-SD instance name (at most 63 bytes, checked by the config). */
  readonly name: string;
  /** The HTTP port the box listens on. */
  readonly port: number;
  /** Every API version the box serves, oldest first; the last is the newest. */
  readonly apiVersions: readonly string[];
  /** venueTag(venue.key) when a venue key is set (src/config/venue-config.ts), else null. */
  readonly venueTag: string | null;
}

export type TxtRecord = Readonly<Record<string, string>>;

/** Bytes a host label may take before ciao adds ` (2)` on a conflict and a suffix of ours: a DNS label is at most 63 bytes. */
const HOST_LABEL_BYTES = 48;

/**
 * The host names the two services answer on (`Main-hall.local`, `Main-hall-web.local`), given
 * without `.local` as ciao takes them. Two, because ciao will not let two of its services share
 * one (it probes each service's host name and takes its own other service for a conflict); both
 * carry the same addresses. Cut to whole characters within HOST_LABEL_BYTES.
 */
export function hostLabels(name: string): { readonly showclock: string; readonly http: string } {
  let label = '';
  for (const char of name.replace(/[.\\]/g, '-')) {
    if (Buffer.byteLength(label + char, 'utf8') > HOST_LABEL_BYTES) break;
    label += char;
  }
  const base = label.trim() === '' ? 'showclock' : label;
  return { showclock: base, http: `${base} web` };
}

/** The TXT record of `_showclock._tcp`. Keys are short and lower case (RFC 6763 6.4). */
export function showclockTxt(room: AdvertisedRoom): TxtRecord {
  const newest = room.apiVersions[room.apiVersions.length - 1];
  if (newest === undefined) throw new Error('a box serves at least one API version');
  const txt: Record<string, string> = { room: room.name, api: newest, versions: room.apiVersions.join(','), path: '/' };
  if (room.venueTag !== null) txt.venue = room.venueTag;
  return txt;
}

/** The TXT record of `_http._tcp`: where the front door is. */
export function httpTxt(): TxtRecord {
  return { path: '/' };
}

/** What a browser has gathered about one instance. */
export interface ResolvedInstance {
  /** The full instance name, `Main hall._showclock._tcp.local`. */
  readonly fullName: string;
  readonly port: number;
  /** The TXT record's strings as they came. */
  readonly txt: readonly Buffer[];
  readonly addresses: readonly string[];
}

const TAG_PATTERN = /^[0-9a-f]{12}$/;
const API_PATTERN = /^v\d{1,3}$/;

/** TXT strings (`key=value`, RFC 6763 6.3) as a record; a key is case-insensitive, the first wins (6.4). */
export function parseTxt(strings: readonly Buffer[]): TxtRecord {
  const txt: Record<string, string> = {};
  for (const raw of strings) {
    const text = raw.toString('utf8');
    if (text === '') continue;
    const equals = text.indexOf('=');
    const key = (equals === -1 ? text : text.slice(0, equals)).toLowerCase();
    if (key === '' || key in txt) continue;
    txt[key] = equals === -1 ? '' : text.slice(equals + 1);
  }
  return txt;
}

/** The instance part of a full name: `Main hall` of `Main hall._showclock._tcp.local`. DNS escapes (`\.`, `\032`) undone. */
export function instanceName(fullName: string, serviceName: string = SHOWCLOCK_SERVICE_NAME): string {
  const suffix = `.${serviceName}`;
  const lower = fullName.toLowerCase().replace(/\.$/, '');
  const raw = lower.endsWith(suffix) ? fullName.slice(0, lower.length - suffix.length) : fullName;
  // \DDD is one byte in decimal (RFC 1035 5.1), so a UTF-8 character may take several.
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    const decimal = /^\\(\d{3})/.exec(raw.slice(i));
    if (decimal !== null) {
      bytes.push(Number(decimal[1]));
      i += 3;
    } else {
      if (raw[i] === '\\' && i + 1 < raw.length) i += 1;
      bytes.push(...Buffer.from(raw[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * IPv4 before IPv6, each kind in the order given, no repeats. Link-local IPv6 (fe80::) is
 * left out: without its interface (a zone the records do not carry) no one can connect to it.
 */
export function orderAddresses(addresses: readonly string[]): string[] {
  const usable = [...new Set(addresses)].filter((address) => !/^fe[89ab][0-9a-f]:/i.test(address));
  return [...usable.filter((address) => !address.includes(':')), ...usable.filter((address) => address.includes(':'))];
}

/**
 * A FoundBox from what was resolved, or null for what is not one: no address, no
 * port. Values that are not what a box sends (a tag that is not 12 hex, an api that
 * is not vN) read as absent, so a foreign or broken record never looks like a venue's.
 */
export function foundBox(instance: ResolvedInstance): FoundBox | null {
  const addresses = orderAddresses(instance.addresses);
  if (addresses.length === 0 || !Number.isInteger(instance.port) || instance.port <= 0 || instance.port > 65_535) return null;
  const txt = parseTxt(instance.txt);
  const room = txt.room?.trim();
  const api = txt.api ?? null;
  const tag = txt.venue ?? null;
  return {
    id: instance.fullName.replace(/\.$/, ''),
    name: room !== undefined && room !== '' ? room : instanceName(instance.fullName),
    addresses,
    port: instance.port,
    api: api !== null && API_PATTERN.test(api) ? api : null,
    venueTag: tag !== null && TAG_PATTERN.test(tag) ? tag : null,
  };
}

/** Two sightings of a box that differ in nothing a user of FoundBox sees: no `updated` for them. */
export function sameBox(a: FoundBox, b: FoundBox): boolean {
  return a.id === b.id && a.name === b.name && a.port === b.port && a.api === b.api && a.venueTag === b.venueTag && a.addresses.join(' ') === b.addresses.join(' ');
}
