// Issue 31, finding 2 (console side): a long message is never cut silently. The
// message box is multi-line, counts the characters as they are typed against the
// room's own limit (MESSAGE_MAX_CHARS, stated before anything is sent), and a text
// over it is refused with the reason instead of reaching the stage cut mid-word.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX_CHARS } from '../../src/domain/limits.js';
import { createRoom } from '../../src/domain/room.js';
import { saveScreenshot } from './browser-kit.js';
import { openConsole, startControlServer, useBrowserRig } from './control-server.js';

const MOMENT = { timeout: 5_000, interval: 40 };

const rig = useBrowserRig();

/** Whole words, `length` characters exactly, ending on a word ("…backstage and return"). */
function wordsOfLength(length: number): string {
  const words = 'Please could everyone with a lanyard make their way backstage and return to the green room before the next session'.split(' ');
  let text = '';
  for (let i = 0; text.length < length; i += 1) text += (text === '' ? '' : ' ') + words[i % words.length];
  return text.slice(0, length);
}

const counter = (page: Page): Promise<string> => page.$eval('#msg-count', (n) => (n.textContent ?? '').trim());

describe('the console message box (issue 31, finding 2)', { timeout: 60_000 }, () => {
  it('is multi-line, counts against the stated limit, and refuses an over-long text instead of cutting it', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const opened = await openConsole(context, server.controlUrl);
      const page = opened.page;
      // A box of several lines, and no maxlength that would cut a paste silently.
      const box = await page.$eval('#msg-text', (n) => ({ tag: n.tagName, maxLength: n.getAttribute('maxlength'), rows: n instanceof HTMLTextAreaElement ? n.rows : 0 }));
      expect(box).toEqual({ tag: 'TEXTAREA', maxLength: null, rows: expect.any(Number) });
      expect(box.rows).toBeGreaterThanOrEqual(2);
      // The limit is stated before sending, from the room's own figure.
      expect(await counter(page)).toBe(`0 / ${MESSAGE_MAX_CHARS}`);
      expect(await page.isVisible('#msg-count')).toBe(true);
      expect(await page.$eval('#msg-text', (n) => n.getAttribute('aria-describedby') ?? '')).toContain('msg-count');

      await page.fill('#msg-text', 'Two minutes left');
      expect(await counter(page)).toBe(`16 / ${MESSAGE_MAX_CHARS}`);

      // 511 characters pasted: all kept in the box, the counter warns, Show is refused with the reason.
      const tooLong = wordsOfLength(MESSAGE_MAX_CHARS + 11);
      await page.fill('#msg-text', tooLong);
      expect(await page.inputValue('#msg-text')).toBe(tooLong);
      expect(await counter(page)).toBe(`${MESSAGE_MAX_CHARS + 11} / ${MESSAGE_MAX_CHARS}`);
      expect(await page.$eval('#msg-count', (n) => n.classList.contains('over'))).toBe(true);
      await saveScreenshot(page, 'console-message-over-limit');
      await page.click('#msg-show', { force: true });
      await page.press('#msg-text', 'Enter');
      await page.waitForFunction(() => (document.getElementById('msg-limit-reason')?.textContent ?? '').indexOf('11 characters too long') >= 0, undefined, MOMENT);
      expect(await page.isVisible('#msg-limit-reason')).toBe(true);
      expect((await server.state()).message).toBe(null);
      // Enter in the box never adds a line the screens would not show.
      expect(await page.inputValue('#msg-text')).toBe(tooLong);
      // Nor is it kept as a preset the room would refuse at every click.
      await page.click('#preset-save');
      await page.waitForFunction((max) => (document.getElementById('notice-text')?.textContent ?? '').indexOf(`over ${max} characters`) >= 0, MESSAGE_MAX_CHARS, MOMENT);
      expect(await page.$$eval('#msg-presets li', (items) => items.length)).toBe(0);

      // Cut to the limit by the operator, at a word end: it goes out whole.
      const fits = tooLong.slice(0, tooLong.lastIndexOf(' ', MESSAGE_MAX_CHARS));
      await page.fill('#msg-text', fits);
      expect(await page.$eval('#msg-count', (n) => n.classList.contains('over'))).toBe(false);
      expect(await page.isVisible('#msg-limit-reason')).toBe(false);
      await page.click('#msg-show');
      await expect.poll(async () => (await server.state()).message?.text, MOMENT).toBe(fits);
      await saveScreenshot(page, 'console-message-long-shown');

      // A pasted line break goes out as a space: the screens run a message on as one paragraph.
      await page.fill('#msg-text', 'Line one\nline two');
      await page.press('#msg-text', 'Enter');
      await expect.poll(async () => (await server.state()).message?.text, MOMENT).toBe('Line one line two');
      expect(opened.problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
