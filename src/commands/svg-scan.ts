// Whether an uploaded SVG is a well-formed XML document with an <svg> root (issue 15),
// checked by one forward walk over the text (issue 26: the regexes this replaces took
// seconds to minutes on an unclosed "<!--" repeated, blocking the whole box). Each
// character is looked at a bounded number of times, so a 1 MB upload costs a few
// milliseconds whatever it holds. Indexes into the one string: no copy of the text,
// no regular expression but the fixed word "<!doctype".
//
// What it accepts is what the regex checker accepted for every document whose
// comments, CDATA sections and processing instructions sit where XML allows them:
// an optional BOM and <?xml ...?> declaration; comments, CDATA and processing
// instructions skipped; elements <name attr="v" attr='v'> (a quoted value holds no
// "<"), </name>, <name/>, properly nested under one root named svg or *:svg; only
// white space outside the root; no ">" in text; no DOCTYPE anywhere. The messages
// are the regex checker's. Where that checker differed from XML, the walk follows
// XML (test/http/svg-scan.test.ts pins each case):
//  - markup inside a tag (`<sv<!---->g>`, `<svg a="<?x?>">`) is a malformed tag; the
//    regexes stripped it first and then saw `<svg>` and `<svg a="">`;
//  - a "<!--" inside a CDATA section or processing instruction, or a "<![CDATA["
//    inside a processing instruction, is part of it; the regexes, stripping comments
//    first, then CDATA, then instructions, paired it with a closer further on.

/** JavaScript's white space (`\s`, String.prototype.trim): WhiteSpace and LineTerminator. */
export function isJsSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f; // /
const EQUALS = 0x3d; // =
const QUOT = 0x22; // "
const APOS = 0x27; // '
const QUESTION = 0x3f; // ?
const BANG = 0x21; // !

/** [A-Za-z_]: the first character of a name. */
function isNameStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

/** [A-Za-z0-9_:.-]: the rest of a name. */
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x3a) || code === 0x2e || code === 0x2d;
}

/** Where `char` next occurs at or after `from`; the text's length when it does not. */
function find(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

/** Whether `<!doctype` (ASCII letters in any case) occurs at or after `from`: a fixed word, searched natively. */
function hasDoctype(text: string, from: number): boolean {
  const doctype = /<!doctype/gi;
  doctype.lastIndex = from;
  return doctype.test(text);
}

/** Where the text after an optional BOM and `<?xml ...?>` declaration starts. */
function afterDeclaration(text: string): number {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let at = start;
  while (isJsSpace(text.charCodeAt(at))) at += 1;
  if (!text.startsWith('<?xml', at)) return start;
  // The declaration runs to its first ">", which must follow a "?" of its own.
  const gt = text.indexOf('>', at + 5);
  return gt - 1 >= at + 5 && text.charCodeAt(gt - 1) === QUESTION ? gt + 1 : start;
}

/** Where the comment, CDATA section or processing instruction at `lt` ends (just past its closer); -1 when unclosed, 0 when `lt` starts none. */
function skipMarkup(text: string, lt: number): number {
  let closer: string;
  let from: number;
  const second = text.charCodeAt(lt + 1);
  if (second === QUESTION) [closer, from] = ['?>', lt + 2];
  else if (second !== BANG) return 0;
  else if (text.startsWith('<!--', lt)) [closer, from] = ['-->', lt + 4];
  else if (text.startsWith('<![CDATA[', lt)) [closer, from] = [']]>', lt + 9];
  else return 0;
  const at = text.indexOf(closer, from);
  return at === -1 ? -1 : at + closer.length;
}

/** The tag just read by readTag: its name's span, and whether it is `</...>` or `<.../>`. */
interface TagRead {
  nameStart: number;
  nameEnd: number;
  closing: boolean;
  selfClosing: boolean;
}

/**
 * Reads the tag at `lt` as `<(/?)NAME(\s+NAME\s*=\s*("[^"<]*"|'[^'<]*'))*\s*(/?)>`, NAME
 * being `[A-Za-z_][\w:.-]*`, into `tag`; returns where it ends (just past ">"), or -1
 * when it is not one. Every step is forced (a name ends where its characters do, a
 * value at its quote), so reading straight on decides. No "<" but the first is part
 * of a tag: it ends before `nextLt`, the next "<".
 */
function readTag(text: string, lt: number, nextLt: number, tag: TagRead): number {
  let at = lt + 1;
  tag.closing = text.charCodeAt(at) === SLASH;
  if (tag.closing) at += 1;
  tag.nameStart = at;
  if (!isNameStart(text.charCodeAt(at))) return -1;
  at += 1;
  while (isNameChar(text.charCodeAt(at))) at += 1;
  tag.nameEnd = at;
  for (;;) {
    const spaceStart = at;
    while (isJsSpace(text.charCodeAt(at))) at += 1;
    const code = text.charCodeAt(at);
    if (at > spaceStart && isNameStart(code)) {
      // An attribute: NAME \s* = \s* then a quoted value without "<".
      at += 1;
      while (isNameChar(text.charCodeAt(at))) at += 1;
      while (isJsSpace(text.charCodeAt(at))) at += 1;
      if (text.charCodeAt(at) !== EQUALS) return -1;
      at += 1;
      while (isJsSpace(text.charCodeAt(at))) at += 1;
      const quote = text.charCodeAt(at);
      if (quote !== QUOT && quote !== APOS) return -1;
      const close = find(text, quote === QUOT ? '"' : "'", at + 1);
      if (close >= nextLt) return -1;
      at = close + 1;
    } else if (code === GT) {
      tag.selfClosing = false;
      return at + 1;
    } else if (code === SLASH && text.charCodeAt(at + 1) === GT) {
      tag.selfClosing = true;
      return at + 2;
    } else {
      return -1;
    }
  }
}

/** Whether the names text[aStart, aEnd) and text[bStart, bEnd) are the same. */
function sameName(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let k = 0; k < aEnd - aStart; k += 1) if (text.charCodeAt(aStart + k) !== text.charCodeAt(bStart + k)) return false;
  return true;
}

