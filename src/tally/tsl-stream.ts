// TSL 5.0 over TCP: a byte stream of packets, each begun with DLE/STX and with
// every DLE inside sent twice; the packet's own byte count (PBC) says where it
// ends. Chunks may cut a packet, or a DLE pair, anywhere. At most one packet is
// held (TSL5_MAX_PACKET_BYTES), whatever a connection sends; bytes outside a
// packet, a DLE followed by anything but DLE or STX, or a packet that a new
// DLE/STX cuts short are problems, reported and skipped to the next DLE/STX.
import { DLE, STX, TSL5_MAX_PACKET_BYTES } from './tsl-packet.js';

export class Tsl5Stream {
  readonly #onPacket: (packet: Uint8Array) => void;
  readonly #onProblem: (problem: string) => void;
  readonly #body = new Uint8Array(TSL5_MAX_PACKET_BYTES);
  #size = 0;
  /** The packet's whole length, PBC included, once its first two bytes are in. */
  #need: number | null = null;
  #inPacket = false;
  #afterDle = false;

  constructor(opts: { onPacket: (packet: Uint8Array) => void; onProblem: (problem: string) => void }) {
    this.#onPacket = opts.onPacket;
    this.#onProblem = opts.onProblem;
  }

  push(chunk: Uint8Array): void {
    let stray = 0;
    for (const byte of chunk) {
      if (!this.#inPacket) {
        if (this.#afterDle && byte === STX) this.#begin();
        else if (byte === DLE) this.#afterDle = true;
        else {
          this.#afterDle = false;
          stray += 1;
        }
        continue;
      }
      if (this.#afterDle) {
        this.#afterDle = false;
        if (byte === STX) {
          this.#onProblem(`TSL 5.0 over TCP: a packet cut short after ${this.#size} bytes by the next one`);
          this.#begin();
          continue;
        }
        if (byte !== DLE) {
          this.#onProblem('TSL 5.0 over TCP: a DLE followed by neither DLE nor STX');
          this.#inPacket = false;
          continue;
        }
        this.#add(DLE);
        continue;
      }
      if (byte === DLE) this.#afterDle = true;
      else this.#add(byte);
    }
    if (stray > 0) this.#onProblem(`TSL 5.0 over TCP: ${stray} bytes outside a DLE/STX packet`);
  }

  #begin(): void {
    this.#inPacket = true;
    this.#afterDle = false;
    this.#size = 0;
    this.#need = null;
  }

  #add(byte: number): void {
    this.#body[this.#size] = byte;
    this.#size += 1;
    if (this.#size === 2) {
      const need = ((this.#body[0] as number) | ((this.#body[1] as number) << 8)) + 2;
      if (need > TSL5_MAX_PACKET_BYTES) {
        this.#onProblem(`TSL 5.0 over TCP: a byte count of ${need - 2}, more than a packet may have`);
        this.#inPacket = false;
        return;
      }
      this.#need = need;
    }
    if (this.#need !== null && this.#size >= this.#need) {
      this.#inPacket = false;
      // A copy: the buffer is reused for the next packet.
      this.#onPacket(this.#body.slice(0, this.#size));
    }
  }
}
