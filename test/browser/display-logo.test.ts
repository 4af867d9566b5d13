// The logo on the display (issue 15), in Chromium: top-left, in the slot that mirrors
// the ON AIR badge's, never over the time or the badge at any screen size, hidden with
// showLogo off; and an SVG logo with a script, opened on its own at /logo/{version},
// runs no script (the sandboxing CSP). Screenshot: test-artifacts/display-logo.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDisplayBundle, launchChromium, saveScreenshot, overlaps, type Box } from './browser-kit.js';
import { SCREEN_SIZES } from './layout-kit.js';
import { API_KEY, startLiveServer, type LiveServer } from './live-server.js';
import { LOGO_FIXTURES, SCRIPTED_SVG } from '../helpers/logo-fixtures.js';

/** The five sizes of layout-kit.ts: HDMI 1080p and 720p, a 4:3 projector, a phone both ways. */
const SIZES = SCREEN_SIZES;

let browser: Browser;
let pagesDir: string;
let dataDir: string;
let server: LiveServer;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-logo-browser-'));
  [pagesDir, browser] = await Promise.all([buildDisplayBundle(), launchChromium()]);
  server = await startLiveServer({ pagesDir, dataDir });
}, 240_000);

afterAll(async () => {
  await server?.close();
  await browser?.close();
  if (pagesDir !== undefined) rmSync(pagesDir, { recursive: true, force: true });
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

async function upload(type: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const res = await fetch(server.url(`/api/v1/${API_KEY}/display/logo`), { method: 'POST', headers: { 'Content-Type': type }, body: bytes });
  const body = (await res.json()) as { state: { display: { logo: string } } };
  expect(res.status).toBe(200);
  return body.state.display.logo;
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not shown`);
  return box;
}

describe('the logo on the display', () => {
  it('shows top-left, never over the time or the ON AIR badge, at every size; showLogo hides it', async () => {
    const id = 'logo1';
    await server.run(
      { type: 'timer.create', id, fields: { label: `Opening keynote ${'W'.repeat(80)}`, speaker: 'A speaker', duration: 5_400_000 } },
      { type: 'timer.select', id },
      { type: 'start' },
      { type: 'onair.set', on: true },
    );
    const version = await upload('image/svg+xml', LOGO_FIXTURES['image/svg+xml']);
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size, timezoneId: 'UTC' });
      const page = await context.newPage();
      try {
        await page.goto(server.url('/display'));
        await page.waitForSelector('#logo', { state: 'visible' });
        await page.waitForFunction(() => {
          const img = document.getElementById('logo') as HTMLImageElement | null;
          return img !== null && img.complete && img.naturalWidth > 0;
        });
        expect(await page.getAttribute('#logo', 'src')).toBe(`/logo/${version}`);
        const logo = await boxOf(page, '#logo');
        expect(logo.x).toBeLessThan(size.width / 4);
        expect(logo.y).toBeLessThan(size.height / 5);
        expect(overlaps(logo, await boxOf(page, '#time'))).toBe(false);
        expect(overlaps(logo, await boxOf(page, '#onair'))).toBe(false);
        expect(overlaps(logo, await boxOf(page, '#label'))).toBe(false);
        if (size.width === 1920) await saveScreenshot(page, 'display-logo');
        else await saveScreenshot(page, `display-logo-${size.width}x${size.height}`);
      } finally {
        await context.close();
      }
    }
    const context = await browser.newContext({ viewport: SIZES[0], timezoneId: 'UTC' });
    const page = await context.newPage();
    try {
      await page.goto(server.url('/display'));
      await page.waitForSelector('#logo', { state: 'visible' });
      await server.run({ type: 'display.set', display: { showLogo: false } });
      await page.waitForSelector('#logo', { state: 'hidden' });
      await server.run({ type: 'display.set', display: { showLogo: true } });
      await page.waitForSelector('#logo', { state: 'visible' });
      await server.run({ type: 'display.logo', logo: null });
      await page.waitForSelector('#logo', { state: 'hidden' });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('runs no script of an SVG logo, even opened on its own at /logo/{version}', async () => {
    const version = await upload('image/svg+xml', SCRIPTED_SVG);
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => violations.push(message.text()));
    try {
      const res = await page.goto(server.url(`/logo/${version}`));
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toContain('sandbox');
      // Give an onload or a script every chance to have run.
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { __logoScript?: string }).__logoScript)).toBeUndefined();
      expect(await page.title()).not.toMatch(/ran/);
      // It is shown all the same: the green square.
      expect(await page.locator('rect').count()).toBe(1);
      // The control: the same bytes without the policy do run, so the check above means something.
      await page.route('**/unsandboxed.svg', (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: Buffer.from(SCRIPTED_SVG) }));
      await page.goto(server.url('/unsandboxed.svg'));
      await page.waitForFunction(() => (window as unknown as { __logoScript?: string }).__logoScript !== undefined);
    } finally {
      await context.close();
    }
  }, 60_000);
});
