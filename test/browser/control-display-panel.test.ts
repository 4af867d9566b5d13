// The console's Display panel and live preview (issue 15), in Chromium against a
// real server with a data directory (logos are stored): from the console, a
// logo upload, a colour, the background, the layout, the time size and an
// element switch each change the preview (computed styles and pixels) and, the
// same, a separate kiosk (/display); a change pushed from elsewhere shows in the
// panel without overwriting a field being edited; a refused upload shows the
// box's own words under the upload control. The panel fits a phone.
// The timer runs, so its digits are in full colour (a held time is dimmed).
// Screenshots: test-artifacts/console-display-*.png and display-kiosk-from-console-*.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_FIXTURES } from '../helpers/logo-fixtures.js';
import { ARTIFACTS, pixelStats } from './browser-kit.js';
import { useBrowserRig } from './control-server.js';
import { API_KEY, startLiveServer, type LiveServer } from './live-server.js';

const MOMENT = { timeout: 8_000, interval: 50 };
const CHROMA = '#00b140';
const AMBER = '#ffcc00';

const rig = useBrowserRig();
let dataDir: string;
let server: LiveServer;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-display-panel-'));
  server = await startLiveServer({ pagesDir: rig.pagesDir, dataDir });
  await server.run({ type: 'timer.create', id: 'k1', fields: { label: 'Keynote', speaker: 'Ada Lovelace', duration: 1_800_000 } }, { type: 'timer.select', id: 'k1' }, { type: 'start' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

function rgb(hex: string): string {
  const n = (i: number): number => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
  return `rgb(${n(0)}, ${n(1)}, ${n(2)})`;
}

/** The share of a PNG's pixels (in a region, as fractions) within a small distance of a colour. */
async function share(png: Buffer, hex: string, region = { x: 0, y: 0, w: 1, h: 1 }): Promise<number> {
  return (await pixelStats(rig.browser, png, region, hex)).nearShare;
}

const style = (page: Page, selector: string, property: string): Promise<string> =>
  page.$eval(selector, (node, p) => getComputedStyle(node).getPropertyValue(p), property);

/** The band the screen draws in, as fractions of what holds it (the preview box, or the kiosk's window). */
const band = (page: Page, screen: string, holder: string) =>
  page.$eval(
    screen,
    (node, h) => {
      const s = node.getBoundingClientRect();
      const box = h === 'window' ? { top: 0, height: window.innerHeight } : (document.querySelector(h) as Element).getBoundingClientRect();
      return { top: (s.top - box.top) / box.height, height: s.height / box.height };
    },
    holder,
  );

async function openConsole(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(server.url(`/control/${API_KEY}`));
  await page.waitForSelector('#connection.live');
  await page.waitForSelector('body[data-seq]');
  return { page, problems };
}

describe('the Display panel and the live preview', () => {
  it('changes the preview and every screen from the console: logo, colour, background, layout, size, elements', async () => {
    const consoleContext = await rig.browser.newContext({ viewport: { width: 1366, height: 768 }, timezoneId: 'UTC' });
    const kioskContext = await rig.browser.newContext({ viewport: { width: 1280, height: 720 }, timezoneId: 'UTC' });
    try {
      const { page, problems } = await openConsole(consoleContext);
      const kiosk = await kioskContext.newPage();
      await kiosk.goto(server.url('/display'));
      await kiosk.waitForFunction(() => (document.getElementById('label')?.textContent ?? '') === 'Keynote');
      await page.$eval('#display-panel', (n) => n.scrollIntoView({ block: 'end' }));
      // The preview draws the display's own markup: the same classes as the kiosk's screen.
      const sameScreen = async (): Promise<boolean> => (await page.getAttribute('#pv-screen', 'class')) === (await kiosk.getAttribute('#screen', 'class'));
      await expect.poll(sameScreen, MOMENT).toBe(true);
      expect(await style(page, '#pv-time', 'color')).toBe(rgb('#ffffff'));
      expect(await page.getAttribute('button[data-layout="full"]', 'aria-pressed')).toBe('true');

      // The logo: uploaded from the panel, shown top-left in the preview and on the kiosk.
      await page.setInputFiles('#display-logo-file', { name: 'venue.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO_FIXTURES['image/svg+xml']) });
      await expect.poll(async () => (await server.service.snapshot()).display.logo, MOMENT).toMatch(/^[0-9a-f]{16}\.svg$/);
      const version = (await server.service.snapshot()).display.logo as string;
      await page.waitForSelector('#pv-logo', { state: 'visible' });
      expect(await page.getAttribute('#pv-logo', 'src')).toBe(`/logo/${version}`);
      expect(await page.getAttribute('#display-logo', 'src')).toBe(`/logo/${version}`);
      expect(await page.textContent('#display-logo-file-label')).toBe('Replace the logo');
      expect(await page.isEnabled('#display-logo-remove')).toBe(true);
      await kiosk.waitForSelector('#logo', { state: 'visible' });
      expect(await kiosk.getAttribute('#logo', 'src')).toBe(`/logo/${version}`);
      // In the same place: the top-left of the screen, in both.
      const logoAt = (p: Page, logo: string, holder: string) =>
        p.$eval(
          logo,
          (n, h) => {
            const r = n.getBoundingClientRect();
            const b = h === 'window' ? { left: 0, top: 0, width: window.innerWidth, height: window.innerHeight } : (document.querySelector(h) as Element).getBoundingClientRect();
            return { x: (r.left - b.left) / b.width, y: (r.top - b.top) / b.height };
          },
          holder,
        );
      const inPreview = await logoAt(page, '#pv-logo', '#preview');
      const onKiosk = await logoAt(kiosk, '#logo', 'window');
      expect(Math.abs(inPreview.x - onKiosk.x)).toBeLessThan(0.02);
      expect(Math.abs(inPreview.y - onKiosk.y)).toBeLessThan(0.02);

      // A colour: the time's, through the colour input as a picker sets it.
      await page.fill('#display-normal', AMBER);
      await expect.poll(async () => (await server.service.snapshot()).display.normalColour, MOMENT).toBe(AMBER);
      await expect.poll(() => style(page, '#pv-time', 'color'), MOMENT).toBe(rgb(AMBER));
      await expect.poll(() => style(kiosk, '#time', 'color'), MOMENT).toBe(rgb(AMBER));

      // The background: a chroma-key green, one click.
      await page.click(`button[data-background="${CHROMA}"]`);
      await expect.poll(() => style(page, '#pv-screen', 'background-color'), MOMENT).toBe(rgb(CHROMA));
      await expect.poll(() => style(kiosk, '#screen', 'background-color'), MOMENT).toBe(rgb(CHROMA));
      expect(await page.inputValue('#display-background')).toBe(CHROMA);
      await expect.poll(sameScreen, MOMENT).toBe(true);

      // Pixels: the preview and the kiosk both show the green and the amber digits.
      const previewFull = await page.locator('#preview').screenshot({ path: path.join(ARTIFACTS, 'console-display-preview-full.png') });
      const kioskFull = await shot(kiosk, 'display-kiosk-from-console-full');
      for (const png of [previewFull, kioskFull]) {
        expect(await share(png, CHROMA)).toBeGreaterThan(0.4);
        expect(await share(png, AMBER)).toBeGreaterThan(0.03);
      }
      await shot(page, 'console-display-panel-1366x768');

      // The layout: a lower third, the band at the bottom over the background, in both.
      await page.click('button[data-layout="lowerThird"]');
      await expect.poll(() => page.getAttribute('#pv-screen', 'class'), MOMENT).toContain('layout-lowerThird');
      await expect.poll(() => kiosk.getAttribute('#screen', 'class'), MOMENT).toContain('layout-lowerThird');
      expect(await page.getAttribute('button[data-layout="lowerThird"]', 'aria-pressed')).toBe('true');
      const previewBand = await band(page, '#pv-screen', '#preview');
      const kioskBand = await band(kiosk, '#screen', 'window');
      expect(previewBand.height).toBeCloseTo(0.3, 1);
      expect(previewBand.top + previewBand.height).toBeCloseTo(1, 1);
      expect(Math.abs(previewBand.height - kioskBand.height)).toBeLessThan(0.02);
      expect(Math.abs(previewBand.top - kioskBand.top)).toBeLessThan(0.02);
      const previewLower = await page.locator('#preview').screenshot({ path: path.join(ARTIFACTS, 'console-display-preview-lower-third.png') });
      const kioskLower = await shot(kiosk, 'display-kiosk-from-console-lower-third');
      for (const png of [previewLower, kioskLower]) {
        // The top half is the background alone; the digits are in the band.
        expect(await share(png, CHROMA, { x: 0, y: 0, w: 1, h: 0.5 })).toBeGreaterThan(0.95);
        expect(await share(png, AMBER, { x: 0, y: 0.7, w: 1, h: 0.3 })).toBeGreaterThan(0.03);
      }

      // The time's size and an element switch, back on the full layout.
      await page.click('button[data-layout="full"]');
      await expect.poll(sameScreen, MOMENT).toBe(true);
      const sizeBefore = parseFloat(await style(page, '#pv-time', 'font-size'));
      await page.fill('#display-size', '70');
      await expect.poll(async () => (await server.service.snapshot()).display.timeSize, MOMENT).toBe(70);
      await expect.poll(async () => parseFloat(await style(page, '#pv-time', 'font-size')) / sizeBefore, MOMENT).toBeCloseTo(0.7, 1);
      expect(await page.textContent('#display-size-value')).toBe('70%');
      await page.click('button[data-show="showTitle"]');
      await expect.poll(() => page.isHidden('#pv-label'), MOMENT).toBe(true);
      await expect.poll(() => kiosk.isHidden('#label'), MOMENT).toBe(true);
      expect(await page.getAttribute('button[data-show="showTitle"]', 'aria-pressed')).toBe('false');
      await page.click('button[data-show="showTimeOfDay"]');
      await expect.poll(() => page.isVisible('#pv-tod'), MOMENT).toBe(true);
      await expect.poll(() => kiosk.isVisible('#tod'), MOMENT).toBe(true);
      await expect.poll(sameScreen, MOMENT).toBe(true);

      // Removing the logo takes two presses.
      await page.click('#display-logo-remove');
      expect((await server.service.snapshot()).display.logo).toBe(version);
      await page.click('#display-logo-remove');
      await expect.poll(async () => (await server.service.snapshot()).display.logo, MOMENT).toBeNull();
      await page.waitForSelector('#pv-logo', { state: 'hidden' });
      await kiosk.waitForSelector('#logo', { state: 'hidden' });
      expect(await page.isVisible('#display-logo-none')).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await consoleContext.close();
      await kioskContext.close();
    }
  }, 90_000);

  it('shows a change pushed from elsewhere, but not over a colour being chosen', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1366, height: 768 } });
    try {
      const { page, problems } = await openConsole(context);
      await server.run({ type: 'display.set', display: { warningColour: '#00ffff', layout: 'minimal' } });
      await expect.poll(() => page.inputValue('#display-warning'), MOMENT).toBe('#00ffff');
      await expect.poll(() => page.getAttribute('button[data-layout="minimal"]', 'aria-pressed'), MOMENT).toBe('true');
      // The operator is in the picker (focused, a colour under way): a push leaves it alone ...
      await page.focus('#display-overrun');
      await page.$eval('#display-overrun', (n) => {
        (n as HTMLInputElement).value = '#abcdef';
      });
      await server.run({ type: 'display.set', display: { overrunColour: '#123456', layout: 'full' } });
      await expect.poll(() => page.getAttribute('button[data-layout="full"]', 'aria-pressed'), MOMENT).toBe('true');
      expect(await page.inputValue('#display-overrun')).toBe('#abcdef');
      // ... and once they leave it without choosing, the room's colour shows.
      await page.focus('#display-warning');
      expect(await page.inputValue('#display-overrun')).toBe('#123456');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('shows a refused upload in the box’s own words, under the upload control', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1366, height: 768 } });
    try {
      const { page, problems } = await openConsole(context);
      const before = (await server.service.snapshot()).display.logo;
      // Named and typed as a PNG, but not one: the box checks the content.
      const fake = Buffer.from('<html>not a picture</html>');
      const direct = await fetch(server.url(`/api/v1/${API_KEY}/display/logo`), { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: fake });
      expect(direct.status).toBe(400);
      const words = ((await direct.json()) as { error: string }).error;
      await page.$eval('#display-logo-file', (n) => n.scrollIntoView({ block: 'center' }));
      await page.setInputFiles('#display-logo-file', { name: 'logo.png', mimeType: 'image/png', buffer: fake });
      await expect.poll(() => page.isVisible('#notice'), MOMENT).toBe(true);
      expect(await page.textContent('#notice-text')).toBe(`Logo "logo.png": ${words}`);
      // Right under the row of the upload control, and in view.
      expect(await page.$eval('#notice', (n) => n.previousElementSibling?.contains(document.getElementById('display-logo-file')) ?? false)).toBe(true);
      const placed = await page.$eval('#notice', (n) => {
        const r = n.getBoundingClientRect();
        const row = (document.getElementById('display-logo-file') as Element).closest('.row') as Element;
        return { top: r.top, bottom: r.bottom, rowBottom: row.getBoundingClientRect().bottom, height: window.innerHeight };
      });
      expect(placed.top - placed.rowBottom).toBeGreaterThanOrEqual(0);
      expect(placed.top - placed.rowBottom).toBeLessThan(12);
      expect(placed.bottom).toBeLessThanOrEqual(placed.height);
      await shot(page, 'console-display-logo-refused');
      expect((await server.service.snapshot()).display.logo).toBe(before);

      // Too big: over 1 MB is the box's 413, said the same way.
      const big = Buffer.alloc(1024 * 1024 + 10, 0);
      Buffer.from(LOGO_FIXTURES['image/png']).copy(big);
      await page.click('#notice-close');
      await page.setInputFiles('#display-logo-file', { name: 'huge.png', mimeType: 'image/png', buffer: big });
      await expect.poll(() => page.isVisible('#notice'), MOMENT).toBe(true);
      expect(await page.textContent('#notice-text')).toMatch(/^Logo "huge\.png": body too large: a logo is at most 1048576 bytes \(1 MB\)$/);
      expect(await page.$eval('#notice', (n) => n.previousElementSibling?.contains(document.getElementById('display-logo-file')) ?? false)).toBe(true);
      // The control is ready for the next try.
      expect(await page.isEnabled('#display-logo-file')).toBe(true);
      expect(await page.inputValue('#display-logo-file')).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('fits a 390×844 phone: no sideways scrolling, every control of the panel on screen', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const { page, problems } = await openConsole(context);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      const overflowing = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#display-panel *, #preview *'))
          .filter((n) => n instanceof HTMLElement && n.offsetParent !== null && n.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((n) => n.id || n.className || n.tagName),
      );
      expect(overflowing).toEqual([]);
      // Its top just under the sticky transport (the page's scroll padding), then its end.
      await page.$eval('#display-panel', (n) => n.scrollIntoView({ block: 'start' }));
      await shot(page, 'console-display-panel-390x844');
      await page.$eval('#display-panel', (n) => n.scrollIntoView({ block: 'end' }));
      await shot(page, 'console-display-panel-390x844-logo');
      await page.$eval('#preview', (n) => n.scrollIntoView({ block: 'center' }));
      await shot(page, 'console-display-preview-390x844');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
