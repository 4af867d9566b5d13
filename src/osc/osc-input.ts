// The OSC input: a UDP port whose messages are `/showclock/{api_key}/<command>`
// with typed arguments, each through the command gate (source `osc`). A bundle's
// messages act in order, each counted against the quota, its first
// MAX_COMMANDS_PER_DATAGRAM only (nested bundles included); the rest are refused
// in one. Refused input is logged once per cause per minute and, with
// `osc.reply`, answered at `/showclock/error` to a sender that proved the key.
import { FEEDBACK_PREFIX } from './feedback-values.js';
import { GatedUdpInput, MAX_COMMANDS_PER_DATAGRAM, type Datagram, type UdpInputOptions } from './gated-udp-input.js';
import { oscArgValue } from './osc-arguments.js';
import { decodePacket, encodeMessage, type OscMessageIn } from './osc-packet.js';

export const OSC_PREFIX = '/showclock/';
export const OSC_ERROR_ADDRESS = '/showclock/error';

const ADDRESS_HINT = 'OSC addresses are /showclock/{api_key}/<command>, e.g. /showclock/KEY/start';

export class OscInput extends GatedUdpInput {
  constructor(opts: UdpInputOptions) {
    super(opts, 'osc', 'OSC input');
  }

  protected datagram(data: Buffer, from: Datagram): void {
    const decoded = decodePacket(data);
    if (!decoded.ok) {
      this.refuse(from, 'malformed', decoded.error);
      return;
    }
    const { messages } = decoded;
    for (const message of messages.slice(0, MAX_COMMANDS_PER_DATAGRAM)) this.#message(message, from);
    if (messages.length > MAX_COMMANDS_PER_DATAGRAM) {
      const dropped = messages.length - MAX_COMMANDS_PER_DATAGRAM;
      this.refuse(
        from,
        'too-many',
        `a bundle of ${messages.length} messages: the first ${MAX_COMMANDS_PER_DATAGRAM} were taken, the other ${dropped} dropped; send at most ${MAX_COMMANDS_PER_DATAGRAM} messages in one packet`,
      );
    }
  }

  #message(message: OscMessageIn, from: Datagram): void {
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
