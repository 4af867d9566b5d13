// The plain-text UDP input, on a port of its own: each line of a datagram is
// `<api_key> <command> [args]` (text-line.ts), through the same command gate as
// OSC (source `udp-text`), so the same rules, quota and log apply: a datagram's
// first MAX_COMMANDS_PER_DATAGRAM lines are read, the rest refused in one, and
// with `osc.reply` a sender that proved the key gets one line for a refused
// datagram, `showclock error: ...`.
import { GatedUdpInput, MAX_COMMANDS_PER_DATAGRAM, type Datagram, type UdpInputOptions } from './gated-udp-input.js';
import { datagramLines, parseTextLine } from './text-line.js';

/** Longer than any command can be (a message is at most 500 characters): junk, not read. */
export const TEXT_DATAGRAM_MAX_BYTES = 8 * 1024;

const decoder = new TextDecoder();

export class TextInput extends GatedUdpInput {
  constructor(opts: UdpInputOptions) {
    super(opts, 'udp-text', 'plain-text input');
  }

  protected datagram(data: Buffer, from: Datagram): void {
    if (data.byteLength > TEXT_DATAGRAM_MAX_BYTES) {
      this.refuse(from, 'malformed', `a datagram of ${data.byteLength} bytes is too long: at most ${TEXT_DATAGRAM_MAX_BYTES}, one command per line`);
      return;
    }
    let read = 0;
    let dropped = 0;
    for (const text of datagramLines(decoder.decode(data))) {
      // A line with nothing on it (a trailing line break) is no command and counts for none.
      if (text.trim() === '') continue;
      if (read === MAX_COMMANDS_PER_DATAGRAM) {
        dropped += 1;
        continue;
      }
      read += 1;
      const line = parseTextLine(text);
      if (line === null) continue;
      if (!line.ok) {
        this.refuse(from, 'malformed', line.error);
        continue;
      }
      this.handle({ key: line.key, path: line.path, args: line.args }, from);
    }
    if (dropped > 0) {
      this.refuse(
        from,
        'too-many',
        `${read + dropped} lines in one datagram: the first ${read} were read, the other ${dropped} dropped; send at most ${MAX_COMMANDS_PER_DATAGRAM} lines in one datagram`,
      );
    }
  }

  protected answerBytes(error: string): Buffer {
    return Buffer.from(`showclock error: ${error.replace(/[\r\n]+/g, ' ')}\n`);
  }
}
