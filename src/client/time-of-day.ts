// Times of day as the room shows them: in the room's time zone and clock format
// (settings), never the viewing device's, so a phone abroad shows the venue's
// time. Intl knows the zones; one formatter per zone is kept, as making one is slow.
// Page code: no destructuring (esbuild targets old browsers).
import type { ClockFormat } from '../domain/types.js';

export interface TimeOfDaySettings {
  readonly timeZone: string;
  readonly clockFormat: ClockFormat;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  const cached = formatters.get(timeZone);
  if (cached !== undefined) return cached;
  let made: Intl.DateTimeFormat | null;
  try {
    // 24-hour parts in every case; the 12-hour form is made from them, so both read the same everywhere.
    made = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  } catch {
    // A zone this browser's database does not know: UTC rather than a blank screen.
    made = timeZone === 'UTC' ? null : formatterFor('UTC');
  }
  formatters.set(timeZone, made);
  return made;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Hours, minutes and seconds of `ms` in `timeZone`. */
function partsOf(ms: number, timeZone: string): [number, number, number] {
  const formatter = formatterFor(timeZone);
  if (formatter === null) {
    const d = new Date(ms);
    return [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  }
  let h = 0;
  let m = 0;
  let s = 0;
  const parts = formatter.formatToParts(new Date(ms));
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as Intl.DateTimeFormatPart;
    if (part.type === 'hour') h = Number(part.value) % 24; // some engines say 24 at midnight
    else if (part.type === 'minute') m = Number(part.value);
    else if (part.type === 'second') s = Number(part.value);
  }
  return [h, m, s];
}

/** `19:30:05` (24h) or `7:30:05 PM` (12h), in the room's zone. */
export function formatTimeOfDay(ms: number, settings: TimeOfDaySettings): string {
  const hms = partsOf(ms, settings.timeZone);
  const h = hms[0];
  const rest = `${two(hms[1])}:${two(hms[2])}`;
  if (settings.clockFormat === '24h') return `${two(h)}:${rest}`;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${rest} ${h < 12 ? 'AM' : 'PM'}`;
}

/** `19:30` or `7:30 PM`: a time of day without seconds, for labels (scheduled starts, ends). */
export function formatShortTimeOfDay(ms: number, settings: TimeOfDaySettings): string {
  const full = formatTimeOfDay(ms, settings);
  return full.replace(/:\d\d(?= |$)/, '');
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat | null>();

/**
 * The zone's short name at `ms` as Intl gives it in English ("EST", "EDT", "GMT+1", "UTC"):
 * a 12 h time alone does not say which zone's it is. '' when this browser cannot name it.
 */
export function zoneName(ms: number, timeZone: string): string {
  let formatter = zoneFormatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' });
    } catch {
      formatter = null;
    }
    zoneFormatters.set(timeZone, formatter);
  }
  if (formatter === null) return '';
  const parts = formatter.formatToParts(new Date(ms));
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as Intl.DateTimeFormatPart;
    if (part.type === 'timeZoneName') return part.value;
  }
  return '';
}

/**
 * The small time-of-day line of a screen: `19:30:05` (24 h, as it always read), or
 * `7:30:05 PM EST` (12 h, with the zone's short name, which AM/PM readers expect).
 */
export function formatTimeOfDayLine(ms: number, settings: TimeOfDaySettings): string {
  const time = formatTimeOfDay(ms, settings);
  if (settings.clockFormat === '24h') return time;
  const zone = zoneName(ms, settings.timeZone);
  return zone === '' ? time : `${time} ${zone}`;
}
