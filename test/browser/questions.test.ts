// Audience questions end to end in a real Chromium (issue 16), against a real
// server on 127.0.0.1: a phone-sized /ask page sends questions; the console
// (/control) sees each one within 100 ms of the 201 (the median of the five one
// address may send in a minute: this 2-core machine is shared, so one slow
// sample is allowed), approves one and shows it with the name; the kiosk and a
// viewer show it in its own area; a 280-character question full of markup is
// shown as the characters it is (no element made, no dialog) and never overlaps
// the time at 1920x1080, 1280x720 and on a 390x844 phone; the viewer and kiosk
// streams never carry a hidden or unshown question; showAskLink puts the audience
// link's code on the screens, loaded and beside the time. Screenshots:
// test-artifacts/questions-*.png; the latencies: test-artifacts/questions-latency.json.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { Question, Room } from '../../src/domain/types.js';
import { streamSnapshots } from '../../src/client/stream-snapshots.js';
import { ARTIFACTS, saveArtifact, saveScreenshot, overlaps, type Box } from './browser-kit.js';
import { AUDIENCE_KEY, VIEWER_KEY, startControlServer, useBrowserRig, type ControlServer } from './control-server.js';

const MOMENT = { timeout: 5_000, interval: 20 };
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1366, height: 768 };

const MARKUP = '<img src=x onerror=alert(1)><b>bold</b>';
/** Exactly 280 characters (the most a question may have), markup first, a word no line can break. */
const LONG_QUESTION = `${MARKUP}<script>alert(2)</script> ${'W'.repeat(40)} ${'why does the countdown on the stage screen never drift from the one in the control room '.repeat(4)}`
  .slice(0, 279)
  .trimEnd()
  .padEnd(279, 'x')
  .concat('?');
const FIRST = { text: 'Will the slides be shared after the keynote?', name: 'Ada from row 3' };

/** The text as it was, or a start of it that ends at a whole word, followed by "…". */
function shownWholeOrAtWordEnd(shown: string, text: string): boolean {
  if (shown === text) return true;
  if (!shown.endsWith('…')) return false;
  const kept = shown.slice(0, -1).trimEnd();
  return kept.length > 0 && text.startsWith(kept) && /\s/.test(text.charAt(kept.length));
}
const LONG = { text: LONG_QUESTION, name: '<i>Eve</i> & "friends"' };
// Markers that must never reach a viewer or the kiosk: a hidden question and two never shown.
const HIDDEN = { text: 'HIDDEN-7f3a: a rude remark nobody should see', name: 'Troll' };
const NEVER_SHOWN = { text: 'NEVER-SHOWN-91c2: still waiting for the moderator', name: '' };
const APPROVED_ONLY = { text: 'APPROVED-ONLY-55b1: kept for later', name: 'Lin' };

const rig = useBrowserRig();
let server: ControlServer;

/** One timer running, with a message on the screens: the question shares the column with both. */
function showRoom(): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  return { ...base, timers: [{ ...first, label: 'Keynote: the year ahead', speaker: 'Grace Hopper', duration: 1_200_000 }], transport: { running: false, remainingMs: 1_200_000 } };
}

