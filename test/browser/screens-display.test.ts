// The display page (kiosk /display and viewer /view/{key}) walked once more, issue 31:
// every state at the five screen sizes in the three layouts, for the same class of
// fault the show run found: a state shown wrong, text cut with room to spare, an
// element outside its container, ON AIR missing or covered, text below WCAG AA.
//
// Pages are opened once and reused: one browser context per size, in it three pages,
// one per layout, each reaching its layout a different way, so both ways are walked:
//   full        /view/{key}?layout=full     (a viewer link's own layout)
//   minimal     /view/{key}?layout=minimal  (a viewer link's own layout)
//   lowerThird  /display                    (the kiosk, the room's display setting)
// Each scene below sets the room once and is checked on all 15 pages. The states are
// combined so each one is seen at each size in each layout, not every combination:
//   ready-short      never started; short title and speaker; ON AIR and the logo on
//   running-long     running; 200-character title and speaker (the API's max), a 40-character tag; ON AIR, logo
//   warning-message  in the warning time; a 500-character message (the max); ON AIR
//   danger-question  past dangerAt; an audience question (280 characters, the max) with its name
//   overrun-schedule past zero; over/under, show end, the aux in its area, next and a 12 h New York
//                    time of day; ON AIR, logo
//   paused-long      started then paused; long title and speaker; logo
//   stopped          zeroBehavior stop, at zero; ON AIR
//   flash            a screen flash while running; ON AIR
//   blackout         blackout over a running timer with ON AIR on: all black (the operator's
//                    choice to show nothing wins over ON AIR)
//   aux              the link with ?show=aux: the aux timer as the main time; ON AIR
// Screenshots: test-artifacts/screens-display-<layout>-<size>-<state>.png; the faults
// found, as JSON: test-artifacts/screens-display-faults.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, DisplayLayout } from '../../src/domain/types.js';
import { LOGO_FIXTURES } from '../helpers/logo-fixtures.js';
import { buildDisplayBundle, launchChromium, pixelStats, saveArtifact, saveScreenshot } from './browser-kit.js';
import { contrastFaults, cutTexts, SCREEN_SIZES, sizeName, spillFaults, type ScreenSize } from './layout-kit.js';
import { API_KEY, startLiveServer, VIEWER_KEY, type LiveServer } from './live-server.js';

const MINUTE = 60_000;
/** Exactly `length` characters of whole words, ending in `end` (a screenshot shows whether the end was cut), made up with "now" and at most three '!'. */
function wordsOf(length: number, start: string, phrase: string, end: string): string {
  const words = `${start}${phrase.repeat(Math.ceil(length / phrase.length))}`.split(' ');
  let text = '';
  for (const word of words) {
    if (`${text}${word} ${end}`.length > length) break;
    text += `${word} `;
  }
  while (`${text}now ${end}`.length <= length) text += 'now ';
  return `${text}${end}`.padEnd(length, '!');
}
const LONG_TITLE = wordsOf(200, 'Opening keynote and welcome: the future of live events, ', 'from the stage to the stream and back again, ', 'THE END');
const LONG_SPEAKER = wordsOf(200, 'Professor Maria Fernanda Lopez Garcia de la Vega, ', 'Chair of Stagecraft and Broadcast Engineering, ', 'THE END');
const SHORT_TITLE = 'Closing remarks';
const SHORT_SPEAKER = 'Maria Lopez (host)';
const LONG_MESSAGE = wordsOf(500, 'Please wrap up now: ', 'the next session starts in the main hall in five minutes and the doors open backstage right, ', 'THE END');
const LONG_QUESTION = wordsOf(280, 'How do you keep a show on time when ', 'every speaker runs over by a few minutes and the audience still has questions, ', 'THE END?');

/** How each layout's page is reached (see the head comment). */
const LAYOUT_PATHS: Readonly<Record<DisplayLayout, string>> = {
  full: `/view/${VIEWER_KEY}?layout=full`,
  minimal: `/view/${VIEWER_KEY}?layout=minimal`,
  lowerThird: '/display',
};
const LAYOUTS: readonly DisplayLayout[] = ['full', 'minimal', 'lowerThird'];

