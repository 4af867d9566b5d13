// The console while the box's clock is not synchronised, in Chromium against a
// real server whose clock setter runs a fake timedatectl (recording what it is
// asked): a banner with the warning and this device's offset to the box (the
// device's clock here runs 3 min 12 s ahead), the running order's Starts at and
// Ends at marked, and one confirmed step (two presses) that sets the box's clock
// to this device's time. A screenshot goes to test-artifacts/.
import { afterAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { ClockSync } from '../../src/domain/clock-sync.js';
import { boxClock } from '../../src/systemd/clock-setter.js';
import { createLogger } from '../../src/log/logger.js';
import { openConsole, startControlServer, useBrowserRig, VIEWER_KEY, type ControlServer } from './control-server.js';
import { overlaps, saveScreenshot } from './browser-kit.js';

const rig = useBrowserRig();
const AHEAD_MS = 192_000;
const servers: ControlServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

function fakeBoxClock(start: ClockSync) {
  let state = start;
  const asked: string[][] = [];
  const clock = boxClock({
    run: async (file, args) => {
      asked.push([file, ...args]);
      return { ok: true, stdout: '' };
    },
    current: () => state,
    refresh: async () => state,
    ntpEnabled: () => false,
    markSetByHand: (at) => void (state = { ...state, setByHandAt: at }),
    wallMs: () => Date.now(),
    monoMs: () => performance.now(),
    logger: createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } }),
  });
  return { clock, asked, synced: (value: boolean) => void (state = { ...state, synced: value }) };
}

