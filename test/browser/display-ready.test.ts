// READY or PAUSED on the screens (issue 31, finding 1): READY means the timer has
// not run since it was made active or set back to its duration, whatever the time
// left. Start, +1 min, pause used to read READY (more than the duration left);
// the kiosk and the viewer now follow the box's `started`. Screenshots:
// test-artifacts/display-ready-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/domain/types.js';
import { saveScreenshot } from './browser-kit.js';
import { useDisplayRig, VIEWER_KEY } from './live-server.js';

const rig = useDisplayRig();

async function open(path: string): Promise<Page> {
  const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 }, timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto(rig.server.url(path));
  await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
  return page;
}

/** The held mark both screens show, '' while running. */
const markOf = (page: Page) => page.evaluate(() => (document.getElementById('mark')?.hidden === false ? (document.getElementById('mark')?.textContent ?? '') : ''));

describe('READY until the timer runs, PAUSED after, on the kiosk and the viewer', () => {
  it('follows start, adjust both ways, pause, reset, select and next', async () => {
    const a = `R${Math.random().toString(36).slice(2, 8)}`;
    const b = `${a}b`;
    await rig.server.run(
      { type: 'message.clear' },
      { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false },
      { type: 'timer.create', id: a, fields: { label: 'Keynote', duration: 45 * 60_000 } },
      { type: 'timer.create', id: b, fields: { label: 'Panel', duration: 30 * 60_000 } },
      { type: 'timer.select', id: a },
    );
    const kiosk = await open('/display');
    const viewer = await open(`/view/${VIEWER_KEY}`);
    const steps: [string, Command[], string][] = [
      ['selected', [], 'READY'],
      ['adjusted-before-start', [{ type: 'adjust', ms: -60_000 }, { type: 'adjust', ms: 120_000 }], 'READY'],
      ['started-plus-minute-paused', [{ type: 'reset' }, { type: 'start' }, { type: 'adjust', ms: 60_000 }, { type: 'pause' }], 'PAUSED'],
      ['minus-minute', [{ type: 'adjust', ms: -60_000 }], 'PAUSED'],
      ['reset', [{ type: 'reset' }], 'READY'],
      ['run-again-paused', [{ type: 'start' }, { type: 'pause' }], 'PAUSED'],
      ['selected-again', [{ type: 'timer.select', id: a }], 'READY'],
      ['next-while-paused', [{ type: 'start' }, { type: 'pause' }, { type: 'next' }], 'READY'],
      ['next-started-paused', [{ type: 'start' }, { type: 'pause' }], 'PAUSED'],
    ];
    try {
      for (const [name, commands, expected] of steps) {
        if (commands.length > 0) await rig.server.run(...commands);
        for (const page of [kiosk, viewer]) await page.waitForFunction((want) => document.getElementById('mark')?.textContent === want && !document.getElementById('mark')?.hidden, expected);
        expect([await markOf(kiosk), await markOf(viewer)], name).toEqual([expected, expected]);
        await saveScreenshot(kiosk, `display-ready-${name}`);
      }
      // The case the show found: more than the timer's duration left, and PAUSED.
      await rig.server.run({ type: 'timer.select', id: a }, { type: 'start' }, { type: 'adjust', ms: 60_000 }, { type: 'pause' });
      await kiosk.waitForFunction(() => document.getElementById('mark')?.textContent === 'PAUSED');
      const digits = (await kiosk.textContent('#time')) ?? '';
      expect(digits.startsWith('45:5') || digits.startsWith('46:0')).toBe(true);
      await saveScreenshot(kiosk, 'display-ready-45-59-paused');
    } finally {
      await kiosk.context().close();
      await viewer.context().close();
    }
  });
});
