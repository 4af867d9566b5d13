// The display's layout under the longest input the API accepts, on the screens a
// show meets (HDMI 1080p and 720p, an old 4:3 projector, a phone both ways): the
// message never covers the time, titles never run under the ON AIR badge, a held
// timer looks held, and the digits come from the box's own font, each as wide as
// the others. Screenshots of each size go to test-artifacts/display-layout-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pixelStats, saveScreenshot, overlaps, type Box } from './browser-kit.js';
import { SCREEN_SIZES } from './layout-kit.js';
import { useDisplayRig, VIEWER_KEY, untilDisplayDrawn } from './live-server.js';

/** The five sizes of layout-kit.ts: HDMI 1080p and 720p, a 4:3 projector, a phone both ways. */
const SIZES = SCREEN_SIZES;

// The longest the API takes: 200 characters of title and speaker, 500 of message (no spaces in
// part of it, so wrapping alone cannot save it).
const LONG_TITLE = `Opening keynote and welcome ${'W'.repeat(60)} ${'lorem ipsum '.repeat(10)}`.slice(0, 200);
const LONG_SPEAKER = `Professor ${'Maximiliana '.repeat(20)}`.slice(0, 200);
const LONG_MESSAGE = `Please wrap up now, ${'M'.repeat(120)} ${'the next session starts in the main hall in five minutes '.repeat(8)}`.slice(0, 500);

const rig = useDisplayRig();


