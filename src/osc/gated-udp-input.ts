// What the two UDP inputs (OSC and plain text) share: a listener on their own port,
// every command through the command gate under the input's source, and every
// refusal logged and, with `osc.reply`, answered to its sender in the input's own
// form. Each input only reads its datagrams and writes its answer.
import type { Logger } from '../log/logger.js';
import type { CommandGate, Incoming, UdpSource } from './command-gate.js';
import type { Refusals } from './refusals.js';
import { UdpListener, type UdpSender } from './udp-listener.js';

export interface UdpInputOptions {
  readonly host: string;
  readonly port: number;
  readonly gate: CommandGate;
  readonly refusals: Refusals;
  readonly logger: Logger;
}

export abstract class GatedUdpInput {
  readonly #gate: CommandGate;
  readonly #refusals: Refusals;
  readonly #listener: UdpListener;
  readonly #source: UdpSource;

  constructor(opts: UdpInputOptions, source: UdpSource, label: string) {
    this.#gate = opts.gate;
    this.#refusals = opts.refusals;
    this.#source = source;
    this.#listener = new UdpListener({ host: opts.host, port: opts.port, label, logger: opts.logger, onDatagram: (data, from) => this.datagram(data, from) });
  }

  start(): Promise<number> {
    return this.#listener.start();
  }

  close(): void {
    this.#listener.close();
  }

  /** Reads one datagram: its commands go to `handle`, what cannot be read to `refuse`. */
  protected abstract datagram(data: Buffer, from: UdpSender): void;

  /** The answer to a refused datagram or command, in the input's own form. */
  protected abstract answerBytes(error: string): Buffer;

  protected handle(incoming: Incoming, from: UdpSender): void {
    this.#gate.handle(incoming, this.#source, from.address, (refusal) =>
      this.#refusals.refuse({ ...refusal, from: from.address, source: this.#source }, (error) => this.#answer(from, error)),
    );
  }

  protected refuse(from: UdpSender, kind: 'malformed' | 'address', error: string): void {
    this.#refusals.refuse({ kind, error, from: from.address, source: this.#source }, (text) => this.#answer(from, text));
  }

  #answer(to: UdpSender, error: string): void {
    this.#listener.send(this.answerBytes(error), to);
  }
}
