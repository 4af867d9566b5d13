// What text the room accepts, for every input alike (HTTP, buttons, and the
// adapters to come): lengths as a person counts characters, no control
// characters, and a message that shows something.
import { charCount } from './limits.js';

// C0 and C1 controls other than tab, line feed and carriage return: a NUL or an
// escape sequence has no business on a stage screen or in a log line.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
// Whitespace and format characters (zero-width space and joiners, BOM, bidi marks): they show nothing.
const INVISIBLE = /[\s\p{Cf}]/gu;

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Null when `text` may stand in `field`; else a message naming the field and the problem. */
export function textProblem(field: string, text: string, opts: { maxChars: number; mustShow: boolean }): string | null {
  const control = CONTROL.exec(text);
  if (control !== null) return `${field}: contains a control character (${codePoint(control[0])}); remove it`;
  if (charCount(text) > opts.maxChars) return `${field}: at most ${opts.maxChars} characters (it has ${charCount(text)})`;
  if (opts.mustShow && text.replace(INVISIBLE, '').length === 0) {
    return `${field}: shows nothing (it is empty or only invisible characters); give some text to show`;
  }
  return null;
}