beforeAll(async () => {
  expect([...LONG_QUESTION].length).toBe(280);
  server = await startControlServer({ pagesDir: rig.pagesDir, room: showRoom() });
  expect((await server.api('/start', {})).status).toBe(200);
  const message = await server.api('/message/set', { text: 'Five minutes to the break', color: 'white' });
  expect(message.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Script errors and console errors (failed loads excepted: one step answers 400 on purpose). */
  readonly problems: string[];
  /** Every alert, confirm or prompt: the audience's markup must never open one. */
  readonly dialogs: string[];
}

type Recorded = Window & { __sse: string; __sentAt: number[]; __answeredAt: number[]; __seen: Record<string, number> };

async function open(url: string, options: BrowserContextOptions, opts: { recordStream?: boolean; recordAnswers?: boolean } = {}): Promise<Opened> {
  const context = await rig.browser.newContext({ timezoneId: 'UTC', ...options });
  // A step that hangs fails on its own line, not as the whole test's timeout.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  if (opts.recordStream === true) {
    // Every byte of the page's own push stream, read from a clone of the response its script reads.
    await page.addInitScript(() => {
      const w = window as unknown as Recorded;
      w.__sse = '';
      const original = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        const answer = original(input, init);
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (!url.endsWith('/events')) return answer;
        return answer.then((response) => {
          const body = response.clone().body;
          if (body !== null) {
            const reader = body.getReader();
            const decoder = new TextDecoder();
            const pump = (): Promise<void> =>
              reader.read().then((chunk) => {
                if (chunk.done) return;
                w.__sse += decoder.decode(chunk.value, { stream: true });
                return pump();
              });
            pump().catch(() => {});
          }
          return response;
        });
      };
    });
  }
  if (opts.recordAnswers === true) {
    // The instant the page has the box's 201 (headers in), on this machine's clock, as the console's is read.
    await page.addInitScript(() => {
      const w = window as unknown as Recorded;
      w.__sentAt = [];
      w.__answeredAt = [];
      const original = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        w.__sentAt.push(Date.now());
        return original(input, init).then((response) => {
          if (response.status === 201) w.__answeredAt.push(Date.now());
          return response;
        });
      };
    });
  }
  await page.goto(url);
  return { context, page, problems, dialogs };
}

async function openConsole(size: { width: number; height: number }): Promise<Opened> {
  const opened = await open(server.controlUrl, { viewport: size });
  await opened.page.waitForSelector('#connection.live');
  await opened.page.waitForSelector('body[data-seq]');
  return opened;
}

async function openDisplay(path: string, size: { width: number; height: number }): Promise<Opened> {
  const opened = await open(`${server.base}${path}`, { viewport: size }, { recordStream: true });
  await opened.page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
  await opened.page.waitForFunction(() => document.fonts.status === 'loaded');
  return opened;
}

