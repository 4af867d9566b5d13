// The progress bar the advanced feedback lays over a key: raw RGBA pixels, drawn
// here rather than with an image library (the module has no dependency but
// Companion's own). Pure.

/** 0xRRGGBB colours, as Companion's colour pickers give them. */
export interface BarColours {
  readonly fill: number;
  readonly background: number;
}

/**
 * A width × height strip, filled from the left to `fraction` (0..1) of its width.
 * The empty part is the background colour, opaque, so the bar reads on any key.
 */
export function drawBar(width: number, height: number, fraction: number, colours: BarColours): Uint8Array {
  const w = Math.max(0, Math.floor(width));
  const h = Math.max(0, Math.floor(height));
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * w);
  const pixels = new Uint8Array(w * h * 4);
  for (let x = 0; x < w; x += 1) {
    const colour = x < filled ? colours.fill : colours.background;
    const r = (colour >> 16) & 0xff;
    const g = (colour >> 8) & 0xff;
    const b = colour & 0xff;
    for (let y = 0; y < h; y += 1) {
      const i = (y * w + x) * 4;
      pixels[i] = r;
      pixels[i + 1] = g;
      pixels[i + 2] = b;
      pixels[i + 3] = 0xff;
    }
  }
  return pixels;
}