describe('console: the box\'s clock', () => {
  it('warns while it is not synchronised, shows the offset, marks times of day, and sets the clock in one confirmed step', async () => {
    const room = createRoom('t1');
    const timer = { ...room.timers[0]!, scheduledAt: Date.now() + 3_600_000 };
    const second = { ...timer, id: 't2', label: 'No time', scheduledAt: null };
    const box = fakeBoxClock({ synced: false, source: 'timesyncd', since: Date.now(), detail: 'systemd-timesyncd has not reached a time server' });
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: { ...room, timers: [timer, second] }, clock: box.clock });
    servers.push(server);
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 900 } });
    // This device's clock runs 3 min 12 s ahead of the box's.
    await context.addInitScript(`{ const real = Date.now; Date.now = () => real() + ${AHEAD_MS}; }`);
    try {
      const { page, problems } = await openConsole(context, server.controlUrl);
      const banner = page.locator('#clock-banner');
      await expect.poll(() => banner.isVisible(), { timeout: 5_000 }).toBe(true);
      expect(await page.locator('#clock-banner-text').textContent()).toContain('The box\'s clock is not synchronised: time of day, scheduled starts and end-at timers may be wrong');
      await expect.poll(() => page.locator('#clock-offset').textContent(), { timeout: 5_000 }).toMatch(/^This device's clock is 3 min 1[12] s ahead of the box\.$/);
      // The scheduled start of t1 is marked; t2 has none.
      expect(await page.locator('#order tr[data-id="t1"] input.f-scheduledAt').getAttribute('class')).toContain('clock-doubt');
      expect(await page.locator('#order tr[data-id="t2"] input.f-scheduledAt').getAttribute('class')).not.toContain('clock-doubt');
      await saveScreenshot(page, 'console-clock-not-synchronised');

      // One press asks; only the second sets.
      const button = page.locator('#clock-set');
      await button.click();
      expect(await button.textContent()).toMatch(/^Confirm: set the box's clock to/);
      expect(box.asked).toEqual([]);
      const pressedAt = Date.now() + AHEAD_MS;
      await button.click();
      await expect.poll(() => box.asked.length, { timeout: 5_000 }).toBe(1);
      const [file, , verb, instant] = box.asked[0]!;
      expect([file, verb]).toEqual(['timedatectl', 'set-time']);
      const seconds = Number(instant?.slice(1));
      expect(Math.abs(seconds * 1_000 - pressedAt)).toBeLessThan(2_000);
      await expect.poll(() => page.locator('#clock-banner-text').textContent(), { timeout: 5_000 }).toMatch(/set by hand at/);

      // Once the box is synchronised, the banner goes at the console's next look (every 30 s; here, a reload).
      box.synced(true);
      await page.reload();
      await page.waitForSelector('#connection.live');
      await expect.poll(() => banner.isVisible(), { timeout: 5_000 }).toBe(false);
      expect(await page.locator('#order tr[data-id="t1"] input.f-scheduledAt').getAttribute('class')).not.toContain('clock-doubt');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('the kiosk (/display) shows a small warning while it is not synchronised; a viewer link does not', async () => {
    const box = fakeBoxClock({ synced: false, source: 'none', since: Date.now(), detail: 'no network time service is enabled on the box (timedatectl: NTP=no)' });
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1'), clock: box.clock });
    servers.push(server);
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const kiosk = await context.newPage();
      await kiosk.goto(`${server.base}/display`);
      const warning = kiosk.locator('#clock-warning');
      await expect.poll(() => warning.isVisible(), { timeout: 5_000 }).toBe(true);
      expect(await warning.textContent()).toBe('Clock not synchronised');
      // Small, in a corner: under 4 % of the screen's height, right and bottom.
      const where = await warning.boundingBox();
      expect(where!.height).toBeLessThan(720 * 0.04);
      expect(where!.x + where!.width).toBeGreaterThan(1280 * 0.9);
      expect(where!.y).toBeGreaterThan(720 * 0.9);
      // Beside the next timer and the time of day, over neither.
      expect((await server.api('/display?showTimeOfDay=1&showNext=1')).status).toBe(200);
      await kiosk.waitForSelector('#tod:not(:empty)');
      for (const id of ['#tod', '#next', '.progress']) {
        const other = await kiosk.locator(id).boundingBox();
        const mine = await warning.boundingBox();
        expect(overlaps(mine!, other!), id).toBe(false);
      }
      await saveScreenshot(kiosk, 'display-clock-not-synchronised');
      const viewer = await context.newPage();
      await viewer.goto(`${server.base}/view/${VIEWER_KEY}`);
      await viewer.waitForSelector('#time');
      await viewer.waitForTimeout(500);
      expect(await viewer.locator('#clock-warning').isVisible()).toBe(false);
      // Synchronised again: the kiosk's next look (every 30 s; here, a reload) takes the warning away.
      box.synced(true);
      await kiosk.reload();
      await kiosk.waitForTimeout(500);
      expect(await warning.isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('the kiosk\'s running countdown does not move when the box\'s clock is set back 3 min 12 s and a change follows', async () => {
    // The box's wall clock, steppable; its monotonic clock is the system's.
    let stepMs = 0;
    const serviceClock = { monoMs: () => Math.round(performance.now()), wallMs: () => Date.now() + stepMs };
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1'), serviceClock });
    servers.push(server);
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const kiosk = await context.newPage();
      await kiosk.goto(`${server.base}/display`);
      await kiosk.waitForSelector('#time');
      expect((await server.api('/start')).status).toBe(200);
      const startedAt = performance.now();
      /** Seconds left as the screen shows them (m:ss), and as the monotonic clock says they should be. */
      const shown = async () => {
        const [m, sec] = ((await kiosk.locator('#time').textContent()) ?? '').trim().split(':').map(Number);
        return { shown: m! * 60 + sec!, expected: 600 - (performance.now() - startedAt) / 1_000 };
      };
      await expect.poll(async () => (await shown()).shown, { timeout: 5_000 }).toBeLessThan(600);
      stepMs = -192_000;
      // A change after the step: its snapshot's endAt is on the new wall clock.
      expect((await server.api('/message/set?text=Five%20minutes')).status).toBe(200);
      await kiosk.waitForSelector('#message:not([hidden])');
      for (let i = 0; i < 6; i += 1) {
        await kiosk.waitForTimeout(250);
        const { shown: seconds, expected } = await shown();
        expect(Math.abs(seconds - expected), `shown ${seconds} s, expected ${expected.toFixed(1)} s`).toBeLessThan(2);
      }
    } finally {
      await context.close();
    }
  }, 30_000);

  it('a box whose clock is synchronised, or unknown, shows no banner', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
    servers.push(server);
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = await openConsole(context, server.controlUrl);
      // The first look has answered (the box says unknown) by the time the page shows the room.
      await page.waitForTimeout(300);
      expect(await page.locator('#clock-banner').isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  }, 30_000);
});
