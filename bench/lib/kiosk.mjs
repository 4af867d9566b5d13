// The kiosk: Debian's Chromium (headless, through playwright-core) showing
// /display from the service on loopback, as the HDMI screen of a box does. Its
// CPU is read from /proc for every process of the browser (the page's renderer,
// the GPU/compositor process and the browser itself), so nothing inside the page
// is disturbed by the measuring.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { cpuTracker, descendants } from './proc.mjs';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Resource types that make up the page itself (the stream and the clock syncs are counted apart). */
const PAGE_TYPES = new Set(['document', 'script', 'stylesheet', 'image', 'font']);

/**
 * Opens the display page and waits until it shows a time.
 * @param {string} url
 * @param {readonly number[]} notBrowser pids under this process that are not the browser (the services)
 */
export async function openKiosk(url, notBrowser) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install chromium)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  /** @type {{ url: string; type: string; bytes: number }[]} */
  const transfers = [];
  page.on('requestfinished', (request) => {
    request.sizes().then(
      (sizes) => transfers.push({ url: new URL(request.url()).pathname, type: request.resourceType(), bytes: sizes.responseHeadersSize + sizes.responseBodySize }),
      () => {},
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim().length > 0, undefined, { timeout: 15_000 });
  const browserPids = () => descendants(process.pid, notBrowser);
  return {
    browser,
    page,
    /** Bytes the page itself took (document, script, styles), headers included. */
    pageBytes() {
      return transfers.filter((t) => PAGE_TYPES.has(t.type)).reduce((sum, t) => sum + t.bytes, 0);
    },
    transfers,
    /** Starts counting the browser's CPU; stop() gives the page's renderer and the whole browser. */
    trackCpu() {
      const tracker = cpuTracker(browserPids);
      return {
        stop() {
          const used = tracker.stop();
          const renderer = used.filter((p) => p.cmd.includes('--type=renderer'));
          return {
            rendererMs: renderer.reduce((sum, p) => sum + p.cpuMs, 0),
            browserMs: used.reduce((sum, p) => sum + p.cpuMs, 0),
            processes: used.map((p) => ({ pid: p.pid, cpuMs: p.cpuMs, type: /--type=([\w-]+)/.exec(p.cmd)?.[1] ?? 'browser' })),
          };
        },
      };
    },
    /** The text the page shows now, to check it still runs. */
    shownTime() {
      return page.evaluate(() => document.getElementById('time')?.textContent ?? '');
    },
    async close() {
      await browser.close();
    },
  };
}

