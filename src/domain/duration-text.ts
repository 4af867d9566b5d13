// Durations as operators type them in the running order: `10:00` (m:ss),
// `1:30:00` (h:mm:ss), `45` (minutes), `90s`, `5m`, `2h`. The API takes
// milliseconds; the words of a refusal say how to write it.

export const DURATION_HINT = 'write minutes:seconds (10:00), hours:minutes:seconds (1:30:00), or 90s, 5m, 2h';

/** `m:ss` below an hour, `h:mm:ss` from an hour; whole seconds unless the value has a fraction. */
export function formatDurationText(ms: number): string {
  const totalSeconds = ms / 1000;
  const whole = Math.floor(totalSeconds);
  const fraction = Math.round((totalSeconds - whole) * 1000);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const ss = (seconds < 10 ? '0' : '') + String(seconds) + (fraction > 0 ? `.${String(fraction).padStart(3, '0').replace(/0+$/, '')}` : '');
  if (hours > 0) return `${hours}:${minutes < 10 ? '0' : ''}${minutes}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Milliseconds, or null when the text is not a duration. */
export function parseDurationText(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  const unit = /^(\d{1,6}(?:\.\d{1,3})?)\s*(h|m|min|s|sec)?$/.exec(trimmed);
  if (unit !== null) {
    const value = Number(unit[1]);
    const scale = unit[2] === 'h' ? 3_600_000 : unit[2] === 's' || unit[2] === 'sec' ? 1000 : 60_000;
    return Math.round(value * scale);
  }
  const clock = /^(?:(\d{1,3}):)?(\d{1,4}):(\d{2}(?:\.\d{1,3})?)$/.exec(trimmed);
  if (clock === null) return null;
  const hours = clock[1] === undefined ? 0 : Number(clock[1]);
  const minutes = Number(clock[2]);
  const seconds = Number(clock[3]);
  if (seconds >= 60 || (clock[1] !== undefined && minutes >= 60)) return null;
  return Math.round(((hours * 60 + minutes) * 60 + seconds) * 1000);
}
