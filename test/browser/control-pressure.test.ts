// The console for a guest stage manager under pressure (issue 15, part 4), in
// Chromium: blackout and ON AIR turn the whole header into a coloured band with
// the word. Screenshots go to test-artifacts/.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { dropIndex } from '../../src/pages/control/row-drag.js';
import { startControlServer, useBrowserRig, type ControlServer } from './control-server.js';

const ARTIFACTS = 'test-artifacts';
const MOMENT = { timeout: 5_000, interval: 40 };

const rig = useBrowserRig();

/** A running order long enough to scroll: 12 timers, the first active and paused. */
function longRoom(): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = Array.from({ length: 12 }, (_, i) => ({ ...first, id: `t${i + 1}`, label: `Segment ${i + 1}`, speaker: `Speaker ${i + 1}`, duration: 300_000 }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: 300_000 } };
}

async function withConsole(
  viewport: { width: number; height: number },
  fn: (page: Page, server: ControlServer) => Promise<void>,
): Promise<void> {
  const server = await startControlServer({ pagesDir: rig.pagesDir, room: longRoom() });
  const context = await rig.browser.newContext({ viewport });
  const problems: string[] = [];
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(server.controlUrl);
    await page.waitForSelector('#connection.live');
    await page.waitForSelector('body[data-seq]');
    await fn(page, server);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
    await server.close();
  }
}

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

/** The header's box and computed background, as the operator sees it. */
const headerLook = (page: Page) =>
  page.$eval('header', (h) => {
    const r = h.getBoundingClientRect();
    return { left: r.left, width: r.width, background: getComputedStyle(h).backgroundColor, words: (h.querySelector('#show-state')?.textContent ?? '').trim() };
  });

