// The schedule in words, one way for every surface (console, display, Companion,
// OSC), so they all agree to the second: an offset is shown in whole seconds,
// rounded to the nearest, and "on time" is an offset that rounds to zero.
import { formatDurationText } from './duration-text.js';

export type OffsetState = 'behind' | 'ahead' | 'onTime';

/** The offset in whole seconds, rounded to the nearest (half a second late is a second late). */
export function offsetSeconds(offsetMs: number): number {
  const seconds = Math.round(Math.abs(offsetMs) / 1000);
  return offsetMs < 0 ? -seconds : seconds;
}

export function offsetState(offsetMs: number | null): OffsetState | null {
  if (offsetMs === null) return null;
  const seconds = offsetSeconds(offsetMs);
  return seconds > 0 ? 'behind' : seconds < 0 ? 'ahead' : 'onTime';
}

/** `4:20 behind`, `1:05 ahead`, `on time`; empty when there is no plan to be on time against. */
export function offsetText(offsetMs: number | null): string {
  const state = offsetState(offsetMs);
  if (state === null || offsetMs === null) return '';
  if (state === 'onTime') return 'on time';
  return `${formatDurationText(Math.abs(offsetSeconds(offsetMs)) * 1000)} ${state}`;
}

/** `+4:20`, `-1:05`, `0:00`: the offset signed, for a narrow place (a button, an OSC label). */
export function offsetSignedText(offsetMs: number | null): string {
  if (offsetMs === null) return '';
  const seconds = offsetSeconds(offsetMs);
  const text = formatDurationText(Math.abs(seconds) * 1000);
  return seconds > 0 ? `+${text}` : seconds < 0 ? `-${text}` : text;
}
