// Refused UDP input: logged (bad-input-log.ts) and, with `osc.reply` on, answered
// to its sender. Answers are limited per sender address: UDP senders can be
// forged, and a flood of junk from a forged address must not turn the box into a
// source of a flood at that address (nor at itself).
import { FixedWindowLimiter } from '../http/rate-limit.js';
import type { BadInput, BadInputLog } from './bad-input-log.js';

/** Answers per sender address per minute; past it, refusals are only logged. */
export const REPLIES_PER_ADDRESS = 20;
/** Answers per minute in all: forged senders could otherwise each claim their own 20. */
export const REPLIES_PER_MINUTE = 200;

export class Refusals {
  readonly #log: BadInputLog;
  readonly #perAddress: FixedWindowLimiter | null;
  readonly #inAll: FixedWindowLimiter | null;

  constructor(opts: { log: BadInputLog; reply: boolean; nowMs: () => number }) {
    this.#log = opts.log;
    this.#perAddress = opts.reply ? new FixedWindowLimiter({ limit: REPLIES_PER_ADDRESS, nowMs: opts.nowMs }) : null;
    this.#inAll = opts.reply ? new FixedWindowLimiter({ limit: REPLIES_PER_MINUTE, nowMs: opts.nowMs }) : null;
  }

  refuse(bad: BadInput, answer: (error: string) => void): void {
    this.#log.report(bad);
    if (this.#perAddress === null || this.#inAll === null) return;
    if (this.#perAddress.hit(bad.from).allowed && this.#inAll.hit('all').allowed) answer(bad.error);
  }
}
