// The pages that are neither a screen nor the console (issue 31): the front door
// (/), the audience page (/ask/{audience_key}) and the refusal pages, at the five
// sizes of layout-kit.ts in each of their states, checked for elements outside
// their container, short text cut with room to spare and text or links below WCAG
// AA. And the links (finding 7c): their colour as Chromium paints it, before and
// after the link was visited, measured against what is behind them.
// Screenshots: test-artifacts/screens-<page>-<size>-<state>.png; the faults found
// per page and size: test-artifacts/screens-pages-<page>-<size>.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPages } from '../../scripts/build.mjs';
import { createRoom } from '../../src/domain/room.js';
import { CHROMIUM, saveArtifact, saveScreenshot } from './browser-kit.js';
import { AUDIENCE_KEY, launchChromium, startControlServer, VIEWER_KEY, type ControlServer } from './control-server.js';
import { AA_TEXT, contrastFaults, contrastRatio, cutTexts, SCREEN_SIZES, sizeName, spillFaults, type ScreenSize } from './layout-kit.js';

const WRONG = 'WrongKey_0123456789-abcdEFgh';

let browser: Browser;
let pagesDir: string;
let server: ControlServer;
/** Counts wrong keys one to an address: its second wrong key is refused as too many. */
let strict: ControlServer;

beforeAll(async () => {
  pagesDir = mkdtempSync(path.join(tmpdir(), 'showclock-screens-pages-'));
  await buildPages({ outdir: pagesDir, only: ['home', 'control', 'ask'] });
  browser = await launchChromium();
  server = await startControlServer({ pagesDir, room: createRoom('t1') });
  strict = await startControlServer({ pagesDir, room: createRoom('t1'), limit: 1 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await strict?.close();
  await browser?.close();
  if (pagesDir !== undefined) rmSync(pagesDir, { recursive: true, force: true });
});

/** Every fault the kit finds on the page as it is now, keyed by kind; empty when it passes. */
async function faultsOf(page: Page): Promise<Record<string, unknown[]>> {
  // The kit measures against the window from the top of the page; a state may have scrolled it
  // (a focused field, a phone on its side): checked from the top, as the page is laid out.
  await page.evaluate(() => window.scrollTo(0, 0));
  const found: Record<string, unknown[]> = {
    spill: await spillFaults(page),
    // A cut is a fault here whatever the room: none of these pages cuts text on purpose.
    cut: await cutTexts(page),
    contrast: await contrastFaults(page),
  };
  // Nothing to scroll sideways.
  const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  if (wide.scroll > wide.width) found.sideways = [wide];
  for (const kind of Object.keys(found)) if ((found[kind] ?? []).length === 0) delete found[kind];
  return found;
}

/** Runs each state on a fresh page of `size`, checks it, keeps its screenshot; expects no fault in any. */
async function pass(name: string, size: ScreenSize, states: Record<string, (page: Page) => Promise<void>>, colorScheme: 'light' | 'dark' = 'light'): Promise<void> {
  const context = await browser.newContext({ viewport: size, colorScheme });
  const faults: Record<string, Record<string, unknown[]>> = {};
  const problems: string[] = [];
  try {
    for (const state of Object.keys(states)) {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`${state}: ${error.message}`));
      await states[state]?.(page);
      const found = await faultsOf(page);
      if (Object.keys(found).length > 0) faults[state] = found;
      await saveScreenshot(page, `screens-${name}-${sizeName(size)}-${state}`);
      await page.close();
    }
  } finally {
    await context.close();
  }
  saveArtifact(`screens-pages-${name}-${sizeName(size)}.json`, faults);
  expect(faults).toEqual({});
  expect(problems).toEqual([]);
}

async function goto(page: Page, url: string, status: number): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(status);
}

const hint = (page: Page) => page.locator('#ask-hint').innerText();

