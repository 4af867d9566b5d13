// What an uploaded logo is, from its bytes: the declared Content-Type must match
// the content (magic bytes for PNG, JPEG and WebP; well-formed XML with an <svg>
// root for SVG, read in one linear walk by svg-scan.ts), so a file named or
// labelled as an image but holding something else is refused. Pure: the routes
// read the body and store the file.
import { createHash } from 'node:crypto';
import { svgProblem } from './svg-scan.js';

/** The SVG check is a linear scan of its own (issue 26: the regexes it replaced were quadratic). */
export { svgProblem };

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
