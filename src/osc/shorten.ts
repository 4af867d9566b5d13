// What a sender wrote, shown back within bounds. A refused argument is echoed in
// messages (`got "soon"`), and a sender can write 64 KB of it: in a reply or a log
// line it is shown as its first 64 characters and its length, and a whole reply
// or log message is cut to a size of its own whatever it holds.

/** A longer argument is shown as its first this-many characters and its length. */
export const SHOWN_ARGUMENT_CHARS = 64;

/** `text` itself when short; else its first SHOWN_ARGUMENT_CHARS characters, `…` and how long it was. */
export function shortened(text: string): string {
  // Characters are code points: an emoji is one, and never cut in half.
  if (text.length <= SHOWN_ARGUMENT_CHARS) return text;
  let head = '';
  let count = 0;
  for (const ch of text) {
    if (count < SHOWN_ARGUMENT_CHARS) head += ch;
    count += 1;
  }
  return count <= SHOWN_ARGUMENT_CHARS ? text : `${head}… (${count} characters)`;
}

/**
 * A message with each long value in it shortened, as a message quotes it
 * (JSON-quoted: `got "…"`) or as it is (`no timer with id "…"`). Longest first,
 * so a value inside another is not replaced within it.
 */
export function withShortValues(message: string, values: readonly string[]): string {
  const long = [...new Set(values.filter((value) => value.length > SHOWN_ARGUMENT_CHARS))].sort((a, b) => b.length - a.length);
  let text = message;
  for (const value of long) {
    const short = shortened(value);
    if (short === value) continue;
    text = text.split(JSON.stringify(value)).join(JSON.stringify(short));
    text = text.split(value).join(short);
  }
  return text;
}

/** Characters a JSON line spends on `text` (a control character is written `\u0001`). */
function jsonLength(text: string): number {
  return JSON.stringify(text).length - 2;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The start or end of `text` that a JSON line writes in at most `budget` characters, never half an emoji. */
function part(text: string, budget: number, from: 'start' | 'end'): string {
  // A character costs at least one JSON character, so `budget` units hold whatever fits.
  let slice = from === 'start' ? text.slice(0, budget) : text.slice(-budget);
  if (from === 'start' && isHigh(slice.charCodeAt(slice.length - 1))) slice = slice.slice(0, -1);
  if (from === 'end' && isLow(slice.charCodeAt(0))) slice = slice.slice(1);
  const chars = Array.from(slice);
  if (from === 'end') chars.reverse();
  let kept = '';
  let spent = 0;
  for (const ch of chars) {
    spent += jsonLength(ch);
    if (spent > budget) break;
    kept = from === 'start' ? kept + ch : ch + kept;
  }
  return kept;
}

/**
 * `text` when a JSON line writes it in at most `max` characters; else its start
 * and its end around `…`: the start names the field, the end usually quotes what
 * was sent (`…; got "soon"`).
 */
export function fitted(text: string, max: number): string {
  if (jsonLength(text) <= max) return text;
  const head = Math.floor((max - 1) / 2);
  return `${part(text, head, 'start')}…${part(text, max - 1 - head, 'end')}`;
}
