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
        if (best === null || bound(sample, receivedMs) <= bound(best, receivedMs)) {
          changed = changed || best === null || sample.offsetMs !== best.offsetMs;
          best = sample;
        }
      }
      return changed;
    },
  };
}
