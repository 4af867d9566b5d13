// The plain-text UDP input, on a port of its own: each line of a datagram is
// `<api_key> <command> [args]` (text-line.ts), through the same command gate as
// OSC (source `udp-text`), so the same rules, quota and log apply. With
// `osc.reply`, a refused line is answered with one line, `showclock error: ...`.
import type { Logger } from '../log/logger.js';
import type { CommandGate } from './command-gate.js';
import type { Refusals } from './refusals.js';
import { datagramLines, parseTextLine } from './text-line.js';
import { UdpListener, type UdpSender } from './udp-listener.js';

/** Longer than any command can be (a message is at most 500 characters): junk, not read. */
export const TEXT_DATAGRAM_MAX_BYTES = 8 * 1024;

const decoder = new TextDecoder();

export class TextInput {
  readonly #gate: CommandGate;
  readonly #refusals: Refusals;
  readonly #listener: UdpListener;

  constructor(opts: { host: string; port: number; gate: CommandGate; refusals: Refusals; logger: Logger }) {
    this.#gate = opts.gate;
    this.#refusals = opts.refusals;
    this.#listener = new UdpListener({ host: opts.host, port: opts.port, label: 'plain-text input', logger: opts.logger, onDatagram: (data, from) => this.#datagram(data, from) });
  }

  start(): Promise<number> {
    return this.#listener.start();
  }

  close(): void {
    this.#listener.close();
  }

  #datagram(data: Buffer, from: UdpSender): void {
    if (data.byteLength > TEXT_DATAGRAM_MAX_BYTES) {
      this.#refuse(from, 'malformed', `a datagram of ${data.byteLength} bytes is too long: at most ${TEXT_DATAGRAM_MAX_BYTES}, one command per line`);
      return;
    }
    for (const text of datagramLines(decoder.decode(data))) {
      const line = parseTextLine(text);
      if (line === null) continue;
      if (!line.ok) {
        this.#refuse(from, 'malformed', line.error);
        continue;
      }
      this.#gate.handle({ key: line.key, path: line.path, args: line.args }, 'udp-text', from.address, (refusal) =>
        this.#refusals.refuse({ ...refusal, from: from.address, source: 'udp-text' }, (error) => this.#answer(from, error)),
      );
    }
  }

  #refuse(from: UdpSender, kind: 'malformed', error: string): void {
    this.#refusals.refuse({ kind, error, from: from.address, source: 'udp-text' }, (text) => this.#answer(from, text));
  }

  #answer(to: UdpSender, error: string): void {
    this.#listener.send(Buffer.from(`showclock error: ${error.replace(/[\r\n]+/g, ' ')}\n`), to);
  }
}
