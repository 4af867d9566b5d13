// Issue 33, part 4: the console's screen control. On a box with a screen over HDMI-CEC it
// shows what the screen last answered (pushed, never guessed from a press) and On /
// Standby / Make active, each sent to /api/v1/{key}/screen/*; a screen that does not
// acknowledge is said in words beside the control. On a box without a screen nothing of it
// shows. The screen here is a ScreenControl that reports to the room as the CEC adapter
// does. Screenshots: test-artifacts/console-screen-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RoomService } from '../../src/app/room-service.js';
import type { ScreenAnswer, ScreenControl, ScreenRequest } from '../../src/domain/screen.js';
import { createRoom } from '../../src/domain/room.js';
import { saveScreenshot } from './browser-kit.js';
import { openConsole, startControlServer, useBrowserRig } from './control-server.js';
import { contrastFaults, spillFaults } from './layout-kit.js';

const MOMENT = { timeout: 5_000, interval: 40 };
const rig = useBrowserRig();

/** A TV on the bus, as the CEC adapter sees it: it answers, and its power goes to the room. */
function fakeScreen(service: RoomService, asked: ScreenRequest[], acknowledges: () => boolean): ScreenControl {
  service.dispatch({ type: 'screen.report', report: { power: 'standby', problem: null } }, 'cec');
  return {
    request: async (what): Promise<ScreenAnswer> => {
      asked.push(what);
      if (!acknowledges()) {
        const error = 'the screen did not acknowledge Standby (Tx, Not Acknowledged (4), Max Retries): is it connected, on its mains, with CEC switched on in its menu?';
        service.dispatch({ type: 'screen.report', report: { power: 'unknown', problem: error } }, 'cec');
        return { ok: false, status: 502, error };
      }
      const power = what === 'standby' ? 'standby' : 'on';
      service.dispatch({ type: 'screen.report', report: { power, problem: null } }, 'cec');
      return { ok: true, report: { power, problem: null } };
    },
  };
}

async function powerShown(page: Page, words: string): Promise<void> {
  await page.waitForFunction(
    (w) => {
      const el = document.getElementById('screen-power');
      return el !== null && el.getClientRects().length > 0 && el.innerText.trim() === w;
    },
    words,
    MOMENT,
  );
}

describe('the screen control on the console (issue 33)', { timeout: 90_000 }, () => {
  it('is not there on a box without a screen', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const opened = await openConsole(context, server.controlUrl);
      expect(await opened.page.evaluate(() => (document.getElementById('screen-control') as HTMLElement).getClientRects().length)).toBe(0);
      expect((await server.state()).screen).toBeNull();
      expect(opened.problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });

  it('shows what the screen answered, and sends on, standby and make active; a screen that does not acknowledge is said', async () => {
    const asked: ScreenRequest[] = [];
    let acknowledges = true;
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1'), screen: (service) => fakeScreen(service, asked, () => acknowledges) });
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const opened = await openConsole(context, server.controlUrl);
      const page = opened.page;
      await powerShown(page, 'Screen: standby');
      await page.click('#screen-on');
      await powerShown(page, 'Screen: on');
      expect(await contrastFaults(page, '#screen-control')).toEqual([]);
      expect(await spillFaults(page, '#transport')).toEqual([]);
      await saveScreenshot(page, 'console-screen-on-1280x720');
      await page.click('#screen-standby');
      await powerShown(page, 'Screen: standby');
      await page.click('#screen-active');
      await powerShown(page, 'Screen: on');
      expect(asked).toEqual(['on', 'standby', 'active']);

      acknowledges = false;
      await page.click('#screen-standby');
      await powerShown(page, 'Screen: not answering');
      await page.waitForFunction(() => (document.getElementById('notice-text')?.innerText ?? '').includes('did not acknowledge Standby'), undefined, MOMENT);
      expect(await page.evaluate(() => document.getElementById('screen-power')?.title ?? '')).toContain('is it connected');
      expect(await contrastFaults(page, '#screen-control')).toEqual([]);
      await saveScreenshot(page, 'console-screen-not-answering-1280x720');

      // A phone: the control wraps inside the transport panel, nothing spills.
      const phone = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
      try {
        const small = await openConsole(phone, server.controlUrl);
        await powerShown(small.page, 'Screen: not answering');
        expect(await spillFaults(small.page, '#transport')).toEqual([]);
        await saveScreenshot(small.page, 'console-screen-390x844');
        expect(small.problems).toEqual([]);
      } finally {
        await phone.close();
      }
      expect(opened.problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
