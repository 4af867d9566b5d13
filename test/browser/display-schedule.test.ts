// The display's schedule elements and the aux timer (issue 29) in a real browser
// against a real server: over/under and "show ends at" read what the running
// order's numbers make (worked out here from the room's own times, not by the
// page's code), none of them, nor the aux's area, is ever over the time on any
// layout at 1920x1080 and 390x844, and a `?show=aux` link shows the aux as its
// main time, counting. Screenshots go to test-artifacts/display-schedule-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DisplayLayout } from '../../src/domain/types.js';
import { overlaps, saveScreenshot, watchProblems, type Box } from './browser-kit.js';
import { useDisplayRig, VIEWER_KEY, untilDisplayDrawn } from './live-server.js';

const rig = useDisplayRig();

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;
const LAYOUTS: readonly DisplayLayout[] = ['full', 'minimal', 'lowerThird'];

const MINUTE = 60_000;
/** The running order: the opening, then two more. */
const DURATIONS = [10 * MINUTE, 20 * MINUTE, 15 * MINUTE] as const;
/** How late the show started: planned this long before the opening was started. */
const LATE_MS = 4 * MINUTE + 20_000;
/** Not the browser's zone (UTC) and not a whole hour off it: the end must be the room's time of day. */
const ROOM_ZONE = 'Asia/Kolkata';
const OVERRUN = '#ff2d55';

/** `m:ss` from whole seconds, written out here rather than taken from the page's code. */
function minutesSeconds(totalSeconds: number): string {
  const m = Math.floor(totalSeconds / 60);
  const s = totalSeconds % 60;
  return `${m}:${s < 10 ? '0' : ''}${s}`;
}

/** `HH:MM` of an instant in a zone, by the runtime's own zone data. */
function hoursMinutesIn(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).formatToParts(new Date(ms));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('hour') === '24' ? '00' : part('hour')}:${part('minute')}`;
}

/** A fresh show: three timers alone in the running order, nothing run, the planned start `plannedFromNow` ms from now; the opening started. */
async function startShow(plannedFromNow: number): Promise<{ plannedStart: number; endAt: number }> {
  const server = rig.server;
  const ids = DURATIONS.map(() => `s${Math.random().toString(36).slice(2, 8)}`);
  await server.run(
    ...ids.map((id, i) => ({ type: 'timer.create' as const, id, fields: { label: ['Opening', 'Keynote', 'Panel'][i] ?? '', speaker: 'Ada Lovelace', duration: DURATIONS[i] ?? MINUTE, warnAt: MINUTE } })),
  );
  for (const timer of server.service.room.timers) if (!ids.includes(timer.id)) await server.run({ type: 'timer.delete', id: timer.id });
  const plannedStart = Date.now() + plannedFromNow;
  await server.run(
    { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false, timeZone: ROOM_ZONE, clockFormat: '24h', plannedStart },
    { type: 'show.reset' },
    { type: 'start' },
  );
  const snapshot = server.service.snapshot();
  expect(snapshot.activeTimerId).toBe(ids[0]);
  if (snapshot.endAt === null) throw new Error('the opening is not running');
  return { plannedStart, endAt: snapshot.endAt };
}

async function openScreen(size: { width: number; height: number }, path: string): Promise<{ page: Page; problems: string[] }> {
  const context = await rig.browser.newContext({ viewport: size, timezoneId: 'UTC' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(rig.server.url(path));
  await untilDisplayDrawn(page);
  return { page, problems };
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not shown`);
  return box;
}

