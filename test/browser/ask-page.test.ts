// The audience page in a real Chromium at phone sizes (issue 16): a person types
// a question and a name, sees the characters left count down, sends, is thanked,
// and the question is in the room; an empty send, a lost connection and the
// box's own refusal are each said in the page with what was typed kept; nothing
// scrolls sideways at 320 px; and with scripts off the plain form still works.
// Screenshots: test-artifacts/ask-*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPages } from '../../scripts/build.mjs';
import { createRoom } from '../../src/domain/room.js';
import type { Question } from '../../src/domain/types.js';
import { saveScreenshot } from './browser-kit.js';
import { AUDIENCE_KEY, launchChromium, startControlServer, type ControlServer } from './control-server.js';

const PHONE = { width: 390, height: 844 };
const NARROW = { width: 320, height: 640 };

let browser: Browser;
let pagesDir: string;
let server: ControlServer;

beforeAll(async () => {
  // Only this page: the others may be half-edited in the working tree and are not under test here.
  pagesDir = mkdtempSync(path.join(tmpdir(), 'showclock-ask-pages-'));
  await buildPages({ outdir: pagesDir, only: ['ask'] });
  browser = await launchChromium();
  server = await startControlServer({ pagesDir, room: createRoom('t1') });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await browser?.close();
  if (pagesDir !== undefined) rmSync(pagesDir, { recursive: true, force: true });
});

async function roomQuestions(): Promise<Question[]> {
  const { status, body } = await server.api('/questions');
  expect(status).toBe(200);
  return body.questions as Question[];
}

interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Script errors, console errors (a CSP refusal is one) and requests to anywhere but the box. */
  readonly problems: string[];
}

async function open(options: BrowserContextOptions): Promise<Opened> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(server.base)) problems.push(`request elsewhere: ${request.url()}`);
  });
  await page.goto(`${server.base}/ask/${AUDIENCE_KEY}`);
  return { context, page, problems };
}

