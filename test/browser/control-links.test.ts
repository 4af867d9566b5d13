// The console's links in a real browser that reached the box by another name
// (issue 26, finding 6): Chromium resolves evil.example to 127.0.0.1, so the page
// is asked for with `Host: evil.example:<port>`, as a DNS-rebinding page or a
// forged request would. The links the console shows (viewer, audience, API base,
// button panels) must be the box's own LAN address and the port it serves on,
// as `npm run key` prints them, and the example URLs must work.
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicHost } from '../../src/app/urls.js';
import { createRoom } from '../../src/domain/room.js';
import { CHROMIUM } from './browser-kit.js';
import { API_KEY, AUDIENCE_KEY, VIEWER_KEY, buildPagesOnce, startControlServer } from './control-server.js';

const EVIL = 'evil.example';

let browser: Browser | undefined;
let pages: { dir: string; remove: () => void } | undefined;

beforeAll(async () => {
  [pages, browser] = await Promise.all([
    buildPagesOnce(),
    chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', `--host-resolver-rules=MAP ${EVIL} 127.0.0.1`],
    }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  pages?.remove();
});

describe('the console reached as another host', { timeout: 60_000 }, () => {
  it("shows the box's own links, never the name it was reached by, and they work", async () => {
    if (browser === undefined || pages === undefined) throw new Error('no browser');
    const server = await startControlServer({ pagesDir: pages.dir, room: createRoom('t1') });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://${EVIL}:${server.port}/control/${API_KEY}`);
      await page.waitForSelector('#connection.live');
      const own = `http://${publicHost('0.0.0.0')}:${server.port}`;
      expect(await page.inputValue('#viewer-url')).toBe(`${own}/view/${VIEWER_KEY}`);
      expect(await page.inputValue('#viewer-aux-url')).toBe(`${own}/view/${VIEWER_KEY}?show=aux`);
      expect(await page.inputValue('#ask-url')).toBe(`${own}/ask/${AUDIENCE_KEY}`);
      expect(await page.inputValue('#api-base')).toBe(`${own}/api/v1/${API_KEY}`);
      const examples = await page.$$eval('.examples input', (inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      expect(examples.length).toBeGreaterThan(5);
      for (const url of examples) expect(url.startsWith(`${own}/api/v1/${API_KEY}/`), url).toBe(true);
      // Nothing the page holds names the host it was reached by (its own location aside).
      expect(await page.content()).not.toContain(EVIL);
      // The links are real: the viewer link opens the display, through the box's own address.
      const viewer = await context.newPage();
      const response = await viewer.goto(`http://127.0.0.1:${server.port}${new URL(await page.inputValue('#viewer-url')).pathname}`);
      expect(response?.status()).toBe(200);
      // The aux link too: the screen with the aux timer as its main time.
      const aux = new URL(await page.inputValue('#viewer-aux-url'));
      const auxResponse = await viewer.goto(`http://127.0.0.1:${server.port}${aux.pathname}${aux.search}`);
      expect(auxResponse?.status()).toBe(200);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
