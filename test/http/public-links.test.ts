// Links come from configuration, not from the request (issue 26, finding 6): a
// Host header (or X-Forwarded-Host, Forwarded, or an absolute URL in the request
// line) names whatever the client likes, and must never reach a page, an image or
// a JSON answer. The console's viewer and audience links, the API base, the
// button-panel examples, their QR codes and the audience code on the screens use
// `publicUrl`, or the box's own LAN address and the port it serves on.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { afterEach, describe, expect, it } from 'vitest';
import { publicHost, type LinkConfig } from '../../src/app/urls.js';
import { API_KEY, AUDIENCE_KEY, VIEWER_KEY, createTestApp, type TestApp } from '../helpers/test-app.js';
import { startSocketApp } from '../helpers/socket-app.js';

const EVIL = 'evil.example';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** Every header a client might use to name a host for the links. */
const FORGED = { 'X-Forwarded-Host': `fwd.${EVIL}`, 'X-Forwarded-Proto': 'https', Forwarded: `host=fw.${EVIL};proto=https`, 'X-Original-Host': `orig.${EVIL}` };

interface Page {
  readonly method?: 'GET' | 'POST' | 'OPTIONS';
  readonly path: string;
  readonly client?: string;
  readonly accept?: string;
  readonly body?: { readonly type: string; readonly text: string };
}

/** Every page, image and answer the box gives, with a right key and a wrong one, for a browser and for a script. */
const PAGES: readonly Page[] = [
  { path: '/' },
  { path: '/favicon.svg' },
  { path: `/control/${API_KEY}` },
  { path: '/control/WrongKey_0123456789' },
  { path: `/view/${VIEWER_KEY}` },
  { path: `/view/${VIEWER_KEY}/time` },
  { path: `/view/${VIEWER_KEY}/ask-link.svg` },
  { path: '/view/WrongKey_0123456789' },
  { path: '/display' },
  { path: '/display/time' },
  { path: '/display/ask-link.svg' },
  { path: '/display', client: '192.168.1.77' },
  { path: `/ask/${AUDIENCE_KEY}` },
  { path: '/ask/WrongKey_0123456789' },
  { method: 'POST', path: `/ask/${AUDIENCE_KEY}`, body: { type: 'application/x-www-form-urlencoded', text: 'text=Where%20is%20the%20exit%3F&name=Ada' } },
  { method: 'POST', path: `/ask/${AUDIENCE_KEY}`, body: { type: 'application/json', text: '{"text":"And the coffee?"}' } },
  { method: 'POST', path: `/ask/${AUDIENCE_KEY}`, body: { type: 'application/json', text: '{"text":""}' } },
  { path: `/api/v1/${API_KEY}/state` },
  { path: `/api/v1/${API_KEY}/timers` },
  { path: `/api/v1/${API_KEY}/questions` },
  { path: `/api/v1/${API_KEY}/timers.csv` },
  { path: `/api/v1/${API_KEY}/no-such-command` },
  { method: 'POST', path: `/api/v1/${API_KEY}/timers`, body: { type: 'application/json', text: '{"label":"From afar"}' } },
  { method: 'OPTIONS', path: `/api/v1/${API_KEY}/start` },
  { path: `/api/v0/${API_KEY}/status` },
  { path: '/api/v1/WrongKey_0123456789/state' },
  { path: '/api/v1/openapi.json' },
  { path: '/healthz' },
  { path: '/no/such/page' },
  { path: '/assets/no-such-bundle.js' },
  { path: '/logo/0123456789abcdef.png' },
];

/** Everything a client gets back, headers and body, as one text to search. */
async function everything(res: Response): Promise<string> {
  const headers: string[] = [];
  res.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  return `${res.status}\n${headers.join('\n')}\n\n${await res.text()}`;
}

async function askLinkOn(t: TestApp): Promise<void> {
  expect((await t.get('v1', '/display?showAskLink=1')).status).toBe(200);
}

