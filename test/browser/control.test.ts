// The control console in a real browser (Debian's chromium) against a real
// server on 127.0.0.1: every control changes the room as GET /state shows,
// changes made elsewhere appear within a moment, stale answers never win over
// newer events, shortcuts work (and not while typing), errors are shown in
// words, and a whole show runs from the console alone. Screenshots go to
// test-artifacts/.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { countdownText } from '../../src/client/face.js';
import { createRoom } from '../../src/domain/room.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { Room } from '../../src/domain/types.js';
import { startControlServer, useBrowserRig, type ControlServer } from './control-server.js';

const ARTIFACTS = 'test-artifacts';
const MOMENT = { timeout: 5_000, interval: 40 };

const rig = useBrowserRig();

/** Three timers as a running order: Opening 5:00, Keynote 20:00, Q&A 10:00; Opening active, paused. */
function showRoom(): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = [
    { ...first, id: 't1', label: 'Opening', speaker: 'Host', duration: 300_000 },
    { ...first, id: 't2', label: 'Keynote', speaker: 'Ada Lovelace', duration: 1_200_000 },
    { ...first, id: 't3', label: 'Q&A', speaker: '', duration: 600_000 },
  ];
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: 300_000 } };
}

interface Console {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Page errors and console errors, CSP refusals included (failed API answers excepted: some tests cause them). */
  readonly problems: string[];
}

async function openConsole(server: ControlServer, opts: { wrongDeviceClockMs?: number } = {}): Promise<Console> {
  const context = await rig.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  if (opts.wrongDeviceClockMs !== undefined) await page.clock.install({ time: Date.now() + opts.wrongDeviceClockMs });
  await page.goto(server.controlUrl);
  await page.waitForSelector('#connection.live');
  await page.waitForSelector('body[data-seq]');
  return { page, context, problems };
}