describe('the front door, the audience page and the refusal pages at every size', { timeout: 90_000 }, () => {
  for (const size of SCREEN_SIZES) {
    it(`front door at ${sizeName(size)}: empty, and with a wrong-looking key typed`, async () => {
      await pass('front', size, {
        empty: (page) => goto(page, `${server.base}/`, 200),
        'wrong-key': async (page) => {
          await goto(page, `${server.base}/`, 200);
          await page.fill('#control-key', 'not a key!');
          await page.click('#control-form button');
          await page.waitForSelector('#control-problem', { state: 'visible' });
        },
      });
    });

    it(`audience page at ${sizeName(size)}: empty, typing, sent, refused, too long`, async () => {
      const ask = `${server.base}/ask/${AUDIENCE_KEY}`;
      await pass('ask', size, {
        empty: (page) => goto(page, ask, 200),
        typing: async (page) => {
          await goto(page, ask, 200);
          await page.fill('#ask-text', 'Will the talk be recorded, and where can we find the slides afterwards?');
          await page.fill('#ask-name', 'Ada from row 3');
          await page.waitForFunction(() => /characters left$/.test(document.getElementById('ask-hint')?.textContent ?? ''));
        },
        sent: async (page) => {
          await goto(page, ask, 200);
          await page.fill('#ask-text', `Layout pass question at ${sizeName(size)}?`);
          await page.click('#ask-send');
          await page.waitForFunction(() => (document.getElementById('ask-status')?.textContent ?? '').startsWith('Thank you'));
        },
        // The box's refusal as it words it; answered here so the pass spends none of the address's questions.
        refused: async (page) => {
          await goto(page, ask, 200);
          await page.route('**/ask/*', (route) =>
            route.request().method() === 'POST'
              ? route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ ok: false, error: 'you sent 5 questions in the last minute; try again in 40 s' }) })
              : route.continue(),
          );
          await page.fill('#ask-text', 'One more question?');
          await page.click('#ask-send');
          await page.waitForFunction(() => (document.getElementById('ask-status')?.textContent ?? '').startsWith('you sent 5'));
        },
        'too-long': async (page) => {
          await goto(page, ask, 200);
          await page.fill('#ask-text', `${'Why does the countdown never drift? '.repeat(8)}W`);
          await page.click('#ask-send');
          await page.waitForFunction(() => /^text: at most 280 characters/.test(document.getElementById('ask-status')?.textContent ?? ''));
          expect(await hint(page)).toMatch(/characters too many$/);
        },
      });
    });

    // A phone set to dark gets the page's dark colours (ask.css): the same states in them, the box's answers given here.
    it(`audience page at ${sizeName(size)} in dark: empty, typing, sent, refused, too long`, async () => {
      const ask = `${server.base}/ask/${AUDIENCE_KEY}`;
      const answering = async (page: Page, status: number, body: Record<string, unknown>): Promise<void> => {
        await page.route('**/ask/*', (route) =>
          route.request().method() === 'POST' ? route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }) : route.continue(),
        );
      };
      const sendWith = async (page: Page, text: string, said: string): Promise<void> => {
        await page.fill('#ask-text', text);
        await page.click('#ask-send');
        await page.waitForFunction((start) => (document.getElementById('ask-status')?.textContent ?? '').startsWith(start), said);
      };
      await pass(
        'ask-dark',
        size,
        {
          empty: (page) => goto(page, ask, 200),
          typing: async (page) => {
            await goto(page, ask, 200);
            await page.fill('#ask-text', 'Will the talk be recorded?');
            await page.fill('#ask-name', 'Ada from row 3');
          },
          sent: async (page) => {
            await goto(page, ask, 200);
            await answering(page, 201, { ok: true, id: 'q-layout', receivedAt: Date.now() });
            await sendWith(page, 'Will the talk be recorded?', 'Thank you');
          },
          refused: async (page) => {
            await goto(page, ask, 200);
            await answering(page, 429, { ok: false, error: 'you sent 5 questions in the last minute; try again in 40 s' });
            await sendWith(page, 'One more question?', 'you sent 5');
          },
          'too-long': async (page) => {
            await goto(page, ask, 200);
            await sendWith(page, `${'Why does the countdown never drift? '.repeat(8)}W`, 'text: at most 280 characters');
          },
        },
        'dark',
      );
    });

    it(`refusal pages at ${sizeName(size)}: wrong API key, wrong viewer key, wrong question link, rate limited, unknown path, bad ?layout=`, async () => {
      await pass('refusal', size, {
        'wrong-api-key': async (page) => {
          await goto(page, `${server.base}/control/${WRONG}`, 401);
          await page.fill('#control-key', 'not a key!');
          await page.click('#control-form button');
          await page.waitForSelector('#control-problem', { state: 'visible' });
        },
        'wrong-viewer-key': (page) => goto(page, `${server.base}/view/${WRONG}`, 401),
        'wrong-question-link': (page) => goto(page, `${server.base}/ask/${WRONG}`, 401),
        'rate-limited': async (page) => {
          // The first wrong key of the run is 401; every one after it, at any size, 429.
          const first = await page.goto(`${strict.base}/control/${WRONG}`);
          if (first?.status() !== 429) await goto(page, `${strict.base}/control/${WRONG}`, 429);
        },
        'unknown-path': (page) => goto(page, `${server.base}/wp-login.php`, 404),
        'bad-layout': (page) => goto(page, `${server.base}/view/${VIEWER_KEY}?layout=${'huge'.repeat(14)}`, 400),
      });
    });
  }
});

