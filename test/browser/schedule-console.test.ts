// Issue 29 in the console, in a real browser against a real server: the show's
// planned start set in the settings panel, the header line ("Show ends 17:42 ·
// 4:20 behind") and the running order's planned and actual/projected starts
// following a show that runs late, the header moving with the clock between
// events, the show's reset (two presses), the aux timer's panel and the display
// switches of the schedule's elements. The show is made late by a planned start in
// the past, not by waiting; every expected time is worked out here from the
// order's durations and the server's own endAt and recorded starts.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatShortTimeOfDay, type TimeOfDaySettings } from '../../src/client/time-of-day.js';
import { formatDurationText, parseDurationText } from '../../src/domain/duration-text.js';
import { createRoom } from '../../src/domain/room.js';
import { offsetText } from '../../src/domain/schedule-text.js';
import type { Room } from '../../src/domain/types.js';
import { parseInstantText } from '../../src/pages/control/time-of-day-text.js';
import { ARTIFACTS } from './browser-kit.js';
import { startControlServer, useBrowserRig } from './control-server.js';

const MOMENT = { timeout: 5_000, interval: 40 };
const ZONE: TimeOfDaySettings = { timeZone: 'Europe/Berlin', clockFormat: '24h' };
const MIN = 60_000;
/** Eight timers; the sixth has a hard start (set per test, hours ahead, so it never starts by itself here). */
const DURATIONS = [5 * MIN, 10 * MIN, 15 * MIN, 5 * MIN, 20 * MIN, 10 * MIN, 5 * MIN, 10 * MIN] as const;
const HARD = 5;
const IDS = DURATIONS.map((_, i) => `t${i + 1}`);

const rig = useBrowserRig();

function showRoom(hardStart: number): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = DURATIONS.map((duration, i) => ({ ...first, id: `t${i + 1}`, label: `Item ${i + 1}`, duration, scheduledAt: i === HARD ? hardStart : null }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: DURATIONS[0] }, settings: { ...base.settings, timeZone: ZONE.timeZone } };
}

const at = (ms: number): string => formatShortTimeOfDay(ms, ZONE);
const text = async (page: Page, selector: string): Promise<string> => ((await page.textContent(selector)) ?? '').trim();
const cell = (id: string, which: 'planned' | 'start'): string => `#order tr[data-id="${id}"] td.c-${which} span`;
/** The offset the header line states, in ms (positive behind), or null when it states none. */
function headerOffset(line: string): number | null {
  const m = / · (\S+) (behind|ahead)$/.exec(line);
  if (m === null) return line.endsWith(' · on time') ? 0 : null;
  const ms = parseDurationText(m[1] as string);
  if (ms === null) throw new Error(`the header's offset "${m[1]}" is not a duration`);
  return m[2] === 'behind' ? ms : -ms;
}