function inside(a: Box, size: { width: number; height: number }): boolean {
  return a.x >= -0.5 && a.y >= -0.5 && a.x + a.width <= size.width + 0.5 && a.y + a.height <= size.height + 0.5;
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

describe('over/under and the show’s end on the display', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await rig.server.run({
      type: 'display.set',
      display: { layout: 'full', overrunColour: OVERRUN, showOverUnder: true, showShowEnd: true, showAux: true, showTimeOfDay: true, showNext: true },
    });
  });
  afterAll(async () => {
    await rig.server.run({ type: 'display.set', display: { layout: 'full', showOverUnder: false, showShowEnd: false, showAux: false } });
  });

  it('shows how far behind the show runs and when it ends, from its planned start, in the room’s zone', async () => {
    const show = await startShow(-LATE_MS);
    // Running, the opening ends at endAt: its planned end was plannedStart + its duration.
    const offsetMs = show.endAt - (show.plannedStart + DURATIONS[0]);
    const lateSeconds = Math.round(offsetMs / 1000);
    expect(Math.abs(lateSeconds * 1000 - LATE_MS)).toBeLessThan(2_000);
    const behind = `${minutesSeconds(lateSeconds)} behind`;
    // The rest follow back to back: the show ends when the last of them does.
    const ends = `Ends ${hoursMinutesIn(show.endAt + DURATIONS[1] + DURATIONS[2], ROOM_ZONE)}`;

    const { page, problems } = await openScreen({ width: 1920, height: 1080 }, `/view/${VIEWER_KEY}`);
    try {
      await page.waitForFunction(() => !(document.getElementById('over-under')?.hidden ?? true));
      expect(await text(page, '#over-under')).toBe(behind);
      expect(await text(page, '#show-end')).toBe(ends);
      // Behind reads in the room's overrun colour.
      expect(await page.$eval('#over-under', (el) => getComputedStyle(el).color)).toBe('rgb(255, 45, 85)');
      // It follows the clock, not only events: a running opening keeps the offset where it is, a second later too.
      await page.waitForTimeout(1_200);
      expect(await text(page, '#over-under')).toBe(behind);
      await saveScreenshot(page, 'display-schedule-behind-1920x1080');

      // Paused, the opening ends later with every second: the offset grows with the clock, with no event.
      await rig.server.run({ type: 'pause' });
      const pausedAt = rig.server.service.snapshot();
      const remaining = pausedAt.remainingAtPause ?? 0;
      const shown = await page.waitForFunction(
        (before) => {
          const now = document.getElementById('over-under')?.textContent ?? '';
          return now !== before ? now : false;
        },
        behind,
        { timeout: 5_000 },
      );
      // What it reads now: the opening's end is now + what it has left, against the same planned end.
      const grown = String(await shown.jsonValue());
      const wallNow = Date.now();
      const expectedSeconds = Math.round((wallNow + remaining - (show.plannedStart + DURATIONS[0])) / 1000);
      const match = /^(\d+):(\d\d) behind$/.exec(grown);
      expect(match, grown).not.toBeNull();
      const grownSeconds = Number(match?.[1]) * 60 + Number(match?.[2]);
      expect(grownSeconds).toBeGreaterThan(lateSeconds);
      expect(Math.abs(grownSeconds - expectedSeconds)).toBeLessThanOrEqual(1);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('shows a show that started early as ahead, in green', async () => {
    const show = await startShow(90_000);
    const aheadSeconds = Math.round((show.plannedStart + DURATIONS[0] - show.endAt) / 1000);
    const { page } = await openScreen({ width: 1920, height: 1080 }, `/view/${VIEWER_KEY}`);
    try {
      await page.waitForFunction(() => !(document.getElementById('over-under')?.hidden ?? true));
      expect(await text(page, '#over-under')).toBe(`${minutesSeconds(aheadSeconds)} ahead`);
      expect(await page.$eval('#over-under', (el) => getComputedStyle(el).color)).toBe('rgb(50, 215, 75)');
      await saveScreenshot(page, 'display-schedule-ahead-1920x1080');
    } finally {
      await page.context().close();
    }
  });

  for (const size of SIZES) {
    for (const layout of LAYOUTS) {
      const name = `${layout}-${size.width}x${size.height}`;
      it(`${name}: over/under, the show’s end and the aux are shown and never over the time`, async () => {
        await startShow(-LATE_MS);
        await rig.server.run(
          { type: 'aux.set', label: 'Changeover', duration: 5 * MINUTE, appearance: 'countdown' },
          { type: 'aux.start' },
          { type: 'onair.set', on: true },
          { type: 'message.set', message: { text: 'Speaker to the stage please', color: 'white', bold: false, flash: false } },
        );
        const { page, problems } = await openScreen(size, `/view/${VIEWER_KEY}?layout=${layout}`);
        try {
          await page.waitForFunction(() => !(document.getElementById('aux')?.hidden ?? true) && !(document.getElementById('show-end')?.hidden ?? true));
          const time = await boxOf(page, '#time');
          expect(inside(time, size), `time ${JSON.stringify(time)}`).toBe(true);
          expect(time.height).toBeGreaterThan(size.height * 0.05);
          for (const selector of ['#over-under', '#show-end', '#aux']) {
            const box = await boxOf(page, selector);
            expect(box.width).toBeGreaterThan(0);
            expect(inside(box, size), `${selector} ${JSON.stringify(box)}`).toBe(true);
            expect(overlaps(box, time), `${selector} ${JSON.stringify(box)} time ${JSON.stringify(time)}`).toBe(false);
          }
          expect(await text(page, '#aux-label')).toBe('Changeover');
          expect(await text(page, '#aux-time')).toMatch(/^4:5\d$|^5:00$/);
          await saveScreenshot(page, `display-schedule-${name}`);
          expect(problems).toEqual([]);
        } finally {
          await page.context().close();
          await rig.server.run({ type: 'aux.reset' }, { type: 'message.clear' }, { type: 'onair.set', on: false });
        }
      });
    }
  }
});

describe('a screen showing the aux timer as its main time (?show=aux)', { timeout: 60_000 }, () => {
  it('shows the aux’s label and time, counting, while the running order’s timer runs on', async () => {
    await startShow(0);
    await rig.server.run(
      { type: 'display.set', display: { layout: 'full', showAux: true, showOverUnder: false, showShowEnd: false } },
      { type: 'aux.set', label: 'Q&A', duration: 2 * MINUTE, appearance: 'countdown' },
      { type: 'aux.start' },
    );
    const { page, problems } = await openScreen({ width: 1920, height: 1080 }, `/view/${VIEWER_KEY}?show=aux`);
    try {
      await page.waitForFunction(() => document.getElementById('label')?.textContent === 'Q&A');
      // The aux's time as the server has it: under two minutes, the running order's ten far away.
      const first = await text(page, '#time');
      const aux = rig.server.service.snapshot().aux;
      const seconds = Math.ceil(aux.remaining / 1000);
      expect([minutesSeconds(seconds), minutesSeconds(seconds + 1)]).toContain(first);
      // It counts: a later second shows.
      await page.waitForFunction((before) => document.getElementById('time')?.textContent !== before, first, { timeout: 3_000 });
      const second = await text(page, '#time');
      expect(second < first).toBe(true);
      // Its small area would show the same again: not on this screen.
      expect(await page.isVisible('#aux')).toBe(false);
      await saveScreenshot(page, 'display-schedule-show-aux-1920x1080');

      // A count-up shows the time since it started; paused, it is held (dimmed and marked).
      await rig.server.run({ type: 'aux.set', appearance: 'countup' });
      await page.waitForFunction(() => /^[01]:\d\d$/.test(document.getElementById('time')?.textContent ?? '') && (document.getElementById('time')?.textContent ?? '') < '1:30');
      await rig.server.run({ type: 'aux.pause' });
      await page.waitForFunction(() => document.getElementById('mark')?.textContent === 'PAUSED');
      const held = rig.server.service.snapshot().aux;
      expect(await text(page, '#time')).toBe(minutesSeconds(Math.floor((held.duration - held.remaining) / 1000)));
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
      await rig.server.run({ type: 'aux.reset' }, { type: 'display.set', display: { showAux: false } });
    }
  });
});
