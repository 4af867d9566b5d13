// The display page in a real browser (Debian's chromium through playwright-core)
// against a real server on 127.0.0.1: the kiosk at /display and viewers at
// /view/{viewer_key}. Screenshots of the kiosk states go to test-artifacts/.
import { loadavg } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { countdownText, formatSeconds } from '../../src/client/face.js';
import { pageToLocalClock, pixelStats, saveArtifact, saveScreenshot, watchProblems } from './browser-kit.js';
import { startLiveServer, useDisplayRig, VIEWER_KEY } from './live-server.js';

const VIEWPORT = { width: 1280, height: 720 };
const ORANGE = 'rgb(255, 159, 10)';
const RED = 'rgb(255, 59, 48)';
const WHITE = 'rgb(255, 255, 255)';

const rig = useDisplayRig();
const contexts: BrowserContext[] = [];


async function openPage(
  path: string,
  setup?: (context: BrowserContext) => Promise<void>,
  ready: string = '#time',
): Promise<{ page: Page; problems: string[] }> {
  const context = await rig.browser.newContext({ viewport: VIEWPORT, timezoneId: 'UTC' });
  contexts.push(context);
  if (setup !== undefined) await setup(context);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(rig.server.url(path));
  await page.waitForFunction((selector) => (document.querySelector(selector)?.textContent ?? '').trim() !== '', ready);
  return { page, problems };
}

async function closeAll(): Promise<void> {
  for (const context of contexts.splice(0)) await context.close();
}

/** A fresh running order: one timer with these fields, selected and paused at its duration. */
async function freshTimer(fields: { label: string; speaker: string; duration: number; warnAt?: number; appearance?: 'countdown' | 'countup' | 'clock' }): Promise<string> {
  const id = `x${Math.random().toString(36).slice(2, 8)}`;
  await rig.server.run(
    { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false },
    { type: 'timer.create', id, fields: { warnAt: 60_000, appearance: 'countdown', ...fields } },
    { type: 'timer.select', id },
    { type: 'message.clear' },
    { type: 'blackout.set', on: false },
    { type: 'onair.set', on: false },
  );
  return id;
}

/** True when the page shows what the server's remaining time reads right now (read on both sides of the page read). */
async function showsServerCountdown(page: Page): Promise<boolean> {
  const before = rig.server.service.snapshot().remaining;
  const shown = await page.textContent('#time');
  const after = rig.server.service.snapshot().remaining;
  return shown === countdownText(before) || shown === countdownText(after);
}

