// Bounds of the room, from remote-control-api.md §8 and decisions.md "Inputs and bounds".
// One place, so the HTTP schemas, the config file and the engine agree.
export const DURATION_MIN_MS = 1_000;
export const DURATION_MAX_MS = 86_400_000;
export const DURATION_DEFAULT_MS = 600_000;
export const WARN_AT_MIN_MS = 0;
export const WARN_AT_MAX_MS = 86_400_000;
export const WARN_AT_DEFAULT_MS = 60_000;
export const ADJUST_MAX_MS = 3_600_000;
/** A remaining time may never be pushed above this by `adjust` or an update. */
export const REMAINING_MAX_MS = 86_400_000;
export const LABEL_MAX_CHARS = 200;
export const SPEAKER_MAX_CHARS = 200;
export const MESSAGE_MAX_CHARS = 500;
export const TIMER_ID_MAX_CHARS = 64;
/**
 * The most timers a running order holds. Every change sends the whole room to
 * every screen, so this bounds the snapshot (about 100 KB at most with every
 * label and speaker at full length) and the work of one fan-out; a conference
 * day has a few dozen items. BENCHMARKS.md has the measurement.
 */
export const MAX_TIMERS = 100;

/**
 * Length as a person counts characters: code points, so an emoji is one, not
 * the two UTF-16 units of `.length`.
 */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