describe('console under pressure', { timeout: 60_000 }, () => {
  it('turns the whole header into a BLACKOUT or ON AIR band', async () => {
    await withConsole({ width: 1366, height: 768 }, async (page, server) => {
      const calm = await headerLook(page);
      expect(calm.words).toBe('');
      expect(await page.isVisible('#show-state')).toBe(false);
      await shot(page, 'console-header-normal');

      await page.click('#blackout');
      await expect.poll(async () => (await headerLook(page)).words, MOMENT).toBe('BLACKOUT');
      const black = await headerLook(page);
      expect(black.background).toBe('rgb(0, 0, 0)');
      // Full width: from the window's left edge across the whole page.
      expect(black.left).toBe(0);
      expect(black.width).toBe(await page.evaluate(() => document.documentElement.clientWidth));
      await shot(page, 'console-header-blackout');

      await page.click('#blackout');
      await page.click('#onair');
      await expect.poll(async () => (await headerLook(page)).words, MOMENT).toBe('ON AIR');
      const onAir = await headerLook(page);
      expect(onAir.background).toBe('rgb(208, 2, 27)');
      expect(onAir.width).toBe(black.width);
      await shot(page, 'console-header-onair');

      // Changed elsewhere (a button panel), the band follows too.
      await server.api('/blackout', { on: '1' });
      await expect.poll(async () => (await headerLook(page)).words, MOMENT).toBe('BLACKOUT · ON AIR');
      expect((await headerLook(page)).background).toBe('rgb(0, 0, 0)');
      await server.api('/blackout', { on: '0' });
      await server.api('/onair', { on: '0' });
      await expect.poll(async () => (await headerLook(page)).background, MOMENT).toBe(calm.background);
    });
  });

  it('shows a command error next to the control that caused it, in view without scrolling', async () => {
    await withConsole({ width: 1366, height: 768 }, async (page) => {
      const inView = (selector: string) =>
        page.$eval(selector, (n) => {
          const r = n.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, visible: r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0 };
        });

      // The last running-order row, at the bottom of the page: the error floats under that row.
      const lastRow = '#order tr[data-id="t12"]';
      await page.locator(`${lastRow} input.f-duration`).scrollIntoViewIfNeeded();
      await page.fill(`${lastRow} input.f-duration`, 'soon');
      await page.press(`${lastRow} input.f-duration`, 'Enter');
      await expect.poll(() => page.isVisible('#notice'), MOMENT).toBe(true);
      expect(await page.textContent('#notice-text')).toContain('"soon" is not a duration');
      const row = await inView(lastRow);
      const beside = await inView('#notice');
      expect(beside.visible).toBe(true);
      expect(Math.abs(beside.top - row.bottom)).toBeLessThan(12);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-error-beside-row.png') });
      await page.click('#notice-close');
      expect(await page.isVisible('#notice')).toBe(false);

      // A refused setting: the error sits right under the time-zone row, not at the top.
      await page.fill('#time-zone', 'Mars/Olympus_Mons');
      await page.click('#time-zone-set');
      await expect.poll(() => page.isVisible('#notice'), MOMENT).toBe(true);
      expect(await page.textContent('#notice-text')).toMatch(/^Time zone Mars\/Olympus_Mons: /);
      const zoneRow = await page.$eval('#time-zone', (n) => (n.closest('.row') as Element).getBoundingClientRect().bottom);
      const notice = await inView('#notice');
      expect(notice.visible).toBe(true);
      expect(notice.top - zoneRow).toBeGreaterThanOrEqual(0);
      expect(notice.top - zoneRow).toBeLessThan(12);
      expect(await page.$eval('#notice', (n) => n.previousElementSibling?.contains(document.getElementById('time-zone')) ?? false)).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-error-beside-setting.png') });
    });
  });

  it('keeps the transport in view at 1366×768 wherever the page is scrolled', async () => {
    await withConsole({ width: 1366, height: 768 }, async (page, server) => {
      const transportInView = () =>
        page.evaluate(() => {
          const ids = ['start-pause', 'reset', 'previous', 'next', 'blackout', 'onair'];
          return ids.every((id) => {
            const r = (document.getElementById(id) as HTMLElement).getBoundingClientRect();
            // In the window and actually on top there (not covered by something else).
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.top >= 0 && r.bottom <= window.innerHeight && hit !== null && (document.getElementById(id) as HTMLElement).contains(hit);
          });
        });
      expect(await transportInView()).toBe(true);
      // The last row of a 12-row running order, then the very bottom of the page.
      await page.locator('#order tr[data-id="t12"]').scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      expect(await transportInView()).toBe(true);
      const row12 = await page.$eval('#order tr[data-id="t12"]', (r) => {
        const b = r.getBoundingClientRect();
        return b.top >= 0 && b.bottom <= window.innerHeight;
      });
      expect(row12).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-1366x768-scrolled.png') });
      // Still usable from there: Start works without scrolling back.
      await page.click('#start-pause');
      await expect.poll(async () => (await server.state()).running, MOMENT).toBe(true);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await transportInView()).toBe(true);
    });
  });

  it('fits a 390×844 phone with no sideways scrolling, the running order as cards', async () => {
    await withConsole({ width: 390, height: 844 }, async (page, server) => {
      const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await sideways()).toBe(0);
      // Nothing sticks out past the right edge, the running order's fields included.
      const overflowing = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main *'))
          .filter((n) => n instanceof HTMLElement && n.offsetParent !== null && n.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((n) => n.id || n.className || n.tagName),
      );
      expect(overflowing).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-phone-390x844.png') });
      await page.locator('#order tr[data-id="t2"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-phone-390x844-order.png') });
      // Operable by touch sizes: the transport is in view and works.
      await page.click('#start-pause');
      await expect.poll(async () => (await server.state()).running, MOMENT).toBe(true);
      await page.fill('#order tr[data-id="t2"] input.f-label', 'Welcome');
      await page.press('#order tr[data-id="t2"] input.f-label', 'Enter');
      await expect.poll(async () => (await server.state()).timers[1]?.label, MOMENT).toBe('Welcome');
      expect(await sideways()).toBe(0);
    });
  });

  it('starts any running-order row in one click, as one command', async () => {
    await withConsole({ width: 1366, height: 768 }, async (page, server) => {
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(new URL(request.url()).pathname.replace(/^\/api\/v1\/[^/]+/, ''));
      });
      await page.click('#order tr[data-id="t3"] button.start');
      await expect.poll(async () => {
        const s = await server.state();
        return [s.activeTimerId, s.running];
      }, MOMENT).toEqual(['t3', true]);
      expect(posts).toEqual(['/timer/t3/start']);
      await expect.poll(() => page.isDisabled('#order tr[data-id="t3"] button.start'), MOMENT).toBe(true);
      expect(await page.getAttribute('#order tr[data-id="t3"] button.start', 'aria-label')).toBe('Select and start timer 3');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-row-start.png') });
      // Another row, while one runs: it takes over at its full duration.
      await page.click('#order tr[data-id="t5"] button.start');
      await expect.poll(async () => (await server.state()).activeTimerId, MOMENT).toBe('t5');
      const s = await server.state();
      expect(s.running).toBe(true);
      expect(s.remaining).toBeGreaterThan(295_000);
      expect(posts).toEqual(['/timer/t3/start', '/timer/t5/start']);
    });
  });

  it('computes where a drop puts a row', () => {
    expect(dropIndex(0, 3, true)).toBe(3); // first row dropped after the fourth
    expect(dropIndex(0, 3, false)).toBe(2); // ... before the fourth
    expect(dropIndex(4, 1, false)).toBe(1);
    expect(dropIndex(4, 1, true)).toBe(2);
    expect(dropIndex(2, 2, true)).toBe(2); // onto itself: no move
  });

  it('reorders the running order by drag and drop, through /timer/{id}/move, the arrows kept', async () => {
    await withConsole({ width: 1366, height: 900 }, async (page, server) => {
      const ids = async () => (await server.state()).timers.map((t) => t.id).slice(0, 5);
      const shownIds = () => page.$$eval('#order tr', (rows) => rows.slice(0, 5).map((r) => r.getAttribute('data-id') ?? ''));
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(`${new URL(request.url()).pathname.replace(/^\/api\/v1\/[^/]+/, '')} ${request.postData() ?? ''}`);
      });
      // The number cell is the handle, for a mouse and a finger alike (pointer events; see control-touch-drag.test.ts).
      expect(await page.$eval('#order tr[data-id="t1"] td.c-pos', (n) => getComputedStyle(n).touchAction)).toBe('none');
      // The first rows in the middle of the window, clear of the sticky transport, then a real mouse drag.
      await page.$eval('#order tr[data-id="t3"]', (r) => r.scrollIntoView({ block: 'center' }));
      const drag = async (from: string, onto: string, fraction: number): Promise<void> => {
        const source = await page.locator(`#order tr[data-id="${from}"] td.c-pos`).boundingBox();
        const target = await page.locator(`#order tr[data-id="${onto}"]`).boundingBox();
        if (source === null || target === null) throw new Error('rows not shown');
        await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
        await page.mouse.down();
        await page.mouse.move(target.x + 200, target.y + target.height * fraction, { steps: 8 });
        await page.mouse.up();
      };
      // t1 by its number cell onto the lower half of t4: it lands after t4.
      await drag('t1', 't4', 0.8);
      await expect.poll(ids, MOMENT).toEqual(['t2', 't3', 't4', 't1', 't5']);
      await expect.poll(shownIds, MOMENT).toEqual(['t2', 't3', 't4', 't1', 't5']);
      expect(posts).toEqual(['/timer/t1/move {"to":3}']);
      // And back up, onto the upper half of t2: before it.
      await drag('t1', 't2', 0.2);
      await expect.poll(ids, MOMENT).toEqual(['t1', 't2', 't3', 't4', 't5']);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-drag-reordered.png') });
      // The arrows still work, from the keyboard too.
      await page.focus('#order tr[data-id="t1"] button.down');
      await page.keyboard.press('Enter');
      await expect.poll(ids, MOMENT).toEqual(['t2', 't1', 't3', 't4', 't5']);
    });
  });

  it('saves message presets in this browser and shows one with one click', async () => {
    await withConsole({ width: 1366, height: 768 }, async (page, server) => {
      await page.fill('#msg-text', 'Five minutes');
      await page.click('button[data-color="red"]');
      await page.click('#msg-bold');
      await page.click('#preset-save');
      await page.fill('#msg-text', 'Wrap up please');
      await page.click('button[data-color="white"]');
      await page.click('#msg-bold');
      await page.click('#preset-save');
      await page.click('#preset-save'); // the same again is not a second preset
      const presets = () => page.$$eval('#msg-presets button.preset', (b) => b.map((n) => (n.textContent ?? '').trim()));
      expect(await presets()).toEqual(['Five minutes (red, bold)', 'Wrap up please']);
      // Saving shows nothing: the screens change only on a click.
      expect((await server.state()).message).toBeNull();

      // Kept across a reload (localStorage of this browser).
      await page.reload();
      await page.waitForSelector('#connection.live');
      expect(await presets()).toEqual(['Five minutes (red, bold)', 'Wrap up please']);

      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(new URL(request.url()).pathname.replace(/^\/api\/v1\/[^/]+/, ''));
      });
      await page.click('#msg-presets li:nth-child(1) button.preset');
      await expect.poll(async () => (await server.state()).message, MOMENT).toMatchObject({ text: 'Five minutes', color: 'red', bold: true, flash: false });
      expect(posts).toEqual(['/message/set']);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-message-presets.png') });
      await page.click('#msg-presets li:nth-child(2) button.preset');
      await expect.poll(async () => (await server.state()).message?.text, MOMENT).toBe('Wrap up please');

      await page.click('#msg-presets li:nth-child(1) button.preset-delete');
      expect(await presets()).toEqual(['Wrap up please']);
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('showclock.messagePresets.v1') ?? '[]'))).toEqual([
        { text: 'Wrap up please', color: 'white', bold: false, flash: false },
      ]);

      // An empty draft is not saved, and the operator is told beside the button.
      await page.fill('#msg-text', '   ');
      await page.click('#preset-save');
      await expect.poll(() => page.textContent('#notice-text'), MOMENT).toContain('Save preset: type the message first');
      expect(await presets()).toEqual(['Wrap up please']);
    });
  });
});