/** What a page must show for a scene; the checks wait for it, then measure. */
interface Expected {
  /** The held mark's text, '' for none. */
  readonly mark: string;
  /** Classes the screen must carry (tone-warn, tone-danger, tone-over, inverted). */
  readonly classes: readonly string[];
  /** The title and the speaker in full (the page may show them cut at a word end). */
  readonly label: string;
  readonly speaker: string;
  readonly onAir: boolean;
  readonly logo: boolean;
  readonly message: boolean;
  readonly question: boolean;
  readonly extras: boolean;
  readonly blackout: boolean;
  /** The digits start with this ('+' in overrun). */
  readonly timePrefix: string;
}

const BASE: Expected = { mark: '', classes: [], label: SHORT_TITLE, speaker: SHORT_SPEAKER, onAir: false, logo: false, message: false, question: false, extras: false, blackout: false, timePrefix: '' };

interface Scene {
  readonly name: string;
  readonly expected: Expected;
  /** The link's query added to every page (the aux scene's ?show=aux). */
  readonly query?: string;
  /** Sets the room; called once before the pages are checked. */
  setUp(): Promise<void>;
  /** Called before each layout's pages are checked (the flash, which lasts seconds). */
  perLayout?(): Promise<void>;
}

interface Fault {
  readonly scene: string;
  readonly layout: DisplayLayout;
  readonly size: string;
  readonly kind: 'spill' | 'cut' | 'onair' | 'state' | 'contrast' | 'blackout';
  readonly detail: string;
}

let browser: Browser;
let pagesDir: string;
let dataDir: string;
let server: LiveServer;
/** Per size, its context and a page per layout, reused by every scene. */
const screens: { size: ScreenSize; context: BrowserContext; pages: Record<DisplayLayout, Page> }[] = [];
const allFaults: Fault[] = [];
let currentQuery = '';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-screens-display-'));
  [pagesDir, browser] = await Promise.all([buildDisplayBundle(), launchChromium()]);
  server = await startLiveServer({ pagesDir, dataDir });
  const res = await fetch(server.url(`/api/v1/${API_KEY}/display/logo`), { method: 'POST', headers: { 'Content-Type': 'image/svg+xml' }, body: LOGO_FIXTURES['image/svg+xml'] });
  expect(res.status).toBe(200);
  await server.run(
    { type: 'display.set', display: { layout: 'lowerThird', showLogo: false } },
    { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false, timeZone: 'UTC', clockFormat: '24h' },
  );
  for (const size of SCREEN_SIZES) {
    const context = await browser.newContext({ viewport: size, timezoneId: 'UTC' });
    const pages = {} as Record<DisplayLayout, Page>;
    for (const layout of LAYOUTS) pages[layout] = await context.newPage();
    screens.push({ size, context, pages });
  }
  await openAll('');
}, 240_000);