async function withServer(fn: (server: ControlServer) => Promise<void>, opts: { room?: Room; limit?: number } = {}): Promise<void> {
  const server = await startControlServer({ pagesDir: rig.pagesDir, room: opts.room ?? showRoom(), ...(opts.limit === undefined ? {} : { limit: opts.limit }) });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

async function withConsole(fn: (page: Page, server: ControlServer) => Promise<void>, opts: { room?: Room; limit?: number } = {}): Promise<void> {
  await withServer(async (server) => {
    const c = await openConsole(server);
    try {
      await fn(c.page, server);
      expect(c.problems).toEqual([]);
    } finally {
      await c.context.close();
    }
  }, opts);
}

const shownSeq = async (page: Page): Promise<number> => Number(await page.getAttribute('body', 'data-seq'));
const text = async (page: Page, selector: string): Promise<string> => ((await page.textContent(selector)) ?? '').trim();
const row = (id: string): string => `#order tr[data-id="${id}"]`;
const rowIds = (page: Page): Promise<string[]> => page.$$eval('#order tr', (rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));

async function editField(page: Page, id: string, field: string, value: string): Promise<void> {
  const input = `${row(id)} input.f-${field}`;
  await page.fill(input, value);
  await page.press(input, 'Enter');
}

const pollState = <T>(server: ControlServer, pick: (s: Snapshot) => T) => expect.poll(async () => pick(await server.state()), MOMENT);

// The machine is shared: browser steps are slow under load, so each test gets room.
describe('control console', { timeout: 60_000 }, () => {
  it('drives transport, adjust, next/previous and reset, as GET /state shows', async () => {
    await withConsole(async (page, server) => {
      expect(await text(page, '#pv-time')).toBe('5:00');
      expect(await text(page, '#pv-label')).toBe('Opening');

      await page.click('#start-pause');
      await pollState(server, (s) => s.running).toBe(true);
      await expect.poll(() => text(page, '#start-pause-text'), MOMENT).toBe('Pause');
      await page.click('#start-pause');
      await pollState(server, (s) => s.running).toBe(false);
      await expect.poll(() => text(page, '#start-pause-text'), MOMENT).toBe('Start');

      // Paused, each adjust moves remainingAtPause by exactly its amount.
      let expected = (await server.state()).remainingAtPause ?? 0;
      for (const ms of [60_000, 300_000, 10_000, -10_000, -60_000, -300_000, 10_000]) {
        await page.click(`button[data-adjust-ms="${ms}"]`);
        expected += ms;
        await pollState(server, (s) => s.remainingAtPause).toBe(expected);
      }
      await expect.poll(() => text(page, '#pv-time'), MOMENT).toBe(countdownText(expected));

      await page.click('#reset');
      await pollState(server, (s) => s.remainingAtPause).toBe(300_000);
      await page.click('#next');
      await pollState(server, (s) => s.activeTimerId).toBe('t2');
      await expect.poll(() => text(page, '#pv-label'), MOMENT).toBe('Keynote');
      expect(await text(page, '#pv-speaker')).toBe('Ada Lovelace');
      await page.click('#next');
      await pollState(server, (s) => s.activeTimerId).toBe('t3');
      // On the last timer Next is unavailable; Previous goes back.
      await expect.poll(() => page.isDisabled('#next'), MOMENT).toBe(true);
      await page.click('#previous');
      await pollState(server, (s) => s.activeTimerId).toBe('t2');
      await page.screenshot({ path: `${ARTIFACTS}/control-transport.png`, fullPage: true });
    });
  });

  it('switches blackout and ON AIR, composes messages and changes the settings', async () => {
    await withConsole(async (page, server) => {
      await page.click('#blackout');
      await pollState(server, (s) => s.blackout).toBe(true);
      await expect.poll(() => page.isVisible('#pv-blackout'), MOMENT).toBe(true);
      expect(await page.getAttribute('#blackout', 'aria-pressed')).toBe('true');
      await page.click('#blackout');
      await pollState(server, (s) => s.blackout).toBe(false);
      await expect.poll(() => page.isVisible('#pv-blackout'), MOMENT).toBe(false);

      await page.click('#onair');
      await pollState(server, (s) => s.onAir).toBe(true);
      await expect.poll(() => page.isVisible('#pv-onair'), MOMENT).toBe(true);

      await page.fill('#msg-text', 'Two minutes left');
      await page.click('button[data-color="red"]');
      await page.click('#msg-bold');
      await page.click('#msg-flash');
      await page.click('#msg-show');
      await pollState(server, (s) => s.message).toEqual({ text: 'Two minutes left', color: 'red', bold: true, flash: true });
      await expect.poll(() => text(page, '#pv-message'), MOMENT).toBe('Two minutes left');
      expect(await page.getAttribute('#pv-message', 'class')).toMatch(/color-red/);
      expect(await text(page, '#msg-current')).toContain('Two minutes left');
      await page.screenshot({ path: `${ARTIFACTS}/control-message.png`, fullPage: true });

      // Plain white, not bold, not flashing: Enter in the text field shows it.
      await page.click('#msg-bold');
      await page.click('#msg-flash');
      await page.click('button[data-color="green"]');
      await page.fill('#msg-text', 'Welcome back');
      await page.press('#msg-text', 'Enter');
      await pollState(server, (s) => s.message).toEqual({ text: 'Welcome back', color: 'green', bold: false, flash: false });
      await page.click('#msg-clear');
      await pollState(server, (s) => s.message).toBe(null);
      await expect.poll(() => page.isVisible('#pv-message'), MOMENT).toBe(false);

      for (const zero of ['stop', 'hide', 'continue'] as const) {
        await page.click(`button[data-zero="${zero}"]`);
        await pollState(server, (s) => s.zeroBehavior).toBe(zero);
        await expect.poll(() => page.getAttribute(`button[data-zero="${zero}"]`, 'aria-pressed'), MOMENT).toBe('true');
      }
      await page.click('#auto-advance');
      await pollState(server, (s) => s.autoAdvance).toBe(true);
      await expect.poll(() => page.getAttribute('#auto-advance', 'aria-pressed'), MOMENT).toBe('true');
      await page.click('#auto-advance');
      await pollState(server, (s) => s.autoAdvance).toBe(false);
    });
  });

  it('edits, adds, reorders, selects and deletes timers in the running order', async () => {
    await withConsole(async (page, server) => {
      expect(await rowIds(page)).toEqual(['t1', 't2', 't3']);
      await editField(page, 't2', 'label', 'Keynote: the engine');
      await pollState(server, (s) => s.timers[1]?.label).toBe('Keynote: the engine');
      await editField(page, 't2', 'speaker', 'Charles Babbage');
      await pollState(server, (s) => s.timers[1]?.speaker).toBe('Charles Babbage');
      await editField(page, 't2', 'duration', '25:30');
      await pollState(server, (s) => s.timers[1]?.duration).toBe(1_530_000);
      await editField(page, 't2', 'warnAt', '2:00');
      await pollState(server, (s) => s.timers[1]?.warnAt).toBe(120_000);
      await page.selectOption(`${row('t2')} select.f-appearance`, 'countup');
      await pollState(server, (s) => s.timers[1]?.appearance).toBe('countup');
      // The field shows the room's own spelling once saved.
      await expect.poll(() => page.inputValue(`${row('t2')} input.f-duration`), MOMENT).toBe('25:30');

      await page.click('#add-timer');
      await pollState(server, (s) => s.timers.length).toBe(4);
      const added = (await server.state()).timers[3]?.id ?? '';
      await expect.poll(() => rowIds(page), MOMENT).toEqual(['t1', 't2', 't3', added]);
      // The new row's label is ready for typing.
      await expect.poll(() => page.evaluate(() => document.activeElement?.className), MOMENT).toBe('f-label');
      await page.keyboard.type('Closing words');
      await page.keyboard.press('Enter');
      await pollState(server, (s) => s.timers[3]?.label).toBe('Closing words');

      await page.click(`${row(added)} button.up`);
      await pollState(server, (s) => s.timers.map((t) => t.id)).toEqual(['t1', 't2', added, 't3']);
      await expect.poll(() => rowIds(page), MOMENT).toEqual(['t1', 't2', added, 't3']);
      await page.click(`${row('t1')} button.down`);
      await pollState(server, (s) => s.timers.map((t) => t.id)).toEqual(['t2', 't1', added, 't3']);

      await page.click(`${row('t3')} button.select`);
      await pollState(server, (s) => s.activeTimerId).toBe('t3');
      await expect.poll(() => page.getAttribute(row('t3'), 'class'), MOMENT).toBe('active');

      // Delete takes two presses.
      await page.click(`${row(added)} button.delete`);
      await page.waitForTimeout(300);
      expect((await server.state()).timers).toHaveLength(4);
      await page.click(`${row(added)} button.delete`);
      await pollState(server, (s) => s.timers.map((t) => t.id)).toEqual(['t2', 't1', 't3']);
      await expect.poll(() => rowIds(page), MOMENT).toEqual(['t2', 't1', 't3']);
      await page.screenshot({ path: `${ARTIFACTS}/control-running-order.png`, fullPage: true });
    });
  });

  it('shows within a moment what another console or a button panel changed', async () => {
    await withConsole(async (page, server) => {
      const within = async (change: () => Promise<unknown>, check: () => Promise<boolean>): Promise<number> => {
        const startedMs = performance.now();
        await change();
        await expect.poll(check, MOMENT).toBe(true);
        return performance.now() - startedMs;
      };
      const delays = [
        await within(() => server.api('/start'), async () => (await text(page, '#start-pause-text')) === 'Pause'),
        await within(() => server.api('/message/set?text=From%20the%20panel&color=green'), async () => (await text(page, '#pv-message')) === 'From the panel'),
        await within(() => server.api('/timers', { label: 'Encore', duration: 120_000 }), async () => (await rowIds(page)).length === 4),
        await within(() => server.api('/timer/t3/update?label=Questions'), async () => (await page.inputValue(`${row('t3')} input.f-label`)) === 'Questions'),
        await within(() => server.api('/timer/t3/move?to=0'), async () => (await rowIds(page))[0] === 't3'),
        await within(() => server.api('/toggle_blackout'), async () => (await page.getAttribute('#blackout', 'aria-pressed')) === 'true'),
        await within(() => server.api('/settings?zeroBehavior=hide&autoAdvance=1'), async () => (await page.getAttribute('button[data-zero="hide"]', 'aria-pressed')) === 'true'),
      ];
      expect(await shownSeq(page)).toBe((await server.state()).seq);
      // A moment: well under a second on loopback, even on a busy machine.
      expect(Math.max(...delays)).toBeLessThan(2_500);

      // A field being typed in is not overwritten by someone else's change to it.
      await page.click(`${row('t1')} input.f-label`);
      await page.fill(`${row('t1')} input.f-label`, 'My draft');
      await server.api('/timer/t1/update?label=Theirs');
      await expect.poll(async () => (await shownSeq(page)) === (await server.state()).seq, MOMENT).toBe(true);
      expect(await page.inputValue(`${row('t1')} input.f-label`)).toBe('My draft');
      // Nor is the row being edited pulled from under the cursor when someone reorders.
      await server.api('/timer/t1/move?to=3');
      const order = (await server.state()).timers.map((t) => t.id);
      expect(order[3]).toBe('t1');
      await expect.poll(() => rowIds(page), MOMENT).toEqual(order);
      expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-id'))).toBe('t1');
      expect(await page.inputValue(`${row('t1')} input.f-label`)).toBe('My draft');
      await page.press(`${row('t1')} input.f-label`, 'Escape');
      await expect.poll(() => page.inputValue(`${row('t1')} input.f-label`), MOMENT).toBe('Theirs');
    });
  });

  it('never lets a late answer undo a newer event', async () => {
    await withConsole(async (page, server) => {
      const seq0 = (await server.state()).seq;
      // Hold the answer to the console's own request until another client has changed the room.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/adjust', async (route) => {
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
      });
      await page.click('button[data-adjust-ms="60000"]');
      await pollState(server, (s) => s.seq).toBe(seq0 + 1);
      await server.api('/message/set?text=Newer');
      await expect.poll(() => shownSeq(page), MOMENT).toBe(seq0 + 2);
      release();
      await page.waitForTimeout(500);
      expect(await shownSeq(page)).toBe(seq0 + 2);
      expect(await text(page, '#msg-current')).toContain('Newer');
      expect(await text(page, '#pv-time')).toBe('6:00');
    });
  });

  it('stays consistent with two consoles and a button panel acting at once', async () => {
    await withServer(async (server) => {
      const a = await openConsole(server);
      const b = await openConsole(server);
      try {
        const burst = Array.from({ length: 20 }, () => server.api('/adjust?ms=1000'));
        // One page clicks one thing at a time (a mouse has one pointer); the pages and the panel act at once.
        const consoleA = async (): Promise<void> => {
          await a.page.click('button[data-adjust-ms="60000"]');
          await a.page.click('#onair');
        };
        await Promise.all([consoleA(), b.page.click('button[data-adjust-ms="-10000"]'), ...burst]);
        await b.page.click('#blackout');
        const final = await (async () => {
          await pollState(server, (s) => s.blackout).toBe(true);
          return server.state();
        })();
        expect(final.remainingAtPause).toBe(300_000 + 20_000 + 60_000 - 10_000);
        for (const c of [a, b]) {
          await expect.poll(() => shownSeq(c.page), MOMENT).toBe(final.seq);
          expect(await text(c.page, '#pv-time')).toBe(countdownText(final.remainingAtPause ?? 0));
          expect(await c.page.getAttribute('#onair', 'aria-pressed')).toBe('true');
          expect(await c.page.getAttribute('#blackout', 'aria-pressed')).toBe('true');
          expect(c.problems).toEqual([]);
        }
      } finally {
        await a.context.close();
        await b.context.close();
      }
    });
  });

  it('has keyboard shortcuts, shown on the page, that keep out of text fields', async () => {
    await withConsole(async (page, server) => {
      for (const key of ['Space', 'N', 'B']) expect(await page.isVisible(`kbd:text-is("${key}")`)).toBe(true);
      // The console decides each switch from what it shows (never a blind toggle), so
      // before the same key again, the page must show the change, not only the server have it.
      const startPauseText = () => page.textContent('#start-pause-text');
      const blackoutShown = () => page.getAttribute('#blackout', 'aria-pressed');
      await page.keyboard.press('Space');
      await pollState(server, (s) => s.running).toBe(true);
      await expect.poll(startPauseText, MOMENT).toBe('Pause');
      await page.keyboard.press('Space');
      await pollState(server, (s) => s.running).toBe(false);
      await page.keyboard.press('n');
      await pollState(server, (s) => s.activeTimerId).toBe('t2');
      await page.keyboard.press('p');
      await pollState(server, (s) => s.activeTimerId).toBe('t1');
      await page.keyboard.press('b');
      await pollState(server, (s) => s.blackout).toBe(true);
      await expect.poll(blackoutShown, MOMENT).toBe('true');
      await page.keyboard.press('B');
      await pollState(server, (s) => s.blackout).toBe(false);
      await page.keyboard.press('o');
      await pollState(server, (s) => s.onAir).toBe(true);

      // Typing in a field is typing: nothing happens to the room.
      const seq = (await server.state()).seq;
      await page.click('#msg-text');
      await page.keyboard.type('no b n p o here');
      await page.focus(`${row('t2')} input.f-speaker`);
      await page.keyboard.type(' and n');
      await page.waitForTimeout(300);
      expect((await server.state()).seq).toBe(seq);
      expect(await page.inputValue('#msg-text')).toBe('no b n p o here');
      await page.press(`${row('t2')} input.f-speaker`, 'Escape');

      // Space right after clicking Next starts the timer; it does not press Next again.
      await page.click('#next');
      await pollState(server, (s) => s.activeTimerId).toBe('t2');
      await page.keyboard.press('Space');
      await pollState(server, (s) => s.running).toBe(true);
      await page.waitForTimeout(300);
      expect((await server.state()).activeTimerId).toBe('t2');
    });
  });

  it('shows the API key, the viewer link with its QR code and button-panel URLs that work', async () => {
    await withConsole(async (page, server) => {
      expect(await page.inputValue('#api-key')).toBe(server.controlUrl.split('/control/')[1]);
      const viewerUrl = await page.inputValue('#viewer-url');
      expect(viewerUrl).toMatch(/\/view\/BrowserViewerKey_9876543210-zyXW$/);
      const qr = await page.$('svg.qr');
      expect(qr).not.toBeNull();
      const box = await qr?.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(100);
      // The example URLs are real: the next-timer one, fetched as a panel would, moves the room on.
      const urls = await page.$$eval('.examples input', (inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      const next = urls.find((u) => u.endsWith('/next'));
      expect(next).toBeDefined();
      const local = new URL(next ?? '');
      const res = await fetch(`${server.base}${local.pathname}`);
      expect(res.status).toBe(200);
      await expect.poll(() => text(page, '#pv-label'), MOMENT).toBe('Keynote');
      await page.click('button[data-copy="api-key"]');
      await expect.poll(() => text(page, 'button[data-copy="api-key"]'), MOMENT).toMatch(/Copied|Ctrl\+C/);
      await page.locator('section.links').screenshot({ path: `${ARTIFACTS}/control-links.png` });
    });
  });

  it("shows the API's error messages in words", async () => {
    await withConsole(async (page, server) => {
      await page.click(`${row('t3')} button.select`);
      await pollState(server, (s) => s.activeTimerId).toBe('t3');
      await page.keyboard.press('n');
      await expect.poll(() => text(page, '#notice-text'), MOMENT).toContain('no next timer');
      expect(await page.isVisible('#notice')).toBe(true);
      await page.click('#notice-close');
      expect(await page.isVisible('#notice')).toBe(false);

      await editField(page, 't1', 'duration', '0:00');
      await expect.poll(() => text(page, '#notice-text'), MOMENT).toMatch(/^Duration of "Opening": duration: 0 is too small/);
      await expect.poll(() => page.inputValue(`${row('t1')} input.f-duration`), MOMENT).toBe('5:00');

      await editField(page, 't1', 'duration', 'soon');
      await expect.poll(() => text(page, '#notice-text'), MOMENT).toContain('"soon" is not a duration');

      await page.fill('#msg-text', '   ');
      await page.click('#msg-show');
      await expect.poll(() => text(page, '#notice-text'), MOMENT).toContain('text: is empty');
      expect((await server.state()).message).toBe(null);
      await page.screenshot({ path: `${ARTIFACTS}/control-error.png` });
    });
  });

  it('says so when the rate limit refuses a request', async () => {
    await withConsole(
      async (page, server) => {
        // The stream counted once; a busy button panel spends the rest of the minute's quota.
        for (let i = 0; i < 6; i += 1) await server.api('/status');
        await page.click('#start-pause');
        await expect.poll(() => text(page, '#notice-text'), MOMENT).toMatch(/^Start: rate limit exceeded: at most 6 requests per minute; try again in \d+ s$/);
        expect(await text(page, '#start-pause-text')).toBe('Start');
      },
      { limit: 6 },
    );
  });

  it('reconnects after the box restarts and shows the new room, even though its seq started again', async () => {
    const first = await startControlServer({ pagesDir: rig.pagesDir, room: showRoom() });
    const c = await openConsole(first);
    let second: ControlServer | null = null;
    let firstOpen = true;
    try {
      for (let i = 0; i < 5; i += 1) await first.api('/adjust?ms=1000');
      await expect.poll(() => shownSeq(c.page), MOMENT).toBe((await first.state()).seq);
      await first.close();
      firstOpen = false;
      await expect.poll(() => text(c.page, '#connection'), MOMENT).toBe('reconnecting…');
      // The same address, a fresh room (no saved state): seq 1, lower than what the console saw.
      second = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('fresh'), port: first.port });
      await expect.poll(() => text(c.page, '#connection'), { timeout: 15_000, interval: 100 }).toBe('live');
      await expect.poll(() => rowIds(c.page), MOMENT).toEqual(['fresh']);
      expect(await shownSeq(c.page)).toBe(1);
      // And it goes on working against the new box.
      await c.page.click('#start-pause');
      await pollState(second, (s) => s.running).toBe(true);
      expect(c.problems.filter((p) => !p.includes('ERR_CONNECTION_REFUSED'))).toEqual([]);
    } finally {
      await c.context.close();
      if (firstOpen) await first.close();
      await second?.close();
    }
  });

  it('previews the server time even when the device clock is minutes off', async () => {
    await withServer(async (server) => {
      await server.api('/adjust?ms=-292000');
      await server.api('/start');
      const c = await openConsole(server, { wrongDeviceClockMs: -7 * 60_000 });
      try {
        // Running from 8 s: the preview counts the server's seconds, not the device's.
        const remaining = (await server.state()).remaining;
        const shown = await text(c.page, '#pv-time');
        expect([countdownText(remaining - 1000), countdownText(remaining), countdownText(remaining + 1000)]).toContain(shown);
        // Past zero (continue): the overrun in red with a plus, still on the server's seconds.
        await expect.poll(() => text(c.page, '#pv-time'), { timeout: 15_000, interval: 100 }).toMatch(/^\+0:0[1-9]$/);
        const overrun = (await server.state()).remaining;
        const shownOver = await text(c.page, '#pv-time');
        expect([countdownText(overrun - 1000), countdownText(overrun), countdownText(overrun + 1000)]).toContain(shownOver);
        expect(await c.page.getAttribute('#pv-screen', 'class')).toContain('tone-over');
        expect(c.problems).toEqual([]);
      } finally {
        await c.context.close();
      }
    });
  });

  it('runs a whole show from the console alone', async () => {
    await withServer(
      async (server) => {
      const c = await openConsole(server);
      const page = c.page;
      try {
        // Build the running order from the default room.
        const [first] = await rowIds(page);
        expect(first).toBeDefined();
        const id1 = first ?? '';
        await editField(page, id1, 'label', 'Welcome');
        await editField(page, id1, 'speaker', 'Host');
        await editField(page, id1, 'duration', '4s');
        for (const [label, speaker, duration] of [
          ['Keynote', 'Ada Lovelace', '0:04'],
          ['Q&A', 'Everyone', '3s'],
        ] as const) {
          const before = (await rowIds(page)).length;
          await page.click('#add-timer');
          await expect.poll(async () => (await rowIds(page)).length, MOMENT).toBe(before + 1);
          const id = (await rowIds(page))[before] ?? '';
          await editField(page, id, 'label', label);
          await editField(page, id, 'speaker', speaker);
          await editField(page, id, 'duration', duration);
        }
        await pollState(server, (s) => s.timers.map((t) => [t.label, t.duration])).toEqual([
          ['Welcome', 4_000],
          ['Keynote', 4_000],
          ['Q&A', 3_000],
        ]);
        await page.click('#auto-advance');
        await page.click('button[data-zero="stop"]');
        await pollState(server, (s) => [s.autoAdvance, s.zeroBehavior]).toEqual([true, 'stop']);
        await page.click(`${row(id1)} button.select`);
        await page.click('#onair');
        await pollState(server, (s) => s.onAir).toBe(true);
        await page.fill('#msg-text', 'Welcome everyone');
        await page.press('#msg-text', 'Enter');
        await pollState(server, (s) => s.message?.text).toBe('Welcome everyone');

        // Go: the room advances by itself through the running order and stops at zero on the last.
        await page.locator('h1').click();
        await page.keyboard.press('Space');
        await pollState(server, (s) => s.running).toBe(true);
        await page.screenshot({ path: `${ARTIFACTS}/control-show-running.png`, fullPage: true });
        await expect.poll(() => text(page, '#pv-label'), { timeout: 8_000, interval: 50 }).toBe('Keynote');
        await page.click('#msg-clear');
        await expect.poll(() => text(page, '#pv-label'), { timeout: 8_000, interval: 50 }).toBe('Q&A');
        await expect.poll(() => text(page, '#pv-state'), { timeout: 8_000, interval: 50 }).toBe('Paused · timer 3 of 3');
        expect(await text(page, '#pv-time')).toBe('0:00');
        await page.keyboard.press('b');
        await page.keyboard.press('o');
        const end = await (async () => {
          await pollState(server, (s) => [s.blackout, s.onAir]).toEqual([true, false]);
          return server.state();
        })();
        expect(end).toMatchObject({ running: false, remainingAtPause: 0, activeLabel: 'Q&A', message: null });
        await expect.poll(() => shownSeq(page), MOMENT).toBe(end.seq);
        await page.screenshot({ path: `${ARTIFACTS}/control-show-end.png`, fullPage: true });
        expect(c.problems).toEqual([]);
      } finally {
        await c.context.close();
      }
    },
      { room: createRoom('t1') },
    );
  });
});
