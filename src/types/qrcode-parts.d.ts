// Types for the two parts of `qrcode` the box loads (src/pages/qr-svg.ts): the
// encoder and the SVG renderer, typed as the package's own entry types them.
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  export function create(text: string, options?: QRCodeOptions): QRCode;
}

declare module 'qrcode/lib/renderer/svg-tag.js' {
  import type { QRCode, QRCodeRenderersOptions } from 'qrcode';
  export function render(qr: QRCode, options?: QRCodeRenderersOptions): string;
}
