// The danger state (past the timer's dangerAt, before zero) turns the progress bar red
// with the digits (issue 31 finding 7a); the warning keeps its orange. Colours are read
// from the page (computed) and from the screenshot's pixels under the bar.
// Screenshots: test-artifacts/display-danger-bar-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pixelStats, saveScreenshot } from './browser-kit.js';
import { useDisplayRig } from './live-server.js';

const rig = useDisplayRig();

const colourOf = (page: Page, id: string) => page.$eval(`#${id}`, (el) => getComputedStyle(el).backgroundColor);
const textColourOf = (page: Page, id: string) => page.$eval(`#${id}`, (el) => getComputedStyle(el).color);

describe('the progress bar follows the danger state', { timeout: 60_000 }, () => {
  it('orange in warning, red in danger, with the digits', async () => {
    const id = `D${Math.random().toString(36).slice(2, 8)}`;
    // Paused at a chosen time left: the tone follows the time left, not whether it runs.
    await rig.server.run(
      { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false },
      { type: 'display.set', display: { layout: 'full', showProgress: true, warningColour: '#ff9f0a', overrunColour: '#ff3b30' } },
      { type: 'timer.create', id, fields: { label: 'Panel', duration: 600_000, warnAt: 300_000, dangerAt: 120_000 } },
      { type: 'timer.select', id },
      { type: 'start' },
      { type: 'pause' },
      { type: 'adjust', ms: -400_000 },
    );
    const size = { width: 1280, height: 720 };
    const context = await rig.browser.newContext({ viewport: size, timezoneId: 'UTC' });
    const page = await context.newPage();
    try {
      await page.goto(rig.server.url('/display'));
      await page.waitForFunction(() => document.getElementById('screen')?.className.includes('tone-warn'));
      expect(await page.$eval('#screen', (el) => el.className.includes('tone-danger'))).toBe(false);
      expect(await colourOf(page, 'bar')).toBe('rgb(255, 159, 10)');
      const warnShot = await saveScreenshot(page, 'display-danger-bar-warning');

      await rig.server.run({ type: 'adjust', ms: -120_000 });
      await page.waitForFunction(() => document.getElementById('screen')?.className.includes('tone-danger'));
      expect(await textColourOf(page, 'time')).toBe('rgb(255, 59, 48)');
      expect(await colourOf(page, 'bar')).toBe('rgb(255, 59, 48)');
      const dangerShot = await saveScreenshot(page, 'display-danger-bar-danger');
      // The pixels under the filled part of the bar: orange has a lot of green, red has little.
      const barBox = await page.locator('#bar').boundingBox();
      if (barBox === null) throw new Error('no bar');
      const region = { x: (barBox.x + 4) / size.width, y: (barBox.y + barBox.height / 2 - 2) / size.height, w: Math.max(8, barBox.width * 0.5) / size.width, h: 4 / size.height };
      const warn = await pixelStats(rig.browser, warnShot, region);
      const danger = await pixelStats(rig.browser, dangerShot, region);
      expect(danger.red).toBeGreaterThan(0);
      expect(danger.red).toBeGreaterThan(warn.red);
    } finally {
      await context.close();
    }
  });
});
