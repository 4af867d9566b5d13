// Issue 32, part 1: the console shows the tally beside ON AIR. A tally source reports
// through the one dispatch as the TSL and OBS adapters do (source `tally`); the
// indicator says whether the combined tally is on and which sources say so, and when
// ON AIR was set by hand against it, that ON AIR follows the tally at its next change.
// With no tally report (no tally configured) the console is as it was: no indicator,
// no tally words on the ON AIR button. Screenshots: test-artifacts/console-tally-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { TallySource } from '../../src/domain/types.js';
import type { Room } from '../../src/domain/types.js';
import { saveScreenshot } from './browser-kit.js';
import { openConsole, startControlServer, useBrowserRig, type ControlServer } from './control-server.js';
import { contrastFaults, spillFaults } from './layout-kit.js';

const MOMENT = { timeout: 5_000, interval: 40 };
const BY_HAND = 'ON AIR set by hand: follows the tally at its next change';

const rig = useBrowserRig();

function threeTimers(): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = Array.from({ length: 3 }, (_, i) => ({ ...first, id: `t${i + 1}`, label: `Segment ${i + 1}`, duration: 600_000 }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: 600_000 } };
}

/** A tally report as src/tally's adapters send it: through the one dispatch, source `tally`. */
function report(server: ControlServer, source: TallySource, on: boolean): void {
  const result = server.service.dispatch({ type: 'tally.set', source, on }, 'tally');
  expect(result.outcome.ok).toBe(true);
}

interface Shown {
  readonly visible: boolean;
  readonly text: string;
  readonly onAirPressed: string | null;
  readonly onAirTitle: string | null;
}

async function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const shows = (id: string): boolean => {
      const el = document.getElementById(id);
      return el !== null && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const onAir = document.getElementById('onair') as HTMLElement;
    const visible = shows('tally-pill');
    const words = ['tally-state', 'tally-sources', 'tally-by-hand'].filter(shows).map((id) => (document.getElementById(id) as HTMLElement).innerText);
    return {
      visible,
      text: words.join(' ').replace(/\s+/g, ' ').trim(),
      onAirPressed: onAir.getAttribute('aria-pressed'),
      onAirTitle: onAir.getAttribute('title'),
    };
  });
}

/** Waits until the console shows what `wanted` says (the push reaches it in a moment). */
async function waitShown(page: Page, wanted: { on: boolean; sources: string; byHand: boolean; pressed: boolean }): Promise<void> {
  await page.waitForFunction(
    (w) => {
      const shows = (id: string): boolean => {
        const el = document.getElementById(id);
        return el !== null && el.getClientRects().length > 0;
      };
      const onAir = document.getElementById('onair');
      if (onAir === null || !shows('tally-pill')) return false;
      const text = (id: string): string => ((document.getElementById(id) as HTMLElement).innerText ?? '').trim();
      const state = text('tally-state') === (w.on ? 'Tally ON' : 'Tally off');
      const sources = text('tally-sources') === w.sources;
      const byHand = shows('tally-by-hand') && text('tally-by-hand').indexOf('set by hand') >= 0;
      return state && sources && byHand === w.byHand && onAir.getAttribute('aria-pressed') === (w.pressed ? 'true' : 'false');
    },
    wanted,
    MOMENT,
  );
}

/** The indicator's box beside ON AIR's: to its right, and overlapping its line. */
async function besideOnAir(page: Page): Promise<{ right: boolean; sameLine: boolean }> {
  return page.evaluate(() => {
    const a = (document.getElementById('onair') as HTMLElement).getBoundingClientRect();
    const t = (document.getElementById('tally-pill') as HTMLElement).getBoundingClientRect();
    return { right: t.left >= a.right - 0.5, sameLine: t.top < a.bottom && t.bottom > a.top };
  });
}

