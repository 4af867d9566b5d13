// The control console's page, in process: the right key gets the page with the
// keys panel and a QR code of the viewer link; a wrong key gets a 401 (a page for
// a browser, JSON for anything else) that reveals nothing and is counted like a
// wrong API key; headers keep the key out of Referers and allow only the box's
// own scripts.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { publicHost } from '../../src/app/urls.js';
import { buttonPanelExamples } from '../../src/pages/control-page-html.js';
import { API_KEY, AUDIENCE_KEY, VIEWER_KEY, createTestApp } from '../helpers/test-app.js';

const LAN = 'http://192.168.1.50:8080';
/** The box configured with the address people on the LAN use (publicUrl). */
const LINKS = { host: '0.0.0.0', port: 8080, publicUrl: LAN };
/** What Chromium and Firefox send when they navigate to a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The dark modules an SVG from `qrcode` draws: its stroke path is rows of `M x y.5 h n m dx 0 h n ...`. */
function darkModules(svg: string): Set<string> {
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1];
  if (path === undefined) throw new Error('no QR path in the page');
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, op, a, b] of path.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    const n = Number(a);
    if (op === 'M') {
      x = n;
      y = Math.floor(Number(b));
    } else if (op === 'm') {
      x += n;
      y += Math.floor(Number(b));
    } else {
      for (let i = 0; i < n; i += 1) dark.add(`${x + i},${y}`);
      x += n;
    }
  }
  return dark;
}