afterAll(async () => {
  saveArtifact('screens-display-faults.json', allFaults);
  for (const s of screens) await s.context.close();
  await server?.close();
  await browser?.close();
  if (pagesDir !== undefined) rmSync(pagesDir, { recursive: true, force: true });
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

/** Loads every page with the links' query (`''`, or `show=aux`), once per change of it. */
async function openAll(query: string): Promise<void> {
  currentQuery = query;
  await Promise.all(
    screens.flatMap((s) =>
      LAYOUTS.map(async (layout) => {
        const base = LAYOUT_PATHS[layout];
        const url = query === '' ? base : `${base}${base.includes('?') ? '&' : '?'}${query}`;
        const page = s.pages[layout];
        await page.goto(server.url(url));
        await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '' && document.fonts.status === 'loaded');
      }),
    ),
  );
}

/** A fresh timer, alone in the running order, selected (never started). */
async function freshTimer(fields: { label: string; speaker: string; duration?: number; warnAt?: number; dangerAt?: number; tagId?: string }): Promise<void> {
  const id = `d${Math.random().toString(36).slice(2, 8)}`;
  await server.run({ type: 'timer.create', id, fields: { duration: 30 * MINUTE, warnAt: MINUTE, dangerAt: 0, appearance: 'countdown', ...fields } });
  for (const timer of server.service.room.timers) if (timer.id !== id) await server.run({ type: 'timer.delete', id: timer.id });
  await server.run({ type: 'timer.select', id });
}

/** Everything a scene may have switched on, off again. */
const CLEAN: Command[] = [
  { type: 'message.clear' },
  { type: 'question.unshow' },
  { type: 'blackout.set', on: false },
  { type: 'onair.set', on: false },
  { type: 'settings.set', zeroBehavior: 'continue', plannedStart: null, timeZone: 'UTC', clockFormat: '24h' },
  { type: 'display.set', display: { showLogo: false, showTag: false, showOverUnder: false, showShowEnd: false, showAux: false, showNext: false, showTimeOfDay: false } },
];

const SCENES: Scene[] = [
  {
    name: 'ready-short',
    expected: { ...BASE, mark: 'READY', onAir: true, logo: true },
    async setUp() {
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER });
      await server.run({ type: 'onair.set', on: true }, { type: 'display.set', display: { showLogo: true } });
    },
  },
  {
    name: 'running-long',
    expected: { ...BASE, label: LONG_TITLE, speaker: LONG_SPEAKER, onAir: true, logo: true },
    async setUp() {
      const tagId = `t${Math.random().toString(36).slice(2, 8)}`;
      await server.run({ type: 'tag.create', id: tagId, name: 'Keynotes and plenary sessions, main hall', colour: '#ffcc00' });
      await freshTimer({ label: LONG_TITLE, speaker: LONG_SPEAKER, tagId });
      await server.run({ type: 'start' }, { type: 'onair.set', on: true }, { type: 'display.set', display: { showLogo: true, showTag: true } });
    },
  },
  {
    name: 'warning-message',
    expected: { ...BASE, classes: ['tone-warn'], onAir: true, message: true },
    async setUp() {
      // Warned from the start: the warning threshold is above the duration.
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER, warnAt: 40 * MINUTE });
      await server.run({ type: 'start' }, { type: 'onair.set', on: true }, { type: 'message.set', message: { text: LONG_MESSAGE, color: 'white', bold: false, flash: false } });
    },
  },
  {
    name: 'danger-question',
    expected: { ...BASE, classes: ['tone-warn', 'tone-danger'], question: true },
    async setUp() {
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER, warnAt: 45 * MINUTE, dangerAt: 40 * MINUTE });
      const qid = `q${Math.random().toString(36).slice(2, 8)}`;
      await server.run({ type: 'start' }, { type: 'question.submit', id: qid, text: LONG_QUESTION, name: 'Sam from row 12' }, { type: 'question.show', id: qid, withName: true });
    },
  },
  {
    name: 'overrun-schedule',
    expected: { ...BASE, classes: ['tone-over'], label: LONG_TITLE, speaker: LONG_SPEAKER, onAir: true, logo: true, extras: true, timePrefix: '+' },
    async setUp() {
      await freshTimer({ label: LONG_TITLE, speaker: LONG_SPEAKER });
      await server.run(
        { type: 'aux.set', duration: 10 * MINUTE, label: 'Speaker change-over', appearance: 'countdown' },
        { type: 'aux.start' },
        { type: 'settings.set', plannedStart: Date.now() - 35 * MINUTE, timeZone: 'America/New_York', clockFormat: '12h' },
        { type: 'start' },
        { type: 'adjust', ms: -(31 * MINUTE + 30_000) },
        { type: 'onair.set', on: true },
        { type: 'display.set', display: { showLogo: true, showOverUnder: true, showShowEnd: true, showAux: true, showNext: true, showTimeOfDay: true } },
      );
    },
  },
  {
    name: 'paused-long',
    expected: { ...BASE, mark: 'PAUSED', label: LONG_TITLE, speaker: LONG_SPEAKER, logo: true },
    async setUp() {
      await freshTimer({ label: LONG_TITLE, speaker: LONG_SPEAKER });
      await server.run({ type: 'start' }, { type: 'adjust', ms: MINUTE }, { type: 'pause' }, { type: 'display.set', display: { showLogo: true } });
    },
  },
  {
    name: 'stopped',
    expected: { ...BASE, mark: 'STOPPED AT ZERO', onAir: true },
    async setUp() {
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER });
      await server.run({ type: 'settings.set', zeroBehavior: 'stop' }, { type: 'start' }, { type: 'adjust', ms: -(30 * MINUTE - 1_000) }, { type: 'onair.set', on: true });
      await waitFor(() => server.service.snapshot().running === false);
    },
  },
  {
    name: 'flash',
    expected: { ...BASE, classes: ['inverted'], onAir: true },
    async setUp() {
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER });
      await server.run({ type: 'start' }, { type: 'onair.set', on: true });
    },
    // A flash lasts 10 half-second periods at most: one for each layout's five pages.
    async perLayout() {
      await server.run({ type: 'flash', count: 10 });
    },
  },
  {
    name: 'blackout',
    expected: { ...BASE, onAir: true, blackout: true },
    async setUp() {
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER });
      await server.run({ type: 'start' }, { type: 'onair.set', on: true }, { type: 'blackout.set', on: true });
    },
  },
  {
    name: 'aux',
    query: 'show=aux',
    expected: { ...BASE, label: 'Speaker change-over', speaker: '', onAir: true },
    async setUp() {
      await freshTimer({ label: SHORT_TITLE, speaker: SHORT_SPEAKER });
      await server.run({ type: 'aux.set', duration: 10 * MINUTE, label: 'Speaker change-over', appearance: 'countdown' }, { type: 'aux.start' }, { type: 'onair.set', on: true });
    },
  },
];

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!condition()) throw new Error('the room did not reach the state asked for');
}