describe('the tally beside ON AIR on the console (issue 32)', { timeout: 90_000 }, () => {
  it('shows nothing of tally while no source has reported', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: threeTimers() });
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const opened = await openConsole(context, server.controlUrl);
      const page = opened.page;
      await page.click('#onair');
      await page.waitForFunction(() => document.getElementById('onair')?.getAttribute('aria-pressed') === 'true', undefined, MOMENT);
      expect((await server.state()).tally).toBeNull();
      const now = await shown(page);
      expect(now.visible).toBe(false);
      expect(now.onAirTitle).toBeNull();
      expect(await page.evaluate(() => (document.getElementById('transport') as HTMLElement).innerText)).not.toMatch(/tally|set by hand/i);
      expect(opened.problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });

  it('follows TSL and OBS reports, says when ON AIR was set by hand, and reads at AA contrast on a desk and a phone', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: threeTimers() });
    const desk = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const opened = await openConsole(desk, server.controlUrl);
      const page = opened.page;
      expect((await shown(page)).visible).toBe(false);

      // The vision mixer puts this camera on air: the lamp follows, nobody presses anything.
      report(server, 'tsl', true);
      await waitShown(page, { on: true, sources: 'TSL', byHand: false, pressed: true });
      expect(await besideOnAir(page)).toEqual({ right: true, sameLine: true });
      expect((await shown(page)).onAirTitle ?? '').toMatch(/follows the tally/i);
      expect(await contrastFaults(page, '#tally')).toEqual([]);
      expect(await spillFaults(page, '#transport')).toEqual([]);
      await saveScreenshot(page, 'console-tally-on-1280x720');

      // A hand on the ON AIR button overrides the tally...
      await page.click('#onair');
      await waitShown(page, { on: true, sources: 'TSL', byHand: true, pressed: false });
      expect((await shown(page)).text).toContain(BY_HAND);
      expect(await contrastFaults(page, '#tally')).toEqual([]);
      expect(await spillFaults(page, '#transport')).toEqual([]);
      await saveScreenshot(page, 'console-tally-by-hand-1280x720');

      // ...through a report that leaves the combined tally on (OBS joins: still on air)...
      report(server, 'obs', true);
      await waitShown(page, { on: true, sources: 'TSL + OBS', byHand: true, pressed: false });
      expect((await server.state()).onAir).toBe(false);

      // ...until the combined tally changes: both off, ON AIR follows, the line goes.
      report(server, 'tsl', false);
      await waitShown(page, { on: true, sources: 'OBS', byHand: true, pressed: false });
      report(server, 'obs', false);
      await waitShown(page, { on: false, sources: 'TSL + OBS', byHand: false, pressed: false });
      expect(await contrastFaults(page, '#tally')).toEqual([]);
      await saveScreenshot(page, 'console-tally-off-1280x720');

      // ON AIR by hand while the tally is off: said too, and the next change (on) takes over.
      await page.click('#onair');
      await waitShown(page, { on: false, sources: 'TSL + OBS', byHand: true, pressed: true });
      report(server, 'tsl', true);
      await waitShown(page, { on: true, sources: 'TSL', byHand: false, pressed: true });
      expect(opened.problems).toEqual([]);

      // A phone: ON AIR scrolls below the pinned band, the indicator beside it.
      await page.click('#onair');
      await waitShown(page, { on: true, sources: 'TSL', byHand: true, pressed: false });
      const phone = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
      try {
        const small = await openConsole(phone, server.controlUrl);
        const p = small.page;
        await waitShown(p, { on: true, sources: 'TSL', byHand: true, pressed: false });
        await p.evaluate(() => (document.getElementById('onair') as HTMLElement).scrollIntoView({ block: 'center' }));
        const onPhone = await p.evaluate(() => {
          const a = (document.getElementById('onair') as HTMLElement).getBoundingClientRect();
          const t = (document.getElementById('tally-pill') as HTMLElement).getBoundingClientRect();
          // Beside ON AIR: to its right on its line, or the next line under it.
          return { near: t.top < a.bottom + 60 && t.bottom > a.top, inPage: t.left >= 0 && t.right <= document.documentElement.clientWidth };
        });
        expect(onPhone).toEqual({ near: true, inPage: true });
        expect(await contrastFaults(p, '#tally')).toEqual([]);
        expect(await spillFaults(p, '#transport-more')).toEqual([]);
        await saveScreenshot(p, 'console-tally-by-hand-390x844');
        report(server, 'tsl', false);
        await waitShown(p, { on: false, sources: 'TSL + OBS', byHand: false, pressed: false });
        await saveScreenshot(p, 'console-tally-off-390x844');
        report(server, 'obs', true);
        await waitShown(p, { on: true, sources: 'OBS', byHand: false, pressed: true });
        expect(await contrastFaults(p, '#tally')).toEqual([]);
        await saveScreenshot(p, 'console-tally-on-390x844');
        expect(small.problems).toEqual([]);
      } finally {
        await phone.close();
      }
    } finally {
      await desk.close();
      await server.close();
    }
  });
});
