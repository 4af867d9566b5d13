// The server's clock as this page estimates it, from round trips to the time
// endpoint. Each round trip bounds the offset to within half its duration; the
// sample kept is the one with the smallest bound, where a sample's bound also
// grows with its age (the device's crystal drifts), so a quick round trip made
// a minute ago still beats a slow one made now, but not forever. The offset is
// kept against performance.now(), the monotonic clock, so a device whose wall
// clock is minutes off, or steps, changes nothing.
export interface ServerClock {
  /** Estimated server time, ms since epoch; null before any estimate. */
  now(): number | null;
  /** Runs a burst of round trips; resolves true when the estimate changed. */
  sync(): Promise<boolean>;
  /** A rough estimate from a snapshot's serverNow, used only until the first round trip succeeds. */
  hint(serverNowMs: number): void;
  /** Round trip of the sample in use, ms; null without one. */
  bestRoundTripMs(): number | null;
  /**
   * The server's clock stepped (a snapshot says so: snapshotSaysStep): the sample kept is
   * forgotten, and the snapshot's serverNow stands until the next round trip, so nothing is
   * drawn from the old offset meanwhile. Follow it with sync().
   */
  stepped(serverNowMs: number): void;
}

export interface ServerClockOptions {
  readonly samples?: number;
  /** Pause between the round trips of a burst, so one busy moment does not spoil them all. */
  readonly gapMs?: number;
  readonly perfNow?: () => number;
  readonly fetchTime?: (url: string) => Promise<number>;
  readonly wait?: (ms: number) => Promise<void>;
}

/** Drift allowed for the device's clock against the server's: 100 ppm, twice a poor crystal's. */
const DRIFT_PER_MS = 100e-6;
/**
 * Beyond both samples' bounds, how far a new sample's offset may be from the kept one's before
 * it says the server's clock stepped (set by hand, or by NTP: issue 33), or this device's
 * monotonic clock stood still (a sleep): the kept sample is then wrong, and the new one replaces it.
 * A second: far beyond what a busy device or network makes of a round trip (a slow sample that
 * merely disagrees a little never replaces a quick one), far below a step worth following.
 */
const STEP_MARGIN_MS = 1_000;

/**
 * How far a snapshot's serverNow may be from this page's estimate of the server's time before the
 * page measures again at once: a snapshot is stamped when it is sent, so a gap this large means the
 * box's clock stepped (issue 33: set by hand, or NTP), and until the next measurement every running
 * time drawn from the new snapshot's endAt would be off by the step.
 */
export const SNAPSHOT_STEP_MS = 2_000;

/** Whether a snapshot stamped `serverNowMs` says the server's clock stepped since this estimate was made. */
export function snapshotSaysStep(clock: Pick<ServerClock, 'now'>, serverNowMs: number): boolean {
  const estimate = clock.now();
  return estimate !== null && Math.abs(serverNowMs - estimate) > SNAPSHOT_STEP_MS;
}

interface Sample {
  readonly roundTripMs: number;
  readonly offsetMs: number;
  readonly atPerfMs: number;
}

async function fetchServerNow(url: string): Promise<number> {
  const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) throw new Error(`time endpoint answered ${response.status}`);
  const body = (await response.json()) as { serverNow?: unknown };
  if (typeof body.serverNow !== 'number') throw new Error('time endpoint gave no serverNow');
  return body.serverNow;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createServerClock(timeUrl: string, opts: ServerClockOptions = {}): ServerClock {
  const samples = opts.samples ?? 5;
  const gapMs = opts.gapMs ?? 40;
  const perfNow = opts.perfNow ?? (() => performance.now());
  const fetchTime = opts.fetchTime ?? fetchServerNow;
  const wait = opts.wait ?? sleep;
  let hintOffsetMs: number | null = null;
  let best: Sample | null = null;

  /** The most the sample's offset can be wrong by at `nowMs`. */
  const bound = (s: Sample, nowMs: number): number => s.roundTripMs / 2 + (nowMs - s.atPerfMs) * DRIFT_PER_MS;

  return {
    now() {
      const offsetMs = best === null ? hintOffsetMs : best.offsetMs;
      return offsetMs === null ? null : perfNow() + offsetMs;
    },
    hint(serverNowMs) {
      if (best === null) hintOffsetMs = serverNowMs - perfNow();
    },
    bestRoundTripMs: () => (best === null ? null : best.roundTripMs),
    stepped(serverNowMs) {
      best = null;
      hintOffsetMs = serverNowMs - perfNow();
    },
    async sync() {
      let changed = false;
      for (let i = 0; i < samples; i += 1) {
        if (i > 0 && gapMs > 0) await wait(gapMs);
        const sentMs = perfNow();
        let serverNowMs: number;
        try {
          serverNowMs = await fetchTime(timeUrl);
        } catch {
          continue;
        }
        const receivedMs = perfNow();
        // The server read its clock somewhere in the round trip; the middle is the best guess.
        const sample: Sample = { roundTripMs: receivedMs - sentMs, offsetMs: serverNowMs - (sentMs + receivedMs) / 2, atPerfMs: receivedMs };
        const stepped = best !== null && Math.abs(sample.offsetMs - best.offsetMs) > bound(sample, receivedMs) + bound(best, receivedMs) + STEP_MARGIN_MS;
        if (best === null || stepped || bound(sample, receivedMs) <= bound(best, receivedMs)) {
          changed = changed || best === null || sample.offsetMs !== best.offsetMs;
          best = sample;
        }
      }
      return changed;
    },
  };
}