const hint = (page: Page) => page.locator('#ask-hint').innerText();
const status = (page: Page) => page.locator('#ask-status');
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('the audience page on a phone', { timeout: 45_000 }, () => {
  it('counts down, refuses an empty send in place, sends a question and a name, and thanks', async () => {
    const { context, page, problems } = await open({ viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      expect(await page.title()).toBe('Ask a question');
      expect(await hint(page)).toBe('280 characters left');
      expect(await fitsWidth(page)).toBe(true);

      // An empty send: said in the page (an alert), not sent, nothing in the room.
      await page.tap('#ask-send');
      await expect.poll(() => status(page).innerText()).toBe('text: is empty; type a question');
      expect(await status(page).getAttribute('role')).toBe('alert');
      expect(await status(page).isVisible()).toBe(true);
      await saveScreenshot(page, 'ask-390x844-empty');

      // Counted as the box counts: code points after trimming, so an emoji is one and outer spaces none.
      await page.fill('#ask-text', '  Will the talk be recorded? 🎤  ');
      // 28 code points (29 UTF-16 units, 32 before trimming).
      expect(await hint(page)).toBe('252 characters left');
      expect(await status(page).isHidden()).toBe(true);
      await page.fill('#ask-text', 'x'.repeat(279));
      expect(await hint(page)).toBe('1 character left');
      await page.fill('#ask-text', 'x'.repeat(283));
      expect(await hint(page)).toBe('3 characters too many');

      await page.fill('#ask-text', 'Will the talk be recorded? 🎤');
      await page.fill('#ask-name', 'Ada from row 3');
      // Held on the way, to see the button disabled while it is sent.
      let release = (): void => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/ask/*', async (route) => {
        await held;
        await route.continue();
      });
      await page.tap('#ask-send');
      await expect.poll(() => page.locator('#ask-send').isDisabled()).toBe(true);
      release();
      await expect.poll(() => status(page).innerText()).toContain('Thank you: your question was received');
      await page.unroute('**/ask/*');
      expect(await status(page).getAttribute('role')).toBe('status');
      expect(await page.locator('#ask-send').isEnabled()).toBe(true);
      expect(await page.inputValue('#ask-text')).toBe('');
      expect(await page.inputValue('#ask-name')).toBe('Ada from row 3');
      expect(await hint(page)).toBe('280 characters left');
      expect(await fitsWidth(page)).toBe(true);
      await saveScreenshot(page, 'ask-390x844-received');

      const mine = (await roomQuestions()).filter((q) => q.text === 'Will the talk be recorded? 🎤');
      expect(mine.map((q) => [q.name, q.state])).toEqual([['Ada from row 3', 'new']]);

      // The name is remembered on this phone for the next question.
      await page.reload();
      expect(await page.inputValue('#ask-name')).toBe('Ada from row 3');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says plainly when it could not reach the box, and keeps what was typed', async () => {
    const { context, page, problems } = await open({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    try {
      await page.route('**/ask/*', (route) => route.abort('internetdisconnected'));
      await page.fill('#ask-text', 'Is the Wi-Fi down?');
      await page.fill('#ask-name', 'Lin');
      await page.tap('#ask-send');
      await expect.poll(() => status(page).innerText()).toBe('not sent: check the Wi-Fi and try again');
      expect(await status(page).getAttribute('role')).toBe('alert');
      expect(await page.inputValue('#ask-text')).toBe('Is the Wi-Fi down?');
      expect(await page.inputValue('#ask-name')).toBe('Lin');
      expect(await page.locator('#ask-send').isEnabled()).toBe(true);
      await saveScreenshot(page, 'ask-390x844-dark-not-sent');
      // The aborted request is logged by Chromium as a console error; nothing else may be.
      expect(problems.filter((p) => !p.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has nothing to scroll sideways at 320 px, even with a long unbroken question and a long refusal', async () => {
    const { context, page, problems } = await open({ viewport: NARROW, isMobile: true, hasTouch: true });
    try {
      expect(await fitsWidth(page)).toBe(true);
      await page.fill('#ask-text', 'W'.repeat(300));
      await page.fill('#ask-name', 'N'.repeat(60));
      await page.tap('#ask-send');
      await expect.poll(() => status(page).innerText()).toBe('text: at most 280 characters (it has 300)');
      expect(await fitsWidth(page)).toBe(true);
      // The button is a thumb's width and height.
      const button = await page.locator('#ask-send').boundingBox();
      expect(button !== null && button.height >= 48 && button.width >= 280).toBe(true);
      await saveScreenshot(page, 'ask-320x640-too-long');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the audience page with scripts off', { timeout: 45_000 }, () => {
  it('posts the plain form and gets the page saying it was received', async () => {
    const { context, page, problems } = await open({ viewport: PHONE, isMobile: true, hasTouch: true, javaScriptEnabled: false });
    try {
      expect(await hint(page)).toBe('280 characters at most');
      await page.fill('#ask-text', 'Can I ask without JavaScript?');
      await page.fill('#ask-name', 'Tim');
      const [response] = await Promise.all([page.waitForNavigation(), page.click('#ask-send')]);
      expect(response?.status()).toBe(201);
      expect(page.url()).toBe(`${server.base}/ask/${AUDIENCE_KEY}`);
      expect(await status(page).innerText()).toContain('Thank you: your question was received');
      expect(await page.inputValue('#ask-text')).toBe('');
      await saveScreenshot(page, 'ask-390x844-no-script-received');
      const mine = (await roomQuestions()).filter((q) => q.text === 'Can I ask without JavaScript?');
      expect(mine.map((q) => [q.name, q.state])).toEqual([['Tim', 'new']]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

// Last: it spends what is left of this address's questions for the minute.
describe('the audience page when the box refuses', { timeout: 45_000 }, () => {
  it('shows the box’s own refusal (too many from this phone) and keeps the question', async () => {
    const { context, page, problems } = await open({ viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      // Earlier tests sent some of this address's 5 a minute; send until the box says no.
      let refused = false;
      for (let i = 1; i <= 6 && !refused; i += 1) {
        await page.fill('#ask-text', `Quick question ${i}?`);
        const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.tap('#ask-send')]);
        refused = answer.status() === 429;
      }
      expect(refused).toBe(true);
      await expect.poll(() => status(page).innerText()).toMatch(/^you sent 5 questions in the last minute; try again in \d+ s$/);
      expect(await status(page).getAttribute('role')).toBe('alert');
      expect(await page.inputValue('#ask-text')).toMatch(/^Quick question \d\?$/);
      await saveScreenshot(page, 'ask-390x844-refused');
      // Chromium logs the 429 itself as a console error; nothing else may be.
      expect(problems.filter((p) => !p.includes('429'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
