// The time of day on the display (issue 31 finding 7d): a 12 h clock says which zone it
// is in ("7:30:05 PM EST"), from the room's time-zone setting and not the screen's own
// (the browser here runs in Tokyo); and a timer shown as a Clock, whose big digits are
// the time of day, does not repeat it in the small line beside them: that line names
// the 12 h digits' zone instead.
// Screenshots: test-artifacts/display-time-of-day-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from './browser-kit.js';
import { useDisplayRig } from './live-server.js';

const rig = useDisplayRig();

async function open(): Promise<Page> {
  const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 }, timezoneId: 'Asia/Tokyo' });
  const page = await context.newPage();
  await page.goto(rig.server.url('/display'));
  await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
  return page;
}

/** The zone's short name as this test's own Intl gives it now (EST in winter, EDT in summer). */
function zoneName(timeZone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName');
  return part === undefined ? '' : part.value;
}

describe('the time of day on the display', { timeout: 60_000 }, () => {
  it('a 12 h clock names its zone; the 24 h clock reads as it did', async () => {
    const id = `T${Math.random().toString(36).slice(2, 8)}`;
    await rig.server.run(
      { type: 'settings.set', timeZone: 'America/New_York', clockFormat: '12h' },
      { type: 'display.set', display: { layout: 'full', showTimeOfDay: true } },
      { type: 'timer.create', id, fields: { label: 'Keynote', duration: 600_000, appearance: 'countdown' } },
      { type: 'timer.select', id },
    );
    const page = await open();
    try {
      const zone = zoneName('America/New_York');
      expect(['EST', 'EDT']).toContain(zone);
      await page.waitForFunction(() => (document.getElementById('tod')?.textContent ?? '') !== '');
      await saveScreenshot(page, 'display-time-of-day-12h-zone');
      const text = (await page.textContent('#tod')) ?? '';
      expect(text).toMatch(new RegExp(`^\\d{1,2}:\\d\\d:\\d\\d [AP]M ${zone}$`));
      // The zone's hour, not Tokyo's.
      const nyHour = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hour12: true }).format(new Date()).split(' ')[0]);
      const shownHour = Number(text.split(':')[0]);
      expect([nyHour, (nyHour % 12) + 1]).toContain(shownHour);

      await rig.server.run({ type: 'settings.set', clockFormat: '24h' });
      await page.waitForFunction(() => /^\d\d:\d\d:\d\d$/.test(document.getElementById('tod')?.textContent ?? ''));
    } finally {
      await page.context().close();
      await rig.server.run({ type: 'settings.set', timeZone: 'UTC', clockFormat: '24h' });
    }
  });

  it('a timer shown as a Clock does not repeat the time of day beside itself', async () => {
    const id = `C${Math.random().toString(36).slice(2, 8)}`;
    const next = `${id}n`;
    await rig.server.run(
      { type: 'settings.set', timeZone: 'America/New_York', clockFormat: '12h' },
      { type: 'display.set', display: { layout: 'full', showTimeOfDay: true, showNext: true } },
      { type: 'timer.create', id, fields: { label: 'Doors', duration: 600_000, appearance: 'clock' } },
      { type: 'timer.create', id: next, fields: { label: 'Keynote', duration: 600_000 } },
      { type: 'timer.select', id },
    );
    const page = await open();
    try {
      await page.waitForFunction(() => / [AP]M$/.test(document.getElementById('time')?.textContent ?? ''));
      // The next timer still shows in its line; the time of day does not, as the digits are it.
      await page.waitForFunction(() => (document.getElementById('next')?.textContent ?? '').startsWith('Next:'));
      await saveScreenshot(page, 'display-time-of-day-clock-appearance');
      const tod = await page.evaluate(() => {
        const el = document.getElementById('tod') as HTMLElement;
        return { text: el.textContent ?? '', shown: el.getBoundingClientRect().width > 0 && !el.hidden };
      });
      expect(tod.shown && /\d:\d\d/.test(tod.text), `the small line repeats "${tod.text}"`).toBe(false);
      // The digits' zone, which they do not say themselves.
      expect(tod.text).toBe(zoneName('America/New_York'));
      // Back to a countdown: the small time of day returns.
      await rig.server.run({ type: 'timer.select', id: next });
      await page.waitForFunction(() => / [AP]M /.test(document.getElementById('tod')?.textContent ?? ''));
    } finally {
      await page.context().close();
      await rig.server.run({ type: 'settings.set', timeZone: 'UTC', clockFormat: '24h' });
    }
  });
});
