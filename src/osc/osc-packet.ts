// OSC packets in and out, through osc-min (decoding, bundles, type tags): a
// datagram becomes the messages it holds, bundles opened in order (their time
// tags are not waited for: a command acts when it arrives), and a message to send
// becomes the bytes of one datagram.
import { fromBuffer, toBuffer, type OscArgOutputOrArray, type OscPacketOutput } from 'osc-min';

export interface OscMessageIn {
  readonly address: string;
  readonly args: readonly OscArgOutputOrArray[];
}

export type DecodedPacket = { readonly ok: true; readonly messages: readonly OscMessageIn[] } | { readonly ok: false; readonly error: string };

function collect(packet: OscPacketOutput, into: OscMessageIn[]): void {
  if (packet.oscType === 'message') into.push({ address: packet.address, args: packet.args });
  else for (const element of packet.elements) collect(element, into);
}

export function decodePacket(datagram: Uint8Array): DecodedPacket {
  let packet: OscPacketOutput;
  try {
    packet = fromBuffer(datagram);
  } catch (error) {
    // The decoder's reason names the part (padding, type tag), never the bytes, which may hold the key.
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `not an OSC packet (${reason.slice(0, 120)})` };
  }
  const messages: OscMessageIn[] = [];
  collect(packet, messages);
  return { ok: true, messages };
}

/** What the service sends: text and 32-bit integers, the types every OSC receiver reads. */
export type OscValueOut = string | number;

export function encodeMessage(address: string, args: readonly OscValueOut[]): Buffer {
  const view = toBuffer({
    address,
    // An OSC string cannot hold NUL; the room refuses control characters anyway.
    args: args.map((value) => (typeof value === 'string' ? { type: 'string' as const, value: value.replaceAll('\u0000', '') } : { type: 'integer' as const, value })),
  });
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}
