// What an uploaded logo is, from its bytes: the declared Content-Type must match
// the content (magic bytes for PNG, JPEG and WebP; well-formed XML with an <svg>
// root for SVG), so a file named or labelled as an image but holding something
// else is refused. Pure: the routes read the body and store the file.
import { createHash } from 'node:crypto';

/** 1 MB (issue 15): a logo for a screen, not a photo archive. */
export const MAX_LOGO_BYTES = 1024 * 1024;

/** An SVG is a document: no script, no fetch, no form; only its own inline styles. */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const LOGO_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
} as const;
export type LogoType = keyof typeof LOGO_TYPES;
export type LogoExtension = (typeof LOGO_TYPES)[LogoType];

export const LOGO_TYPE_OF_EXTENSION: Readonly<Record<LogoExtension, LogoType>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  svg: 'image/svg+xml',
  webp: 'image/webp',
};

export type LogoChecked = { readonly ok: true; readonly version: string } | { readonly ok: false; readonly message: string };

function isLogoType(value: string): value is LogoType {
  return Object.hasOwn(LOGO_TYPES, value);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (text: string): number[] => [...text].map((ch) => ch.charCodeAt(0));

/** The type the bytes are, by their magic bytes (SVG is text and has none); null when none of the binary three. */
function sniffBinary(bytes: Uint8Array): LogoType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

const NAME = '[A-Za-z_][\\w:.-]*';
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`);

/** Why the text is not a well-formed SVG document, or null when it is. No DOCTYPE: entities are a way to blow up a parser. */
export function svgProblem(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '').replace(/^\s*<\?xml[^>]*\?>/, '');
  if (/<!DOCTYPE/i.test(rest)) return 'an SVG with a DOCTYPE is not accepted';
  // Comments, CDATA and processing instructions carry no elements.
  rest = rest.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<\?[\s\S]*?\?>/g, '');
  const open: string[] = [];
  let root: string | null = null;
  let closedRoot = false;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const textPart = lt === -1 ? rest : rest.slice(0, lt);
    if ((open.length === 0 && textPart.trim() !== '') || textPart.includes('>')) return 'it is not well-formed XML (text outside the root element or a stray ">")';
    if (lt === -1) break;
    rest = rest.slice(lt);
    const tag = TAG.exec(rest);
    if (tag === null) return 'it is not well-formed XML (a malformed tag)';
    const [whole, closing = '', name = '', , selfClosing = ''] = tag;
    rest = rest.slice(whole.length);
    if (closedRoot) return 'it is not well-formed XML (an element after the root)';
    if (closing === '/') {
      if (open.pop() !== name) return `it is not well-formed XML (</${name}> closes nothing open)`;
    } else {
      if (root === null) root = name;
      if (selfClosing !== '/') open.push(name);
    }
    if (open.length === 0) closedRoot = true;
  }
  if (root === null) return 'it has no root element';
  if (open.length > 0) return `it is not well-formed XML (<${open[open.length - 1]}> is never closed)`;
  if (root !== 'svg' && !root.endsWith(':svg')) return `its root element is <${root}>, not <svg>`;
  return null;
}

/** Checks an upload against its declared Content-Type; its version names its content, so a new logo is a new URL. */
export function checkLogo(contentType: string | undefined, bytes: Uint8Array): LogoChecked {
  const declared = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!isLogoType(declared)) {
    return { ok: false, message: `Content-Type: must be one of ${Object.keys(LOGO_TYPES).join(', ')} with the image as the body; got ${JSON.stringify(declared.slice(0, 64))}` };
  }
  if (bytes.length === 0) return { ok: false, message: 'body: the image is empty' };
  const sniffed = sniffBinary(bytes);
  if (declared === 'image/svg+xml') {
    if (sniffed !== null) return { ok: false, message: `body: declared image/svg+xml but the content is ${sniffed}` };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, message: 'body: declared image/svg+xml but the content is not UTF-8 text' };
    }
    const problem = svgProblem(text);
    if (problem !== null) return { ok: false, message: `body: declared image/svg+xml but ${problem}` };
  } else if (sniffed !== declared) {
    return { ok: false, message: `body: declared ${declared} but the content is ${sniffed ?? 'not a PNG, JPEG or WebP image'}` };
  }
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return { ok: true, version: `${hash}.${LOGO_TYPES[declared]}` };
}
