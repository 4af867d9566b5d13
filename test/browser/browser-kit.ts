// Shared pieces of the browser tests: Debian's chromium through playwright-core,
// the display bundle built into a temporary directory, screenshots kept in
// test-artifacts/, and pixel checks done by the browser itself (it decodes the
// PNG; no image library needed).
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildPages } from '../../scripts/build.mjs';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('test-artifacts');

export async function launchChromium(): Promise<Browser> {
  // The browser may still be arriving from apt on a fresh machine.
  for (let waited = 0; !existsSync(CHROMIUM) && waited < 180_000; waited += 5_000) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Builds the display page as `npm run build` does, into a fresh directory. */
export async function buildDisplayBundle(): Promise<string> {
  const outdir = mkdtempSync(path.join(tmpdir(), 'showclock-pages-'));
  await buildPages({ outdir, only: ['display'] });
  return outdir;
}

export async function saveScreenshot(page: Page, name: string): Promise<Buffer> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const png = await page.screenshot();
  writeFileSync(path.join(ARTIFACTS, `${name}.png`), png);
  return png;
}

export function saveArtifact(name: string, data: unknown): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, name), `${JSON.stringify(data, null, 2)}\n`);
}

export interface PixelStats {
  readonly pixels: number;
  /** Highest value of any colour channel anywhere: 0 means entirely black. */
  readonly maxChannel: number;
  /** Pixels that are clearly red (R high, G and B low). */
  readonly red: number;
  /** Share (0 to 1) of the pixels within a small distance of the `near` colour asked for; 0 when none was. */
  readonly nearShare: number;
}

/**
 * Decodes a PNG in a blank page and counts what it shows, optionally in a region
 * (fractions of the size), and how much of it is close to `near` (`#rrggbb`).
 */
export async function pixelStats(
  browser: Browser,
  png: Buffer,
  region: { x: number; y: number; w: number; h: number } = { x: 0, y: 0, w: 1, h: 1 },
  near = '#000000',
): Promise<PixelStats> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async (args) => {
        const img = new Image();
        img.src = `data:image/png;base64,${args.b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const ctx = canvas.getContext('2d');
        if (ctx === null) throw new Error('no 2d context');
        ctx.drawImage(img, 0, 0);
        const x = Math.floor(args.region.x * img.naturalWidth);
        const y = Math.floor(args.region.y * img.naturalHeight);
        const w = Math.max(1, Math.floor(args.region.w * img.naturalWidth));
        const h = Math.max(1, Math.floor(args.region.h * img.naturalHeight));
        const data = ctx.getImageData(x, y, w, h).data;
        const want = [1, 3, 5].map((i) => parseInt(args.near.slice(i, i + 2), 16));
        let maxChannel = 0;
        let red = 0;
        let close = 0;
        for (let i = 0; i < data.length; i += 4) {
          const r = data[i] ?? 0;
          const g = data[i + 1] ?? 0;
          const b = data[i + 2] ?? 0;
          maxChannel = Math.max(maxChannel, r, g, b);
          if (r > 180 && g < 90 && b < 90) red += 1;
          if (Math.abs(r - (want[0] ?? 0)) + Math.abs(g - (want[1] ?? 0)) + Math.abs(b - (want[2] ?? 0)) <= 24) close += 1;
        }
        return { pixels: data.length / 4, maxChannel, red, nearShare: close / (data.length / 4) };
      },
      { b64: png.toString('base64'), region, near },
    );
  } finally {
    await page.close();
  }
}

/** An element's box on the page, as Playwright's boundingBox gives it. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Whether two boxes share any area (touching edges do not). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The page's script errors and console errors, as they come: a screen that works has none. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/**
 * What to add to a reading of one of the page's clocks (`read`, run in the page) to put it on one
 * of this process's (`local`): the midpoint of the quickest of 20 round trips, so the error is at
 * most half that round trip and the slow ones of a busy machine do not count.
 */
export async function pageToLocalClock(page: Page, read: () => number, local: () => number): Promise<number> {
  let best = { roundTripMs: Number.POSITIVE_INFINITY, offsetMs: 0 };
  for (let i = 0; i < 20; i += 1) {
    const sentMs = local();
    const pageMs = await page.evaluate(read);
    const receivedMs = local();
    if (receivedMs - sentMs < best.roundTripMs) best = { roundTripMs: receivedMs - sentMs, offsetMs: (sentMs + receivedMs) / 2 - pageMs };
  }
  return best.offsetMs;
}