const MALFORMED_TAG = 'it is not well-formed XML (a malformed tag)';
const STRAY_TEXT = 'it is not well-formed XML (text outside the root element or a stray ">")';

/** Why the text is not a well-formed SVG document, or null when it is. No DOCTYPE: entities are a way to blow up a parser. */
export function svgProblem(text: string): string | null {
  const n = text.length;
  let at = afterDeclaration(text);
  if (hasDoctype(text, at)) return 'an SVG with a DOCTYPE is not accepted';
  // The open elements, as the spans of their names: start, end, start, end, ... in
  // open[0, depth * 2), grown by doubling (a 1 MB upload can open 350 000 elements).
  let open = new Int32Array(64);
  let depth = 0;
  let rootStart = -1;
  let rootEnd = -1;
  let closedRoot = false;
  const tag: TagRead = { nameStart: 0, nameEnd: 0, closing: false, selfClosing: false };
  // The next "<" and ">" at or after `at`, each searched for again only once `at` has
  // passed it: every stretch of the text is searched at most once for each.
  let lt = -1;
  let gt = -1;
  while (at < n) {
    if (lt < at) lt = find(text, '<', at);
    if (at < lt) {
      // Text up to the next "<": never a ">", and only white space outside the root.
      if (gt < at) gt = find(text, '>', at);
      if (gt < lt) return STRAY_TEXT;
      if (depth === 0) {
        for (; at < lt; at += 1) if (!isJsSpace(text.charCodeAt(at))) return STRAY_TEXT;
      }
      at = lt;
    }
    if (lt === n) break;
    const skipped = skipMarkup(text, lt);
    if (skipped === -1) return MALFORMED_TAG;
    if (skipped > 0) {
      at = skipped;
      continue;
    }
    const nextLt = find(text, '<', lt + 1);
    const end = readTag(text, lt, nextLt, tag);
    if (end === -1) return MALFORMED_TAG;
    at = end;
    lt = nextLt;
    if (closedRoot) return 'it is not well-formed XML (an element after the root)';
    if (tag.closing) {
      if (depth === 0 || !sameName(text, open[depth * 2 - 2] ?? 0, open[depth * 2 - 1] ?? 0, tag.nameStart, tag.nameEnd)) {
        return `it is not well-formed XML (</${text.slice(tag.nameStart, tag.nameEnd)}> closes nothing open)`;
      }
      depth -= 1;
    } else {
      if (rootStart === -1) [rootStart, rootEnd] = [tag.nameStart, tag.nameEnd];
      if (!tag.selfClosing) {
        if (depth * 2 === open.length) {
          const grown = new Int32Array(open.length * 2);
          grown.set(open);
          open = grown;
        }
        open[depth * 2] = tag.nameStart;
        open[depth * 2 + 1] = tag.nameEnd;
        depth += 1;
      }
    }
    if (depth === 0) closedRoot = true;
  }
  if (rootStart === -1) return 'it has no root element';
  if (depth > 0) return `it is not well-formed XML (<${text.slice(open[depth * 2 - 2], open[depth * 2 - 1])}> is never closed)`;
  const root = text.slice(rootStart, rootEnd);
  if (root !== 'svg' && !root.endsWith(':svg')) return `its root element is <${root}>, not <svg>`;
  return null;
}
