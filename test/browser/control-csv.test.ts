// CSV import and export of the running order in a real browser against a real
// server: a file with one bad row is refused by its line number and creates
// nothing; the corrected file adds its 30 timers at the end, in order, and sets
// the show's planned start, which the preview shows first in the room's zone;
// the export downloads the same rows. Screenshot to test-artifacts/console-csv.png.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { openConsole, startControlServer, useBrowserRig } from './control-server.js';

const ARTIFACTS = 'test-artifacts';
const MOMENT = { timeout: 5_000, interval: 40 };
const HEADER = 'label,speaker,duration,warnAt,appearance,tag,scheduledAt,plannedStart';
/** The show's planned start the file gives: 10:00 in Berlin (summer time), the room's zone. */
const PLANNED_START = '2030-05-01T08:00:00.000Z';

const rig = useBrowserRig();

/** One timer and one tag, so the import's rows land after an existing one and can name a tag; a zone that is not UTC. */
function room(): Room {
  const base = createRoom('t1');
  return { ...base, tags: [{ id: 'g1', name: 'Main stage', colour: '#0a84ff' }], settings: { ...base.settings, timeZone: 'Europe/Berlin' } };
}

/** 30 rows in every form the import reads: quoted commas, mm:ss, h:mm:ss, ms, ISO and empty scheduledAt; the planned start on the first. */
function showCsv(badRow: boolean): string {
  const rows = [HEADER];
  for (let n = 1; n <= 30; n += 1) {
    const duration = n % 3 === 0 ? '1:00:00' : n % 3 === 1 ? `${n}:30` : String(n * 1000);
    const appearance = n % 7 === 0 ? 'countup' : 'countdown';
    const tag = n % 2 === 0 ? 'Main stage' : '';
    const scheduledAt = n === 5 ? '2030-05-01T09:30:00.000Z' : '';
    const warnAt = n === 17 && badRow ? 'soon' : '0:30';
    rows.push([`"Item ${n}, part ""A"""`, `Speaker ${n}`, duration, warnAt, appearance, tag, scheduledAt, n === 1 ? PLANNED_START : ''].join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

describe('console CSV import and export', { timeout: 60_000 }, () => {
  it('refuses a bad row by line, imports the corrected file in order, and exports the same rows', async () => {
    const server = await startControlServer({ pagesDir: rig.pagesDir, room: room() });
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
    try {
      const { page, problems } = await openConsole(context, server.controlUrl);

      // Row 17 is the file's line 18 (after the header): refused there, nothing sent.
      await page.setInputFiles('#csv-file', { name: 'show.csv', mimeType: 'text/csv', buffer: Buffer.from(showCsv(true)) });
      await expect.poll(async () => (await page.textContent('#csv-status')) ?? '', MOMENT).toContain('line 18, warnAt');
      expect(await page.isHidden('#csv-import')).toBe(true);
      expect((await server.state()).timers).toHaveLength(1);

      // A row only the box refuses (a label over 200 characters): the whole file is refused there, nothing added.
      const tooLong = `${HEADER}\r\nFine,,1:00,,countdown,,,\r\n${'x'.repeat(201)},,1:00,,countdown,,,\r\n`;
      await page.setInputFiles('#csv-file', { name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(tooLong) });
      await page.waitForSelector('#csv-import:not([hidden])');
      await page.click('#csv-import');
      await expect.poll(async () => (await page.textContent('#csv-status')) ?? '', MOMENT).toContain('Import refused, nothing added: line 3, label:');
      expect((await server.state()).timers).toHaveLength(1);

      await page.setInputFiles('#csv-file', { name: 'show.csv', mimeType: 'text/csv', buffer: Buffer.from(showCsv(false)) });
      await page.waitForSelector('#csv-import:not([hidden])');
      // The preview says what the file will set, in the room's zone (Berlin, not the browser's UTC), before the press.
      expect(await page.textContent('#csv-status')).toContain("30 timers read. The file sets the show's planned start to 2030-05-01 10:00 (the room has none yet).");
      expect((await server.state()).timers).toHaveLength(1);
      await page.click('#csv-import');
      await expect.poll(async () => (await page.textContent('#csv-status')) ?? '', MOMENT).toContain("Imported 30 timers at the end of the running order and set the show's planned start to 2030-05-01 10:00.");
      const state = await server.state();
      expect(state.settings.plannedStart).toBe(Date.parse(PLANNED_START));
      expect(state.timers).toHaveLength(31);
      const imported = state.timers.slice(1);
      expect(imported.map((t) => t.label)).toEqual(Array.from({ length: 30 }, (_, i) => `Item ${i + 1}, part "A"`));
      expect(imported[0]).toMatchObject({ speaker: 'Speaker 1', duration: 90_000, warnAt: 30_000, tagId: null });
      expect(imported[1]).toMatchObject({ duration: 2_000, tagId: 'g1' });
      expect(imported[2]).toMatchObject({ duration: 3_600_000 });
      expect(imported[4]).toMatchObject({ scheduledAt: Date.parse('2030-05-01T09:30:00.000Z') });
      expect(imported[6]).toMatchObject({ appearance: 'countup' });
      await expect.poll(async () => page.locator('#order tr').count(), MOMENT).toBe(31);
      await page.screenshot({ path: `${ARTIFACTS}/console-csv.png`, fullPage: true });

      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv-export')]);
      expect(download.suggestedFilename()).toBe('running-order.csv');
      const exported = readFileSync(await download.path(), 'utf8').split('\r\n');
      expect(exported[0]).toBe('label,speaker,duration,warnAt,dangerAt,appearance,tag,scheduledAt,endsAt,plannedStart');
      // The room's planned start goes on the first row, which is the room's own first timer.
      expect(exported[1]).toBe(`Timer 1,,10:00,1:00,0:00,countdown,,,,${PLANNED_START}`);
      expect(exported.slice(2, 8)).toEqual([
        '"Item 1, part ""A""",Speaker 1,1:30,0:30,0:00,countdown,,,,',
        '"Item 2, part ""A""",Speaker 2,0:02,0:30,0:00,countdown,Main stage,,,',
        '"Item 3, part ""A""",Speaker 3,1:00:00,0:30,0:00,countdown,,,,',
        '"Item 4, part ""A""",Speaker 4,4:30,0:30,0:00,countdown,Main stage,,,',
        '"Item 5, part ""A""",Speaker 5,0:05,0:30,0:00,countdown,,2030-05-01T09:30:00.000Z,,',
        '"Item 6, part ""A""",Speaker 6,1:00:00,0:30,0:00,countdown,Main stage,,,',
      ]);
      expect(exported).toHaveLength(1 + 31 + 1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
