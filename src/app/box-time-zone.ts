// The zone the box itself is set to, for a fresh room. Asking Intl for it
// (`new Intl.DateTimeFormat().resolvedOptions().timeZone`) loads ICU's calendar
// and zone data: about 1.9 MB of private memory and 6.7 MB of the node binary's
// pages, held for the life of the process, on a box whose screens (not the
// service) show times of day. So the zone is read where ICU itself reads it (TZ,
// then the /etc/localtime link) and checked against Intl's list of zone names,
// which costs a tenth of that; any name the list does not settle goes the whole
// way through Intl, which gives the answer it always gave. BENCHMARKS.md has the
// measurement.
import { readlinkSync } from 'node:fs';
import { canonicalTimeZone } from '../domain/time-zone.js';

/** What Intl turns into `UTC` (V8's own list); every other name it keeps as the list spells it. */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT']);

const ZONEINFO = '/zoneinfo/';

/** What follows the last `/zoneinfo/` of a path (a zone's name), or undefined when there is none. */
function afterZoneinfo(path: string): string | undefined {
  const at = path.lastIndexOf(ZONEINFO);
  return at === -1 ? undefined : path.slice(at + ZONEINFO.length);
}

/** The zone name the host names, as written in TZ or as the tail of /etc/localtime's target; undefined if neither names one. */
export function hostZoneName(env: NodeJS.ProcessEnv, readLink: (path: string) => string): string | undefined {
  const tz = env.TZ;
  if (tz !== undefined) {
    // `:Europe/Berlin` and `/usr/share/zoneinfo/Europe/Berlin` name a zone too; a POSIX rule such as `CET-1CEST` is left to Intl.
    const name = tz.startsWith(':') ? tz.slice(1) : tz;
    return afterZoneinfo(name) ?? name;
  }
  try {
    return afterZoneinfo(readLink('/etc/localtime'));
  } catch {
    return undefined;
  }
}

/** The name as Intl would spell it, when Intl's list of zones settles that without a formatter; else undefined. */
export function listedZone(name: string): string | undefined {
  if (UTC_NAMES.has(name)) return 'UTC';
  return Intl.supportedValuesOf('timeZone').includes(name) ? name : undefined;
}

/** The box's zone as Intl names it (UTC when Intl cannot say), read once by the caller. */
export function boxTimeZone(env: NodeJS.ProcessEnv = process.env, readLink: (path: string) => string = readlinkSync): string {
  const named = hostZoneName(env, readLink);
  const listed = named === undefined ? undefined : listedZone(named);
  if (listed !== undefined) return listed;
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return canonicalTimeZone(zone) ?? 'UTC';
}
