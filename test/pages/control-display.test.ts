// The console's display editing and row dragging, the pure parts, without a
// browser: the preview's markup is the display's own (ids prefixed, nothing
// lost), the Display panel has a control for every display setting and sends
// only the field it changes, and where a dragged row lands.
import { describe, expect, it } from 'vitest';
import { DISPLAY_FIELD_NAMES } from '../../src/domain/display-settings.js';
import { DISPLAY_DEFAULTS } from '../../src/domain/room.js';
import { DISPLAY_LAYOUTS } from '../../src/domain/types.js';
import { previewScreenHtml, renderControlPage } from '../../src/pages/control-page-html.js';
import { DISPLAY_HTML } from '../../src/pages/display-html.js';
import { changeBody, changeWords, SHOW_LABELS, type ShowField } from '../../src/pages/control/display-panel.js';
import { dropIndex, dropSpot, edgeScroll } from '../../src/pages/control/row-drag.js';

const page = renderControlPage({
  apiKey: 'k',
  viewerKey: 'v',
  origin: 'http://box',
  viewerUrl: 'http://box/view/v',
  qrSvg: '<svg class="qr"></svg>',
  askUrl: 'http://box/ask/a',
  askQrSvg: '<svg class="qr"></svg>',
});

const idsOf = (html: string): string[] => Array.from(html.matchAll(/\sid="([^"]+)"/g), (m) => m[1] as string);

describe('the preview markup', () => {
  it('is the display screen with every id prefixed and no <main>', () => {
    const preview = previewScreenHtml();
    const screen = DISPLAY_HTML.slice(DISPLAY_HTML.indexOf('<main'), DISPLAY_HTML.indexOf('<button type="button" id="sound"'));
    const displayIds = idsOf(screen);
    expect(displayIds).toEqual(expect.arrayContaining(['screen', 'time', 'label', 'message', 'message-text', 'logo', 'blackout', 'onair', 'mark', 'tag', 'info']));
    expect(idsOf(preview)).toEqual(displayIds.map((id) => `pv-${id}`));
    expect(preview).not.toMatch(/<\/?main\b/);
    // The same elements and classes, in the same order.
    const shape = (html: string) => html.replace(/\sid="[^"]*"/g, '').replace(/<(\/?)main\b/g, '<$1div').trim();
    expect(shape(preview)).toBe(shape(screen));
  });

  it('says so when the display markup has no screen to preview', () => {
    expect(() => previewScreenHtml('<html><body>nothing</body></html>')).toThrow(/no screen/);
  });

  it('sits in the console page, whose ids are all unique', () => {
    expect(page).toContain(previewScreenHtml());
    const ids = idsOf(page);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

describe('the Display panel', () => {
  it('has a control for every display setting', () => {
    for (const layout of DISPLAY_LAYOUTS) expect(page).toContain(`data-layout="${layout}"`);
    for (const id of ['display-background', 'display-normal', 'display-warning', 'display-overrun']) expect(page).toMatch(new RegExp(`id="${id}" type="color"`));
    expect(page).toMatch(/id="display-size" type="range" min="50" max="150"/);
    // The element switches are made by the script, one for each show* field of the room.
    expect(page).toMatch(/id="display-show" role="group"/);
    const showFields = DISPLAY_FIELD_NAMES.filter((name) => name.startsWith('show'));
    expect(Object.keys(SHOW_LABELS).sort()).toEqual([...showFields].sort());
    expect(page).toMatch(/id="display-logo-file" type="file" accept="image\/png,image\/jpeg,image\/svg\+xml,image\/webp/);
  });

  it('sends only the field a change is about', () => {
    expect(changeBody({ field: 'layout', value: 'lowerThird' })).toEqual({ layout: 'lowerThird' });
    expect(changeBody({ field: 'colour', name: 'warningColour', value: '#00ffff' })).toEqual({ warningColour: '#00ffff' });
    expect(changeBody({ field: 'timeSize', value: 120 })).toEqual({ timeSize: 120 });
    expect(changeBody({ field: 'show', name: 'showNext', value: true })).toEqual({ showNext: true });
    // The default colours in one change, as a new room has them.
    expect(changeBody({ field: 'defaultColours' })).toEqual({
      background: DISPLAY_DEFAULTS.background,
      normalColour: DISPLAY_DEFAULTS.normalColour,
      warningColour: DISPLAY_DEFAULTS.warningColour,
      overrunColour: DISPLAY_DEFAULTS.overrunColour,
    });
  });

  it('names a change in words for its error', () => {
    expect(changeWords({ field: 'layout', value: 'minimal' })).toBe('Layout time only');
    expect(changeWords({ field: 'colour', name: 'background', value: '#00b140' })).toBe('Background #00b140');
    expect(changeWords({ field: 'timeSize', value: 80 })).toBe('Time size 80%');
    expect(changeWords({ field: 'show', name: 'showTimeOfDay', value: false })).toBe('Hide the time of day');
    expect(changeWords({ field: 'show', name: 'showProgress', value: true })).toBe('Show the progress bar');
    for (const name of Object.keys(SHOW_LABELS) as ShowField[]) expect(changeWords({ field: 'show', name, value: true })).toMatch(/^Show the [a-z]/);
  });
});

describe('dragging a running-order row', () => {
  const rows = [
    { top: 100, bottom: 140 },
    { top: 140, bottom: 180 },
    { top: 180, bottom: 220 },
  ];

  it('finds the row under the pointer and its half', () => {
    expect(dropSpot(rows, 50)).toEqual({ index: 0, after: false }); // above the rows: before the first
    expect(dropSpot(rows, 110)).toEqual({ index: 0, after: false });
    expect(dropSpot(rows, 130)).toEqual({ index: 0, after: true });
    expect(dropSpot(rows, 175)).toEqual({ index: 1, after: true });
    expect(dropSpot(rows, 181)).toEqual({ index: 2, after: false });
    expect(dropSpot(rows, 900)).toEqual({ index: 2, after: true }); // below: after the last
    expect(dropSpot([], 100)).toBeNull();
  });

  it('computes where a drop puts the row', () => {
    expect(dropIndex(0, 2, true)).toBe(2);
    expect(dropIndex(0, 1, false)).toBe(0); // just before the next row: where it is
    expect(dropIndex(2, 0, false)).toBe(0);
    expect(dropIndex(2, 0, true)).toBe(1);
  });

  it('scrolls only near the visible edges, faster closer to them', () => {
    expect(edgeScroll(400, 150, 800)).toBe(0);
    expect(edgeScroll(160, 150, 800)).toBeLessThan(0);
    expect(edgeScroll(150, 150, 800)).toBeLessThan(edgeScroll(190, 150, 800));
    expect(edgeScroll(790, 150, 800)).toBeGreaterThan(edgeScroll(760, 150, 800));
    expect(edgeScroll(760, 150, 800)).toBeGreaterThan(0);
    // Past the edge (the finger on the sticky header, or off the window): no faster than at it.
    expect(edgeScroll(0, 150, 800)).toBe(edgeScroll(150 - 1000, 150, 800));
    expect(edgeScroll(2000, 150, 800)).toBe(edgeScroll(800, 150, 800));
  });
});
