// The plain-text UDP input, on a port of its own: each line of a datagram is
// `<api_key> <command> [args]` (text-line.ts), through the same command gate as
// OSC (source `udp-text`), so the same rules, quota and log apply. With
// `osc.reply`, a refused line is answered with one line, `showclock error: ...`.
import { GatedUdpInput, type UdpInputOptions } from './gated-udp-input.js';
import { datagramLines, parseTextLine } from './text-line.js';
import type { UdpSender } from './udp-listener.js';

/** Longer than any command can be (a message is at most 500 characters): junk, not read. */
export const TEXT_DATAGRAM_MAX_BYTES = 8 * 1024;

const decoder = new TextDecoder();

export class TextInput extends GatedUdpInput {
  constructor(opts: UdpInputOptions) {
    super(opts, 'udp-text', 'plain-text input');
  }

  protected datagram(data: Buffer, from: UdpSender): void {
    if (data.byteLength > TEXT_DATAGRAM_MAX_BYTES) {
      this.refuse(from, 'malformed', `a datagram of ${data.byteLength} bytes is too long: at most ${TEXT_DATAGRAM_MAX_BYTES}, one command per line`);
      return;
    }
    for (const text of datagramLines(decoder.decode(data))) {
      const line = parseTextLine(text);
      if (line === null) continue;
      if (!line.ok) {
        this.refuse(from, 'malformed', line.error);
        continue;
      }
      this.handle({ key: line.key, path: line.path, args: line.args }, from);
    }
  }

  protected answerBytes(error: string): Buffer {
    return Buffer.from(`showclock error: ${error.replace(/[\r\n]+/g, ' ')}\n`);
  }
}
