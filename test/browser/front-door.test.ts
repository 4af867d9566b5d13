// The front door in a real browser: a newcomer opens the box's address, reads what
// it is, types a wrong key (told so under the field, nothing opened), then pastes
// the control link and lands in the console; the viewer field opens the viewer.
// The tab shows the box's icon. Screenshots go to test-artifacts/front-door-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { saveScreenshot } from './browser-kit.js';
import { API_KEY, startControlServer, useBrowserRig, VIEWER_KEY, type ControlServer } from './control-server.js';

const rig = useBrowserRig();
let server: ControlServer;

beforeAll(async () => {
  server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the front door', { timeout: 45_000 }, () => {
  for (const size of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    it(`opens the console and the viewer from a typed key (${size.width}×${size.height})`, async () => {
      const context = await rig.browser.newContext({ viewport: size });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      try {
        await page.goto(`${server.base}/`);
        expect(await page.title()).toBe('Showclock');
        expect(await page.textContent('h2')).toContain('countdown timer box');
        // Nothing to scroll sideways on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        const icon = await page.evaluate(async () => {
          const res = await fetch('/favicon.ico');
          return { status: res.status, type: res.headers.get('content-type') };
        });
        expect(icon).toEqual({ status: 200, type: 'image/svg+xml' });

        await page.fill('#control-key', 'not a key!');
        await page.click('#control-form button');
        await page.waitForSelector('#control-problem', { state: 'visible' });
        expect(page.url()).toBe(`${server.base}/`);
        // The refusal is next to the field that caused it.
        const field = await page.locator('#control-key').boundingBox();
        const said = await page.locator('#control-problem').boundingBox();
        expect(field !== null && said !== null && said.y - (field.y + field.height) < 80).toBe(true);
        await saveScreenshot(page, `front-door-${size.width}x${size.height}`);

        await page.fill('#control-key', `http://showclock.local:8080/control/${API_KEY}`);
        await page.click('#control-form button');
        await page.waitForURL(`${server.base}/control/${API_KEY}`);
        await page.waitForSelector('#connection');

        await page.goto(`${server.base}/`);
        await page.fill('#viewer-key', VIEWER_KEY);
        await page.press('#viewer-key', 'Enter');
        await page.waitForURL(`${server.base}/view/${VIEWER_KEY}`);
        await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
