// TSL UMD packets as the room needs them: which display index has which tally
// on. Pure, and total: any bytes give either the displays or a problem in
// words, never an exception (the tests throw random and cut packets at it).
//
// TSL 5.0 (UDP, and TCP inside DLE/STX framing, tsl-stream.ts), little-endian:
//   PBC (16 bits: the bytes that follow it), VER (8), FLAGS (8: bit 0 text in
//   UTF-16LE, bit 1 screen control instead of display messages), SCREEN (16),
//   then display messages: INDEX (16, 0xFFFF is every display), CONTROL (16: bits
//   0-1 right-hand tally, 2-3 text tally, 4-5 left-hand tally, 6-7 brightness,
//   bit 15 control data instead of text), LENGTH (16), TEXT (LENGTH bytes).
//   A tally is 0 off, 1 red, 2 green, 3 amber; red is program, green preview,
//   amber both.
// TSL 3.1 (UDP): 18 bytes per display: address + 0x80, a control byte (bits
//   0-3 tally 1 to 4, 4-5 brightness, bit 7 clear), 16 characters of text.
//   Tally 1 is program and tally 2 preview, as mixers send them.
// The npm packages that read TSL (tsl-umd-v5, tsl-umd) throw on a short packet
// and take one display message per packet at most: a few dozen lines of our own
// read every message and refuse anything else in words.

/** The most a TSL 5.0 packet may be, PBC included (the spec's limit). */
export const TSL5_MAX_PACKET_BYTES = 2048;
/** The index every display takes. */
export const TSL5_BROADCAST_INDEX = 0xffff;
export const TSL31_MESSAGE_BYTES = 18;
/** Framing bytes of TSL 5.0 over TCP. */
export const DLE = 0xfe;
export const STX = 0x02;

const TSL5_HEADER_BYTES = 6;
const DMSG_HEADER_BYTES = 6;
const FLAG_SCREEN_CONTROL = 0b10;
const CONTROL_DATA_BIT = 0x8000;

/** What one display was told: its index (TSL 3.1: its address) and its tallies. */
export interface DisplayTally {
  readonly index: number;
  readonly program: boolean;
  readonly preview: boolean;
}

export type TslRead =
  | { readonly ok: true; readonly version: '5.0' | '3.1'; readonly displays: readonly DisplayTally[] }
  | { readonly ok: false; readonly problem: string };

const refused = (problem: string): TslRead => ({ ok: false, problem });

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}

/** A 2-bit TSL 5.0 tally (0 off, 1 red, 2 green, 3 amber) as program and preview. */
function colourTally(control: number): { program: boolean; preview: boolean } {
  let program = false;
  let preview = false;
  for (const shift of [0, 2, 4]) {
    const colour = (control >> shift) & 0b11;
    if (colour === 1 || colour === 3) program = true;
    if (colour === 2 || colour === 3) preview = true;
  }
  return { program, preview };
}

/** One TSL 5.0 packet, unframed (no DLE/STX, no stuffing): every display message, or a problem. */
export function readTsl5(packet: Uint8Array): TslRead {
  if (packet.length < TSL5_HEADER_BYTES) return refused(`TSL 5.0: ${packet.length} bytes, shorter than a header (${TSL5_HEADER_BYTES})`);
  if (packet.length > TSL5_MAX_PACKET_BYTES) return refused(`TSL 5.0: ${packet.length} bytes, more than a packet may have (${TSL5_MAX_PACKET_BYTES})`);
  const pbc = u16(packet, 0);
  if (pbc !== packet.length - 2) return refused(`TSL 5.0: the byte count says ${pbc} bytes follow, ${packet.length - 2} do`);
  const flags = packet[3] as number;
  // A screen control message sets no tally.
  if ((flags & FLAG_SCREEN_CONTROL) !== 0) return { ok: true, version: '5.0', displays: [] };
  const displays: DisplayTally[] = [];
  let at = TSL5_HEADER_BYTES;
  while (at < packet.length) {
    if (packet.length - at < DMSG_HEADER_BYTES) return refused(`TSL 5.0: a display message cut short at byte ${at}`);
    const index = u16(packet, at);
    const control = u16(packet, at + 2);
    const length = u16(packet, at + 4);
    at += DMSG_HEADER_BYTES + length;
    if (at > packet.length) return refused(`TSL 5.0: a display message's text runs ${at - packet.length} bytes past the packet`);
    // Control data (bit 15) carries no tally.
    if ((control & CONTROL_DATA_BIT) === 0) displays.push({ index, ...colourTally(control) });
  }
  return { ok: true, version: '5.0', displays };
}

/** TSL 3.1 messages, 18 bytes each (a datagram may hold several). */
export function readTsl31(data: Uint8Array): TslRead {
  if (data.length === 0 || data.length % TSL31_MESSAGE_BYTES !== 0) return refused(`TSL 3.1: ${data.length} bytes, not a multiple of ${TSL31_MESSAGE_BYTES}`);
  const displays: DisplayTally[] = [];
  for (let at = 0; at < data.length; at += TSL31_MESSAGE_BYTES) {
    const header = data[at] as number;
    const control = data[at + 1] as number;
    if (header < 0x80 || header === 0xff) return refused(`TSL 3.1: header byte 0x${header.toString(16)} is no address (0x80 to 0xfe)`);
    if ((control & 0x80) !== 0) return refused(`TSL 3.1: control byte 0x${control.toString(16)} has bit 7 set`);
    displays.push({ index: header - 0x80, program: (control & 0b01) !== 0, preview: (control & 0b10) !== 0 });
  }
  return { ok: true, version: '3.1', displays };
}

/**
 * Undoes TCP framing: DLE/STX at the start, each DLE in the packet sent twice.
 * Null when the bytes are not such a packet (a lone DLE, or one before another byte).
 */
export function unframe(framed: Uint8Array): Uint8Array | null {
  if (framed.length < 2 || framed[0] !== DLE || framed[1] !== STX) return null;
  const out = new Uint8Array(framed.length - 2);
  let size = 0;
  for (let at = 2; at < framed.length; at += 1) {
    const byte = framed[at] as number;
    if (byte === DLE) {
      if (framed[at + 1] !== DLE) return null;
      at += 1;
    }
    out[size] = byte;
    size += 1;
  }
  return out.subarray(0, size);
}

/**
 * One UDP datagram: TSL 5.0 (also framed, as some senders frame it on UDP too) when
 * its byte count matches, else TSL 3.1 messages, else refused. A TSL 3.1 datagram
 * begins with 0x80 or more, so it reads as a TSL 5.0 byte count only for 130 bytes
 * or more; where it does (8 messages, the first for address 14 with no tally), its
 * third byte, text, is not TSL 5.0's version 0, and it is read as TSL 3.1.
 */
export function readDatagram(data: Uint8Array): TslRead {
  if (data.length >= 2 && data[0] === DLE && data[1] === STX) {
    const packet = unframe(data);
    return packet === null ? refused('TSL 5.0: a framed packet with a DLE not followed by DLE') : readTsl5(packet);
  }
  const tsl31Shaped = data.length > 0 && data.length % TSL31_MESSAGE_BYTES === 0 && (data[0] as number) >= 0x80;
  if (data.length >= 2 && u16(data, 0) === data.length - 2 && !(tsl31Shaped && data[2] !== 0)) return readTsl5(data);
  if (tsl31Shaped) return readTsl31(data);
  return refused(`neither TSL 5.0 (the byte count does not match the ${data.length} bytes) nor TSL 3.1 (18-byte messages)`);
}
