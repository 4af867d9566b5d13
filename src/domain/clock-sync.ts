// Whether the box's wall clock can be trusted (issue 33): what the box reports in
// /healthz, GET /api/v1/{api_key}/clock and the console. Only the wall clock is in
// question: running timers count on the monotonic clock and never move with it
// (decisions.md, "Clock and time"). Read by src/systemd/time-sync.ts.

/** Where the box's time comes from: the NTP client that answered, or none (nothing keeps it to a server). */
export type TimeSource = 'timesyncd' | 'chrony' | 'none' | 'unknown';

export interface ClockSync {
  /** true: a time server keeps the clock; false: nothing does (or has not yet, since boot); null: the box cannot tell. */
  readonly synced: boolean | null;
  readonly source: TimeSource;
  /** The box's clock minus its time server's, in ms, when the source says (chrony; timesyncd's last sample). */
  readonly offsetMs?: number;
  /** How far off the clock may be at most, in ms, when the source says (offset + root distance). */
  readonly maxErrorMs?: number;
  /** The time server in use, when the source names it. */
  readonly server?: string;
  /** Since when (ms since the epoch, on the box's clock) `synced` and `source` have been as they are. */
  readonly since: number;
  /** When the clock was last set by hand through the API (ms since the epoch, after the step), if it was since the service started. */
  readonly setByHandAt?: number;
  /** One sentence for a person: what the box knows of its clock. */
  readonly detail: string;
}

/** What a request to set the clock came to. */
export type ClockSetResult =
  | { readonly ok: true; readonly clock: ClockSync }
  | { readonly ok: false; readonly status: 400 | 409 | 503; readonly error: string };

/** The box's clock as the HTTP side sees it: read at once (never waits), set through the system. */
export interface BoxClock {
  current(): ClockSync;
  /** Sets the box's clock to `atMs` (ms since the epoch, as the sender's clock read when it sent it); refused while synchronised. */
  set(atMs: number): Promise<ClockSetResult>;
}

/** The most a time given to set the clock may be from the box's: a year (a device with a wrong clock, a typo). */
export const CLOCK_SET_MAX_DISTANCE_MS = 366 * 24 * 3_600_000;

/** The words the console and /healthz use while the clock is not synchronised. */
export const NOT_SYNCED_WARNING = 'The box\'s clock is not synchronised: time of day, scheduled starts and end-at timers may be wrong';
