// Reordering the running order with a finger (issue 15), in Chromium as a phone
// (390×844, touch): real touch input through the DevTools protocol, which the
// browser turns into pointer events of type 'touch' exactly as a touch screen's
// would. Dragging a row's handle moves the row (one /timer/{id}/move), also past
// the bottom of the screen (the page scrolls at the edge); a tap on the handle
// moves nothing; a swipe on the rest of the row scrolls the page and moves
// nothing. Screenshots: test-artifacts/console-touch-dragging-390x844.png (mid-drag)
// and console-touch-drag-390x844.png (dropped).
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { ARTIFACTS } from './browser-kit.js';
import { openConsole, startControlServer, useBrowserRig } from './control-server.js';

const MOMENT = { timeout: 8_000, interval: 40 };

const rig = useBrowserRig();

function room(): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = Array.from({ length: 6 }, (_, i) => ({ ...first, id: `t${i + 1}`, label: `Segment ${i + 1}`, duration: 300_000 }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: 300_000 } };
}

/** A finger pressed at (x, y), moved in steps to (toX, toY), lifted. */
async function touchDrag(cdp: CDPSession, x: number, y: number, toX: number, toY: number, steps = 12, beforeLift: () => Promise<unknown> = async () => {}): Promise<void> {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= steps; i += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + ((toX - x) * i) / steps, y: y + ((toY - y) * i) / steps }] });
  }
  await beforeLift();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** Waits until the page stops scrolling (a swipe flings on after the finger lifts). */
async function stillScroll(page: Page): Promise<void> {
  let last = -1;
  for (let i = 0; i < 100; i += 1) {
    const now = await page.evaluate(() => window.scrollY);
    if (now === last) return;
    last = now;
    await page.waitForTimeout(150);
  }
  throw new Error('the page kept scrolling');
}

async function centre(page: Page, selector: string): Promise<{ x: number; y: number; top: number; height: number }> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not shown`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, top: box.y, height: box.height };
}

describe('touch reordering of the running order', () => {
  it('moves a row dragged by its handle with a finger, and nothing on a tap or a swipe elsewhere', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: room() });
    const context = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const { page, problems } = await openConsole(context, server.controlUrl);
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(`${new URL(request.url()).pathname.replace(/^\/api\/v1\/[^/]+/, '')} ${request.postData() ?? ''}`);
      });
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { pointerTypes: string[] }).pointerTypes = seen;
        document.addEventListener('pointerdown', (event) => seen.push(event.pointerType), true);
      });
      const ids = async () => (await server.state()).timers.map((t) => t.id);
      const shownIds = () => page.$$eval('#order tr', (rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
      const cdp = await context.newCDPSession(page);

      // t2 at the top of the visible area: the page's scroll padding keeps it clear of the sticky transport.
      await page.$eval('#order tr[data-id="t2"]', (r) => r.scrollIntoView({ block: 'start' }));
      // A tap on a handle is not a drag.
      const tap = await centre(page, '#order tr[data-id="t2"] td.c-pos');
      await touchDrag(cdp, tap.x, tap.y, tap.x + 2, tap.y + 2, 2);
      // A swipe on a row's fields scrolls the page, and moves no row.
      const scrolledBefore = await page.evaluate(() => window.scrollY);
      const field = await centre(page, '#order tr[data-id="t3"] input.f-label');
      await touchDrag(cdp, field.x, field.y, field.x, field.y - 150);
      await expect.poll(() => page.evaluate(() => window.scrollY), MOMENT).toBeGreaterThan(scrolledBefore + 50);
      await stillScroll(page);
      expect(posts).toEqual([]);

      // A phone's rows are cards taller than half the screen. t2 by its handle, up onto the upper
      // half of t1 (at the top of the visible area, below the sticky transport): it lands first.
      await page.$eval('#order tr[data-id="t1"]', (r) => r.scrollIntoView({ block: 'start' }));
      const handle = await centre(page, '#order tr[data-id="t2"] td.c-pos');
      const target = await centre(page, '#order tr[data-id="t1"]');
      // Clear of the edges, where a drag scrolls the page.
      expect(handle.y).toBeLessThan(844 - 60);
      // While the finger is down: the row is marked as dragged and the drop line shows above t1.
      await touchDrag(cdp, handle.x, handle.y, handle.x + 30, target.top + target.height * 0.25, 12, async () => {
        expect(await page.getAttribute('#order tr[data-id="t2"]', 'class')).toContain('dragging');
        expect(await page.getAttribute('#order tr[data-id="t1"]', 'class')).toContain('drop-before');
        await page.screenshot({ path: path.join(ARTIFACTS, 'console-touch-dragging-390x844.png') });
      });
      await expect.poll(ids, MOMENT).toEqual(['t2', 't1', 't3', 't4', 't5', 't6']);
      await expect.poll(shownIds, MOMENT).toEqual(['t2', 't1', 't3', 't4', 't5', 't6']);
      // The page's request event travels through Playwright after the server has already moved the row.
      await expect.poll(() => posts.length, MOMENT).toBe(1);
      expect(posts).toEqual(['/timer/t2/move {"to":0}']);
      const types = await page.evaluate(() => (window as unknown as { pointerTypes: string[] }).pointerTypes);
      expect(types).toContain('touch');
      expect(types).not.toContain('mouse');
      // No drag marks left behind.
      expect(await page.$$eval('#order tr.dragging, #order tr.drop-before, #order tr.drop-after', (rows) => rows.length)).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-touch-drag-390x844.png') });

      // Further down than the screen shows: held at the bottom edge, the page scrolls under the
      // finger; let go higher up, the row lands among the rows scrolled into view.
      await page.$eval('#order tr[data-id="t1"]', (r) => r.scrollIntoView({ block: 'start' }));
      const lower = await centre(page, '#order tr[data-id="t1"] td.c-pos');
      const scrolledFrom = await page.evaluate(() => window.scrollY);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: lower.x, y: lower.y }] });
      for (let i = 1; i <= 8; i += 1) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: lower.x, y: lower.y + ((832 - lower.y) * i) / 8 }] });
      }
      await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 8_000, interval: 50 }).toBeGreaterThan(scrolledFrom + 700);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: lower.x, y: 500 }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expect.poll(async () => (await ids()).indexOf('t1'), MOMENT).toBeGreaterThanOrEqual(2);
      await expect.poll(() => posts.length, MOMENT).toBe(2);
      expect(posts).toHaveLength(2);
      expect(posts[1]).toMatch(/^\/timer\/t1\/move \{"to":[2-5]\}$/);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  }, 60_000);
});