type Rgb = [number, number, number];

/** The colour behind an element: the first opaque background up its ancestors (these pages have no images). */
async function backgroundOf(link: Locator): Promise<Rgb> {
  return link.evaluate((el) => {
    for (let e: Element | null = el; e !== null; e = e.parentElement) {
      const m = /rgba?\(([^)]+)\)/.exec(getComputedStyle(e).backgroundColor);
      const parts = (m?.[1] ?? '').split(/[\s,/]+/).filter((p) => p !== '').map(Number);
      if (parts.length >= 3 && (parts[3] ?? 1) === 1) return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0] as [number, number, number];
    }
    return [255, 255, 255] as [number, number, number];
  });
}

/**
 * The link's ink as painted: of all the pixels of its screenshot, the one farthest
 * in contrast from the background (a glyph's stem or its underline, where the
 * colour is whole). getComputedStyle cannot tell: it hides :visited on purpose.
 */
async function inkOf(link: Locator, background: Rgb): Promise<{ ink: Rgb; ratio: number }> {
  const png = await link.screenshot();
  const page = await browser.newPage();
  try {
    const ink = await page.evaluate(
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
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        const lum = (c: number[]): number => {
          const ch = c.map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * (ch[0] ?? 0) + 0.7152 * (ch[1] ?? 0) + 0.0722 * (ch[2] ?? 0);
        };
        const bgLum = lum(args.background);
        let best: number[] = args.background;
        let bestRatio = 1;
        for (let i = 0; i < data.length; i += 4) {
          const px = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
          const l = lum(px);
          const ratio = (Math.max(l, bgLum) + 0.05) / (Math.min(l, bgLum) + 0.05);
          if (ratio > bestRatio) {
            bestRatio = ratio;
            best = px;
          }
        }
        return best;
      },
      { b64: png.toString('base64'), background },
    );
    const rgb: Rgb = [ink[0] ?? 0, ink[1] ?? 0, ink[2] ?? 0];
    return { ink: rgb, ratio: Math.round(contrastRatio(rgb, background) * 100) / 100 };
  } finally {
    await page.close();
  }
}

describe('links', { timeout: 60_000 }, () => {
  it('are painted at WCAG AA or better against their background, unvisited and visited (the front door’s OpenAPI link)', async () => {
    // Chromium paints :visited only in a profile that keeps history: not in the rig's
    // private contexts, so this one runs in a profile of its own.
    const profile = mkdtempSync(path.join(tmpdir(), 'showclock-links-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      viewport: { width: 1280, height: 720 },
    });
    try {
      const page = await context.newPage();
      await goto(page, `${server.base}/`, 200);
      const link = page.locator('a[href="/api/v1/openapi.json"]');
      const background = await backgroundOf(link);
      const fresh = await inkOf(link, background);
      // Visited: followed from this page, then back.
      await Promise.all([page.waitForURL(`${server.base}/api/v1/openapi.json`), link.click()]);
      await goto(page, `${server.base}/`, 200);
      // The visited colour comes when the history lookup does: wait for the paint to change.
      await expect.poll(async () => (await inkOf(link, background)).ink, { timeout: 10_000 }).not.toEqual(fresh.ink);
      const visited = await inkOf(link, background);
      await saveScreenshot(page, 'screens-front-1280x720-link-visited');
      saveArtifact('screens-pages-links.json', { background, fresh, visited });
      expect(fresh.ratio).toBeGreaterThanOrEqual(AA_TEXT);
      expect(visited.ratio).toBeGreaterThanOrEqual(AA_TEXT);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
