// What the two UDP inputs (OSC and plain text) share: a listener on their own port,
// every command through the command gate under the input's source, and every
// refusal logged and, with `osc.reply`, answered to its sender in the input's own
// form. Each input only reads its datagrams and writes its answer.
//
// What one datagram can make the box do is bounded whatever it holds: at most
// MAX_COMMANDS_PER_DATAGRAM commands are taken from it (an OSC bundle's messages,
// a plain-text datagram's lines), each spending the quota as one HTTP request;
// the rest are refused together, in one refusal; and it gets one answer at most.
import type { Logger } from '../log/logger.js';
import type { CommandGate, Incoming, UdpSource } from './command-gate.js';
import type { Refusals } from './refusals.js';
import { UdpListener, type UdpSender } from './udp-listener.js';

/** Commands taken from one datagram: a cue's worth, a third of a minute's quota. */
export const MAX_COMMANDS_PER_DATAGRAM = 32;

export interface UdpInputOptions {
  readonly host: string;
  readonly port: number;
  readonly gate: CommandGate;
  readonly refusals: Refusals;
  readonly logger: Logger;
}

/** One datagram's sender, and whether the datagram had its answer. */
export interface Datagram {
  readonly from: UdpSender;
  answered: boolean;
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
    this.#listener = new UdpListener({
      host: opts.host,
      port: opts.port,
      label,
      logger: opts.logger,
      onDatagram: (data, from) => this.datagram(data, { from, answered: false }),
    });
  }

  start(): Promise<number> {
    return this.#listener.start();
  }

  close(): void {
    this.#listener.close();
  }

  /** Reads one datagram: its commands go to `handle`, what cannot be read to `refuse`. */
  protected abstract datagram(data: Buffer, datagram: Datagram): void;

  /** The answer to a refused datagram or command, in the input's own form. */
  protected abstract answerBytes(error: string): Buffer;

  protected handle(incoming: Incoming, datagram: Datagram): void {
    const { from } = datagram;
    this.#gate.handle(incoming, this.#source, from, (refusal) => this.#refuse({ ...refusal, from: from.address, source: this.#source }, datagram));
  }

  protected refuse(datagram: Datagram, kind: 'malformed' | 'address' | 'too-many', error: string): void {
    this.#refuse({ kind, error, from: datagram.from.address, source: this.#source }, datagram);
  }

  #refuse(bad: Parameters<Refusals['refuse']>[0], datagram: Datagram): void {
    this.#refusals.refuse(
      bad,
      datagram.from,
      datagram.answered
        ? null
        : (error) => {
            datagram.answered = true;
            this.#listener.send(this.answerBytes(error), datagram.from);
          },
    );
  }
}