function within(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not shown`);
  return box;
}

const roomQuestions = async (): Promise<Question[]> => (await server.api('/questions')).body.questions as Question[];
const questionState = async (id: string): Promise<string | undefined> => (await roomQuestions()).find((q) => q.id === id)?.state;
const row = (id: string): string => `#question-list li[data-question="${id}"]`;
const fitsWidth = (page: Page): Promise<boolean> => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const textOf = async (page: Page, selector: string): Promise<string> => (await page.textContent(selector)) ?? '';

/** The snapshots an SSE stream's events make (a `state` event whole, a `patch` applied to the one before), as the page rebuilds them. */
function stateEvents(sse: string): Snapshot[] {
  const states: Snapshot[] = [];
  const take = streamSnapshots((value): value is Snapshot => typeof value === 'object' && value !== null);
  for (const block of sse.split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
    if (event === undefined) continue;
    const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart());
    const snapshot = take(event, data.join('\n'));
    if (snapshot === null) throw new Error(`a patch that does not fit the stream: ${data.join('').slice(0, 200)}`);
    if (snapshot !== undefined) states.push(snapshot);
  }
  return states;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

describe('audience questions from a phone to the screens', { timeout: 120_000 }, () => {
  it('runs the Q&A: ask, see at once, moderate, show as text beside the time, never leak the rest', async () => {
    const desk = await openConsole(DESK);
    const kiosk = await openDisplay('/display', { width: 1920, height: 1080 });
    const viewer = await openDisplay(`/view/${VIEWER_KEY}`, { width: 1280, height: 720 });
    const phone = await open(`${server.base}/ask/${AUDIENCE_KEY}`, { viewport: PHONE, isMobile: true, hasTouch: true }, { recordAnswers: true });
    const opened = [desk, kiosk, viewer, phone];
    try {
      // The console notes when each question's text first appears in its list.
      await desk.page.evaluate(() => {
        const w = window as unknown as Recorded;
        w.__seen = {};
        const list = document.getElementById('question-list');
        if (list === null) throw new Error('no question list');
        new MutationObserver(() => {
          const texts = list.querySelectorAll('.q-text');
          for (let i = 0; i < texts.length; i += 1) {
            const text = texts[i]?.textContent ?? '';
            if (w.__seen[text] === undefined) w.__seen[text] = Date.now();
          }
        }).observe(list, { childList: true, subtree: true, characterData: true });
      });

      // --- Five questions from the phone (what one address may send in a minute), each timed to the console.
      const ids = new Map<string, string>();
      const latencies: number[] = [];
      const fromSend: number[] = [];
      for (const q of [FIRST, LONG, HIDDEN, NEVER_SHOWN, APPROVED_ONLY]) {
        await phone.page.fill('#ask-text', q.text);
        await phone.page.fill('#ask-name', q.name);
        const answers = await phone.page.evaluate(() => (window as unknown as Recorded).__answeredAt.length);
        const [answer] = await Promise.all([
          phone.page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/ask/')),
          phone.page.tap('#ask-send'),
        ]);
        expect(answer.status()).toBe(201);
        await expect.poll(() => phone.page.evaluate(() => (window as unknown as Recorded).__answeredAt.length), MOMENT).toBe(answers + 1);
        const [sentAt, answeredAt] = await phone.page.evaluate(() => {
          const w = window as unknown as Recorded;
          return [w.__sentAt[w.__sentAt.length - 1] as number, w.__answeredAt[w.__answeredAt.length - 1] as number];
        });
        // Its id from the room (the page leaves the 201's body unread, so the browser never finishes it).
        const kept = (await roomQuestions()).find((r) => r.text === q.text);
        expect(kept?.name).toBe(q.name);
        ids.set(q.text, kept?.id ?? '');
        const seenAt = (): Promise<number | null> => desk.page.evaluate((text) => (window as unknown as Recorded).__seen[text] ?? null, q.text);
        await expect.poll(seenAt, MOMENT).not.toBeNull();
        const seen = (await seenAt()) as number;
        latencies.push(seen - answeredAt);
        fromSend.push(seen - (sentAt as number));
        await expect.poll(() => phone.page.locator('#ask-status').innerText(), MOMENT).toContain('your question was received');
      }
      saveArtifact('questions-latency.json', {
        note: 'ms from the 201 reaching the phone page to the text in the console DOM (negative: the push came first); fromSend: from the page sending the POST',
        latencies,
        median: median(latencies),
        fromSend,
        fromSendMedian: median(fromSend),
      });
      // The push goes out when the room changes; the 201 waits for the disk. On loopback it is well under 100 ms.
      expect(median(latencies)).toBeLessThan(100);
      expect(Math.max(...latencies)).toBeLessThan(1_000);
      await saveScreenshot(phone.page, 'questions-phone-390x844-sent');

      const idOf = (q: { text: string }): string => {
        const id = ids.get(q.text);
        if (id === undefined) throw new Error(`no id for ${q.text}`);
        return id;
      };
      const firstId = idOf(FIRST);
      const longId = idOf(LONG);

      // The count of new ones, in the header and in the heading; new ones first, each with its name and time.
      await expect.poll(() => textOf(desk.page, '#questions-badge'), MOMENT).toBe('5 new questions');
      expect(await textOf(desk.page, '#questions-new')).toBe('5 new');
      expect(await desk.page.$$eval('#question-list li', (lis) => lis.map((li) => li.getAttribute('data-question')))).toEqual([...ids.values()]);
      expect(await textOf(desk.page, `${row(firstId)} .q-name`)).toBe(FIRST.name);
      expect(await textOf(desk.page, `${row(firstId)} .q-state`)).toBe('New');
      expect(await textOf(desk.page, `${row(firstId)} .q-time`)).toMatch(/^received \d\d:\d\d$/);
      expect(await textOf(desk.page, `${row(idOf(NEVER_SHOWN))} .q-name`)).toBe('no name');

      // --- The moderator approves the first and shows it with the name.
      await desk.page.click(`${row(firstId)} button[data-q-action="approve"]`);
      await expect.poll(() => questionState(firstId), MOMENT).toBe('approved');
      await expect.poll(() => textOf(desk.page, '#questions-badge'), MOMENT).toBe('4 new questions');
      await desk.page.click(`${row(firstId)} button[data-q-with-name]`);
      expect(await desk.page.getAttribute(`${row(firstId)} button[data-q-with-name]`, 'aria-pressed')).toBe('true');
      await desk.page.click(`${row(firstId)} button[data-q-action="show"]`);
      await expect.poll(async () => (await server.state()).shownQuestion, MOMENT).toEqual({ id: firstId, text: FIRST.text, name: FIRST.name });
      for (const display of [kiosk, viewer]) {
        await expect.poll(() => textOf(display.page, '#question-text'), MOMENT).toBe(FIRST.text);
        expect(await textOf(display.page, '#question-name')).toBe(FIRST.name);
        expect(await display.page.isVisible('#question')).toBe(true);
        expect(await display.page.isVisible('#message')).toBe(true);
        expect(overlaps(await boxOf(display.page, '#question'), await boxOf(display.page, '#time'))).toBe(false);
      }
      await expect.poll(() => textOf(desk.page, '#pv-question-text'), MOMENT).toBe(FIRST.text);
      expect(await textOf(desk.page, '#questions-current')).toBe(`${FIRST.text} (${FIRST.name})`);
      await saveScreenshot(kiosk.page, 'questions-kiosk-1920x1080-shown');

      // --- One hidden, one approved, one left new: none of them may reach a screen.
      await desk.page.click(`${row(idOf(HIDDEN))} button[data-q-action="hide"]`);
      await expect.poll(() => questionState(idOf(HIDDEN)), MOMENT).toBe('hidden');
      await desk.page.click(`${row(idOf(APPROVED_ONLY))} button[data-q-action="approve"]`);
      await expect.poll(() => questionState(idOf(APPROVED_ONLY)), MOMENT).toBe('approved');

      // An error lands under the row of the question it was about.
      await desk.page.route('**/question/hide', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ ok: false, error: 'questionId: no question with id "gone"' }) }),
      );
      await desk.page.click(`${row(idOf(NEVER_SHOWN))} button[data-q-action="hide"]`);
      await expect.poll(() => desk.page.isVisible('#notice'), MOMENT).toBe(true);
      expect(await desk.page.$eval('#notice', (n) => n.closest('li')?.getAttribute('data-question') ?? null)).toBe(idOf(NEVER_SHOWN));
      expect(await textOf(desk.page, '#notice-text')).toBe('Hide the question: questionId: no question with id "gone"');
      await desk.page.unroute('**/question/hide');
      await desk.page.click('#notice-close');

      // --- The 280-character question full of markup, shown with its (marked-up) name.
      await desk.page.click(`${row(longId)} button[data-q-with-name]`);
      expect(await desk.page.getAttribute(`${row(longId)} button[data-q-with-name]`, 'aria-pressed')).toBe('true');
      await desk.page.click(`${row(longId)} button[data-q-action="show"]`);
      await expect.poll(async () => (await server.state()).shownQuestion?.id, MOMENT).toBe(longId);
      // The one shown before has been answered on stage.
      expect(await questionState(firstId)).toBe('answered');
      const sizes = [
        { opened: kiosk, name: 'kiosk-1920x1080' },
        { opened: viewer, name: 'viewer-1280x720' },
        { opened: await openDisplay(`/view/${VIEWER_KEY}`, PHONE), name: 'viewer-390x844' },
      ];
      opened.push(sizes[2]?.opened as Opened);
      for (const { opened: display, name } of sizes) {
        const page = display.page;
        // Whole, or (where the time leaves too little room at the smallest readable size) cut at a word end with "…".
        await expect.poll(() => textOf(page, '#question-text'), MOMENT).toSatisfy((shown: string) => shownWholeOrAtWordEnd(shown, LONG.text));
        expect(await textOf(page, '#question-name')).toBe(LONG.name);
        // Characters, not markup: no element made from it anywhere on the screen.
        expect(await page.$eval('#question', (q) => q.querySelectorAll('*').length)).toBe(2);
        expect(await page.$$eval('img:not(#logo):not(#ask-link), b, i, script:not([src])', (found) => found.length)).toBe(0);
        const time = await boxOf(page, '#time');
        const question = await boxOf(page, '#question');
        const viewport = page.viewportSize() ?? { width: 0, height: 0 };
        expect(overlaps(question, time), `${name}: question ${JSON.stringify(question)} time ${JSON.stringify(time)}`).toBe(false);
        expect(overlaps(question, await boxOf(page, '#message')), `${name}: question and message`).toBe(false);
        expect(within(question, { x: 0, y: 0, width: viewport.width, height: viewport.height })).toBe(true);
        // Fitted: the clipped text and the name stay inside the question's box.
        expect(within(await boxOf(page, '#question-text'), question), `${name}: text inside its box`).toBe(true);
        expect(within(await boxOf(page, '#question-name'), question), `${name}: name inside its box`).toBe(true);
        expect(time.height, `${name}: the time keeps a readable size`).toBeGreaterThan(viewport.height * 0.06);
        await saveScreenshot(page, `questions-${name}-long`);
      }
      // The console lists it as text too, and its preview draws it as the screens do.
      expect(await textOf(desk.page, `${row(longId)} .q-text`)).toBe(LONG.text);
      expect(await desk.page.$$eval('#question-list img, #question-list b, #question-list i', (found) => found.length)).toBe(0);
      await expect.poll(() => textOf(desk.page, '#pv-question-text'), MOMENT).toSatisfy((shown: string) => shownWholeOrAtWordEnd(shown, LONG.text));
      await desk.page.locator('#questions').scrollIntoViewIfNeeded();
      await saveScreenshot(desk.page, 'questions-console-1366x768');
      expect(await fitsWidth(desk.page)).toBe(true);

      // --- The audience link's code on the screens, loaded, beside the time.
      const askLinkLoads: string[] = [];
      kiosk.page.on('request', (request) => {
        if (request.url().includes('/ask-link.svg')) askLinkLoads.push(new URL(request.url()).pathname + new URL(request.url()).search);
      });
      await desk.page.click('button[data-show="showAskLink"]');
      await expect.poll(async () => (await server.state()).display.showAskLink, MOMENT).toBe(true);
      for (const { opened: display, name } of sizes) {
        const page = display.page;
        await expect.poll(() => page.$eval('#ask-link', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0 && !(img as HTMLImageElement).hidden), MOMENT).toBe(true);
        const code = await boxOf(page, '#ask-link');
        const time = await boxOf(page, '#time');
        expect(overlaps(code, time), `${name}: code ${JSON.stringify(code)} time ${JSON.stringify(time)}`).toBe(false);
        expect(overlaps(code, await boxOf(page, '#question')), `${name}: code and question`).toBe(false);
        await saveScreenshot(page, `questions-${name}-ask-link`);
      }
      expect(askLinkLoads).toEqual(['/display/ask-link.svg?r=1']);
      await expect.poll(() => desk.page.$eval('#pv-ask-link', (img) => (img as HTMLImageElement).naturalWidth), MOMENT).toBeGreaterThan(0);
      // Off and on again: fetched afresh.
      await desk.page.click('button[data-show="showAskLink"]');
      await expect.poll(() => kiosk.page.isHidden('#ask-link'), MOMENT).toBe(true);
      await desk.page.click('button[data-show="showAskLink"]');
      await expect.poll(() => askLinkLoads, MOMENT).toEqual(['/display/ask-link.svg?r=1', '/display/ask-link.svg?r=2']);
      await expect.poll(() => kiosk.page.isVisible('#ask-link'), MOMENT).toBe(true);
      // The console shows the same link with its code, ready to copy.
      expect(await desk.page.inputValue('#ask-url')).toMatch(new RegExp(`^http://[^/]+/ask/${AUDIENCE_KEY}$`));
      expect(await desk.page.locator('#ask-link svg.qr').count()).toBe(1);
      await desk.page.locator('section.links').screenshot({ path: `${ARTIFACTS}/questions-console-links.png` });

      // --- The layouts: time only keeps the code beside the time but no question; the lower third has neither.
      const display = async (fields: Record<string, unknown>): Promise<void> => {
        expect((await server.api('/display', fields)).status).toBe(200);
      };
      await display({ layout: 'minimal' });
      await expect.poll(() => kiosk.page.isHidden('#question'), MOMENT).toBe(true);
      expect(await kiosk.page.isVisible('#ask-link')).toBe(true);
      expect(overlaps(await boxOf(kiosk.page, '#ask-link'), await boxOf(kiosk.page, '#time'))).toBe(false);
      await saveScreenshot(kiosk.page, 'questions-kiosk-1920x1080-minimal');
      await display({ layout: 'lowerThird' });
      await expect.poll(() => kiosk.page.isHidden('#ask-link'), MOMENT).toBe(true);
      expect(await kiosk.page.isHidden('#question')).toBe(true);
      await saveScreenshot(kiosk.page, 'questions-kiosk-1920x1080-lower-third');
      await display({ layout: 'full', showQuestion: false });
      await expect.poll(() => kiosk.page.isVisible('#ask-link'), MOMENT).toBe(true);
      expect(await kiosk.page.isHidden('#question')).toBe(true);
      // The console says why the question it shows is not on the screens.
      await expect.poll(() => desk.page.isVisible('#questions-screens-off'), MOMENT).toBe(true);
      await display({ showQuestion: true });
      await expect.poll(() => kiosk.page.isVisible('#question'), MOMENT).toBe(true);
      expect(await desk.page.isHidden('#questions-screens-off')).toBe(true);

      // --- Off the screens, answered, cleared, deleted.
      await desk.page.click('#questions-unshow');
      await expect.poll(() => questionState(longId), MOMENT).toBe('approved');
      for (const display of [kiosk, viewer]) await expect.poll(() => display.page.isHidden('#question'), MOMENT).toBe(true);
      await desk.page.click(`${row(longId)} button[data-q-action="answered"]`);
      await expect.poll(() => questionState(longId), MOMENT).toBe('answered');
      await desk.page.click('#questions-clear');
      expect(await textOf(desk.page, '#questions-clear')).toBe('Delete 2 answered?');
      await desk.page.click('#questions-clear');
      await expect.poll(async () => (await roomQuestions()).map((q) => q.id).sort(), MOMENT).toEqual([idOf(HIDDEN), idOf(NEVER_SHOWN), idOf(APPROVED_ONLY)].sort());
      await desk.page.click(`${row(idOf(APPROVED_ONLY))} button[data-q-action="delete"]`);
      await desk.page.click(`${row(idOf(APPROVED_ONLY))} button[data-q-action="delete"]`);
      await expect.poll(async () => (await roomQuestions()).length, MOMENT).toBe(2);
      await expect.poll(() => desk.page.locator('#question-list li').count(), MOMENT).toBe(2);
      // Filtered to the hidden ones.
      await desk.page.click('button[data-q-filter="hidden"]');
      await expect.poll(() => desk.page.$$eval('#question-list li', (lis) => lis.map((li) => li.getAttribute('data-question'))), MOMENT).toEqual([idOf(HIDDEN)]);
      await desk.page.click('button[data-q-filter="all"]');

      // --- What the viewer and the kiosk were sent, every byte of it: the shown ones, never the others.
      for (const display of [kiosk, viewer]) {
        const sse = await display.page.evaluate(() => (window as unknown as Recorded).__sse);
        const states = stateEvents(sse);
        expect(states.length).toBeGreaterThan(5);
        const shown = new Set(states.map((s) => (s.shownQuestion === null ? null : `${s.shownQuestion.text} / ${s.shownQuestion.name}`)));
        expect([...shown]).toEqual(expect.arrayContaining([null, `${FIRST.text} / ${FIRST.name}`, `${LONG.text} / ${LONG.name}`]));
        expect(shown.size).toBe(3);
        expect(states.every((s) => !('questions' in s))).toBe(true);
        // And not a byte of the others, in any field or escape.
        for (const never of [HIDDEN, NEVER_SHOWN, APPROVED_ONLY]) expect(sse).not.toContain(never.text.slice(0, 12));
      }

      for (const o of opened) {
        expect(o.dialogs).toEqual([]);
        expect(o.problems).toEqual([]);
      }
    } finally {
      for (const o of opened) await o.context.close();
    }
  });

  it('fits the panel on a 390x844 phone console, nothing scrolling sideways', async () => {
    const phoneConsole = await openConsole(PHONE);
    try {
      const state: Snapshot = await server.state();
      expect(state.questions?.length).toBeGreaterThan(0);
      await phoneConsole.page.locator('#questions').scrollIntoViewIfNeeded();
      await expect.poll(() => phoneConsole.page.locator('#question-list li').count(), MOMENT).toBe(state.questions?.length ?? 0);
      expect(await fitsWidth(phoneConsole.page)).toBe(true);
      await saveScreenshot(phoneConsole.page, 'questions-console-390x844');
      await phoneConsole.page.locator('#questions').screenshot({ path: `${ARTIFACTS}/questions-console-390x844-panel.png` });
      expect(phoneConsole.problems).toEqual([]);
    } finally {
      await phoneConsole.context.close();
    }
  });
});