describe('console: the schedule of a running show', { timeout: 90_000 }, () => {
  it('shows planned and projected starts, the projected end and the offset as the show runs late, and runs the aux timer', async () => {
    const startedAt = Date.now();
    // A whole minute half an hour ago (Berlin's offset is whole hours): typed as a time of day.
    const planned = Math.floor((startedAt - 30 * MIN) / MIN) * MIN;
    const hardStart = planned + 4 * 60 * MIN;
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: showRoom(hardStart) });
    // The device's zone differs from the room's: every time of day must be the room's.
    const context = await rig.browser.newContext({ viewport: { width: 1440, height: 1100 }, timezoneId: 'America/Los_Angeles' });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
      });
      await page.goto(server.controlUrl);
      await page.waitForSelector('#connection.live');
      await page.waitForSelector('body[data-seq]');

      // No planned start: no offset, the planned column knows only the hard start and what follows it.
      const notBegun = await server.state();
      expect(notBegun.settings.plannedStart).toBeNull();
      await expect.poll(() => text(page, '#show-line'), MOMENT).toBe(`Show ends ${at(hardStart + DURATIONS[5] + DURATIONS[6] + DURATIONS[7])}`);
      await expect.poll(() => text(page, cell('t1', 'planned')), MOMENT).toBe('—');
      expect(await text(page, cell('t6', 'planned'))).toBe(at(hardStart));
      expect(await text(page, cell('t7', 'planned'))).toBe(at(hardStart + DURATIONS[5]));

      // The planned start, typed in the room's zone: the nearest such time, half an hour ago.
      const typed = at(planned);
      expect(parseInstantText(typed, Date.now(), ZONE.timeZone, 'nearest')).toBe(planned);
      await page.fill('#planned-start', typed);
      await page.press('#planned-start', 'Enter');
      await expect.poll(async () => (await server.state()).settings.plannedStart, MOMENT).toBe(planned);
      await expect.poll(() => page.inputValue('#planned-start'), MOMENT).toBe(typed);

      // Every planned start, from the durations and the hard start.
      const plannedStarts: number[] = [];
      let next = planned;
      DURATIONS.forEach((duration, i) => {
        const start = i === HARD ? hardStart : next;
        plannedStarts.push(start);
        next = start + duration;
      });
      const plannedEnd = next;
      const total = DURATIONS.reduce((sum, d) => sum + d, 0);
      await expect.poll(() => text(page, '#order-total'), MOMENT).toBe(`Running time ${formatDurationText(total)} · planned ${at(planned)} to ${at(plannedEnd)}`);

      // Start, then on to the second timer at once, running.
      await page.click('#start-pause');
      await expect.poll(async () => (await server.state()).running, MOMENT).toBe(true);
      await page.click('#next');
      await expect.poll(async () => (await server.state()).activeTimerId, MOMENT).toBe('t2');
      const running = await server.state();
      expect(running.running).toBe(true);
      const endAt = running.endAt as number;
      const actual = (id: string): number => {
        const found = running.actuals.find((a) => a.timerId === id);
        if (found === undefined) throw new Error(`no actual start recorded for ${id}`);
        return found.startedAt;
      };
      // Running, the offset stands still: the active timer ends at endAt, planned at planned + d1 + d2.
      const lateMs = endAt - (planned + DURATIONS[0] + DURATIONS[1]);
      // Half an hour late to begin, and the first timer cut short by its five minutes.
      expect(lateMs).toBeGreaterThan(24 * MIN);
      // Projected: each one after the end of the one before, never before its hard start.
      const projected: number[] = [];
      let from = endAt;
      for (let i = 2; i < DURATIONS.length; i += 1) {
        const start = i === HARD ? Math.max(from, hardStart) : from;
        projected[i] = start;
        from = start + (DURATIONS[i] as number);
      }
      await expect.poll(() => text(page, '#show-line'), MOMENT).toBe(`Show ends ${at(from)} · ${offsetText(lateMs)}`);
      expect(await text(page, '#show-line')).toMatch(/ behind$/);
      expect(await page.getAttribute('#show-line', 'class')).toContain('behind');
      for (const [i, id] of IDS.entries()) {
        expect(await text(page, cell(id, 'planned')), `planned start of ${id}`).toBe(at(plannedStarts[i] as number));
        if (i < 2) {
          expect(await text(page, cell(id, 'start')), `actual start of ${id}`).toBe(at(actual(id)));
          expect(await page.getAttribute(cell(id, 'start'), 'class')).toBe('start-actual');
        } else {
          expect(await text(page, cell(id, 'start')), `projected start of ${id}`).toBe(`~${at(projected[i] as number)}`);
          expect(await page.getAttribute(cell(id, 'start'), 'class')).toBe('start-projected');
        }
      }
      // Projected starts look unlike actual ones (italic), not only by their mark.
      const styles = await page.$eval(cell('t3', 'start'), (node) => getComputedStyle(node).fontStyle);
      expect(styles).toBe('italic');
      await page.screenshot({ path: path.join(ARTIFACTS, 'schedule-console.png'), fullPage: true });

      // Paused, the active timer's end moves with the clock, and so does the offset: the
      // header changes within two seconds with no event from the box.
      await page.click('#start-pause');
      await expect.poll(async () => (await server.state()).running, MOMENT).toBe(false);
      await expect.poll(async () => Number(await page.getAttribute('body', 'data-seq')), MOMENT).toBe((await server.state()).seq);
      const seq = await page.getAttribute('body', 'data-seq');
      const before = await text(page, '#show-line');
      await expect.poll(() => text(page, '#show-line'), { timeout: 2_500, interval: 50 }).not.toBe(before);
      expect(await page.getAttribute('body', 'data-seq')).toBe(seq);
      // And it says what the server's clock says, to the second: the active timer ends its remaining time from now.
      const paused = await server.state();
      const shownOffset = headerOffset(await text(page, '#show-line'));
      const expectedOffset = paused.serverNow + (paused.remainingAtPause as number) - (planned + DURATIONS[0] + DURATIONS[1]);
      expect(shownOffset).not.toBeNull();
      expect(Math.abs((shownOffset as number) - expectedOffset)).toBeLessThanOrEqual(2_000);

      // A planned start later than what happened: ahead.
      const later = planned + 2 * 60 * MIN;
      await page.fill('#planned-start', at(later));
      await page.press('#planned-start', 'Enter');
      await expect.poll(async () => (await server.state()).settings.plannedStart, MOMENT).toBe(later);
      await expect.poll(() => page.inputValue('#planned-start'), MOMENT).toBe(at(later));
      await expect.poll(() => text(page, '#show-line'), MOMENT).toMatch(/ ahead$/);
      expect(await page.getAttribute('#show-line', 'class')).toContain('ahead');

      // Not a time: said in words, nothing sent.
      await page.fill('#planned-start', 'after lunch');
      await page.press('#planned-start', 'Enter');
      await expect.poll(() => text(page, '#notice-text'), MOMENT).toContain('is not a time of day');
      expect((await server.state()).settings.plannedStart).toBe(later);

      // Cleared: the first actual start stands in for it.
      await page.click('#planned-start-clear');
      await expect.poll(async () => (await server.state()).settings.plannedStart, MOMENT).toBeNull();
      await expect.poll(() => page.inputValue('#planned-start'), MOMENT).toBe('');
      await expect.poll(() => text(page, cell('t1', 'planned')), MOMENT).toBe(at(actual('t1')));

      // Reset show: the first press only asks.
      await page.click('#show-reset');
      expect(await text(page, '#show-reset')).toBe('Reset the show? Press again');
      expect((await server.state()).actuals.length).toBe(2);
      await page.click('#show-reset');
      await expect.poll(async () => (await server.state()).actuals.length, MOMENT).toBe(0);
      expect((await server.state()).activeTimerId).toBe('t1');
      await expect.poll(() => text(page, cell('t2', 'start')), MOMENT).toMatch(/^~/);
      expect(await text(page, '#show-reset')).toBe('Reset show');

      // The aux timer: a duration as timers take one, start, its digits follow the clock, pause, count up, reset.
      await page.fill('#aux-duration', '2:00');
      await page.press('#aux-duration', 'Enter');
      await expect.poll(async () => (await server.state()).aux.duration, MOMENT).toBe(120_000);
      await expect.poll(() => text(page, '#aux-time'), MOMENT).toBe('2:00');
      await page.fill('#aux-label', 'Changeover');
      await page.press('#aux-label', 'Enter');
      await expect.poll(async () => (await server.state()).aux.label, MOMENT).toBe('Changeover');
      await page.click('#aux-start-pause');
      await expect.poll(async () => (await server.state()).aux.running, MOMENT).toBe(true);
      expect((await server.state()).running).toBe(false);
      await expect.poll(() => text(page, '#aux-start-pause'), MOMENT).toBe('Pause');
      await expect.poll(() => text(page, '#aux-time'), { timeout: 2_500, interval: 50 }).toBe('1:59');
      await page.click('#aux-start-pause');
      await expect.poll(async () => (await server.state()).aux.running, MOMENT).toBe(false);
      const auxPaused = (await server.state()).aux;
      await expect.poll(() => text(page, '#aux-time'), MOMENT).toBe(formatDurationText(Math.ceil((auxPaused.remainingAtPause as number) / 1000) * 1000));
      await page.click('button[data-aux-appearance="countup"]');
      await expect.poll(async () => (await server.state()).aux.appearance, MOMENT).toBe('countup');
      const elapsed = Math.floor((120_000 - (auxPaused.remainingAtPause as number)) / 1000) * 1000;
      await expect.poll(() => text(page, '#aux-time'), MOMENT).toBe(formatDurationText(elapsed));
      expect(await page.getAttribute('button[data-aux-appearance="countup"]', 'aria-pressed')).toBe('true');
      await page.click('#aux-reset');
      await expect.poll(async () => (await server.state()).aux.remainingAtPause, MOMENT).toBe(120_000);
      await expect.poll(() => text(page, '#aux-time'), MOMENT).toBe('0:00');
      await page.fill('#aux-duration', 'soon');
      await page.press('#aux-duration', 'Enter');
      await expect.poll(() => text(page, '#notice-text'), MOMENT).toContain('is not a duration');
      expect(await page.inputValue('#aux-duration')).toBe('2:00');

      // The schedule's and the aux timer's elements on the screens: each switch changes the room.
      for (const field of ['showOverUnder', 'showShowEnd', 'showAux'] as const) {
        await page.click(`#display-show button[data-show="${field}"]`);
        await expect.poll(async () => (await server.state()).display[field], MOMENT).toBe(true);
        await expect.poll(() => page.getAttribute(`#display-show button[data-show="${field}"]`, 'aria-pressed'), MOMENT).toBe('true');
      }
      // The console's preview shows them as the screens do: the aux's digits as the panel's, the end as the header's.
      await expect.poll(() => page.isVisible('#pv-extras'), MOMENT).toBe(true);
      expect(await text(page, '#pv-aux-time')).toBe(await text(page, '#aux-time'));
      const headerEnd = /^Show ends (\S+)/.exec(await text(page, '#show-line'));
      expect(await text(page, '#pv-show-end')).toBe(`Ends ${headerEnd?.[1] ?? '?'}`);
      // The aux panel and the display switches, under the sticky transport band.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(ARTIFACTS, 'schedule-console-aux.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });

  it('keeps the header line in view on a phone, and labels each start in the running order\'s cards', async () => {
    const planned = Math.floor((Date.now() - 10 * MIN) / MIN) * MIN;
    const room = showRoom(planned + 4 * 60 * MIN);
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: { ...room, settings: { ...room.settings, plannedStart: planned } } });
    const context = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(server.controlUrl);
      await page.waitForSelector('body[data-seq]');
      await expect.poll(() => text(page, '#show-line'), MOMENT).toMatch(/ behind$/);
      // Scrolled down to the running order, the line is still on screen (the transport band is sticky).
      await page.$eval('#order tr[data-id="t8"]', (node) => node.scrollIntoView());
      const box = await page.$eval('#show-line', (node) => {
        const r = node.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, right: r.right, width: r.width };
      });
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(844);
      expect(box.width).toBeGreaterThan(0);
      expect(box.right).toBeLessThanOrEqual(390);
      const labels = await page.$eval('#order tr[data-id="t2"]', (tr) =>
        ['td.c-planned', 'td.c-start'].map((selector) => getComputedStyle(tr.querySelector(selector) as Element, '::before').content),
      );
      expect(labels).toEqual(['"Planned"', '"Actual"']);
      expect(await text(page, cell('t2', 'planned'))).toBe(at(planned + DURATIONS[0]));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'schedule-console-phone.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
