// The venue overview end to end: two real boxes (dist/showclock.mjs) on loopback with
// the same venue key, box B listing box A's viewer link in its config file; B's
// overview in Chromium shows both rooms with their names, timer labels, the time
// ticking, ON AIR set on A, the warning and overrun tones; then A is killed (SIGKILL:
// no goodbye of any kind) and B's overview shows it as not answering; the time from
// the kill to the tile changing is measured. A's name is an XSS payload: it stays text.
// Figures: test-artifacts/venue.json; screenshots test-artifacts/venue-*.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, saveArtifact, saveScreenshot, watchProblems } from '../browser/browser-kit.js';
import { ensureBundle, serviceEnv, startService, stopService, type ServiceProcess } from '../e2e/service-process.js';

const VENUE_KEY = 'VenueKeyOfTheBrowserTest_0123';
const A_API = 'HallAApiKey_0123456789abcdef';
const A_VIEWER = 'HallAViewerKey_0123456789abc';
const B_API = 'HallBApiKey_0123456789abcdef';
const XSS_NAME = '<img src=x onerror=window.__xss=1>';

interface TileText {
  readonly name: string;
  readonly label: string;
  readonly time: string;
  readonly hold: string;
  readonly note: string;
  readonly onAir: boolean;
  readonly className: string;
  readonly timeColour: string;
  readonly images: number;
}

async function tiles(page: Page): Promise<TileText[]> {
  return page.$$eval('.tile', (nodes) =>
    nodes.map((node) => {
      const text = (selector: string): string => {
        const found = node.querySelector(selector) as HTMLElement | null;
        return found === null || found.hidden ? '' : (found.textContent ?? '');
      };
      const time = node.querySelector('.tile-time') as HTMLElement;
      return {
        name: text('.tile-name'),
        label: text('.tile-label'),
        time: text('.tile-time'),
        hold: text('.tile-hold'),
        note: text('.tile-note'),
        onAir: !(node.querySelector('.tile-onair') as HTMLElement).hidden,
        className: node.className,
        timeColour: getComputedStyle(time).color,
        images: node.querySelectorAll('img').length,
      };
    }),
  );
}