function inside(a: Box, size: { width: number; height: number }): boolean {
  return a.x >= 0 && a.y >= 0 && a.x + a.width <= size.width + 0.5 && a.y + a.height <= size.height + 0.5;
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not shown`);
  return box;
}

/** The box of the text itself (a Range), which is what a reader sees, not the element's full row. */
async function textBoxOf(page: Page, selector: string): Promise<Box> {
  return page.$eval(selector, (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    // Clipped by its element (ellipsis): the visible part is where both meet.
    const e = el.getBoundingClientRect();
    const x = Math.max(r.left, e.left);
    const right = Math.min(r.right, e.right);
    return { x, y: r.top, width: Math.max(0, right - x), height: r.height };
  });
}

async function openDisplay(size: { width: number; height: number }, path = '/display'): Promise<Page> {
  const context = await rig.browser.newContext({ viewport: size, timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto(rig.server.url(path));
  await untilDisplayDrawn(page);
  return page;
}

/** A fresh timer with the longest titles, running, ON AIR, with the longest message. */
async function longestShow(): Promise<void> {
  const id = `L${Math.random().toString(36).slice(2, 8)}`;
  await rig.server.run(
    { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false },
    { type: 'timer.create', id, fields: { label: LONG_TITLE, speaker: LONG_SPEAKER, duration: 5_400_000, warnAt: 60_000, appearance: 'countdown' } },
    { type: 'timer.select', id },
    { type: 'start' },
    { type: 'blackout.set', on: false },
    { type: 'onair.set', on: true },
    { type: 'message.set', message: { text: LONG_MESSAGE, color: 'red', bold: true, flash: false } },
  );
}

describe('display layout under the longest input', { timeout: 60_000 }, () => {
  for (const size of SIZES) {
    const name = `${size.width}x${size.height}`;
    it(`${name}: the message never covers the time, titles never run under ON AIR, a pause is seen`, async () => {
      await longestShow();
      const page = await openDisplay(size);
      try {
        await page.waitForSelector('#message', { state: 'visible' });
        await page.waitForSelector('#onair', { state: 'visible' });
        const time = await boxOf(page, '#time');
        const message = await boxOf(page, '#message');
        const onAir = await boxOf(page, '#onair');
        expect(overlaps(time, message), `time ${JSON.stringify(time)} message ${JSON.stringify(message)}`).toBe(false);
        expect(inside(time, size)).toBe(true);
        expect(inside(message, size)).toBe(true);
        expect(time.height).toBeGreaterThan(size.height * 0.08);
        for (const title of ['#label', '#speaker']) {
          const text = await textBoxOf(page, title);
          expect(text.width).toBeGreaterThan(0);
          expect(overlaps(text, onAir), `${title} ${JSON.stringify(text)} ON AIR ${JSON.stringify(onAir)}`).toBe(false);
        }
        // The whole badge reads "ON AIR" (nothing of it clipped by its slot).
        expect(await page.$eval('#onair', (el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        // The message's text is clipped inside its own box, not drawn beyond it.
        expect(await page.$eval('#message', (el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
        const runningShot = await saveScreenshot(page, `display-layout-${name}-running`);
        expect(await page.isVisible('#mark')).toBe(false);

        await rig.server.run({ type: 'pause' });
        await page.waitForFunction(() => document.getElementById('mark')?.textContent === 'PAUSED');
        await page.waitForFunction(() => !document.getElementById('mark')?.hidden);
        const pausedTime = await boxOf(page, '#time');
        expect(overlaps(pausedTime, await boxOf(page, '#message'))).toBe(false);
        expect(overlaps(pausedTime, await boxOf(page, '#mark'))).toBe(false);
        const pausedShot = await saveScreenshot(page, `display-layout-${name}-paused`);
        // The digits themselves are dimmed: the brightest pixel in their box drops well below white.
        const region = { x: pausedTime.x / size.width, y: pausedTime.y / size.height, w: pausedTime.width / size.width, h: pausedTime.height / size.height };
        const running = await pixelStats(rig.browser, runningShot, region);
        const paused = await pixelStats(rig.browser, pausedShot, region);
        expect(running.maxChannel).toBeGreaterThan(240);
        expect(paused.maxChannel).toBeLessThan(160);
      } finally {
        await page.context().close();
      }
    });
  }

  it('tells a stop at zero from a pause, and a timer not started yet from both', async () => {
    const id = `S${Math.random().toString(36).slice(2, 8)}`;
    await rig.server.run(
      { type: 'message.clear' },
      { type: 'onair.set', on: false },
      { type: 'settings.set', zeroBehavior: 'stop', autoAdvance: false },
      { type: 'timer.create', id, fields: { label: 'Stops at zero', speaker: '', duration: 60_000, warnAt: 10_000, appearance: 'countdown' } },
      { type: 'timer.select', id },
    );
    const size = { width: 1280, height: 720 };
    const page = await openDisplay(size);
    try {
      await page.waitForFunction(() => document.getElementById('mark')?.textContent === 'READY');
      await saveScreenshot(page, 'display-layout-ready');
      await rig.server.run({ type: 'start' }, { type: 'adjust', ms: -61_000 });
      await page.waitForFunction(() => document.getElementById('mark')?.textContent === 'STOPPED AT ZERO');
      expect(await page.textContent('#time')).toBe('0:00');
      const shot = await saveScreenshot(page, 'display-layout-stopped');
      const mark = await boxOf(page, '#mark');
      const stats = await pixelStats(rig.browser, shot, { x: mark.x / size.width, y: mark.y / size.height, w: mark.width / size.width, h: mark.height / size.height });
      expect(stats.red).toBeGreaterThan(200);
      // The digits stay bright at zero: it is the end, not a hold.
      expect(await page.$eval('#time', (el) => getComputedStyle(el).opacity)).toBe('1');
    } finally {
      await page.context().close();
      await rig.server.run({ type: 'settings.set', zeroBehavior: 'continue' });
    }
  });

  it('keeps a phone on plain http awake with a silent looping video, and the kiosk with the Wake Lock API', async () => {
    // Chromium on 127.0.0.1 is a secure context; a phone on http://showclock.local is not and has no Wake Lock.
    const context = await rig.browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      delete (Navigator.prototype as { wakeLock?: unknown }).wakeLock;
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    try {
      await page.goto(rig.server.url(`/view/${VIEWER_KEY}`));
      await page.waitForFunction(() => {
        const video = document.querySelector('video.keep-awake');
        return video instanceof HTMLVideoElement && !video.paused && video.currentTime > 0;
      });
      expect(await page.$eval('video.keep-awake', (v) => (v as HTMLVideoElement).muted && (v as HTMLVideoElement).loop)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    const kiosk = await openDisplay({ width: 1280, height: 720 });
    try {
      expect(await kiosk.$('video.keep-awake')).toBeNull();
      expect(await kiosk.$('script[src="/assets/keep-awake-media.js"]')).toBeNull();
    } finally {
      await kiosk.context().close();
    }
  });

  it('draws the digits in the box’s own font, every digit as wide as the others', async () => {
    await longestShow();
    const fonts: string[] = [];
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    page.on('response', (response) => {
      if (response.url().endsWith('.woff2')) fonts.push(new URL(response.url()).pathname);
    });
    try {
      await page.goto(rig.server.url(`/view/${VIEWER_KEY}`));
      await page.waitForFunction(() => document.fonts.status === 'loaded' && document.fonts.check('700 20px "Showclock Inter"'));
      expect(fonts).toEqual(['/assets/inter-latin-700-normal.woff2']);
      const widths = await page.evaluate(() => {
        const time = document.getElementById('time');
        if (time === null) throw new Error('no #time');
        const probe = time.cloneNode() as HTMLElement;
        probe.removeAttribute('id');
        probe.style.position = 'absolute';
        probe.style.fontSize = '100px';
        document.body.appendChild(probe);
        const out: number[] = [];
        for (const text of ['1:11', '0:00', '8:88', '4:47']) {
          probe.textContent = text;
          out.push(probe.getBoundingClientRect().width);
        }
        probe.remove();
        return out;
      });
      for (const w of widths) expect(Math.abs(w - (widths[0] ?? 0))).toBeLessThan(0.5);
      expect(await page.$eval('#time', (el) => getComputedStyle(el).fontFamily)).toContain('Showclock Inter');
    } finally {
      await context.close();
    }
  });
});

describe('display settings on the screen', { timeout: 60_000 }, () => {
  const size = { width: 1280, height: 720 };

  async function look(page: Page) {
    return page.evaluate(() => {
      const visible = (id: string) => {
        const el = document.getElementById(id);
        return el !== null && el.getBoundingClientRect().height > 0 && getComputedStyle(el).display !== 'none';
      };
      const time = document.getElementById('time');
      return {
        background: getComputedStyle(document.getElementById('screen') as HTMLElement).backgroundColor,
        timeColor: time === null ? '' : getComputedStyle(time).color,
        title: visible('label'),
        speaker: visible('speaker'),
        progress: visible('bar'),
        message: visible('message'),
        info: visible('info'),
        tod: document.getElementById('tod')?.textContent ?? '',
        next: document.getElementById('next')?.textContent ?? '',
      };
    });
  }

  it('defaults look as the display always did; each layout, colours, a chroma background and the extra elements render', async () => {
    await longestShow();
    const id = `N${Math.random().toString(36).slice(2, 8)}`;
    await rig.server.run(
      { type: 'message.set', message: { text: 'Wrap up', color: 'white', bold: false, flash: false } },
      { type: 'timer.create', id, fields: { label: 'Closing panel', speaker: '', duration: 600_000 } },
      { type: 'timer.move', id, to: rig.server.service.room.timers.findIndex((t) => t.id === rig.server.service.room.activeTimerId) + 1 },
    );
    const page = await openDisplay(size);
    try {
      await page.waitForSelector('#message', { state: 'visible' });
      expect(await look(page)).toMatchObject({ background: 'rgb(0, 0, 0)', timeColor: 'rgb(255, 255, 255)', title: true, speaker: true, progress: true, message: true, info: false });
      await saveScreenshot(page, 'display-settings-full-default');

      await rig.server.run({
        type: 'display.set',
        display: { background: '#00b140', normalColour: '#ffcc00', showTimeOfDay: true, showNext: true, showSpeaker: false, timeSize: 120 },
      });
      await page.waitForFunction(() => getComputedStyle(document.getElementById('screen') as HTMLElement).backgroundColor === 'rgb(0, 177, 64)');
      await page.waitForFunction(() => (document.getElementById('tod')?.textContent ?? '') !== '');
      const custom = await look(page);
      expect(custom).toMatchObject({ timeColor: 'rgb(255, 204, 0)', title: true, speaker: false, info: true, next: 'Next: Closing panel' });
      expect(custom.tod).toMatch(/^\d\d:\d\d:\d\d$/);
      // Still the message never covers the time, at 120 %.
      expect(overlaps(await boxOf(page, '#time'), await boxOf(page, '#message'))).toBe(false);
      const chroma = await saveScreenshot(page, 'display-settings-chroma-colours');
      const corner = await pixelStats(rig.browser, chroma, { x: 0, y: 0.3, w: 0.02, h: 0.05 });
      expect(corner.maxChannel).toBeGreaterThan(150);

      await rig.server.run({ type: 'display.set', display: { layout: 'minimal' } });
      await page.waitForFunction(() => document.getElementById('screen')?.classList.contains('layout-minimal') === true);
      expect(await look(page)).toMatchObject({ title: false, progress: false, message: false, info: false });
      // ON AIR (on since longestShow) is shown in every layout (issue 31), never over the time.
      expect(await page.isVisible('#onair')).toBe(true);
      const minimalTime = await boxOf(page, '#time');
      expect(inside(minimalTime, size)).toBe(true);
      expect(overlaps(minimalTime, await boxOf(page, '#onair'))).toBe(false);
      await saveScreenshot(page, 'display-settings-minimal');

      await rig.server.run({ type: 'display.set', display: { layout: 'lowerThird', background: '#000000' } });
      await page.waitForFunction(() => document.getElementById('screen')?.classList.contains('layout-lowerThird') === true);
      const band = await boxOf(page, '#screen');
      expect(band.y).toBeGreaterThan(size.height * 0.6);
      const bandTime = await boxOf(page, '#time');
      expect(bandTime.y).toBeGreaterThanOrEqual(band.y - 0.5);
      expect(bandTime.y + bandTime.height).toBeLessThanOrEqual(size.height + 0.5);
      expect(overlaps(bandTime, await textBoxOf(page, '#label'))).toBe(false);
      await saveScreenshot(page, 'display-settings-lower-third');
    } finally {
      await page.context().close();
    }
  });

  it('a viewer link may ask for its own layout; the room keeps its settings', async () => {
    await rig.server.run({ type: 'display.set', display: { layout: 'full', background: '#000000', normalColour: '#ffffff', showTimeOfDay: false, showNext: false, showSpeaker: true, timeSize: 100 } });
    const phone = await openDisplay({ width: 390, height: 844 }, `/view/${VIEWER_KEY}?layout=minimal`);
    const room = await openDisplay(size, `/view/${VIEWER_KEY}`);
    try {
      await phone.waitForFunction(() => document.getElementById('screen')?.classList.contains('layout-minimal') === true);
      expect(await room.evaluate(() => document.getElementById('screen')?.classList.contains('layout-full'))).toBe(true);
      expect(rig.server.service.room.display.layout).toBe('full');
      await saveScreenshot(phone, 'display-settings-viewer-minimal-390x844');
    } finally {
      await phone.context().close();
      await room.context().close();
    }
  });
});
