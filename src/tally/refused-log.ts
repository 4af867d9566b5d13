// Refused TSL input in the log: the first of each kind a minute, then one line
// saying how many more (log/line-throttle.ts), so a mixer sending junk or another
// protocol several times a second cannot fill the journal. A kind is the
// problem's class (`malformed`, `framing`, `other-displays`, ...), never bytes of
// the packet; the message is short whatever arrived.
import type { Scheduler } from '../app/clock.js';
import { LineThrottle } from '../log/line-throttle.js';
import type { Logger } from '../log/logger.js';

export const REFUSED_WINDOW_MS = 60_000;
/** Kinds times sender addresses kept apart; more share one count, so memory stays bounded. */
const MAX_CAUSES = 64;

export type RefusedKind = 'malformed' | 'framing' | 'other-displays' | 'connections';

export class RefusedLog {
  readonly #logger: Logger;
  readonly #throttle: LineThrottle;

  constructor(opts: { logger: Logger; nowMs: () => number; scheduler: Scheduler }) {
    this.#logger = opts.logger;
    this.#throttle = new LineThrottle({
      perWindow: 1,
      windowMs: REFUSED_WINDOW_MS,
      maxKeys: MAX_CAUSES,
      nowMs: opts.nowMs,
      scheduler: opts.scheduler,
      report: (cause, suppressed) => this.#logger.warn({ cause, suppressed }, `${suppressed} more TSL packets refused (${cause}) in the last minute, not logged one by one`),
    });
  }

  /**
   * `other-displays` is normal on a shared tally network (a mixer sends every
   * display's index): an info line, once a minute, to help set `indices`.
   */
  report(kind: RefusedKind, from: string, message: string): void {
    const cause = `tsl ${kind} ${from}`;
    if (!this.#throttle.allow(cause)) return;
    const level = kind === 'other-displays' ? 'info' : 'warn';
    this.#logger[level]({ cause, from }, `${kind === 'other-displays' ? 'TSL' : 'refused TSL input'}: ${message.slice(0, 200)}`);
  }

  /** Open windows, for tests: memory stays bounded. */
  get size(): number {
    return this.#throttle.size;
  }
}
