// The lower third (layout lowerThird, keyed on chroma green; issue 31 finding 6), at the
// five sizes: the overrun digits keep the same margin from the right edge as the title
// keeps from the left, and every text of the band sits inside the title-safe area (5 %
// in from each edge); the READY badge is in the band, not on the screen's bottom edge; a
// title is not cut with room to spare; and ON AIR is shown in the band.
// Screenshots: test-artifacts/display-lower-third-*.png; figures in display-lower-third.json.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { overlaps, saveArtifact, saveScreenshot, type Box } from './browser-kit.js';
import { SCREEN_SIZES, sizeName } from './layout-kit.js';
import { useDisplayRig, untilDisplayDrawn } from './live-server.js';

const rig = useDisplayRig();

/** The title-safe area: 5 % in from each edge of the picture (SMPTE RP 2046-2's 90 %). */
const SAFE = 0.05;

/**
 * Where an element's text is: across, the text itself (a Range), not the element's row;
 * up and down, the element's line boxes (a Range's height is the font's whole content area,
 * taller than the digits' ink with line-height 1).
 */
async function textBox(page: Page, id: string): Promise<Box & { cut: boolean }> {
  return page.evaluate((which) => {
    const el = document.getElementById(which) as HTMLElement;
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    const e = el.getBoundingClientRect();
    return { x: r.left, y: e.top, width: r.width, height: e.height, cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 };
  }, id);
}

async function open(size: { width: number; height: number }): Promise<Page> {
  const context = await rig.browser.newContext({ viewport: size, timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto(rig.server.url('/display'));
  await untilDisplayDrawn(page);
  await page.waitForFunction(() => document.getElementById('screen')?.className.includes('layout-lowerThird'));
  return page;
}

function insideSafe(box: Box, size: { width: number; height: number }): boolean {
  return box.x >= size.width * SAFE - 1 && box.x + box.width <= size.width * (1 - SAFE) + 1 && box.y + box.height <= size.height * (1 - SAFE) + 1;
}

describe('the lower third', { timeout: 120_000 }, () => {
  it('overrun digits, READY, the title and ON AIR inside safe, even margins, at the five sizes', async () => {
    const over = `O${Math.random().toString(36).slice(2, 8)}`;
    const ready = `${over}r`;
    await rig.server.run(
      { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false },
      { type: 'display.set', display: { layout: 'lowerThird', background: '#00b140' } },
      { type: 'timer.create', id: over, fields: { label: 'Closing remarks and thanks', speaker: 'Maria Lopez (host)', duration: 1_000 } },
      { type: 'timer.create', id: ready, fields: { label: 'Closing remarks and thanks', speaker: 'Maria Lopez (host)', duration: 1_800_000 } },
      { type: 'onair.set', on: true },
    );
    const figures: Record<string, unknown> = {};
    for (const size of SCREEN_SIZES) {
      const name = sizeName(size);
      // 59 minutes over: the longest m:ss overrun, "+59:xx".
      await rig.server.run({ type: 'timer.select', id: over }, { type: 'start' }, { type: 'adjust', ms: -3_556_000 });
      const page = await open(size);
      try {
        await page.waitForFunction(() => /^\+59:\d\d$/.test(document.getElementById('time')?.textContent ?? ''));
        await page.waitForFunction(() => document.getElementById('onair')?.hidden === false);
        const time = await textBox(page, 'time');
        const label = await textBox(page, 'label');
        const speaker = await textBox(page, 'speaker');
        const onAir = await page.locator('#onair').boundingBox();
        await saveScreenshot(page, `display-lower-third-overrun-${name}`);
        const leftMargin = label.x;
        const rightMargin = size.width - (time.x + time.width);
        figures[`${name}-overrun`] = { time, label, speaker, onAir, leftMargin, rightMargin, bottomMargin: size.height - (time.y + time.height) };
        // Soft: a run shows every fault of the band at once.
        expect.soft(onAir, `${name}: ON AIR is not shown`).not.toBeNull();
        for (const pair of [['time', time], ['label', label], ['speaker', speaker], ['ON AIR', onAir ?? time]] as const) {
          expect.soft(insideSafe(pair[1], size), `${name}: ${pair[0]} ${JSON.stringify(pair[1])} outside the title-safe area`).toBe(true);
        }
        // Consistent: the digits end as far from the right edge as the title starts from the left.
        expect.soft(Math.abs(leftMargin - rightMargin), `${name}: left ${leftMargin} right ${rightMargin}`).toBeLessThanOrEqual(size.width * 0.01 + 1);
        expect.soft(label.cut, `${name}: the title is cut`).toBe(false);
        expect.soft(speaker.cut, `${name}: the speaker is cut`).toBe(false);
        if (onAir !== null) expect.soft(overlaps(onAir, label) || overlaps(onAir, time) || overlaps(onAir, speaker), `${name}: ON AIR over a text`).toBe(false);

        await rig.server.run({ type: 'timer.select', id: ready });
        await page.waitForFunction(() => document.getElementById('mark')?.textContent === 'READY' && !document.getElementById('mark')?.hidden);
        const mark = await page.locator('#mark').boundingBox();
        const readyTime = await textBox(page, 'time');
        await saveScreenshot(page, `display-lower-third-ready-${name}`);
        figures[`${name}-ready`] = { mark, time: readyTime };
        expect(mark).not.toBeNull();
        if (mark === null) return;
        expect.soft(insideSafe(mark, size), `${name}: READY ${JSON.stringify(mark)} outside the title-safe area`).toBe(true);
        expect(overlaps(mark, readyTime)).toBe(false);
      } finally {
        await page.context().close();
      }
    }
    saveArtifact('display-lower-third.json', figures);
  });
});
