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
