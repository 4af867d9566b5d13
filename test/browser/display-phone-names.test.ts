// The phone viewer's title and speaker use the width they have (issue 31 finding 3):
// at 390x844 and 844x390, with the logo and ON AIR showing, "Closing remarks" and
// "Maria Lopez (host)" are shown whole (wrapped to a second line or a little smaller),
// never "Closing re…" or "Maria Lopez (ho…"; a title that cannot fit in two lines is
// cut at a word end with an ellipsis. Screenshots: test-artifacts/display-phone-names-*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlaps, saveArtifact, saveScreenshot, type Box } from './browser-kit.js';
import { API_KEY, startLiveServer, useDisplayRig, VIEWER_KEY, type LiveServer, untilDisplayDrawn } from './live-server.js';
import { LOGO_FIXTURES } from '../helpers/logo-fixtures.js';

const rig = useDisplayRig();
// A server of this file's own with a data directory: a logo is stored on disk.
let dataDir: string;
let server: LiveServer;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-phone-names-'));
  server = await startLiveServer({ pagesDir: rig.pagesDir, dataDir });
});
afterAll(async () => {
  await server?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

const PHONES = [
  { width: 390, height: 844 },
  { width: 844, height: 390 },
] as const;

interface TitleShown {
  readonly text: string;
  readonly cut: boolean;
  readonly fontPx: number;
  readonly box: Box;
  readonly lines: number;
}

async function titleShown(page: Page, id: string): Promise<TitleShown> {
  return page.evaluate((which) => {
    const el = document.getElementById(which) as HTMLElement;
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
    return {
      text: el.textContent ?? '',
      // Cut by the stylesheet (an ellipsis or a clip): the text needs more than the element shows.
      cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
      fontPx: parseFloat(getComputedStyle(el).fontSize),
      box: { x: r.left, y: r.top, width: r.width, height: r.height },
      lines: Math.round(el.clientHeight / lineHeight),
    };
  }, id);
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not shown`);
  return box;
}

async function uploadLogo(): Promise<void> {
  const res = await fetch(server.url(`/api/v1/${API_KEY}/display/logo`), { method: 'POST', headers: { 'Content-Type': 'image/svg+xml' }, body: LOGO_FIXTURES['image/svg+xml'] });
  expect(res.status).toBe(200);
}

describe('the phone viewer shows short titles and names whole', { timeout: 90_000 }, () => {
  const cases = [
    { label: 'Closing remarks', speaker: 'Maria Lopez (host)', whole: true },
    { label: 'Keynote: The Future of Live Events in a Connected World', speaker: 'Dr. Maria Lopez-Fernandez (host)', whole: false },
  ] as const;
  for (const c of cases) {
    it(`"${c.label}" / "${c.speaker}" with the logo and ON AIR`, async () => {
      await uploadLogo();
      const id = `P${Math.random().toString(36).slice(2, 8)}`;
      await server.run(
        { type: 'display.set', display: { layout: 'full', showLogo: true } },
        { type: 'timer.create', id, fields: { label: c.label, speaker: c.speaker, duration: 600_000 } },
        { type: 'timer.select', id },
        { type: 'start' },
        { type: 'onair.set', on: true },
      );
      const figures: Record<string, unknown> = {};
      for (const size of PHONES) {
        const context = await rig.browser.newContext({ viewport: size, timezoneId: 'UTC', deviceScaleFactor: 1 });
        const page = await context.newPage();
        const name = `${size.width}x${size.height}`;
        try {
          await page.goto(server.url(`/view/${VIEWER_KEY}`));
          await untilDisplayDrawn(page);
          await page.waitForSelector('#onair', { state: 'visible' });
          await page.waitForFunction(() => {
            const logo = document.getElementById('logo') as HTMLImageElement | null;
            return logo !== null && !logo.hidden && logo.complete && logo.naturalWidth > 0;
          });
          await page.waitForFunction(() => (document.getElementById('label')?.textContent ?? '') !== '' && (document.getElementById('speaker')?.textContent ?? '') !== '');
          const label = await titleShown(page, 'label');
          const speaker = await titleShown(page, 'speaker');
          await saveScreenshot(page, `display-phone-names-${c.whole ? 'short' : 'long'}-${name}`);
          figures[name] = { label, speaker };
          const onAir = await boxOf(page, '#onair');
          const logo = await boxOf(page, '#logo');
          for (const shown of [label, speaker]) {
            // Never cut by the stylesheet: whatever is cut is cut by the page, at a word end, with an ellipsis.
            expect(shown.cut, `${name} "${shown.text}" is clipped`).toBe(false);
            expect(overlaps(shown.box, onAir), `${name} "${shown.text}" under ON AIR`).toBe(false);
            expect(overlaps(shown.box, logo), `${name} "${shown.text}" under the logo`).toBe(false);
            expect(shown.lines).toBeLessThanOrEqual(2);
            expect(shown.box.x).toBeGreaterThanOrEqual(0);
            expect(shown.box.x + shown.box.width).toBeLessThanOrEqual(size.width);
          }
          // Readable: the title not below 4 % of the smaller side, the speaker not below 3 %.
          expect(label.fontPx).toBeGreaterThanOrEqual(Math.min(size.width, size.height) * 0.04 - 0.5);
          expect(speaker.fontPx).toBeGreaterThanOrEqual(Math.min(size.width, size.height) * 0.03 - 0.5);
          if (c.whole) {
            expect(label.text).toBe(c.label);
            expect(speaker.text).toBe(c.speaker);
          } else {
            for (const pair of [[label.text, c.label], [speaker.text, c.speaker]] as const) {
              if (pair[0] === pair[1]) continue;
              expect(pair[0].endsWith('…'), `"${pair[0]}"`).toBe(true);
              const kept = pair[0].slice(0, -1).trimEnd();
              expect(pair[1].startsWith(kept)).toBe(true);
              expect(pair[1][kept.length]).toBe(' ');
            }
          }
        } finally {
          await context.close();
        }
      }
      saveArtifact(`display-phone-names-${c.whole ? 'short' : 'long'}.json`, figures);
    });
  }
});
