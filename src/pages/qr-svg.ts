// QR codes as SVG, drawn on the box so no page needs anything from the internet.
// Only the encoder and the SVG renderer of `qrcode` are loaded: its main entry also
// loads its PNG (pngjs) and terminal renderers, which a box never uses, at start.
import type { QRCode } from 'qrcode';
import { create } from 'qrcode/lib/core/qrcode.js';
import { render } from 'qrcode/lib/renderer/svg-tag.js';

/** The code's modules, for a drawing of one's own (the screens' audience-link image). */
export function qrModules(text: string): QRCode['modules'] {
  return create(text, { errorCorrectionLevel: 'M' }).modules;
}

/** An `<svg>` element of the code, labelled for screen readers. */
export function qrSvg(text: string, label: string): string {
  const svg = render(create(text, { errorCorrectionLevel: 'M' }), { margin: 2 });
  return svg.replace('<svg ', `<svg class="qr" role="img" aria-label="${label}" `);
}
