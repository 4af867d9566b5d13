// Logos for the tests: one of each accepted type. The PNG and the SVG are real
// images (the SVG is what the display screenshot shows); the JPEG and WebP are
// their signatures and a little padding, which is all the upload checks.
const bytes = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

/** A 1×1 PNG. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));

export const LOGO_SVG_TEXT =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a venue logo -->\n' +
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80" width="240" height="80">' +
  '<rect x="0" y="0" width="240" height="80" rx="12" fill="#1a73e8"/>' +
  '<circle cx="40" cy="40" r="24" fill="#ffcc00"/>' +
  '<text x="78" y="52" font-family="sans-serif" font-size="34" font-weight="700" fill="#ffffff">VENUE</text></svg>';

export const LOGO_FIXTURES: Readonly<Record<'image/png' | 'image/jpeg' | 'image/svg+xml' | 'image/webp', Uint8Array<ArrayBuffer>>> = {
  'image/png': PNG,
  'image/jpeg': Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...bytes('JFIF\0'), 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
  'image/svg+xml': bytes(LOGO_SVG_TEXT),
  'image/webp': Uint8Array.from([...bytes('RIFF'), 0x1a, 0x00, 0x00, 0x00, ...bytes('WEBPVP8L'), 0x0d, 0x00, 0x00, 0x00, 0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]),
};

/** Sets window.__logoScript from a <script> and from an onload: if either ever runs, the sandbox failed. */
export const SCRIPTED_SVG = bytes(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" onload="window.__logoScript = \'onload\'; document.title = \'onload ran\'">' +
    '<script>window.__logoScript = \'script\'; document.title = \'script ran\';</script>' +
    '<rect width="100" height="100" fill="#00ff00"/></svg>',
);
