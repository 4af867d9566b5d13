// The front door (/) and the favicon: a page that says what the box is and how to
// open the console and the viewer without ever holding a key, and an icon for the
// tabs. Neither is an unknown path: no quota is spent on them.
import { describe, expect, it } from 'vitest';
import { API_KEY, createTestApp, VIEWER_KEY } from '../helpers/test-app.js';
import { keyFrom } from '../../src/pages/home/key-text.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /', () => {
  it('is a page about the box, with the key fields and no key in it, under the pages’ CSP', async () => {
    const t = createTestApp({ limit: 1 });
    for (let i = 0; i < 3; i += 1) {
      const res = await t.request('/', { headers: { Accept: BROWSER_ACCEPT } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
      const html = await res.text();
      expect(html).toContain('countdown timer box');
      expect(html).toContain('id="control-key"');
      expect(html).toContain('id="viewer-key"');
      expect(html).toContain('npm run key');
      expect(html).toContain('<script src="/assets/home.js" defer></script>');
      expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(html).not.toContain(API_KEY);
      expect(html).not.toContain(VIEWER_KEY);
    }
  });

  it('serves the favicon as an SVG that can run nothing, under both names', async () => {
    const t = createTestApp({ limit: 1 });
    for (const path of ['/favicon.svg', '/favicon.ico', '/favicon.ico']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const svg = await res.text();
      expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).not.toMatch(/<script|on\w+=/i);
    }
  });

  it('takes a bare key or a pasted link, and refuses anything else', () => {
    expect(keyFrom(`  ${API_KEY} `, 'control')).toBe(API_KEY);
    expect(keyFrom(`http://showclock.local:8080/control/${API_KEY}`, 'control')).toBe(API_KEY);
    expect(keyFrom(`http://10.0.0.5:8080/view/${VIEWER_KEY}?x=1`, 'view')).toBe(VIEWER_KEY);
    expect(keyFrom('', 'control')).toBeNull();
    expect(keyFrom('short', 'control')).toBeNull();
    expect(keyFrom('../../etc/passwd-x', 'control')).toBeNull();
    expect(keyFrom('http://showclock.local/control/', 'control')).toBeNull();
  });
});