describe('GET /control/{api_key}', () => {
  it('serves the console with the keys, the viewer link, example URLs and the script, under a strict policy', async () => {
    const t = createTestApp({ links: LINKS });
    const res = await t.request(`${LAN}/control/${API_KEY}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    // Nothing inline for the CSP to refuse: one external script, no inline handlers or styles.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/control.js" defer>']);
    expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
    expect(html).not.toMatch(/\son[a-z]+="/);
    expect(html).not.toMatch(/\sstyle="/);
    // Works offline: nothing loaded from another host.
    expect(html).not.toMatch(/<(link|script|img)[^>]+(src|href)="(https?:)?\/\//);
    expect(html).toContain(`data-api-key="${API_KEY}"`);
    expect(html).toContain(`data-viewer-key="${VIEWER_KEY}"`);
    expect(html).toContain(`value="${LAN}/view/${VIEWER_KEY}"`);
    for (const example of buttonPanelExamples(LAN, API_KEY)) expect(html).toContain(`value="${example.url.replace(/&/g, '&#38;')}"`);
    // The shortcuts are written on the page.
    for (const key of ['Space', 'N', 'B']) expect(html).toContain(`<kbd>${key}</kbd>`);
  });

  it('draws a QR code that encodes exactly the viewer link', async () => {
    const t = createTestApp({ links: LINKS });
    const html = await (await t.request(`${LAN}/control/${API_KEY}`)).text();
    const svg = /<svg class="qr"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    const drawn = darkModules(svg);
    const expected = QRCode.create(`${LAN}/view/${VIEWER_KEY}`, { errorCorrectionLevel: 'M' }).modules;
    const margin = 2;
    const wanted = new Set<string>();
    for (let row = 0; row < expected.size; row += 1) {
      for (let col = 0; col < expected.size; col += 1) if (expected.get(row, col)) wanted.add(`${col + margin},${row + margin}`);
    }
    expect(wanted.size).toBeGreaterThan(100);
    expect([...drawn].sort()).toEqual([...wanted].sort());
  });

  it("gives the box's LAN address in the links, as npm run key prints it, however the page was reached", async () => {
    const t = createTestApp();
    const own = `http://${publicHost('0.0.0.0')}:8080`;
    for (const opened of ['http://127.0.0.1:8080', 'http://localhost:8080', LAN, 'http://showclock.local']) {
      const html = await (await t.request(`${opened}/control/${API_KEY}`)).text();
      expect(html, opened).toContain(`value="${own}/view/${VIEWER_KEY}"`);
      expect(html, opened).toContain(`value="${own}/ask/${AUDIENCE_KEY}"`);
      expect(html, opened).toContain(`value="${own}/api/v1/${API_KEY}"`);
    }
  });

  it('uses the configured publicUrl in every link, whatever the page was opened as', async () => {
    const t = createTestApp({ links: { host: '0.0.0.0', port: 8080, publicUrl: 'https://timer.example.org' } });
    const html = await (await t.request(`http://127.0.0.1:8080/control/${API_KEY}`)).text();
    expect(html).toContain(`value="https://timer.example.org/view/${VIEWER_KEY}"`);
    expect(html).toContain(`value="https://timer.example.org/ask/${AUDIENCE_KEY}"`);
    expect(html).toContain(`value="https://timer.example.org/api/v1/${API_KEY}"`);
    expect(html).toContain(`value="https://timer.example.org/api/v1/${API_KEY}/toggle"`);
    expect(html).not.toContain('127.0.0.1');
  });

  it('answers a browser with a wrong key with a 401 page that reveals neither key', async () => {
    const t = createTestApp();
    const res = await t.request(`${LAN}/control/${API_KEY.slice(0, -1)}x`, { headers: { Accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
    expect(res.headers.get('ratelimit-reset')).toBe('60');
    const html = await res.text();
    expect(html).toContain('not valid');
    expect(html).toContain('npm run key');
    // In the console's style, from the box's own stylesheet.
    expect(html).toContain('<link rel="stylesheet" href="/assets/control.css">');
    expect(html).not.toContain(API_KEY);
    expect(html).not.toContain(VIEWER_KEY);
    // The one script is the front door's, for the field to try again (issue 31): nothing inline.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/home.js" defer>']);
    expect(html).toContain('id="control-key"');
    expect(html).not.toContain('id="viewer-key"');
    // The viewer key does not open the console either.
    expect((await t.request(`${LAN}/control/${VIEWER_KEY}`)).status).toBe(401);
  });

  it('answers other clients (curl, scripts) with the JSON error and the same headers', async () => {
    const t = createTestApp();
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await t.request(`${LAN}/control/not-the-key`, accept === undefined ? {} : { headers: { Accept: accept } });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
      const body = (await res.json()) as { ok: boolean; error: string };
      expect(body.ok).toBe(false);
      expect(body.error).toMatch(/control link is not valid.*npm run key/);
    }
  });

  it('counts wrong keys per address together with wrong API keys, and a 429 page past the quota', async () => {
    const t = createTestApp({ limit: 3 });
    expect((await t.request('/control/wrong1', { client: '10.0.0.9' })).status).toBe(401);
    expect((await t.request('/api/v1/wrong2/state', { client: '10.0.0.9' })).status).toBe(401);
    expect((await t.request('/control/wrong3', { client: '10.0.0.9' })).status).toBe(401);
    const refused = await t.request('/control/wrong4', { client: '10.0.0.9', headers: { Accept: BROWSER_ACCEPT } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.text()).toContain('Too many attempts');
    const json = await t.request('/control/wrong4', { client: '10.0.0.9' });
    expect(json.status).toBe(429);
    expect(((await json.json()) as { error: string }).error).toMatch(/try again in \d+ s/);
    // Another address, and the right key, are not held up by it.
    expect((await t.request('/control/wrong5', { client: '10.0.0.10' })).status).toBe(401);
    expect((await t.request(`/control/${API_KEY}`, { client: '10.0.0.9' })).status).toBe(200);
  });

  it('spends none of the API quota when the right key loads the page', async () => {
    const t = createTestApp({ limit: 3 });
    for (let i = 0; i < 5; i += 1) expect((await t.request(`/control/${API_KEY}`)).status).toBe(200);
    const state = await t.get('v1', '/state');
    expect(state.status).toBe(200);
    expect(state.headers.get('ratelimit-remaining')).toBe('2');
  });

  it('logs the route pattern, never the key', async () => {
    const t = createTestApp({ scrubKeys: false });
    await t.request(`/control/${API_KEY}`);
    await t.request('/control/not-the-key');
    const lines = t.logLines.join('\n');
    expect(lines).not.toContain(API_KEY);
    expect(lines).not.toContain('not-the-key');
    expect(t.logs().filter((l) => l.route === 'GET /control/{api_key}').map((l) => l.status)).toEqual([200, 401]);
  });
});
