// ON AIR is shown in every layout (full, minimal, lowerThird) at the five sizes (issue 31):
// the whole badge, inside the screen, over nothing else's text.
// Screenshots: test-artifacts/display-onair-*.png.
import { describe, expect, it } from 'vitest';
import { overlaps, saveScreenshot } from './browser-kit.js';
import { SCREEN_SIZES, sizeName } from './layout-kit.js';
import { useDisplayRig, untilDisplayDrawn } from './live-server.js';

const rig = useDisplayRig();

describe('ON AIR in every layout at every size', { timeout: 120_000 }, () => {
  for (const layout of ['full', 'minimal', 'lowerThird'] as const) {
    it(`${layout}`, async () => {
      const id = `A${Math.random().toString(36).slice(2, 8)}`;
      await rig.server.run(
        { type: 'display.set', display: { layout } },
        { type: 'timer.create', id, fields: { label: 'Closing remarks', speaker: 'Maria Lopez (host)', duration: 1_800_000 } },
        { type: 'timer.select', id },
        { type: 'start' },
        { type: 'onair.set', on: true },
      );
      for (const size of SCREEN_SIZES) {
        const context = await rig.browser.newContext({ viewport: { width: size.width, height: size.height }, timezoneId: 'UTC' });
        const page = await context.newPage();
        try {
          await page.goto(rig.server.url('/display'));
          await untilDisplayDrawn(page, layout);
          await page.waitForFunction(() => document.getElementById('onair')?.hidden === false);
          await saveScreenshot(page, `display-onair-${layout}-${sizeName(size)}`);
          const badge = await page.locator('#onair').boundingBox();
          expect(badge, `${layout} ${sizeName(size)}: ON AIR is not drawn`).not.toBeNull();
          if (badge === null) return;
          expect(badge.width).toBeGreaterThan(10);
          expect(badge.x).toBeGreaterThanOrEqual(0);
          expect(badge.y).toBeGreaterThanOrEqual(0);
          expect(badge.x + badge.width).toBeLessThanOrEqual(size.width);
          expect(badge.y + badge.height).toBeLessThanOrEqual(size.height);
          // The whole word, and the digits not under it.
          expect(await page.$eval('#onair', (el) => el.scrollWidth <= el.clientWidth && el.textContent === 'ON AIR')).toBe(true);
          const time = await page.$eval('#time', (el) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            const r = range.getBoundingClientRect();
            return { x: r.left, y: r.top, width: r.width, height: r.height };
          });
          expect(overlaps(badge, time), `${layout} ${sizeName(size)}: ON AIR over the time`).toBe(false);
        } finally {
          await context.close();
        }
      }
    });
  }
});
