// Issue 31, finding 5: the running order at desk sizes. The two-press delete stays
// inside the table in both its states ("✕" and "Delete?"), whole; the Label column
// gets the room that empty Starts at / Ends at columns took, so usual labels show whole.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Room } from '../../src/domain/types.js';
import { saveScreenshot } from './browser-kit.js';
import { openConsole, roomWithTimers, startControlServer, useBrowserRig } from './control-server.js';

const rig = useBrowserRig();

const LABELS = [
  'Doors & walk-in music',
  'Welcome and housekeeping',
  'Keynote: The Future of Events',
  'Panel: hybrid audiences',
  'Coffee break',
  'Lightning talks',
  'Closing remarks',
  'Drinks & networking',
];

function eightLongTimers(): Room {
  return roomWithTimers(LABELS, () => ({ speaker: 'Maria Lopez (host)' }));
}

interface Fit {
  readonly deleteFaults: readonly string[];
  readonly cutLabels: readonly string[];
  readonly sideways: number;
  readonly labelWidth: number;
  readonly startsWidth: number;
}

async function tableFit(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const wrap = document.querySelector('.order-wrap') as HTMLElement;
    const table = wrap.querySelector('table') as HTMLElement;
    const w = wrap.getBoundingClientRect();
    const t = table.getBoundingClientRect();
    const deleteFaults: string[] = [];
    for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('#order button.delete'))) {
      const r = button.getBoundingClientRect();
      const id = (button.closest('tr') as HTMLElement).getAttribute('data-id');
      const cell = (button.closest('td') as HTMLElement).getBoundingClientRect();
      if (r.right > t.right + 0.5 || r.right > w.left + wrap.clientWidth + 0.5 || r.right > cell.right + 0.5) deleteFaults.push(`${id} "${button.textContent}" right ${Math.round(r.right)} > cell ${Math.round(cell.right)} / table ${Math.round(t.right)} / wrap ${Math.round(w.left + wrap.clientWidth)}`);
      if (button.scrollWidth > button.clientWidth + 1) deleteFaults.push(`${id} "${button.textContent}" cut: needs ${button.scrollWidth}, has ${button.clientWidth}`);
    }
    const cutLabels = Array.from(document.querySelectorAll<HTMLInputElement>('#order input.f-label, #order input.f-speaker'))
      .filter((input) => input.scrollWidth > input.clientWidth + 1)
      .map((input) => `${input.value} (needs ${input.scrollWidth}, has ${input.clientWidth})`);
    const label = document.querySelector('#order tr td:nth-child(2)') as HTMLElement;
    const starts = document.querySelector('#order tr td:nth-child(7)') as HTMLElement;
    return { deleteFaults, cutLabels, sideways: wrap.scrollWidth - wrap.clientWidth, labelWidth: Math.round(label.getBoundingClientRect().width), startsWidth: Math.round(starts.getBoundingClientRect().width) };
  });
}

describe('the running order at desk sizes (issue 31, finding 5)', { timeout: 90_000 }, () => {
  for (const size of [
    { width: 1366, height: 768 },
    { width: 1280, height: 720 },
    { width: 1024, height: 768 },
  ]) {
    const name = `${size.width}x${size.height}`;
    it(`keeps the delete inside the table and gives the label the room at ${name}`, async () => {
      const server = await startControlServer({ pagesDir: rig.pagesDir, room: eightLongTimers() });
      const context = await rig.browser.newContext({ viewport: size });
      try {
        const opened = await openConsole(context, server.controlUrl);
        const page = opened.page;
        await page.locator('#order tr[data-id="t3"]').scrollIntoViewIfNeeded();
        const idle = await tableFit(page);
        expect(idle.deleteFaults).toEqual([]);
        expect(idle.sideways).toBeLessThanOrEqual(0);
        expect(idle.cutLabels).toEqual([]);
        // Empty schedule columns give way to the label.
        expect(idle.labelWidth).toBeGreaterThan(2 * idle.startsWidth);
        await page.click('#order tr[data-id="t3"] button.delete');
        await page.waitForFunction(() => document.querySelector('#order tr[data-id="t3"] button.delete')?.textContent === 'Delete?');
        const asking = await tableFit(page);
        await saveScreenshot(page, `console-order-delete-${name}`);
        expect(asking.deleteFaults).toEqual([]);
        expect(asking.sideways).toBeLessThanOrEqual(0);
        expect(opened.problems).toEqual([]);
      } finally {
        await context.close();
        await server.close();
      }
    });
  }
});
