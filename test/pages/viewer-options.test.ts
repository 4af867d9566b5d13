// A screen link's own options (`?layout=`, `?show=aux`): the page reads them, and
// the box refuses a link asking for one the page does not have, saying what to
// write, after the key is checked as it always was.
import { describe, expect, it } from 'vitest';
import { viewOptions, viewOptionsProblem } from '../../src/pages/display/view-options.js';
import { createTestApp, VIEWER_KEY } from '../helpers/test-app.js';

const V = `/view/${VIEWER_KEY}`;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('a screen link’s options, as the page reads them', () => {
  it('takes the layout and the aux as the main time; anything else is the room’s own', () => {
    expect(viewOptions('')).toEqual({ layout: null, show: 'main' });
    expect(viewOptions('?show=aux')).toEqual({ layout: null, show: 'aux' });
    expect(viewOptions('?layout=minimal&show=aux')).toEqual({ layout: 'minimal', show: 'aux' });
    expect(viewOptions('?layout=lowerThird&show=main')).toEqual({ layout: 'lowerThird', show: 'main' });
    expect(viewOptions('?layout=huge&show=AUX')).toEqual({ layout: null, show: 'main' });
  });

  it('names what is wrong and what to write instead', () => {
    expect(viewOptionsProblem(undefined, undefined)).toBeNull();
    expect(viewOptionsProblem('full', 'aux')).toBeNull();
    expect(viewOptionsProblem(undefined, 'clock')).toBe('show: "clock" is not a timer to show; use aux for the second timer as the main time, or leave it out for the running order\'s');
    expect(viewOptionsProblem('Minimal', undefined)).toBe('layout: "Minimal" is not a layout; use one of full, minimal, lowerThird, or leave it out for the room\'s own');
    // A pasted paragraph is quoted short.
    expect(viewOptionsProblem(undefined, 'x'.repeat(500))).toContain(`"${'x'.repeat(40)}…"`);
  });
});

describe('the box, asked for a screen link with options', () => {
  it('serves the display page for the options it has, on the viewer link and the kiosk', async () => {
    const t = createTestApp();
    for (const path of [`${V}?show=aux`, `${V}?layout=minimal&show=aux`, `${V}?show=main`, '/display?show=aux']) {
      const res = await t.request(path, { headers: { Accept: BROWSER_ACCEPT } });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('id="extras"');
    }
  });

  it('refuses an unknown one with 400, as a page for a browser and JSON otherwise', async () => {
    const t = createTestApp();
    const page = await t.request(`${V}?show=<b>clock</b>`, { headers: { Accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(400);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('This screen link asks for an unknown option');
    // What was typed is shown as text, never as markup.
    expect(html).toContain('&#60;b&#62;clock&#60;/b&#62;');
    expect(html).not.toContain('<b>clock</b>');
    const json = await t.request('/display?layout=wide');
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ ok: false, error: expect.stringMatching(/^layout: "wide" is not a layout/) as unknown });
  });

  it('checks the key first: a wrong key with a wrong option is still a wrong key', async () => {
    const t = createTestApp();
    const res = await t.request('/view/not-the-viewer-key?show=clock', { client: '10.0.0.7' });
    expect(res.status).toBe(401);
    // The kiosk stays the box's own, options or not.
    const away = await t.request('/display?show=aux', { client: '10.0.0.7' });
    expect(away.status).toBe(403);
  });
});