/** Waits until the page shows the scene (its snapshot arrived and was drawn), the logo loaded. */
async function reach(page: Page, expected: Expected): Promise<void> {
  await page.waitForFunction(
    (want) => {
      const byId = (id: string): HTMLElement | null => document.getElementById(id);
      const screen = byId('screen');
      const mark = byId('mark');
      const logo = byId('logo') as HTMLImageElement | null;
      if (screen === null || mark === null || logo === null) return false;
      const markText = mark.hidden ? '' : (mark.textContent ?? '');
      const logoReady = want.logo ? !logo.hidden && logo.complete && logo.naturalWidth > 0 : logo.hidden;
      return (
        markText === want.mark &&
        want.classes.every((c) => screen.classList.contains(c)) &&
        // The page may cut the title at a word end with an ellipsis: what it shows starts the full one.
        want.label.startsWith((byId('label')?.textContent ?? '').replace(/…$/, '')) &&
        (byId('label')?.textContent ?? '') !== '' &&
        byId('onair')?.hidden === !want.onAir &&
        logoReady &&
        byId('message')?.hidden === !want.message &&
        byId('question')?.hidden === !want.question &&
        byId('extras')?.hidden === !want.extras &&
        byId('blackout')?.hidden === !want.blackout &&
        (byId('time')?.textContent ?? '').startsWith(want.timePrefix) &&
        document.fonts.status === 'loaded'
      );
    },
    expected,
    { timeout: 10_000 },
  );
}

/**
 * Cut texts that are faults: a text under 30 characters cut at all; a line cut
 * (ellipsis) whose whole text would have fitted in the free width around it (up to
 * the nearest other visible thing on its line, or the screen's edges, less a margin
 * of 2% of the width on each side); a clamped paragraph that left a whole line of its
 * box empty.
 */
async function cutFaults(page: Page): Promise<string[]> {
  const cuts = await cutTexts(page, '#screen');
  if (cuts.length === 0) return [];
  return page.evaluate(() => {
    const out: string[] = [];
    const screenWidth = document.documentElement.clientWidth;
    const margin = screenWidth * 0.02;
    const shown = (el: Element): boolean => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      for (let e: Element | null = el; e !== null; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return false;
      }
      return true;
    };
    const things = Array.from(document.querySelectorAll('#screen *')).filter((el) => {
      const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      return (own || el.tagName === 'IMG') && shown(el);
    });
    for (const el of Array.from(document.querySelectorAll('#screen *'))) {
      if (!(el instanceof HTMLElement) || el.offsetParent === null) continue;
      const s = getComputedStyle(el);
      if (s.overflow === 'visible' || s.overflow === 'auto' || s.overflow === 'scroll') continue;
      const text = (el.textContent ?? '').trim();
      const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!own) continue;
      const wide = el.scrollWidth > el.clientWidth + 1;
      const tall = el.scrollHeight > el.clientHeight + 1;
      if (!wide && !tall) continue;
      const where = `#${el.id || el.className}`;
      if (text.length < 30) {
        out.push(`${where} "${text}" (${text.length} characters) is cut: needs ${el.scrollWidth} px, has ${el.clientWidth}`);
        continue;
      }
      const r = el.getBoundingClientRect();
      if (wide) {
        let left = 0;
        let right = screenWidth;
        for (const other of things) {
          if (other === el || other.contains(el) || el.contains(other)) continue;
          const o = other.getBoundingClientRect();
          if (o.bottom <= r.top || o.top >= r.bottom) continue;
          const centre = (o.left + o.right) / 2;
          if (centre < (r.left + r.right) / 2) left = Math.max(left, o.right);
          else right = Math.min(right, o.left);
        }
        const room = right - left - 2 * margin;
        if (el.scrollWidth <= room) out.push(`${where} "${text.slice(0, 40)}" is cut with room to spare: needs ${el.scrollWidth} px, has ${el.clientWidth}, free ${Math.round(room)}`);
      }
      if (tall) {
        const holder = el.parentElement;
        if (holder !== null) {
          const h = holder.getBoundingClientRect();
          const hs = getComputedStyle(holder);
          const line = parseFloat(s.lineHeight) || parseFloat(s.fontSize) * 1.2;
          let below = 0;
          for (const sibling of Array.from(holder.children)) if (sibling !== el && shown(sibling) && sibling.getBoundingClientRect().top >= r.bottom - 1) below += sibling.getBoundingClientRect().height;
          const free = h.bottom - parseFloat(hs.paddingBottom) - parseFloat(hs.borderBottomWidth) - r.bottom - below;
          if (free >= line) out.push(`${where} "${text.slice(0, 40)}" is clamped with ${Math.round(free)} px of its box empty (a line is ${Math.round(line)})`);
        }
      }
    }
    return out;
  });
}

