// A message of the API's maximum length (MESSAGE_MAX_CHARS, issue 31 finding 2) on the
// display at the five screen sizes and in the three layouts: in the full layout it is
// shown whole, or, when it truly cannot fit at a readable size, cut at a word end with
// an ellipsis; never clipped mid-word or silently. The time-only layouts (minimal, the
// lower third) leave messages to the full one, and show none of it rather than a part.
// Screenshots: test-artifacts/display-message-fit-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX_CHARS } from '../../src/domain/limits.js';
import { saveArtifact, saveScreenshot } from './browser-kit.js';
import { SCREEN_SIZES, sizeName } from './layout-kit.js';
import { useDisplayRig, untilDisplayDrawn } from './live-server.js';

const rig = useDisplayRig();

const SENTENCE = 'Please wrap up now, the next session starts in the main hall in five minutes and the doors close backstage at the end. ';
/** Exactly MESSAGE_MAX_CHARS of ordinary words, ending in one. */
const MESSAGE = (() => {
  const words = SENTENCE.repeat(10).split(' ');
  let text = '';
  for (const word of words) {
    const next = text === '' ? word : `${text} ${word}`;
    if (next.length > MESSAGE_MAX_CHARS) break;
    text = next;
  }
  return text.padEnd(MESSAGE_MAX_CHARS, '!');
})();

/** What the message box shows: its text, whether every character of it lies in the box, and its font size. */
interface Shown {
  readonly text: string;
  readonly allVisible: boolean;
  readonly fontPx: number;
  readonly boxHidden: boolean;
}

async function shownMessage(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const box = document.getElementById('message') as HTMLElement;
    const text = document.getElementById('message-text') as HTMLElement;
    const boxHidden = box.hidden || getComputedStyle(box).display === 'none';
    const content = text.textContent ?? '';
    // Every character's box must lie inside the visible part of the text (and of the message box).
    const clip = text.getBoundingClientRect();
    const outer = box.getBoundingClientRect();
    const range = document.createRange();
    let allVisible = true;
    const node = text.firstChild;
    if (node !== null && content.length > 0) {
      for (let i = 0; i < content.length; i += 1) {
        if (content[i] === ' ') continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        const bottom = Math.min(clip.bottom, outer.bottom);
        if (r.bottom > bottom + 1 || r.right > Math.min(clip.right, outer.right) + 1) {
          allVisible = false;
          break;
        }
      }
    }
    return { text: content, allVisible, fontPx: parseFloat(getComputedStyle(text).fontSize), boxHidden };
  });
}

describe('a message of the longest length on every screen', { timeout: 120_000 }, () => {
  const CASES = [
    { layout: 'full', withQuestion: false },
    { layout: 'full', withQuestion: true },
    { layout: 'minimal', withQuestion: false },
    { layout: 'lowerThird', withQuestion: false },
  ] as const;
  for (const c of CASES) {
    const layout = c.layout;
    const name = `${layout}${c.withQuestion ? '-with-question' : ''}`;
    it(`${name}: shown whole, or cut at a word end with an ellipsis, at the five sizes`, async () => {
      const id = `M${Math.random().toString(36).slice(2, 8)}`;
      await rig.server.run(
        { type: 'question.unshow' },
        { type: 'display.set', display: { layout, showOverUnder: c.withQuestion, showShowEnd: c.withQuestion } },
        { type: 'timer.create', id, fields: { label: 'Keynote', speaker: 'Maria Lopez', duration: 1_800_000 } },
        { type: 'timer.select', id },
        { type: 'message.set', message: { text: MESSAGE, color: 'white', bold: c.withQuestion, flash: false } },
      );
      if (c.withQuestion) {
        // The audience question at its longest (280) beside it: the message gives up height to it.
        const q = `Q${id}`;
        await rig.server.run(
          { type: 'question.submit', id: q, text: 'How do you see the next ten years of live events going, and what would you tell a team that is starting out today with a small budget, two cameras and a venue that has never streamed a show before? And what about the crew? '.slice(0, 280), name: 'Sam' },
          { type: 'question.approve', id: q },
          { type: 'question.show', id: q, withName: true },
        );
      }
      expect(MESSAGE.length).toBe(MESSAGE_MAX_CHARS);
      const figures: Record<string, unknown> = {};
      for (const size of SCREEN_SIZES) {
        const context = await rig.browser.newContext({ viewport: { width: size.width, height: size.height }, timezoneId: 'UTC' });
        const page = await context.newPage();
        try {
          await page.goto(rig.server.url('/display'));
          await untilDisplayDrawn(page, layout);
          await page.waitForFunction(() => (document.getElementById('message-text')?.textContent ?? '') !== '');
          if (c.withQuestion) await page.waitForFunction(() => (document.getElementById('question-text')?.textContent ?? '') !== '');
          const shown = await shownMessage(page);
          await saveScreenshot(page, `display-message-fit-${name}-${sizeName(size)}`);
          figures[sizeName(size)] = { chars: shown.text.length, fontPx: shown.fontPx, whole: shown.text === MESSAGE, hidden: shown.boxHidden };
          if (layout !== 'full') {
            // Not a part of it: the box is not drawn at all.
            expect(shown.boxHidden, `${layout} ${sizeName(size)}`).toBe(true);
            continue;
          }
          expect(shown.boxHidden).toBe(false);
          expect(shown.allVisible, `${sizeName(size)}: a character of "${shown.text.slice(-40)}" is clipped`).toBe(true);
          if (shown.text !== MESSAGE) {
            // Cut: at a word end, with an ellipsis, and what is shown is the message's start.
            expect(shown.text.endsWith('…'), `${sizeName(size)} "${shown.text.slice(-30)}"`).toBe(true);
            const kept = shown.text.slice(0, -1).trimEnd();
            expect(MESSAGE.startsWith(kept)).toBe(true);
            expect([' ', undefined]).toContain(MESSAGE[kept.length]);
          }
          // Readable: never below 3 % of the screen's smaller side (12 px at least).
          expect(shown.fontPx).toBeGreaterThanOrEqual(Math.max(12, Math.min(size.width, size.height) * 0.03) - 0.5);
        } finally {
          await context.close();
        }
      }
      saveArtifact(`display-message-fit-${name}.json`, figures);
    });
  }
});
