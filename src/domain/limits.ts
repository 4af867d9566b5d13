// Bounds of the room, from remote-control-api.md §8 and decisions.md "Inputs and bounds".
// One place, so the HTTP schemas, the config file and the engine agree.
export const DURATION_MIN_MS = 1_000;
export const DURATION_MAX_MS = 86_400_000;
export const DURATION_DEFAULT_MS = 600_000;
export const WARN_AT_MIN_MS = 0;
export const WARN_AT_MAX_MS = 86_400_000;
export const WARN_AT_DEFAULT_MS = 60_000;
/** Scheduled starts: any instant a Date can show as a four-digit year (up to 9999-12-31T23:59:59.999Z). */
export const SCHEDULED_AT_MIN_MS = 0;
export const SCHEDULED_AT_MAX_MS = 253_402_300_799_999;
/**
 * A countdown to a time of day follows the wall clock: a difference from it larger
 * than this is a wall-clock step (not the ms rounding of two clock readings), and
 * the end is placed again.
 */
export const WALL_STEP_TOLERANCE_MS = 250;
/** A screen flash: `count` inversions, one per FLASH_PERIOD_MS (inverted for the first half). */
export const FLASH_COUNT_DEFAULT = 3;
export const FLASH_COUNT_MIN = 1;
export const FLASH_COUNT_MAX = 10;
export const FLASH_PERIOD_MS = 500;
/**
 * A flash begins this long after the command, so the push reaches every screen on
 * the LAN first and they all invert at the same server instant, none mid-phase.
 */
export const FLASH_LEAD_MS = 150;
/** The chime's volume, percent of full scale; a test chime plays this long after the command, for the same reason as a flash. */
export const CHIME_VOLUME_MAX = 100;
export const CHIME_VOLUME_DEFAULT = 70;
export const CHIME_TEST_LEAD_MS = 150;
/** A test chime stays in the snapshot this long, so a screen that was busy still plays it once. */
export const CHIME_TEST_SHOWN_MS = 1_000;
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
/** Tags: a few per show (tracks, rooms, kinds of item); the names are short labels on the display. */
export const MAX_TAGS = 32;
export const TAG_NAME_MAX_CHARS = 40;
export const TAG_ID_MAX_CHARS = 64;
/** A tag made without a colour: the blue of the console's own accents. */
export const TAG_COLOUR_DEFAULT = '#0a84ff';

/** Audience questions: a tweet's length, a name as a badge would print it. */
export const QUESTION_TEXT_MAX_CHARS = 280;
export const QUESTION_NAME_MAX_CHARS = 60;
/**
 * Questions the room keeps. Each is in every console's snapshot and in the room
 * file, so this bounds both (about 200 KB at full length); a busy conference
 * session gets a few dozen. Beyond it the oldest answered or hidden ones make way.
 */
export const MAX_QUESTIONS = 500;
export const QUESTION_ID_MAX_CHARS = 64;

/**
 * Length as a person counts characters: code points, so an emoji is one, not
 * the two UTF-16 units of `.length`.
 */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