/**
 * Text the page itself cut (it sets a shorter text, which cutTexts cannot see): a text
 * under 30 characters is not cut at all, and a cut ends at a word with an ellipsis.
 */
async function wordCutFaults(page: Page, expected: Expected): Promise<string[]> {
  const fulls: [string, string][] = [
    ['label', expected.label],
    ['speaker', expected.speaker],
  ];
  if (expected.message) fulls.push(['message-text', LONG_MESSAGE]);
  if (expected.question) fulls.push(['question-text', LONG_QUESTION]);
  const out: string[] = [];
  for (const [id, full] of fulls) {
    const shown = await page.evaluate((i) => {
      const el = document.getElementById(i);
      return el === null || el.offsetWidth === 0 ? null : (el.textContent ?? '');
    }, id);
    if (shown === null || shown === full) continue;
    const start = shown.replace(/…$/, '');
    if (full.length < 30) out.push(`#${id} "${full}" (${full.length} characters) is shown as "${shown}"`);
    else if (start.trim() === '') out.push(`#${id} is shown as "${shown}" alone: none of "${full.slice(0, 30)}…"`);
    else if (!shown.endsWith('…') || !full.startsWith(start) || !/^\s/.test(full.slice(start.length))) out.push(`#${id} is cut mid-word or without an ellipsis: "…${shown.slice(-30)}"`);
  }
  return out;
}

/**
 * What layout-kit's spillFaults does not see: an element clipped by paint containment
 * (the clock's `contain: strict`, which clips like overflow: hidden though its overflow
 * reads visible), or outside the screen's own box (the lower third's band, which does
 * not clip: a badge half over its top edge). Elements passing such a holder by more than 1 px.
 */
async function containSpills(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('#screen *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let holder: Element | null = el.parentElement;
      while (holder !== null && holder.id !== 'screen' && !/paint|strict|content/.test(getComputedStyle(holder).getPropertyValue('contain'))) holder = holder.parentElement;
      if (holder === null) continue;
      const h = holder.getBoundingClientRect();
      const past: string[] = [];
      if (r.left < h.left - 1) past.push(`left ${Math.round(h.left - r.left)}`);
      if (r.right > h.right + 1) past.push(`right ${Math.round(r.right - h.right)}`);
      if (r.top < h.top - 1) past.push(`top ${Math.round(h.top - r.top)}`);
      if (r.bottom > h.bottom + 1) past.push(`bottom ${Math.round(r.bottom - h.bottom)}`);
      if (past.length > 0) out.push(`#${el.id || el.className} "${(el.textContent ?? '').trim().slice(0, 30)}" passes #${holder.id || holder.className}, ${past.join(', ')}`);
    }
    return out;
  });
}

/** ON AIR on: shown, inside the screen, not covered (the element at its centre is the badge). */
async function onAirFault(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const badge = document.getElementById('onair');
    if (badge === null) return 'no #onair element';
    const r = badge.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'ON AIR is on but not shown (no box)';
    const w = document.documentElement.clientWidth;
    const h = document.documentElement.clientHeight;
    if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) return `ON AIR is off the screen: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`;
    const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (at === null || !(at === badge || badge.contains(at))) return `ON AIR is covered by ${at === null ? 'nothing?' : `${at.tagName.toLowerCase()}#${at.id}.${at.className}`}`;
    return null;
  });
}

