// Senders that have shown they hold the API key: an address and port that sent a
// message with the right key within the last PROOF_MS. UDP senders can be forged,
// and an answer to a forged address is a datagram at someone who never asked for
// it; an answer to a sender that proved the key goes back to a console that did
// ask. Bounded: past MAX_PROVEN, the sender proved longest ago is forgotten.
import type { UdpSender } from './udp-listener.js';

/** How long one message with the right key keeps its sender answerable. */
export const PROOF_MS = 10 * 60_000;
/** Senders remembered at once: more than any rack has consoles. */
export const MAX_PROVEN = 256;

const keyOf = (sender: UdpSender) => `${sender.address} ${sender.port}`;

export class ProvenSenders {
  readonly #nowMs: () => number;
  /** Oldest proof first, for eviction. */
  readonly #provedAt = new Map<string, number>();

  constructor(opts: { nowMs: () => number }) {
    this.#nowMs = opts.nowMs;
  }

  /** `sender` sent a message with the right key just now. */
  prove(sender: UdpSender): void {
    const key = keyOf(sender);
    this.#provedAt.delete(key);
    this.#provedAt.set(key, this.#nowMs());
    if (this.#provedAt.size > MAX_PROVEN) {
      const oldest = this.#provedAt.keys().next();
      if (oldest.done !== true) this.#provedAt.delete(oldest.value);
    }
  }

  has(sender: UdpSender): boolean {
    const at = this.#provedAt.get(keyOf(sender));
    return at !== undefined && this.#nowMs() - at < PROOF_MS;
  }

  /** Remembered senders, for tests: memory stays bounded. */
  get size(): number {
    return this.#provedAt.size;
  }
}
