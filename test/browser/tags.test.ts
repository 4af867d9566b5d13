// Tags in a real browser: the stage manager adds a tag in the console, gives it to
// the active timer from the running order, recolours it, and the display shows it
// as a coloured label above the title; deleting the tag takes it off the timer and
// the screen. Screenshots: test-artifacts/tags-console.png, tags-display.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { saveScreenshot } from './browser-kit.js';
import { startControlServer, useBrowserRig, VIEWER_KEY, type ControlServer } from './control-server.js';

const rig = useBrowserRig();
let server: ControlServer;

beforeAll(async () => {
  server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1') });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('tags from the console to the display', { timeout: 60_000 }, () => {
  it('adds, assigns, recolours and deletes a tag, and the display follows', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const problems: string[] = [];
    try {
      const consolePage = await context.newPage();
      consolePage.on('pageerror', (error) => problems.push(error.message));
      await consolePage.goto(server.controlUrl);
      await consolePage.waitForSelector('#connection.live');
      const row = 'tr[data-id="t1"]';
      expect(await consolePage.isDisabled(`${row} select.f-tag`)).toBe(true);

      await consolePage.fill('#tag-name', 'Main stage');
      await consolePage.$eval('#tag-colour', (el) => {
        (el as HTMLInputElement).value = '#ff9f0a';
      });
      await consolePage.click('#tag-add');
      await consolePage.waitForSelector('#tag-list li');
      const tag = (await server.state()).tags[0];
      expect(tag).toMatchObject({ name: 'Main stage', colour: '#ff9f0a' });
      expect(await consolePage.inputValue('#tag-name')).toBe('');

      await consolePage.selectOption(`${row} select.f-tag`, tag!.id);
      await expect.poll(async () => (await server.state()).timers[0]?.tagId).toBe(tag!.id);

      const display = await context.newPage();
      display.on('pageerror', (error) => problems.push(error.message));
      await display.goto(`${server.base}/view/${VIEWER_KEY}`);
      await display.waitForSelector('#tag', { state: 'visible' });
      expect(await display.textContent('#tag')).toBe('Main stage');
      const look = () => display.$eval('#tag', (el) => ({ bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el).color }));
      // Orange is light: black text on it.
      expect(await look()).toEqual({ bg: 'rgb(255, 159, 10)', fg: 'rgb(0, 0, 0)' });
      await saveScreenshot(display, 'tags-display');

      // Recoloured in the console: a dark blue, white text on the display.
      await consolePage.$eval('#tag-list li .t-colour', (el) => {
        const input = el as HTMLInputElement;
        input.value = '#1a237e';
        input.dispatchEvent(new Event('change'));
      });
      await expect.poll(look).toEqual({ bg: 'rgb(26, 35, 126)', fg: 'rgb(255, 255, 255)' });
      await consolePage.fill('#tag-list li .t-name', 'Hall A');
      await consolePage.press('#tag-list li .t-name', 'Enter');
      await display.waitForFunction(() => document.getElementById('tag')?.textContent === 'Hall A');
      await saveScreenshot(consolePage, 'tags-console');

      // Deleted (two presses): the timer carries no tag and the label goes.
      await consolePage.click('#tag-list li .delete');
      await consolePage.click('#tag-list li .delete');
      await display.waitForSelector('#tag', { state: 'hidden' });
      const after = await server.state();
      expect(after.tags).toEqual([]);
      expect(after.timers[0]?.tagId).toBeNull();
      // The console hears the change on its own stream, maybe after the display: wait for it.
      await expect.poll(() => consolePage.inputValue(`${row} select.f-tag`)).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
