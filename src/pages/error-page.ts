// Refusals at the box's page URLs (/control/{api_key}, /view/{viewer_key},
// /display, unknown paths): a browser that navigates there (Accept: text/html)
// gets a small page in the console's style saying the same as the JSON error,
// which every other client (curl, fetch, EventSource, button panels) still gets.
// The page is static: no script, the console's own stylesheet, the pages' CSP.
import type { Context } from 'hono';
import { boxWideMessage, isBoxWide } from '../web/address-quota.js';
import { errorResponse } from '../web/api-errors.js';
import { answer } from '../web/answer.js';
import { CONTROL_STYLE_HREF, escapeHtml } from './control-page-html.js';
import { pageHead } from './page-head.js';
import { pageHeaders } from './page-headers.js';
import type { RateDecision } from '../app/rate-limit.js';

/** A browser navigating asks for text/html first; fetch() and curl send *\/*, EventSource text/event-stream. */
export function wantsHtml(c: Context): boolean {
  return c.req.header('Accept')?.includes('text/html') ?? false;
}

export function renderErrorPage(title: string, message: string): string {
  return `${pageHead({ title: `Showclock: ${title}`, stylesheet: CONTROL_STYLE_HREF })}
<body>
<header><h1>Showclock</h1></header>
<section role="alert"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(message)}</p></section>
</body>
</html>
`;
}

/**
 * An error answer with the headers gathered for the request (rate limit,
 * no-store): `{ ok: false, error: message }`, or the page for a browser. The URL
 * may hold a key, right or wrong, so the page is never sent on as a Referer.
 */
export function refusal(c: Context, status: number, title: string, message: string): Response {
  if (!wantsHtml(c)) return errorResponse(c, status, message);
  return answer(c, renderErrorPage(title, message), status, pageHeaders({ keyInUrl: true }));
}

/**
 * A wrong key in a control or viewer link: 429 once the address has spent its
 * quota of wrong keys, else 401, each as a page for a browser and JSON otherwise.
 */
export function wrongLinkRefusal(c: Context, decision: RateDecision, link: 'control' | 'viewer' | 'question', notValid: string): Response {
  if (!decision.allowed) {
    const why = isBoxWide(decision) ? boxWideMessage(decision) : `too many requests with a wrong ${link} link from your address; try again in ${decision.resetSeconds} s`;
    return refusal(c, 429, 'Too many attempts', why);
  }
  return refusal(c, 401, `This ${link} link is not valid`, notValid);
}
