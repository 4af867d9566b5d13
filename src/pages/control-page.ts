// The control console's page: GET /control/{api_key}. It gets the pages' common
// headers (CSP allowing only the box's own files; no-referrer, since the key is
// in the URL) and draws the viewer and audience links' QR codes here as SVG, so the page needs
// nothing from the internet. Wrong keys are counted per client address with the
// API's quota, so the key cannot be guessed through this page faster than
// through the API, and are answered like a wrong API key (rate-limit headers,
// no-store): a page for a browser, JSON for anything else (error-page.ts).
// Loading the page with the right key spends no quota: the console's own
// requests (and its stream, once) do.
//
// The links on the page (viewer, audience, API base, button-panel examples) and
// their QR codes start with the configured public URL, or the box's own LAN
// address and port (src/web/request-origin.ts, linkOriginOf): never with the Host the
// request names, so a request cannot put another host into them, and the page
// opened as http://localhost:8080/control/... on the box still gives links that
// work on the LAN.
import type { Context, Hono } from 'hono';
import { qrSvg } from './qr-svg.js';
import type { LinkConfig } from '../app/urls.js';
import { addAnswerHeaders, answer } from '../web/answer.js';
import type { AppEnv, Keys } from '../web/env.js';
import { hitForAddress } from '../web/address-quota.js';
import { askQrSvg, askUrl } from './ask-link.js';
import { renderControlPage } from './control-page-html.js';
import { wrongLinkRefusal } from './error-page.js';
import { pageHeaders } from './page-headers.js';
import type { FixedWindowLimiter } from '../app/rate-limit.js';
import { linkOriginOf } from '../web/request-origin.js';
import { sameSecret } from '../app/secret-match.js';

export interface ControlPageDeps {
  readonly keys: () => Keys;
  readonly limiter: FixedWindowLimiter;
  readonly clientAddress: (c: Context) => string;
  /** Where the links start: `publicUrl`, or the box's host and port (main.ts passes the config). */
  readonly links?: LinkConfig | undefined;
}

export function viewerQrSvg(viewerUrl: string): string {
  return qrSvg(viewerUrl, 'QR code of the viewer link');
}

export function mountControlPage(app: Hono<AppEnv>, deps: ControlPageDeps): void {
  app.get('/control/:key', (c) => {
    c.set('route', 'GET /control/{api_key}');
    const keys = deps.keys();
    if (!sameSecret(c.req.param('key'), keys.apiKey)) {
      const decision = hitForAddress(c, deps.limiter, 'address', deps.clientAddress(c));
      // The URL holds a key, if a wrong one: the JSON answer is not sent on as a Referer either.
      addAnswerHeaders(c, { 'Referrer-Policy': 'no-referrer' });
      return wrongLinkRefusal(
        c,
        decision,
        'control',
        'this control link is not valid: the API key in it is wrong or was changed; on the box, `npm run key` prints the current control link',
      );
    }
    const headers = pageHeaders({ keyInUrl: true });
    const origin = linkOriginOf(c, deps.links);
    const viewerUrl = `${origin}/view/${keys.viewerKey}`;
    const audienceUrl = askUrl(origin, keys.audienceKey);
    const html = renderControlPage({
      apiKey: keys.apiKey,
      viewerKey: keys.viewerKey,
      origin,
      viewerUrl,
      qrSvg: viewerQrSvg(viewerUrl),
      askUrl: audienceUrl,
      askQrSvg: askQrSvg(audienceUrl),
    });
    return answer(c, html, 200, headers);
  });
}
