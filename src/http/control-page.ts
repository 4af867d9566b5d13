// The control console's page: GET /control/{api_key}. It gets the pages' common
// headers (CSP allowing only the box's own files; no-referrer, since the key is
// in the URL) and draws the viewer link's QR code here as SVG, so the page needs
// nothing from the internet. Wrong keys are counted per client address with the
// API's quota, so the key cannot be guessed through this page faster than
// through the API. Loading the page with the right key spends no quota: the
// console's own requests (and its stream, once) do.
import type { Context, Hono } from 'hono';
import QRCode from 'qrcode';
import { publicHost } from '../app/urls.js';
import type { AppEnv, Keys } from './app.js';
import { renderControlPage, renderInvalidLinkPage } from './control-page-html.js';
import { pageHeaders } from './page-headers.js';
import { rateLimitHeaders, type FixedWindowLimiter } from './rate-limit.js';
import { sameSecret } from './secret-match.js';

export interface ControlPageDeps {
  readonly keys: () => Keys;
  readonly limiter: FixedWindowLimiter;
  readonly clientAddress: (c: Context) => string;
}


const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/**
 * The origin people on the LAN use: the one this page was reached at, except a
 * loopback one (the kiosk's own browser), which means nothing on a phone.
 */
export function lanOrigin(requestUrl: string): string {
  const url = new URL(requestUrl);
  if (!LOOPBACK.test(url.hostname)) return url.origin;
  return `${url.protocol}//${publicHost('0.0.0.0')}${url.port === '' ? '' : `:${url.port}`}`;
}

export async function viewerQrSvg(viewerUrl: string): Promise<string> {
  const svg = await QRCode.toString(viewerUrl, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return svg.replace('<svg ', '<svg class="qr" role="img" aria-label="QR code of the viewer link" ');
}

export function mountControlPage(app: Hono<AppEnv>, deps: ControlPageDeps): void {
  app.get('/control/:key', async (c) => {
    c.set('route', 'GET /control/{api_key}');
    const headers = pageHeaders({ keyInUrl: true });
    const keys = deps.keys();
    if (!sameSecret(c.req.param('key'), keys.apiKey)) {
      const decision = deps.limiter.hit(`address:${deps.clientAddress(c)}`);
      const status = decision.allowed ? 401 : 429;
      return c.body(renderInvalidLinkPage(status, decision.resetSeconds), status, { ...headers, ...rateLimitHeaders(decision) });
    }
    const origin = lanOrigin(c.req.url);
    const viewerUrl = `${origin}/view/${keys.viewerKey}`;
    const html = renderControlPage({ apiKey: keys.apiKey, viewerKey: keys.viewerKey, origin, viewerUrl, qrSvg: await viewerQrSvg(viewerUrl) });
    return c.body(html, 200, headers);
  });
}