function timeOfDayUtc(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

const timeColor = (page: Page) => page.$eval('#time', (el) => getComputedStyle(el).color);

// Generous: the browser shares two cores with other test runs.
describe('kiosk /display', { timeout: 45_000 }, () => {
  afterAll(closeAll);

  it('shows the server’s remaining time, label and speaker, white, with progress', async () => {
    await freshTimer({ label: 'Keynote', speaker: 'Ada Lovelace', duration: 600_000 });
    await rig.server.run({ type: 'start' });
    const { page, problems } = await openPage('/display');
    await expect.poll(() => showsServerCountdown(page), { timeout: 5_000 }).toBe(true);
    expect(await page.textContent('#label')).toBe('Keynote');
    expect(await page.textContent('#speaker')).toBe('Ada Lovelace');
    expect(await timeColor(page)).toBe(WHITE);
    expect(await page.isVisible('#onair')).toBe(false);
    expect(await page.isVisible('#link')).toBe(false);
    // The cursor is hidden on the whole screen.
    expect(await page.$eval('body', (el) => getComputedStyle(el).cursor)).toBe('none');
    await saveScreenshot(page, 'display-1-running');
    expect(problems).toEqual([]);
  });

  it('turns orange at warnAt and red with +m:ss in overrun', async () => {
    await freshTimer({ label: 'Panel', speaker: 'Grace Hopper', duration: 600_000, warnAt: 60_000 });
    await rig.server.run({ type: 'start' }, { type: 'adjust', ms: -570_000 });
    const { page } = await openPage('/display');
    await expect.poll(() => showsServerCountdown(page), { timeout: 5_000 }).toBe(true);
    expect(await timeColor(page)).toBe(ORANGE);
    await saveScreenshot(page, 'display-2-warn');

    await rig.server.run({ type: 'adjust', ms: -(rig.server.service.snapshot().remaining + 65_500) });
    await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').startsWith('+1:0'));
    await expect.poll(() => showsServerCountdown(page), { timeout: 5_000 }).toBe(true);
    expect(await timeColor(page)).toBe(RED);
    await saveScreenshot(page, 'display-3-overrun');
  });

  it('shows nothing past zero under hide', async () => {
    await freshTimer({ label: 'Hidden overrun', speaker: '', duration: 60_000 });
    await rig.server.run({ type: 'settings.set', zeroBehavior: 'hide' }, { type: 'start' }, { type: 'adjust', ms: -65_000 });
    const { page } = await openPage('/display', undefined, '#label');
    await page.waitForFunction(() => document.getElementById('time')?.textContent === '');
    expect(await page.textContent('#label')).toBe('Hidden overrun');
  });

  it('shows the message overlay with its colour and weight, and flashes it', async () => {
    await freshTimer({ label: 'Q&A', speaker: 'Audience', duration: 900_000 });
    await rig.server.run({ type: 'start' }, { type: 'message.set', message: { text: 'Wrap up please', color: 'red', bold: true, flash: true } });
    const { page } = await openPage('/display');
    await page.waitForSelector('#message', { state: 'visible' });
    expect(await page.textContent('#message')).toBe('Wrap up please');
    const style = await page.$eval('#message', (el) => ({ color: getComputedStyle(el).color, weight: getComputedStyle(el).fontWeight }));
    expect(style.color).toBe('rgb(255, 69, 58)');
    expect(Number(style.weight)).toBeGreaterThanOrEqual(700);
    // Flashing: both phases seen within a second and a half.
    const phases = await page.evaluate(async () => {
      const seen = new Set<string>();
      const el = document.getElementById('message');
      const end = performance.now() + 1_500;
      while (performance.now() < end) {
        seen.add(el?.classList.contains('dark') === true ? 'dark' : 'lit');
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      return [...seen].sort();
    });
    expect(phases).toEqual(['dark', 'lit']);
    await page.waitForFunction(() => document.getElementById('message')?.classList.contains('dark') === false);
    await saveScreenshot(page, 'display-4-message');

    await rig.server.run({ type: 'message.set', message: { text: 'Next: lunch', color: 'green', bold: false, flash: false } });
    await page.waitForFunction(() => document.getElementById('message')?.textContent === 'Next: lunch');
    expect(await page.$eval('#message', (el) => getComputedStyle(el).color)).toBe('rgb(50, 215, 75)');
    await rig.server.run({ type: 'message.clear' });
    await page.waitForSelector('#message', { state: 'hidden' });
  });

  it('shows ON AIR clearly, and blackout makes the whole screen black', async () => {
    await freshTimer({ label: 'Live', speaker: 'Host', duration: 300_000 });
    await rig.server.run({ type: 'start' }, { type: 'onair.set', on: true }, { type: 'message.set', message: { text: 'Hello', color: 'white', bold: false, flash: false } });
    const { page } = await openPage('/display');
    await page.waitForSelector('#onair', { state: 'visible' });
    expect(await page.textContent('#onair')).toBe('ON AIR');
    const box = await page.locator('#onair').boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThan(VIEWPORT.width / 2);
    expect(box!.y).toBeLessThan(VIEWPORT.height / 4);
    const onAirShot = await saveScreenshot(page, 'display-5-onair');
    const corner = await pixelStats(rig.browser, onAirShot, { x: 0.75, y: 0, w: 0.25, h: 0.2 });
    expect(corner.red).toBeGreaterThan(500);

    await rig.server.run({ type: 'blackout.set', on: true });
    await page.waitForSelector('#blackout', { state: 'visible' });
    const blackShot = await saveScreenshot(page, 'display-6-blackout');
    const all = await pixelStats(rig.browser, blackShot);
    expect(all.pixels).toBe(VIEWPORT.width * VIEWPORT.height);
    expect(all.maxChannel).toBe(0);

    await rig.server.run({ type: 'blackout.set', on: false });
    await page.waitForSelector('#blackout', { state: 'hidden' });
    expect((await pixelStats(rig.browser, await page.screenshot())).maxChannel).toBeGreaterThan(200);
  });

  it('shows elapsed time for countup and the server’s time of day for clock', async () => {
    await freshTimer({ label: 'Count up', speaker: '', duration: 600_000, appearance: 'countup' });
    await rig.server.run({ type: 'start' }, { type: 'adjust', ms: -83_000 });
    const { page } = await openPage('/display');
    await expect
      .poll(async () => {
        const before = rig.server.service.snapshot();
        const shown = await page.textContent('#time');
        const after = rig.server.service.snapshot();
        const elapsed = (s: typeof before) => formatSeconds(Math.floor((s.duration - s.remaining) / 1000));
        return shown === elapsed(before) || shown === elapsed(after);
      })
      .toBe(true);
    await saveScreenshot(page, 'display-7-countup');

    const id = await freshTimer({ label: 'Doors open', speaker: '', duration: 600_000, appearance: 'clock' });
    expect(id).not.toBe('');
    await page.waitForFunction(() => document.getElementById('label')?.textContent === 'Doors open');
    await expect
      .poll(async () => {
        const before = Date.now();
        const shown = await page.textContent('#time');
        return shown === timeOfDayUtc(before) || shown === timeOfDayUtc(Date.now());
      })
      .toBe(true);
    expect(await page.isVisible('.progress')).toBe(false);
    await saveScreenshot(page, 'display-8-clock');
  });

  it('stays small: page, script and stylesheet under 50 KB as transferred (the budget of BENCHMARKS.md), nothing from elsewhere', async () => {
    const context = await rig.browser.newContext({ viewport: VIEWPORT });
    contexts.push(context);
    const page = await context.newPage();
    const urls: string[] = [];
    // Body reads are awaited here, while the page is open: one still pending when the
    // context closes would reject with no one listening.
    const sizes: Promise<number>[] = [];
    let measuring = true;
    page.on('response', (response) => {
      if (!measuring) return;
      urls.push(response.url());
      // What crossed the network (compressed where the box compresses), as the bench's "display page transferred" counts it.
      if (!response.url().includes('/events')) sizes.push(response.finished().then(() => response.request().sizes()).then((size) => size.responseBodySize));
    });
    await page.goto(rig.server.url('/display'));
    await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
    // Let the clock-offset round trips finish too (the event stream never does).
    await page.waitForTimeout(1_000);
    measuring = false;
    const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
    expect(urls.every((u) => u.startsWith(rig.server.url('/')))).toBe(true);
    expect(urls.some((u) => u.endsWith('/assets/display.js'))).toBe(true);
    expect(bytes).toBeLessThan(50 * 1024);
    expect(bytes).toBeGreaterThan(0);
    saveArtifact('display-size.json', { bytes, urls: urls.map((u) => new URL(u).pathname) });
  });
});

// Generous: the browser shares two cores with other test runs.
describe('viewer /view/{viewer_key}', { timeout: 45_000 }, () => {
  afterAll(closeAll);

  it('shows the server’s time on a device whose clock runs seven minutes behind (page.clock.install)', async () => {
    await freshTimer({ label: 'Wrong clock', speaker: '', duration: 1_200_000 });
    await rig.server.run({ type: 'start' });
    const { page, problems } = await openPage(`/view/${VIEWER_KEY}`, (context) => context.clock.install({ time: Date.now() - 7 * 60_000 }));
    const deviceSkewMs = await page.evaluate(() => Date.now());
    expect(Math.abs(deviceSkewMs - (Date.now() - 7 * 60_000))).toBeLessThan(60_000);
    await expect.poll(() => showsServerCountdown(page), { timeout: 5_000 }).toBe(true);
    expect(problems).toEqual([]);
  });

  it('shows the server’s time of day on a device whose clock is stuck minutes ahead (page.clock.setFixedTime)', async () => {
    await freshTimer({ label: 'Clock', speaker: '', duration: 600_000, appearance: 'clock' });
    const { page } = await openPage(`/view/${VIEWER_KEY}`, (context) => context.clock.setFixedTime(Date.now() + 5 * 60_000 + 30_000));
    await expect
      .poll(async () => {
        const before = Date.now();
        const shown = await page.textContent('#time');
        return shown === timeOfDayUtc(before) || shown === timeOfDayUtc(Date.now());
      })
      .toBe(true);
  });

  it('flips the seconds together on two screens, one of them with its clock minutes off', async () => {
    await freshTimer({ label: 'Sync', speaker: '', duration: 3_600_000 });
    await rig.server.run({ type: 'start' });
    const a = await openPage(`/view/${VIEWER_KEY}`);
    // Date (and performance) are Playwright's fakes in B, frozen four minutes behind.
    const b = await openPage(`/view/${VIEWER_KEY}`, (context) => context.clock.setFixedTime(Date.now() - 4 * 60_000));
    const c = await openPage(`/view/${VIEWER_KEY}`);
    // An event's timeStamp is the browser's own monotonic clock, faked in no page. Each page's is
    // mapped onto this process's clock by the round trip with the smallest delay, so the flips of
    // all pages land on one timeline.
    const record = async (page: Page) => {
      const offsetMs = await pageToLocalClock(page, () => new Event('probe').timeStamp, () => performance.now());
      const flips = await page.evaluate(
        async (ms) => {
          const el = document.getElementById('time');
          const seen: { text: string; atMs: number }[] = [];
          const observer = new MutationObserver(() => seen.push({ text: el?.textContent ?? '', atMs: new Event('flip').timeStamp }));
          if (el !== null) observer.observe(el, { childList: true, characterData: true, subtree: true });
          await new Promise((resolve) => setTimeout(resolve, ms));
          observer.disconnect();
          return seen;
        },
        6_500,
      );
      return flips.map((f) => ({ text: f.text, atMs: f.atMs + offsetMs }));
    };
    const [flipsA, flipsB, flipsC] = await Promise.all([record(a.page), record(b.page), record(c.page)]);
    const compare = (one: typeof flipsA, other: typeof flipsA) => {
      const differences: number[] = [];
      for (const flip of one) {
        const twin = other.find((f) => f.text === flip.text);
        if (twin !== undefined) differences.push(Math.abs(twin.atMs - flip.atMs));
      }
      differences.sort((x, y) => x - y);
      return {
        common: differences.length,
        medianMs: differences[Math.floor(differences.length / 2)] ?? Infinity,
        maxMs: differences.at(-1) ?? Infinity,
        differencesMs: differences.map((d) => Math.round(d * 10) / 10),
      };
    };
    const skewed = compare(flipsA, flipsB);
    const honest = compare(flipsA, flipsC);
    saveArtifact('display-sync.json', { skewedClock: skewed, bothHonest: honest, flipsA, flipsB, flipsC });
    console.info(
      `two screens, one clock 4 min off: ${skewed.common} flips, median ${skewed.medianMs.toFixed(1)} ms, max ${skewed.maxMs.toFixed(1)} ms; ` +
        `two honest clocks: ${honest.common} flips, median ${honest.medianMs.toFixed(1)} ms, max ${honest.maxMs.toFixed(1)} ms`,
    );
    // One flip per second on each screen (no redraw loop), and nearly all of them seen on every screen.
    for (const flips of [flipsA, flipsB, flipsC]) {
      expect(flips.length).toBeGreaterThanOrEqual(5);
      expect(flips.length).toBeLessThanOrEqual(8);
    }
    for (const pair of [skewed, honest]) {
      expect(pair.common).toBeGreaterThanOrEqual(5);
      // Within one frame (17 ms) on a quiet machine; tolerant here, since other test runs share the CPU.
      expect(pair.medianMs).toBeLessThan(25);
      expect(pair.maxMs).toBeLessThan(100);
    }
  }, 40_000);
});

// Generous: the browser shares two cores with other test runs.
describe('robustness', { timeout: 45_000 }, () => {
  afterAll(closeAll);

  it('keeps the time running with a reconnecting mark while the server is down, and recovers after a restart', async () => {
    const restarted = await startLiveServer({ pagesDir: rig.pagesDir });
    try {
      await restarted.run({ type: 'timer.update', id: 't1', fields: { label: 'Before restart', duration: 600_000 } }, { type: 'start' });
      const context = await rig.browser.newContext({ viewport: VIEWPORT });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(restarted.url('/display'));
      await page.waitForFunction(() => document.getElementById('label')?.textContent === 'Before restart');
      const port = restarted.port;
      await restarted.close();

      await page.waitForSelector('#link', { state: 'visible', timeout: 5_000 });
      // The digits keep counting from the last snapshot while the stream is lost.
      const shownDown = await page.textContent('#time');
      await page.waitForFunction((was) => document.getElementById('time')?.textContent !== was, shownDown, { timeout: 3_000 });
      await saveScreenshot(page, 'display-9-reconnecting');

      const again = await startLiveServer({ pagesDir: rig.pagesDir, port });
      try {
        await again.run({ type: 'timer.update', id: 't1', fields: { label: 'After restart' } });
        await page.waitForFunction(() => document.getElementById('label')?.textContent === 'After restart', undefined, { timeout: 20_000 });
        await page.waitForSelector('#link', { state: 'hidden' });
      } finally {
        await again.close();
      }
    } finally {
      await restarted.close().catch(() => {});
    }
  }, 45_000);

  it('redraws once per second and uses little CPU with a running timer', async () => {
    // Only the kiosk page is open while measuring.
    await closeAll();
    await freshTimer({ label: 'CPU', speaker: 'Idle', duration: 3_600_000 });
    await rig.server.run({ type: 'start' });
    const { page } = await openPage('/display');
    const seconds = Number(process.env.SHOWCLOCK_CPU_SECONDS ?? '8');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const browserCdp = await rig.browser.newBrowserCDPSession();
    // CPU time of every renderer process (all threads: main, compositor, raster), as the OS counts it.
    const rendererCpuSeconds = async () => {
      const info = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; cpuTime: number }[] };
      return info.processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + p.cpuTime, 0);
    };
    const sample = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      return {
        task: value('TaskDuration'),
        script: value('ScriptDuration'),
        layout: value('LayoutDuration'),
        style: value('RecalcStyleDuration'),
        layouts: value('LayoutCount'),
        styles: value('RecalcStyleCount'),
        renderer: await rendererCpuSeconds(),
      };
    };
    const before = await sample();
    const mutations = await page.evaluate(async (ms) => {
      let count = 0;
      const observer = new MutationObserver((records) => (count += records.length));
      observer.observe(document.body, { childList: true, characterData: true, subtree: true, attributes: true });
      await new Promise((resolve) => setTimeout(resolve, ms));
      observer.disconnect();
      return count;
    }, seconds * 1000);
    const after = await sample();
    await browserCdp.detach();
    const percent = (x: number) => Math.round((x / seconds) * 10_000) / 100;
    const result = {
      seconds,
      mainThreadBusyPercent: percent(after.task - before.task),
      rendererProcessCpuPercent: percent(after.renderer - before.renderer),
      scriptMs: Math.round((after.script - before.script) * 1000),
      layoutMs: Math.round((after.layout - before.layout) * 1000),
      styleMs: Math.round((after.style - before.style) * 1000),
      layouts: after.layouts - before.layouts,
      styleRecalcs: after.styles - before.styles,
      domMutations: mutations,
      loadAverage: loadavg()[0],
    };
    saveArtifact(`display-cpu-${seconds}s.json`, result);
    console.info(`kiosk CPU over ${seconds} s: ${JSON.stringify(result)}`);
    // The digits and the bar change once a second; nothing else moves, so the page lays
    // out about once a second too, never in a frame loop. These counts do not depend on
    // how busy the machine is; the CPU share itself is a figure for `npm run bench`
    // (kiosk budget 1 % of a core), recorded here as an artefact only.
    expect(mutations).toBeGreaterThanOrEqual(seconds - 1);
    expect(mutations).toBeLessThanOrEqual(4 * (seconds + 1));
    expect(result.layouts).toBeLessThanOrEqual(4 * (seconds + 1));
  }, 120_000);
});
