// Issue 31, finding 4: on a phone the console's pinned transport is one compact band
// (start/pause, previous, next, -1/+1 min and the time left), everything else
// scrolls below it. Budget: the band is at most 120 px tall at 390x844 (a seventh of
// the screen) and at 844x390 (under a third of a phone on its side). Its buttons stay
// finger-sized (44 px, WCAG 2.5.5). The heights measured go to
// test-artifacts/console-phone-band.json.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { saveArtifact, saveScreenshot } from './browser-kit.js';
import { openConsole, startControlServer, useBrowserRig } from './control-server.js';

const MOMENT = { timeout: 5_000, interval: 40 };
const BAND_BUDGET_PX = 120;
const FINGER_PX = 44;

const rig = useBrowserRig();

function eightTimers(): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = Array.from({ length: 8 }, (_, i) => ({ ...first, id: `t${i + 1}`, label: `Segment ${i + 1}`, speaker: `Speaker ${i + 1}`, duration: 600_000 }));
  return { ...base, timers, activeTimerId: 't2', transport: { running: false, remainingMs: 600_000 } };
}

interface Band {
  readonly height: number;
  readonly text: string;
  /** The essential controls: in the band, on top at their middle, and their heights. */
  readonly controls: readonly { readonly name: string; readonly inBand: boolean; readonly onTop: boolean; readonly height: number }[];
}

/** What stays pinned once the page is scrolled far down: the sticky box holding Start. */
async function pinnedBand(page: Page): Promise<Band> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => window.scrollY > 300);
  return page.evaluate(() => {
    let band: HTMLElement | null = document.getElementById('start-pause');
    while (band !== null && getComputedStyle(band).position !== 'sticky') band = band.parentElement;
    if (band === null) throw new Error('nothing sticky holds Start');
    const b = band.getBoundingClientRect();
    const named: [string, string][] = [
      ['start/pause', '#start-pause'],
      ['next', '#next'],
      ['previous', '#previous'],
      ['-1 min', 'button[data-adjust-ms="-60000"]'],
      ['+1 min', 'button[data-adjust-ms="60000"]'],
    ];
    const controls = named.map((pair) => {
      const el = document.querySelector(pair[1]) as HTMLElement;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {
        name: pair[0],
        inBand: r.width > 0 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5 && r.left >= b.left - 0.5 && r.right <= b.right + 0.5,
        onTop: hit !== null && el.contains(hit),
        height: Math.round(r.height),
      };
    });
    return { height: Math.round(b.height), text: band.innerText, controls };
  });
}

describe('the phone console band (issue 31, finding 4)', { timeout: 60_000 }, () => {
  it(`pins one band of at most ${BAND_BUDGET_PX} px with start/pause, previous, next, ±1 min and the time left`, async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: eightTimers() });
    const figures: Record<string, number> = {};
    try {
      for (const size of [
        { width: 390, height: 844 },
        { width: 844, height: 390 },
      ]) {
        const name = `${size.width}x${size.height}`;
        const context = await rig.browser.newContext({ viewport: size, hasTouch: true, isMobile: size.width < size.height });
        try {
          const opened = await openConsole(context, server.controlUrl);
          const page = opened.page;
          const band = await pinnedBand(page);
          figures[name] = band.height;
          await saveScreenshot(page, `console-phone-band-${name}`);
          for (const control of band.controls) {
            expect({ control: control.name, inBand: control.inBand, onTop: control.onTop }).toEqual({ control: control.name, inBand: true, onTop: true });
            expect(control.height, `${control.name} at ${name}`).toBeGreaterThanOrEqual(FINGER_PX);
          }
          // The time left of the active timer, in the band (10:00 paused).
          expect(band.text).toMatch(/\b10:00\b/);
          expect(band.height, `band height at ${name}`).toBeLessThanOrEqual(BAND_BUDGET_PX);
          // Readable labels: nothing in the band under 13 px.
          const smallest = await page.evaluate(() => {
            let band: HTMLElement | null = document.getElementById('start-pause');
            while (band !== null && getComputedStyle(band).position !== 'sticky') band = band.parentElement;
            const sizes = Array.from((band as HTMLElement).querySelectorAll('*'))
              .filter((n) => n instanceof HTMLElement && n.offsetParent !== null && Array.from(n.childNodes).some((c) => c.nodeType === 3 && (c.textContent ?? '').trim() !== ''))
              .map((n) => parseFloat(getComputedStyle(n).fontSize));
            return Math.min(...sizes);
          });
          expect(smallest).toBeGreaterThanOrEqual(13);
          // Works from down the page: Start, and the time left moves in the band.
          await page.click('#start-pause');
          await expect.poll(async () => (await server.state()).running, MOMENT).toBe(true);
          await page.waitForFunction(
            () => {
              let band: HTMLElement | null = document.getElementById('start-pause');
              while (band !== null && getComputedStyle(band).position !== 'sticky') band = band.parentElement;
              return band !== null && /\b9:5\d\b/.test(band.innerText);
            },
            undefined,
            MOMENT,
          );
          await page.click('#start-pause');
          await expect.poll(async () => (await server.state()).running, MOMENT).toBe(false);
          await server.api('/reset');
          expect(opened.problems).toEqual([]);
        } finally {
          await context.close();
        }
      }
    } finally {
      saveArtifact('console-phone-band.json', { budgetPx: BAND_BUDGET_PX, bandHeightPx: figures });
      await server.close();
    }
  });
});
