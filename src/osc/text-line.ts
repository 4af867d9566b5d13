// One line of the plain-text UDP input: `<api_key> <command> [args]`, for senders
// that cannot build OSC (QLab's plain-text network cues, `echo ... >/dev/udp/...`).
// The command is written as in an OSC address, with or without its leading
// slash (`start`, `/timer/index/2/select`); arguments are separated by spaces,
// and one with spaces in it is quoted: `message "Wrap up" red 1`.

export type TextLine =
  | { readonly ok: true; readonly key: string; readonly path: readonly string[]; readonly args: readonly string[] }
  | { readonly ok: false; readonly error: string };

/** Splits at whitespace, keeping "double" or 'single' quoted runs together; `\"` and `\\` inside double quotes. */
function tokens(line: string): { ok: true; words: string[] } | { ok: false; error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i] as string;
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (quote === '"' && ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
        word += line[i + 1];
        i += 1;
      } else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== null) return { ok: false, error: `a ${quote === '"' ? 'double' : 'single'} quote is not closed; quote text with spaces like "Wrap up"` };
  if (inWord) words.push(word);
  return { ok: true, words };
}

const FORMAT = 'send one line: <api_key> <command> [arguments], e.g. "KEY start" or "KEY adjust 60000"';

/** Null for a line with nothing on it (a trailing line break). */
export function parseTextLine(line: string): TextLine | null {
  const split = tokens(line);
  if (!split.ok) return split;
  const [key, command, ...args] = split.words;
  if (key === undefined) return null;
  if (command === undefined || command === '' || command === '/') return { ok: false, error: `no command after the key; ${FORMAT}` };
  return { ok: true, key, path: (command.startsWith('/') ? command.slice(1) : command).split('/'), args };
}

/** Lines of a datagram: usually one, with or without its line break (CRLF too). */
export function datagramLines(text: string): string[] {
  return text.split(/\r?\n|\r/);
}