async function command(api: string, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${api}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe('venue overview, two boxes on loopback', () => {
  let a: ServiceProcess | undefined;
  let b: ServiceProcess | undefined;
  let browser: Browser | undefined;
  const dirs: string[] = [];

  beforeAll(async () => {
    ensureBundle();
    const dir = (): string => {
      const made = mkdtempSync(path.join(tmpdir(), 'showclock-venue-'));
      dirs.push(made);
      return made;
    };
    a = await startService(
      serviceEnv({
        SHOWCLOCK_DATA_DIR: dir(),
        SHOWCLOCK_API_KEY: A_API,
        SHOWCLOCK_VIEWER_KEY: A_VIEWER,
        SHOWCLOCK_VENUE_KEY: VENUE_KEY,
        SHOWCLOCK_VENUE_NAME: XSS_NAME,
        SHOWCLOCK_VENUE_ADVERTISE: 'false',
      }),
      { apiKey: A_API },
    );
    const config = path.join(dir(), 'showclock.json');
    writeFileSync(config, JSON.stringify({ venue: { name: 'Hall B', rooms: [`http://127.0.0.1:${a.port}/view/${A_VIEWER}`] } }));
    b = await startService(
      serviceEnv({ SHOWCLOCK_DATA_DIR: dir(), SHOWCLOCK_API_KEY: B_API, SHOWCLOCK_VENUE_KEY: VENUE_KEY, SHOWCLOCK_CONFIG: config, SHOWCLOCK_VENUE_ADVERTISE: 'false' }),
      { apiKey: B_API },
    );
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopService(a);
    await stopService(b);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('shows both rooms live, with tones and ON AIR, and A as not answering within 5 s of its kill', async () => {
    if (a === undefined || b === undefined || browser === undefined) throw new Error('not started');
    // A: a keynote 70 s long, warning at 60 s, running, on air, 2 minutes behind its plan.
    const state = (await command(a.api, '/state')).state as { activeTimerId: string };
    await command(a.api, `/timer/${state.activeTimerId}/update?label=Keynote&duration=70000&warnAt=60000`);
    await command(a.api, `/settings?plannedStart=${Date.now() - 120_000}`);
    await command(a.api, '/start');
    const bState = (await command(b.api, '/state')).state as { activeTimerId: string };
    await command(b.api, `/timer/${bState.activeTimerId}/update?label=Panel`);

    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const problems = watchProblems(page);
    await page.goto(`http://127.0.0.1:${b.port}/venue/${VENUE_KEY}`);
    await page.waitForFunction(() => document.querySelectorAll('.tile.status-live').length === 2, undefined, { timeout: 10_000 });
    let shown = await tiles(page);
    expect(shown.map((t) => t.name)).toEqual(['Hall B', XSS_NAME]);
    expect(shown[0]).toMatchObject({ label: 'Panel', time: '10:00', hold: 'READY', onAir: false });
    expect(shown[1]).toMatchObject({ label: 'Keynote', hold: '', onAir: false });
    expect(shown[1]?.note).toBe('');
    // The payload is text: no element made of it, nothing run.
    expect(shown[1]?.images).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // A's over/under from its plan.
    expect(await page.locator('.tile >> nth=1 >> .tile-over-under').textContent()).toMatch(/behind/);

    // Ticking: the time of A's tile moves with the box's clock.
    const before = shown[1]?.time;
    await page.waitForFunction((was) => document.querySelectorAll('.tile-time')[1]?.textContent !== was, before, { timeout: 3_000 });

    // ON AIR on A shows on B's overview.
    const onAirAt = Date.now();
    await command(a.api, '/onair?on=true');
    await page.waitForFunction(() => !(document.querySelectorAll('.tile-onair')[1] as HTMLElement).hidden, undefined, { timeout: 3_000 });
    const onAirMs = Date.now() - onAirAt;

    // The warning tone: under 60 s left.
    await command(a.api, '/adjust?ms=-15000');
    await page.waitForFunction(() => document.querySelectorAll('.tile')[1]?.classList.contains('tone-warn'), undefined, { timeout: 3_000 });
    shown = await tiles(page);
    expect(shown[1]?.timeColour).toBe('rgb(255, 159, 10)');
    await saveScreenshot(page, 'venue-1920x1080-warning');

    // Overrun: red, with a +.
    await command(a.api, '/adjust?ms=-60000');
    await page.waitForFunction(() => document.querySelectorAll('.tile')[1]?.classList.contains('tone-over'), undefined, { timeout: 3_000 });
    shown = await tiles(page);
    expect(shown[1]?.time).toMatch(/^\+0:0\d$/);
    expect(shown[1]?.timeColour).toBe('rgb(255, 59, 48)');
    expect(shown[1]?.onAir).toBe(true);
    await saveScreenshot(page, 'venue-1920x1080');

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await phone.goto(`http://127.0.0.1:${b.port}/venue/${VENUE_KEY}`);
    await phone.waitForFunction(() => document.querySelectorAll('.tile.status-live').length === 2, undefined, { timeout: 10_000 });
    // One column on a phone: the tiles stack, each within the screen's width.
    const boxes = await phone.$$eval('.tile', (nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; right: number }));
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y);
    for (const box of boxes) expect(box.right).toBeLessThanOrEqual(390);
    const spill = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(spill).toBeLessThanOrEqual(390);
    await saveScreenshot(phone, 'venue-390x844');

    // A stops answering with its connections open (frozen: as a box whose cable is pulled):
    // B's overview notices the silence of its 1 s heartbeat, and sees it back once it answers.
    const frozenAt = Date.now();
    a.child.kill('SIGSTOP');
    await page.waitForFunction(() => document.querySelectorAll('.tile')[1]?.classList.contains('status-lost'), undefined, { timeout: 10_000 });
    const silentLostMs = Date.now() - frozenAt;
    expect((await tiles(page))[1]?.note).toMatch(/^not answering since /);
    await saveScreenshot(page, 'venue-1920x1080-silent');
    const thawedAt = Date.now();
    a.child.kill('SIGCONT');
    await page.waitForFunction(() => document.querySelectorAll('.tile')[1]?.classList.contains('status-live'), undefined, { timeout: 10_000 });
    const backMs = Date.now() - thawedAt;
    expect(silentLostMs).toBeLessThan(5_000);

    // A dies without a word: B's overview shows it as not answering, greyed.
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await page.waitForFunction(() => document.querySelectorAll('.tile')[1]?.classList.contains('status-lost'), undefined, { timeout: 10_000 });
    const lostMs = Date.now() - killedAt;
    shown = await tiles(page);
    expect(shown[1]?.note).toMatch(/^not answering since \d{1,2}:\d\d:\d\d$/);
    expect(shown[1]?.className).toContain('greyed');
    expect(shown[1]?.onAir).toBe(false);
    expect(shown[0]?.className).toContain('status-live');
    await saveScreenshot(page, 'venue-1920x1080-lost');
    await phone.waitForFunction(() => document.querySelectorAll('.tile')[1]?.classList.contains('status-lost'), undefined, { timeout: 10_000 });
    await saveScreenshot(phone, 'venue-390x844-lost');
    expect(lostMs).toBeLessThan(5_000);

    // Nothing of either key reached the page or B's log.
    const html = await page.content();
    expect(html).not.toContain(A_VIEWER);
    expect(JSON.stringify(b.lines)).not.toContain(VENUE_KEY);
    expect(JSON.stringify(b.lines)).not.toContain(A_VIEWER);
    expect(problems).toEqual([]);
    saveArtifact('venue.json', {
      note: 'B watches A (listed by its viewer link) with ?heartbeat=1; lost after 3 s of silence, at once when the connection closes',
      killToTileLostMs: lostMs,
      frozenToTileLostMs: silentLostMs,
      thawedToTileLiveMs: backMs,
      onAirOnAToOverviewMs: onAirMs,
      at: new Date().toISOString(),
    });
    await phone.close();
    await page.close();
  }, 60_000);
});