/** The state shown right beyond what reach() waited for: in danger the bar is in the digits' colour. */
async function stateFaults(page: Page, scene: Scene): Promise<string[]> {
  const out: string[] = [];
  if (scene.expected.classes.includes('tone-danger')) {
    const colours = await page.evaluate(() => {
      const progress = document.querySelector('#screen .progress');
      const shown = progress !== null && getComputedStyle(progress).display !== 'none' && !(progress as HTMLElement).hidden;
      return { shown, bar: getComputedStyle(document.getElementById('bar') as HTMLElement).backgroundColor, time: getComputedStyle(document.getElementById('time') as HTMLElement).color };
    });
    if (colours.shown && colours.bar !== colours.time) out.push(`danger: the bar is ${colours.bar}, the digits ${colours.time}`);
  }
  return out;
}

async function checkPage(scene: Scene, layout: DisplayLayout, size: ScreenSize, page: Page): Promise<Fault[]> {
  const faults: Fault[] = [];
  const add = (kind: Fault['kind'], detail: string): void => {
    faults.push({ scene: scene.name, layout, size: sizeName(size), kind, detail });
  };
  try {
    await reach(page, scene.expected);
  } catch {
    // Not reached in 10 s: a state shown wrong. Said with what the page shows; the rest is still measured.
    const seen = await page.evaluate(() => {
      const byId = (id: string): HTMLElement | null => document.getElementById(id);
      const mark = byId('mark');
      return {
        mark: mark === null || mark.hidden ? '' : mark.textContent,
        screen: byId('screen')?.className,
        label: (byId('label')?.textContent ?? '').slice(0, 40),
        time: byId('time')?.textContent,
        onAirHidden: byId('onair')?.hidden,
        logoHidden: byId('logo')?.hidden,
        messageHidden: byId('message')?.hidden,
        questionHidden: byId('question')?.hidden,
        extrasHidden: byId('extras')?.hidden,
      };
    });
    add('state', `not reached in 10 s; the page shows ${JSON.stringify(seen)}`);
  }
  const shot = await saveScreenshot(page, `screens-display-${layout}-${sizeName(size)}-${scene.name}`);
  if (scene.expected.blackout) {
    // All black, whatever is on under it.
    const stats = await pixelStats(browser, shot);
    if (stats.maxChannel > 8) add('blackout', `blackout shows something: brightest channel ${stats.maxChannel}`);
    return faults;
  }
  for (const s of await spillFaults(page, 'body', { tolerance: 1 })) add('spill', `${s.where} "${s.text}" passes ${s.container} (${s.past})`);
  for (const s of await containSpills(page)) add('spill', s);
  for (const c of await cutFaults(page)) add('cut', c);
  for (const c of await wordCutFaults(page, scene.expected)) add('cut', c);
  if (scene.expected.onAir) {
    const onAir = await onAirFault(page);
    if (onAir !== null) add('onair', onAir);
  }
  for (const s of await stateFaults(page, scene)) add('state', s);
  // Under a flash the screen is inverted by a filter, which computed colours do not show: its contrast is its normal one's, checked in the other scenes.
  if (!scene.expected.classes.includes('inverted')) {
    for (const c of await contrastFaults(page, 'body')) add('contrast', `${c.where} "${c.text}" ${c.ratio}:1 < ${c.needed} (${c.color} on ${c.background})`);
  }
  return faults;
}

describe('the display at every size, in every layout and state', { timeout: 120_000 }, () => {
  for (const scene of SCENES) {
    it(`${scene.name}: nothing spills, nothing cut with room, ON AIR seen, the state right, text at AA`, async () => {
      await server.run(...CLEAN);
      if ((scene.query ?? '') !== currentQuery) await openAll(scene.query ?? '');
      await scene.setUp();
      const faults: Fault[] = [];
      // A layout at a time, its five sizes at once (the pages wait on the browser, not on each other).
      for (const layout of LAYOUTS) {
        if (scene.perLayout !== undefined) await scene.perLayout();
        const found = await Promise.all(screens.map((s) => checkPage(scene, layout, s.size, s.pages[layout])));
        for (const f of found) faults.push(...f);
      }
      allFaults.push(...faults);
      expect(faults.map((f) => `${f.layout} ${f.size} ${f.kind}: ${f.detail}`)).toEqual([]);
    });
  }
});
