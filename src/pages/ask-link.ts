// The audience link as the screens show it (display setting `showAskLink`): one
// SVG with the QR code and the address under it, drawn here so the display
// needs nothing from the internet and the page holds no key in its script: it
// loads the image from its own link (/display/ask-link.svg for the kiosk,
// /view/{viewer_key}/ask-link.svg for a viewer), which answers 404 while the
// setting is off, so a viewer link never hands out the audience link unasked.
import { qrModules, qrSvg } from './qr-svg.js';
import { escapeHtml } from './control-page-html.js';

/** The audience page's address, for links that start with `origin` (src/web/request-origin.ts, linkOriginOf: configuration, never the Host). */
export function askUrl(origin: string, audienceKey: string): string {
  return `${origin}/ask/${audienceKey}`;
}

/** A QR code of `url` as an SVG element for the console (same drawing as the viewer link's). */
export function askQrSvg(url: string): string {
  return qrSvg(url, 'QR code of the audience link (questions)');
}

/** The code with "Ask a question" above it and the address below, black on white, to be scaled by the screen. */
export function askLinkImage(url: string): string {
  const modules = qrModules(url);
  const size = modules.size;
  const margin = 2;
  const side = size + 2 * margin;
  let path = '';
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      if (modules.get(row, col) === 1) path += `M${col + margin} ${row + margin}h1v1h-1z`;
    }
  }
  // Text in module units: the address fits the code's width at most, in a small font.
  const fontSize = Math.min(3, (side * 1.6) / Math.max(1, url.length));
  const height = side + 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${height}" role="img" aria-label="Ask a question: ${escapeHtml(url)}">
<rect width="${side}" height="${height}" fill="#fff"/>
<text x="${side / 2}" y="4" font-family="sans-serif" font-size="3" font-weight="bold" text-anchor="middle" fill="#000">Ask a question</text>
<g transform="translate(0 5)"><path d="${path}" fill="#000"/></g>
<text x="${side / 2}" y="${height - 1.5}" font-family="sans-serif" font-size="${fontSize.toFixed(2)}" text-anchor="middle" fill="#000">${escapeHtml(url)}</text>
</svg>
`;
}
