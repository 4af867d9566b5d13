// The refusal pages in a real Chromium (issue 31, finding 7b): a browser that
// opens a control or viewer link with a wrong key reads a sentence (a capital
// letter, a full stop, `npm run key` shown as code, not between backticks) and
// gets the front door's field to try again, which opens the console or the viewer
// from a typed key or a pasted link without the key ever going into a query. The
// JSON answer to every other client is unchanged; a rate-limited refusal has no
// field; what a link's query puts into the page stays text.
// Screenshots: test-artifacts/refusal-*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPages } from '../../scripts/build.mjs';
import { createRoom } from '../../src/domain/room.js';
import { saveScreenshot } from './browser-kit.js';
import { API_KEY, launchChromium, startControlServer, VIEWER_KEY, type ControlServer } from './control-server.js';

const WRONG = 'WrongKey_0123456789-abcdEFgh';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

let browser: Browser;
let pagesDir: string;
let server: ControlServer;

beforeAll(async () => {
  pagesDir = mkdtempSync(path.join(tmpdir(), 'showclock-refusal-pages-'));
  // The front door's script, the console (its stylesheet styles these pages) and the viewer.
  await buildPages({ outdir: pagesDir, only: ['home', 'control', 'display'] });
  browser = await launchChromium();
  server = await startControlServer({ pagesDir, room: createRoom('t1') });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await browser?.close();
  if (pagesDir !== undefined) rmSync(pagesDir, { recursive: true, force: true });
});

interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Script errors, console errors other than the refusal's own status, and every URL asked for. */
  readonly problems: string[];
  readonly requested: string[];
}

async function open(size: { width: number; height: number }, url: string, expectedStatus: number): Promise<Opened> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (401|429|400|404)/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => requested.push(request.url()));
  const response = await page.goto(url);
  expect(response?.status()).toBe(expectedStatus);
  return { context, page, problems, requested };
}

/** What the page's message says, and how: its text, the code spans in it, and any backtick left. */
async function messageOf(page: Page): Promise<{ text: string; codes: string[] }> {
  return page.evaluate(() => {
    const p = document.querySelector('[role=alert] p');
    return { text: (p?.textContent ?? '').trim(), codes: Array.from(p?.querySelectorAll('code') ?? []).map((c) => c.textContent ?? '') };
  });
}

describe('the wrong API key page', { timeout: 60_000 }, () => {
  for (const size of SIZES) {
    it(`says it in a sentence, shows npm run key as code, and opens the console from the field (${size.width}×${size.height})`, async () => {
      const { context, page, problems, requested } = await open(size, `${server.base}/control/${WRONG}`, 401);
      try {
        const said = await messageOf(page);
        expect(said.text).toMatch(/^This control link is not valid: the API key in it is wrong or was changed; on the box, npm run key prints the current control link\.$/);
        expect(said.codes).toEqual(['npm run key']);
        expect(await page.evaluate(() => document.body.innerText.includes('`'))).toBe(false);
        // The console's field, not the viewer's.
        expect(await page.locator('#control-key').isVisible()).toBe(true);
        expect(await page.locator('label[for=control-key]').innerText()).toBe('API key or control link');
        expect(await page.locator('#viewer-key').count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

        // A wrong-looking key is said under the field; nothing is opened.
        await page.fill('#control-key', 'not a key!');
        await page.click('#control-form button');
        await page.waitForSelector('#control-problem', { state: 'visible' });
        expect(page.url()).toBe(`${server.base}/control/${WRONG}`);
        await saveScreenshot(page, `refusal-control-${size.width}x${size.height}`);

        // The pasted link opens the console.
        await page.fill('#control-key', `http://showclock.local:8080/control/${API_KEY}`);
        await page.click('#control-form button');
        await page.waitForURL(`${server.base}/control/${API_KEY}`);
        await page.waitForSelector('#connection');
        // No key went into a query, ever.
        expect(requested.filter((url) => url.includes('?'))).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('keeps the JSON answer exactly as it was for every other client', async () => {
    const res = await fetch(`${server.base}/control/${WRONG}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      ok: false,
      error: 'this control link is not valid: the API key in it is wrong or was changed; on the box, `npm run key` prints the current control link',
    });
  });
});

describe('the wrong viewer key page', { timeout: 60_000 }, () => {
  it('has the viewer field, which opens the viewer from a typed key', async () => {
    const { context, page, problems, requested } = await open({ width: 390, height: 844 }, `${server.base}/view/${WRONG}`, 401);
    try {
      const said = await messageOf(page);
      expect(said.text).toBe('This viewer link is not valid (the key may have been changed): ask the control room for the current link.');
      expect(await page.locator('label[for=viewer-key]').innerText()).toBe('Viewer key or viewer link');
      expect(await page.locator('#control-key').count()).toBe(0);
      await saveScreenshot(page, 'refusal-viewer-390x844');
      await page.fill('#viewer-key', VIEWER_KEY);
      await page.press('#viewer-key', 'Enter');
      await page.waitForURL(`${server.base}/view/${VIEWER_KEY}`);
      await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
      expect(requested.filter((url) => url.includes('?'))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the other refusal pages', { timeout: 60_000 }, () => {
  it('shows what a link’s query puts into the message as text, backticks and all, and has no field', async () => {
    const payload = '`<img src=x onerror=alert(1)>`<b>b</b>';
    const { context, page, problems } = await open({ width: 1280, height: 720 }, `${server.base}/view/${VIEWER_KEY}?layout=${encodeURIComponent(payload)}`, 400);
    try {
      expect(await page.evaluate(() => document.querySelectorAll('[role=alert] img, [role=alert] b, script').length)).toBe(0);
      const said = await messageOf(page);
      expect(said.text).toBe(`Layout: "<img src=x onerror=alert(1)><b>b</b>" is not a layout; use one of full, minimal, lowerThird, or leave it out for the room's own.`);
      expect(said.codes).toEqual(['<img src=x onerror=alert(1)>']);
      expect(await page.locator('form').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says too many attempts in a sentence, with no field to try again', async () => {
    const strict = await startControlServer({ pagesDir, room: createRoom('t1'), limit: 1 });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      expect((await page.goto(`${strict.base}/control/${WRONG}`))?.status()).toBe(401);
      expect(await page.locator('#control-key').count()).toBe(1);
      expect((await page.goto(`${strict.base}/control/${WRONG}`))?.status()).toBe(429);
      const said = await messageOf(page);
      expect(said.text).toMatch(/^Too many requests with a wrong control link from your address; try again in \d+ s\.$/);
      expect(await page.locator('form').count()).toBe(0);
      await saveScreenshot(page, 'refusal-rate-limited-390x844');
    } finally {
      await context.close();
      await strict.close();
    }
  });
});
