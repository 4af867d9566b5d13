// QR codes as SVG, drawn on the box so no page needs anything from the internet.
// Only the encoder and the SVG renderer of `qrcode` are loaded: its main entry also
// loads its PNG (pngjs) and terminal renderers, which a box never uses, at start.
// And those two only when a code is first drawn (the console opened, the audience
// link shown): a box that only counts down never sets them up (BENCHMARKS.md).
import type { QRCode } from 'qrcode';

interface QrParts {
  readonly create: typeof import('qrcode/lib/core/qrcode.js').create;
  readonly render: typeof import('qrcode/lib/renderer/svg-tag.js').render;
}

let loading: Promise<QrParts> | undefined;

function qrParts(): Promise<QrParts> {
  loading ??= Promise.all([import('qrcode/lib/core/qrcode.js'), import('qrcode/lib/renderer/svg-tag.js')]).then(([core, svg]) => ({
    create: core.create,
    render: svg.render,
  }));
  return loading;
}

/** The code's modules, for a drawing of one's own (the screens' audience-link image). */
export async function qrModules(text: string): Promise<QRCode['modules']> {
  const { create } = await qrParts();
  return create(text, { errorCorrectionLevel: 'M' }).modules;
}

/** An `<svg>` element of the code, labelled for screen readers. */
export async function qrSvg(text: string, label: string): Promise<string> {
  const { create, render } = await qrParts();
  const svg = render(create(text, { errorCorrectionLevel: 'M' }), { margin: 2 });
  return svg.replace('<svg ', `<svg class="qr" role="img" aria-label="${label}" `);
}
