// Refused UDP input in the log: one line per cause per minute, then one saying how
// many more there were. A sender stuck in a loop (a fader on a wrong address, a
// device spraying junk) must not fill the journal, yet the first of each kind of
// mistake is always there. A cause is a kind of problem and, where there is one,
// the command (`bad-input /adjust`), never anything from the packet: a wrong key
// or a malformed packet may hold the real key. The message is cut to
// LOGGED_ERROR_CHARS (its start and end kept), and what it quotes of the input
// was already shortened (shorten.ts): a line stays near 300 characters whatever
// was sent.
import type { Scheduler } from '../app/clock.js';
import { LineThrottle } from '../log/line-throttle.js';
import type { Logger } from '../log/logger.js';
import { fitted } from './shorten.js';

export const BAD_INPUT_WINDOW_MS = 60_000;
/** Causes kept apart; more share one count (line-throttle.ts), so memory stays bounded whatever arrives. */
const MAX_CAUSES = 64;
/** The most of a refusal's message a line holds, as JSON writes it; the rest of the line is ~170 characters. */
export const LOGGED_ERROR_CHARS = 120;

export interface BadInput {
  /** `malformed`, `address`, `too-many`, `wrong-key`, `rate-limit`, `unknown-command`, `bad-input`, `refused`, `not-done`. */
  readonly kind: string;
  /** The command's name (`/adjust`), when the problem is with one. */
  readonly command?: string;
  readonly error: string;
  /** The sender's address (no port: one device, one line). */
  readonly from: string;
  readonly source: 'osc' | 'udp-text';
}

export class BadInputLog {
  readonly #logger: Logger;
  readonly #throttle: LineThrottle;

  constructor(opts: { logger: Logger; nowMs: () => number; scheduler: Scheduler }) {
    this.#logger = opts.logger;
    this.#throttle = new LineThrottle({
      perWindow: 1,
      windowMs: BAD_INPUT_WINDOW_MS,
      maxKeys: MAX_CAUSES,
      nowMs: opts.nowMs,
      scheduler: opts.scheduler,
      report: (cause, suppressed) => this.#logger.warn({ cause, suppressed }, `${suppressed} more refused UDP input (${cause}) in the last minute, not logged one by one`),
    });
  }

  report(bad: BadInput): void {
    const cause = bad.command === undefined ? `${bad.source} ${bad.kind}` : `${bad.source} ${bad.kind} ${bad.command}`;
    if (!this.#throttle.allow(cause)) return;
    // The command is named in the cause; not again in a field of its own, to keep the line short.
    this.#logger.warn({ cause, from: bad.from }, `refused ${bad.source === 'osc' ? 'OSC' : 'plain-text'} input: ${fitted(bad.error, LOGGED_ERROR_CHARS)}`);
  }

  /** Open windows, for tests: memory stays bounded. */
  get size(): number {
    return this.#throttle.size;
  }
}
