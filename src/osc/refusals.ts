// Refused UDP input: logged (bad-input-log.ts) and, with `osc.reply` on, answered
// to its sender, but only to a sender that may be answered: one that proved the
// key (proven-senders.ts) or a configured feedback target. UDP senders can be
// forged, and junk from a forged address must not turn the box into a source of
// datagrams at that address (nor at itself): a sender that never proved the key
// gets no answer at all. Answers are limited per sender address and in all, and
// each is cut to REPLY_CHARS whatever was sent.
import { FixedWindowLimiter } from '../app/rate-limit.js';
import type { BadInput, BadInputLog } from './bad-input-log.js';
import { fitted } from './shorten.js';
import type { UdpSender } from './udp-listener.js';

/** Answers per sender address per minute; past it, refusals are only logged. */
export const REPLIES_PER_ADDRESS = 20;
/** Answers per minute in all: a key holder's forged senders could otherwise each claim their own 20. */
export const REPLIES_PER_MINUTE = 200;
/** The longest answer's text: room for the list of commands and a shortened argument or two. */
export const REPLY_CHARS = 512;

export class Refusals {
  readonly #log: BadInputLog;
  readonly #answerable: (to: UdpSender) => boolean;
  readonly #perAddress: FixedWindowLimiter | null;
  readonly #inAll: FixedWindowLimiter | null;

  constructor(opts: { log: BadInputLog; reply: boolean; nowMs: () => number; answerable: (to: UdpSender) => boolean }) {
    this.#log = opts.log;
    this.#answerable = opts.answerable;
    this.#perAddress = opts.reply ? new FixedWindowLimiter({ limit: REPLIES_PER_ADDRESS, nowMs: opts.nowMs }) : null;
    this.#inAll = opts.reply ? new FixedWindowLimiter({ limit: REPLIES_PER_MINUTE, nowMs: opts.nowMs }) : null;
  }

  /** `answer` null: this refusal is not to be answered whatever the rules (its datagram had its answer). */
  refuse(bad: BadInput, to: UdpSender, answer: ((error: string) => void) | null): void {
    this.#log.report(bad);
    if (this.#perAddress === null || this.#inAll === null || answer === null) return;
    // Checked before the counts: a sender that may not be answered spends no one's budget.
    if (!this.#answerable(to)) return;
    if (this.#perAddress.hit(to.address).allowed && this.#inAll.hit('all').allowed) answer(fitted(bad.error, REPLY_CHARS));
  }
}
