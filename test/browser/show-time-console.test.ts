// Issue 14's console controls in a real browser against a real server: red
// threshold, scheduled start and end typed as times of day in the room's zone,
// time zone and clock format, the chime switches and test, and the flash button.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { formatShortTimeOfDay } from '../../src/client/time-of-day.js';
import { parseInstantText } from '../../src/pages/control/time-of-day-text.js';
import { startControlServer, useBrowserRig } from './control-server.js';

const MOMENT = { timeout: 5_000, interval: 40 };
const rig = useBrowserRig();

describe('console: show time', { timeout: 45_000 }, () => {
  it('sets the zone, 12 h, a red threshold, a start and an end time of day, the chime, and flashes and chimes every screen', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
    const context = await rig.browser.newContext({ viewport: { width: 1400, height: 1000 }, timezoneId: 'Asia/Tokyo' });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(server.controlUrl);
      await page.waitForSelector('body[data-seq]');

      await page.fill('#time-zone', 'america/new_york');
      await page.click('#time-zone-set');
      await page.click('button[data-clock-format="12h"]');
      await expect.poll(async () => (await server.state()).settings, MOMENT).toMatchObject({ timeZone: 'America/New_York', clockFormat: '12h' });
      await expect.poll(() => page.inputValue('#time-zone'), MOMENT).toBe('America/New_York');

      await page.fill('tr[data-id="t1"] .f-dangerAt', '0:30');
      await page.press('tr[data-id="t1"] .f-dangerAt', 'Enter');
      await expect.poll(async () => (await server.state()).timers[0]?.dangerAt, MOMENT).toBe(30_000);

      const now = (await server.state()).serverNow;
      // No timer has a start or end yet: their columns are shown on asking (issue 31, finding 5).
      await page.click('#order-times');
      await page.fill('tr[data-id="t1"] .f-scheduledAt', '11:45 pm');
      await page.press('tr[data-id="t1"] .f-scheduledAt', 'Enter');
      const expected = parseInstantText('11:45 pm', now, 'America/New_York') as number;
      await expect.poll(async () => (await server.state()).timers[0]?.scheduledAt, MOMENT).toBe(expected);
      // Shown back in the room's zone and format, whatever the console device's zone.
      await expect.poll(() => page.inputValue('tr[data-id="t1"] .f-scheduledAt'), MOMENT).toBe(formatShortTimeOfDay(expected, { timeZone: 'America/New_York', clockFormat: '12h' }));
      await page.fill('tr[data-id="t1"] .f-scheduledAt', '');
      await page.press('tr[data-id="t1"] .f-scheduledAt', 'Enter');
      await expect.poll(async () => (await server.state()).timers[0]?.scheduledAt, MOMENT).toBeNull();

      await page.fill('tr[data-id="t1"] .f-endsAt', 'soon');
      await page.press('tr[data-id="t1"] .f-endsAt', 'Enter');
      await expect.poll(() => page.textContent('body'), MOMENT).toContain('is not a time of day');

      await page.click('#chime-zero');
      await expect.poll(async () => (await server.state()).settings.chimeAtZero, MOMENT).toBe(true);
      await expect.poll(() => page.getAttribute('#chime-zero', 'aria-pressed'), MOMENT).toBe('true');
      await page.click('#chime-test');
      await expect.poll(async () => (await server.state()).chimeTestAt, MOMENT).not.toBeNull();
      await page.click('#flash-screens');
      await expect.poll(async () => (await server.state()).flash?.count, MOMENT).toBe(3);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
