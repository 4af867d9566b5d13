// Issue 31, the console's layout pass: the control console at 1920x1080, 1280x720,
// 1024x768, 390x844 and 844x390, in the states a show has (a fresh room, eight timers
// with long labels, running, paused, a message showing, blackout, ON AIR, a delete
// asking "Delete?", the Display and Settings panels in view). In each: no element
// spills out of what holds it (spillFaults), no text is cut short (cutTexts), and every
// text has WCAG AA contrast against what is behind it (contrastFaults). Screenshots:
// test-artifacts/screens-console-<size>-<state>.png.
//
// Left out, on purpose: the live preview (#preview) is the display's own markup drawn by
// the display's stylesheet, checked by the display's tests; and disabled controls, which
// WCAG 1.4.3 exempts from contrast (inactive components) and the console dims on purpose.
// spillFaults (layout-kit.ts) measures in window coordinates against the page from 0, so
// it runs with the page scrolled to its top.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { saveArtifact, saveScreenshot } from './browser-kit.js';
import { AUDIENCE_KEY, openConsole, roomWithTimers, startControlServer, useBrowserRig, type ControlServer } from './control-server.js';
import { contrastFaults, cutTexts, SCREEN_SIZES, sizeName, spillFaults } from './layout-kit.js';

const MOMENT = { timeout: 5_000, interval: 40 };

const rig = useBrowserRig();

const LABELS = [
  'Doors & walk-in music',
  'Welcome and housekeeping',
  'Keynote: The Future of Events',
  'Panel: hybrid audiences',
  'Coffee break',
  'Lightning talks',
  'Closing remarks and thanks to everyone who made this happen',
  'Drinks & networking',
];

function eightLongTimers(): Room {
  return roomWithTimers(LABELS, (i) => ({ speaker: i % 2 === 0 ? 'Maria Lopez (host)' : 'Dr. Oluwaseun Adeyemi-Hartmann', duration: 600_000 + i * 60_000 }));
}

const MESSAGE = 'Please could everyone with a lanyard make their way backstage and return to the green room before the next session begins, thank you';

/** What the layout checks found, in words a failing test prints. */
async function layoutFaults(page: Page): Promise<{ spill: unknown[]; cut: unknown[]; contrast: unknown[] }> {
  // spillFaults compares boxes in window coordinates with the page's box from 0: it is run
  // with the page at its top (each state's screenshot was taken where that state is seen).
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.evaluate(() => window.scrollTo(0, 0));
  const spill = await spillFaults(page, 'body', { tolerance: 1, ignore: '#preview' });
  await page.evaluate((y) => window.scrollTo(0, y), scrolled);
  const cut = (await cutTexts(page, 'body')).filter((c) => !c.where.startsWith('div#pv-') && !c.where.startsWith('span#pv-'));
  // Out of the contrast check only: the preview and disabled controls (see the file's head).
  await page.evaluate(() => {
    const out = Array.from(document.querySelectorAll<HTMLElement>('#preview, button:disabled'));
    for (const node of out) node.setAttribute('data-contrast-out', node.style.visibility);
    for (const node of out) node.style.visibility = 'hidden';
  });
  const contrast = await contrastFaults(page, 'body');
  await page.evaluate(() => {
    for (const node of Array.from(document.querySelectorAll<HTMLElement>('[data-contrast-out]'))) {
      node.style.visibility = node.getAttribute('data-contrast-out') ?? '';
      node.removeAttribute('data-contrast-out');
    }
  });
  return { spill, cut, contrast };
}

async function check(page: Page, size: string, state: string, found: Record<string, unknown>): Promise<void> {
  await saveScreenshot(page, `screens-console-${size}-${state}`);
  const faults = await layoutFaults(page);
  if (faults.spill.length + faults.cut.length + faults.contrast.length > 0) found[`${size} ${state}`] = faults;
}

const scrollTo = (page: Page, selector: string): Promise<void> =>
  page.$eval(selector, (node) => {
    node.scrollIntoView({ block: 'start' });
  });

describe('the console at every size and state (issue 31, layout pass)', { timeout: 180_000 }, () => {
  for (const size of SCREEN_SIZES) {
    const name = sizeName(size);
    it(`lays out whole, uncut and readable at ${name}`, async () => {
      const found: Record<string, unknown> = {};
      const empty = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
      const context = await rig.browser.newContext({ viewport: size, ...(size.width < 600 ? { isMobile: true, hasTouch: true } : {}) });
      let server: ControlServer | undefined;
      try {
        const fresh = await openConsole(context, empty.controlUrl);
        await check(fresh.page, name, 'empty', found);
        await fresh.page.close();
        await empty.close();

        server = await startControlServer({ pagesDir: rig.pagesDir, room: eightLongTimers() });
        const opened = await openConsole(context, server.controlUrl);
        const page = opened.page;
        const seq = async (): Promise<number> => (await server?.state())?.seq ?? 0;
        const shownAfter = async (command: () => Promise<unknown>): Promise<void> => {
          await command();
          const after = await seq();
          await page.waitForFunction((s) => Number(document.body.getAttribute('data-seq')) >= s, after, MOMENT);
        };
        await check(page, name, 'order', found);
        await shownAfter(() => (server as ControlServer).api('/start'));
        await check(page, name, 'running', found);
        await shownAfter(() => (server as ControlServer).api('/adjust', { ms: 60_000 }));
        await shownAfter(() => (server as ControlServer).api('/pause'));
        await check(page, name, 'paused', found);
        await shownAfter(() => (server as ControlServer).api('/message/set', { text: MESSAGE, color: 'red', bold: true }));
        await page.fill('#msg-text', MESSAGE);
        await scrollTo(page, '#msg-text');
        await check(page, name, 'message', found);
        await shownAfter(() => (server as ControlServer).api('/blackout', { on: '1' }));
        await page.evaluate(() => window.scrollTo(0, 0));
        await check(page, name, 'blackout', found);
        await shownAfter(() => (server as ControlServer).api('/blackout', { on: '0' }));
        await shownAfter(() => (server as ControlServer).api('/onair', { on: '1' }));
        await check(page, name, 'onair', found);
        // A question from the audience: the header's badge and the panel's count appear.
        const asked = await fetch(`${server.base}/ask/${AUDIENCE_KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'Will the slides be shared after the keynote?', name: 'Ada from row 3' }) });
        expect(asked.status).toBe(201);
        await page.waitForFunction(() => document.getElementById('questions-badge')?.hidden === false, undefined, MOMENT);
        await page.evaluate(() => window.scrollTo(0, 0));
        await check(page, name, 'question-badge', found);
        await scrollTo(page, '#h-questions');
        await check(page, name, 'questions', found);
        await page.locator('#order tr[data-id="t7"] button.delete').scrollIntoViewIfNeeded();
        await page.click('#order tr[data-id="t7"] button.delete');
        await page.waitForFunction(() => document.querySelector('#order tr[data-id="t7"] button.delete')?.textContent === 'Delete?', undefined, MOMENT);
        await check(page, name, 'delete-confirm', found);
        await scrollTo(page, '#display-panel');
        await check(page, name, 'display-panel', found);
        await scrollTo(page, '#h-settings');
        await check(page, name, 'settings', found);
        expect(opened.problems).toEqual([]);
        expect(fresh.problems).toEqual([]);
        expect(found).toEqual({});
      } finally {
        // What was found (nothing, when it passes), for reading beside the screenshots.
        saveArtifact(`screens-console-${name}-faults.json`, found);
        await context.close();
        await server?.close();
      }
    });
  }
});