describe('no request names the host in the links (in process)', () => {
  for (const accept of [BROWSER_ACCEPT, '*/*']) {
    it(`no page, image or answer holds a host from the request (Accept: ${accept.slice(0, 9)}…)`, async () => {
      const t = createTestApp();
      await askLinkOn(t);
      const own = `http://${publicHost('0.0.0.0')}:8080`;
      for (const page of PAGES) {
        const res = await t.request(`http://${EVIL}:8080${page.path}`, {
          method: page.method ?? 'GET',
          client: page.client ?? '127.0.0.1',
          headers: { ...FORGED, Accept: page.accept ?? accept, ...(page.body === undefined ? {} : { 'Content-Type': page.body.type }) },
          ...(page.body === undefined ? {} : { body: page.body.text }),
        });
        const seen = await everything(res);
        expect(seen, `${page.method ?? 'GET'} ${page.path}`).not.toContain(EVIL);
        // Where the answer holds links, they are the box's own.
        if (page.path === `/control/${API_KEY}`) {
          expect(res.status).toBe(200);
          expect(seen).toContain(`value="${own}/view/${VIEWER_KEY}"`);
          expect(seen).toContain(`value="${own}/ask/${AUDIENCE_KEY}"`);
        }
        if (page.path.endsWith('/ask-link.svg')) {
          expect(res.status, page.path).toBe(200);
          expect(seen).toContain(`${own}/ask/${AUDIENCE_KEY}`);
        }
      }
    }, 30_000);
  }

  it('the QR codes on the console encode the configured link, not the Host', async () => {
    const publicUrl = 'http://showclock.local:8080';
    const t = createTestApp({ links: { host: '0.0.0.0', port: 8080, publicUrl } });
    const html = await (await t.request(`http://${EVIL}/control/${API_KEY}`, { headers: FORGED })).text();
    expect(html).not.toContain(EVIL);
    // qrSvg draws with the qrcode package: the same text gives the same drawing, so the page holds the configured link's exact code.
    for (const [text, label] of [
      [`${publicUrl}/view/${VIEWER_KEY}`, 'QR code of the viewer link'],
      [`${publicUrl}/ask/${AUDIENCE_KEY}`, 'QR code of the audience link (questions)'],
    ] as const) {
      const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? 'no path';
      expect(html, label).toContain(path);
      expect(html).toContain(label);
    }
    expect(html).toContain(`value="${publicUrl}/api/v1/${API_KEY}/next"`);
  });

  it('the audience code on the screens uses publicUrl too', async () => {
    const t = createTestApp({ links: { host: '0.0.0.0', port: 8080, publicUrl: 'https://timer.example.org' } });
    await askLinkOn(t);
    for (const path of ['/display/ask-link.svg', `/view/${VIEWER_KEY}/ask-link.svg`]) {
      const svg = await (await t.request(`http://${EVIL}${path}`, { headers: FORGED })).text();
      expect(svg, path).toContain(`https://timer.example.org/ask/${AUDIENCE_KEY}`);
      expect(svg, path).not.toContain(EVIL);
    }
  });
});

describe('no request names the host in the links (over a socket)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function start(links?: LinkConfig): Promise<number> {
    const app = await startSocketApp(links === undefined ? {} : { links });
    closers.push(() => app.close());
    const port = app.port;
    expect((await get(port, `/api/v1/${API_KEY}/display?showAskLink=1`, {})).status).toBe(200);
    return port;
  }

  /** A request with the headers as given, Host included (fetch would not send a Host of our choosing). */
  function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        let text = Object.entries(res.headers).map(([k, v]) => `${k}: ${String(v)}`).join('\n');
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
  }

  /** The request line in absolute form (`GET http://evil.example/... HTTP/1.1`), written by hand. */
  function rawGet(port: number, target: string, host: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAccept: ${BROWSER_ACCEPT}\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  it("with Host, X-Forwarded-Host or an absolute request line naming another host, the links are the box's address and port", async () => {
    const port = await start();
    const own = `http://${publicHost('0.0.0.0')}:${port}`;
    const paths = [`/control/${API_KEY}`, `/view/${VIEWER_KEY}/ask-link.svg`, '/display/ask-link.svg', `/view/${VIEWER_KEY}`, `/ask/${AUDIENCE_KEY}`, '/', '/nope', '/control/wrong'];
    for (const path of paths) {
      for (const headers of [{ Host: `${EVIL}:${port}` }, { Host: EVIL }, { Host: `127.0.0.1:${port}`, ...FORGED }]) {
        const { status, text } = await get(port, path, { ...headers, Accept: BROWSER_ACCEPT });
        expect(text, `${path} ${JSON.stringify(headers)}`).not.toContain(EVIL);
        if (path === `/control/${API_KEY}`) {
          expect(status).toBe(200);
          expect(text).toContain(`value="${own}/view/${VIEWER_KEY}"`);
        }
        if (path.endsWith('ask-link.svg')) expect(text).toContain(`${own}/ask/${AUDIENCE_KEY}`);
      }
      const raw = await rawGet(port, `http://${EVIL}:${port}${path}`, EVIL);
      expect(raw, `absolute form ${path}`).toMatch(/^HTTP\/1\.1 \d{3}/);
      expect(raw, `absolute form ${path}`).not.toContain(EVIL);
    }
    const console = await rawGet(port, `http://${EVIL}/control/${API_KEY}`, EVIL);
    expect(console).toMatch(/^HTTP\/1\.1 200/);
    expect(console).toContain(`value="${own}/ask/${AUDIENCE_KEY}"`);
  });

  it('with publicUrl set, the console opened on the box itself gives the public links', async () => {
    const port = await start({ host: '0.0.0.0', port: 8080, publicUrl: 'http://showclock.local:8080' });
    const { status, text } = await get(port, `/control/${API_KEY}`, { Host: `localhost:${port}` });
    expect(status).toBe(200);
    expect(text).toContain(`value="http://showclock.local:8080/view/${VIEWER_KEY}"`);
    expect(text).toContain(`value="http://showclock.local:8080/ask/${AUDIENCE_KEY}"`);
    expect(text).not.toContain(`localhost:${port}`);
  });
});
