// The console when the SD card fails, in a real browser against a real server
// with a real state store whose writes fail on demand: a red banner that cannot
// be dismissed appears while the room is not being saved, an edit made from the
// console is refused in words and does not appear, transport still works, and
// the banner goes once the store writes again. A screenshot goes to test-artifacts/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import { nodeFileOps, type AtomicFileOps } from '../../src/store/atomic-file.js';
import { startControlServer, useBrowserRig } from './control-server.js';

const ARTIFACTS = 'test-artifacts';

const rig = useBrowserRig();
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-console-storage-'));
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('console: the room is not being saved', () => {
  it('shows a banner while writes fail, refuses edits in words, keeps transport working, and clears when writes work again', async () => {
    const failing = { on: false };
    const ops: AtomicFileOps = {
      ...nodeFileOps,
      writeSynced: (file, text, mode) =>
        failing.on ? Promise.reject(Object.assign(new Error('read-only file system'), { code: 'EROFS' })) : nodeFileOps.writeSynced(file, text, mode),
    };
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: createRoom('t1'), store: { dataDir, ops } });
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(server.controlUrl);
      await expect.poll(() => page.locator('#connection').textContent(), { timeout: 5_000 }).toBe('live');
      expect(await page.locator('#storage-banner').isVisible()).toBe(false);

      failing.on = true;
      // A switch from a button panel happens at once; its write, a second later, fails.
      expect((await server.api('/onair?on=1')).status).toBe(200);
      await expect.poll(() => page.locator('#storage-banner').isVisible(), { timeout: 5_000 }).toBe(true);
      expect(await page.locator('#storage-banner').textContent()).toMatch(/NOT being saved.*EROFS/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-not-saving.png') });

      // An edit from the console: refused, said in words, and not in the running order.
      const timersBefore = (await server.state()).timers.length;
      await page.locator('#add-timer').click();
      await expect.poll(() => page.locator('#notice-text').textContent(), { timeout: 5_000 }).toMatch(/nothing was changed/);
      expect((await server.state()).timers.length).toBe(timersBefore);
      // Transport still works from the console.
      await page.keyboard.press('Space');
      await expect.poll(async () => (await server.state()).running, { timeout: 5_000 }).toBe(true);

      failing.on = false;
      // The store tries again within 5 s; the banner goes.
      await expect.poll(() => page.locator('#storage-banner').isVisible(), { timeout: 9_000, interval: 200 }).toBe(false);
    } finally {
      await context.close();
      await server.close();
    }
  }, 30_000);
});
