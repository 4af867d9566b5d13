// The OSC input: a UDP port whose messages are `/showclock/{api_key}/<command>`
// with typed arguments, each through the command gate (source `osc`). A bundle's
// messages act in order, each counted against the quota. Refused input is logged
// once per cause per minute and, with `osc.reply`, answered at `/showclock/error`.
import type { Logger } from '../log/logger.js';
import type { CommandGate } from './command-gate.js';
import { FEEDBACK_PREFIX } from './feedback-values.js';
import { oscArgValue } from './osc-arguments.js';
import { decodePacket, encodeMessage, type OscMessageIn } from './osc-packet.js';
import type { Refusals } from './refusals.js';
import { UdpListener, type UdpSender } from './udp-listener.js';

export const OSC_PREFIX = '/showclock/';
export const OSC_ERROR_ADDRESS = '/showclock/error';

const ADDRESS_HINT = 'OSC addresses are /showclock/{api_key}/<command>, e.g. /showclock/KEY/start';

export class OscInput {
  readonly #gate: CommandGate;
  readonly #refusals: Refusals;
  readonly #listener: UdpListener;

  constructor(opts: { host: string; port: number; gate: CommandGate; refusals: Refusals; logger: Logger }) {
    this.#gate = opts.gate;
    this.#refusals = opts.refusals;
    this.#listener = new UdpListener({ host: opts.host, port: opts.port, label: 'OSC input', logger: opts.logger, onDatagram: (data, from) => this.#datagram(data, from) });
  }

  start(): Promise<number> {
    return this.#listener.start();
  }

  close(): void {
    this.#listener.close();
  }

  #datagram(data: Buffer, from: UdpSender): void {
    const decoded = decodePacket(data);
    if (!decoded.ok) {
      this.#refuse(from, 'malformed', decoded.error);
      return;
    }
    for (const message of decoded.messages) this.#message(message, from);
  }

  #message(message: OscMessageIn, from: UdpSender): void {
    const { address } = message;
    // The box's own output coming back (a feedback target pointed at this port, a reply to a reply): never a command, never answered.
    if (address === OSC_ERROR_ADDRESS || address.startsWith(FEEDBACK_PREFIX)) return;
    if (!address.startsWith(OSC_PREFIX)) {
      this.#refuse(from, 'address', `not a Showclock address; ${ADDRESS_HINT}`);
      return;
    }
    const [key = '', ...path] = address.slice(OSC_PREFIX.length).split('/');
    this.#gate.handle({ key, path, args: message.args.map(oscArgValue) }, 'osc', from.address, (refusal) =>
      this.#refusals.refuse({ ...refusal, from: from.address, source: 'osc' }, (error) => this.#answer(from, error)),
    );
  }

  #refuse(from: UdpSender, kind: 'malformed' | 'address', error: string): void {
    this.#refusals.refuse({ kind, error, from: from.address, source: 'osc' }, (text) => this.#answer(from, text));
  }

  #answer(to: UdpSender, error: string): void {
    this.#listener.send(encodeMessage(OSC_ERROR_ADDRESS, [error]), to);
  }
}
