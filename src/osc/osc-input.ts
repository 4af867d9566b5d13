// The OSC input: a UDP port whose messages are `/showclock/{api_key}/<command>`
// with typed arguments, each through the command gate (source `osc`). A bundle's
// messages act in order, each counted against the quota. Refused input is logged
// once per cause per minute and, with `osc.reply`, answered at `/showclock/error`.
import { FEEDBACK_PREFIX } from './feedback-values.js';
import { GatedUdpInput, type UdpInputOptions } from './gated-udp-input.js';
import { oscArgValue } from './osc-arguments.js';
import { decodePacket, encodeMessage, type OscMessageIn } from './osc-packet.js';
import type { UdpSender } from './udp-listener.js';

export const OSC_PREFIX = '/showclock/';
export const OSC_ERROR_ADDRESS = '/showclock/error';

const ADDRESS_HINT = 'OSC addresses are /showclock/{api_key}/<command>, e.g. /showclock/KEY/start';

export class OscInput extends GatedUdpInput {
  constructor(opts: UdpInputOptions) {
    super(opts, 'osc', 'OSC input');
  }

  protected datagram(data: Buffer, from: UdpSender): void {
    const decoded = decodePacket(data);
    if (!decoded.ok) {
      this.refuse(from, 'malformed', decoded.error);
      return;
    }
    for (const message of decoded.messages) this.#message(message, from);
  }

  #message(message: OscMessageIn, from: UdpSender): void {
    const { address } = message;
    // The box's own output coming back (a feedback target pointed at this port, a reply to a reply): never a command, never answered.
    if (address === OSC_ERROR_ADDRESS || address.startsWith(FEEDBACK_PREFIX)) return;
    if (!address.startsWith(OSC_PREFIX)) {
      this.refuse(from, 'address', `not a Showclock address; ${ADDRESS_HINT}`);
      return;
    }
    const [key = '', ...path] = address.slice(OSC_PREFIX.length).split('/');
    this.handle({ key, path, args: message.args.map(oscArgValue) }, from);
  }

  protected answerBytes(error: string): Buffer {
    return encodeMessage(OSC_ERROR_ADDRESS, [error]);
  }
}
