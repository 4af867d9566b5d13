// Times of day as the console shows and reads them, in the room's time zone and
// clock format (settings), not the console device's: "19:30" or "7:30 PM" for a
// scheduled start or an end, typed back the same way. A typed time is its next
// occurrence after the server's now (today, or tomorrow once it has passed).
// Shared by the console and the Companion module, so a key and the console read
// "19:30" the same way.
// Page code: no destructuring (esbuild targets old browsers).
import type { TimeOfDaySettings } from './time-of-day.js';
import { formatShortTimeOfDay } from './time-of-day.js';

const DAY_MS = 86_400_000;

/** Year, month (1-12), day, hour, minute, second of `ms` in `timeZone`. */
function wallParts(ms: number, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).formatToParts(new Date(ms));
  const pick = (type: string): number => {
    for (let i = 0; i < parts.length; i += 1) if ((parts[i] as Intl.DateTimeFormatPart).type === type) return Number((parts[i] as Intl.DateTimeFormatPart).value);
    return 0;
  };
  return [pick('year'), pick('month'), pick('day'), pick('hour') % 24, pick('minute'), pick('second')];
}

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const p = wallParts(ms, timeZone);
  return Date.UTC(p[0] as number, (p[1] as number) - 1, p[2] as number, p[3] as number, p[4] as number, p[5] as number) - Math.floor(ms / 1000) * 1000;
}

/** The instant at which `timeZone`'s wall clock reads this date and time. */
function instantOf(y: number, mo: number, d: number, h: number, mi: number, timeZone: string): number {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, 0);
  const first = asUtc - offsetAt(asUtc, timeZone);
  // Once more at the result, for a day on which the offset changes (summer time).
  return asUtc - offsetAt(first, timeZone);
}

/** "19:30" / "7:30 PM", with the date when it is not within the next day from `nowMs`; '' for none. */
export function instantText(ms: number | null, nowMs: number, settings: TimeOfDaySettings): string {
  if (ms === null) return '';
  const time = formatShortTimeOfDay(ms, settings);
  if (ms >= nowMs - DAY_MS / 2 && ms < nowMs + DAY_MS) return time;
  const p = wallParts(ms, settings.timeZone);
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  return `${p[0]}-${two(p[1] as number)}-${two(p[2] as number)} ${time}`;
}

/**
 * Which day a time without a date falls on: `next`, its next occurrence after now
 * (a start the box will act on); `nearest`, the one closest to now, yesterday's,
 * today's or tomorrow's (a show's planned start, often typed once it has passed).
 */
export type DayChoice = 'next' | 'nearest';

/**
 * Reads "19:30", "7:30 pm", "7:30PM", "2026-11-24 09:00" in the room's zone; '' is
 * none (null). Undefined when it cannot be read.
 */
export function parseInstantText(text: string, nowMs: number, timeZone: string, day: DayChoice = 'next'): number | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  const m = /^(?:(\d{4})-(\d{1,2})-(\d{1,2})\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(t);
  if (m === null) return undefined;
  let h = Number(m[4]);
  const mi = m[5] === undefined ? 0 : Number(m[5]);
  const ampm = m[6];
  if (ampm !== undefined) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (ampm === 'pm' ? 12 : 0);
  }
  if (h > 23 || mi > 59) return undefined;
  if (m[1] !== undefined) return instantOf(Number(m[1]), Number(m[2]), Number(m[3]), h, mi, timeZone);
  const today = wallParts(nowMs, timeZone);
  const at = instantOf(today[0] as number, today[1] as number, today[2] as number, h, mi, timeZone);
  // The same time on another day, by the zone's calendar (a day is not always 24 hours).
  const onDayAfter = (ms: number, days: number): number => {
    const p = wallParts(ms + days * DAY_MS, timeZone);
    return instantOf(p[0] as number, p[1] as number, p[2] as number, h, mi, timeZone);
  };
  if (day === 'nearest') {
    let best = at;
    for (const other of [onDayAfter(at, -1), onDayAfter(at, 1)]) if (Math.abs(other - nowMs) < Math.abs(best - nowMs)) best = other;
    return best;
  }
  if (at > nowMs) return at;
  // Passed today: the same time tomorrow.
  return onDayAfter(at, 1);
}
