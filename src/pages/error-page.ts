// Refusals at the box's page URLs (/control/{api_key}, /view/{viewer_key},
// /display, unknown paths): a browser that navigates there (Accept: text/html)
// gets a small page in the console's style saying the same as the JSON error,
// which every other client (curl, fetch, EventSource, button panels) still gets,
// as a sentence: a capital letter, a full stop, `code` shown as code. A wrong
// control or viewer key also gets the front door's field to try again, with the
// front door's script (the only script here; the pages' CSP allows the box's own);
// every other refusal is static. The console's own stylesheet styles them all.
import type { Context } from 'hono';
import { boxWideMessage, isBoxWide } from '../web/address-quota.js';
import { errorResponse } from '../web/api-errors.js';
import { answer } from '../web/answer.js';
import { CONTROL_STYLE_HREF, escapeHtml } from './control-page-html.js';
import { HOME_SCRIPT_SRC, keyFormHtml, type KeyField } from './front-door.js';
import { pageHead } from './page-head.js';
import { pageHeaders } from './page-headers.js';
import type { RateDecision } from '../app/rate-limit.js';

/** A browser navigating asks for text/html first; fetch() and curl send *\/*, EventSource text/event-stream. */
export function wantsHtml(c: Context): boolean {
  return c.req.header('Accept')?.includes('text/html') ?? false;
}

/**
 * A refusal's message (the JSON error's own words, which start in lowercase and
 * quote commands between backticks) as the page's sentence: the first letter a
 * capital, a full stop at the end, each `span` as <code>. Every piece goes through
 * escapeHtml: the message can quote what a link's query held.
 */
export function sentenceHtml(message: string): string {
  const text = message.trim();
  const first = /^[a-z]/.test(text) ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
  const parts = first.split('`');
  let html = '';
  for (let i = 0; i < parts.length; i += 1) {
    const part = escapeHtml(parts[i] ?? '');
    if (i % 2 === 0) html += part;
    // A backtick with no partner after it is shown as it is.
    else html += i === parts.length - 1 ? `\`${part}` : `<code>${part}</code>`;
  }
  return /[.!?…]$/.test(first) ? html : `${html}.`;
}

/** The front door's words above a wrong-key page's field. */
const TRY_AGAIN: Readonly<Record<KeyField, string>> = {
  control: 'Type the current API key, or paste the whole control link:',
  viewer: 'Type the current viewer key, or paste the whole viewer link:',
};

/** The page; `field` adds the front door's field for that kind of key, and its script. */
export function renderErrorPage(title: string, message: string, field?: KeyField): string {
  const again = field === undefined ? '' : `\n<section class="try-again"><h2>Try again</h2><p>${TRY_AGAIN[field]}</p>\n${keyFormHtml(field)}\n</section>`;
  return `${pageHead({ title: `Showclock: ${title}`, stylesheet: CONTROL_STYLE_HREF, ...(field === undefined ? {} : { script: HOME_SCRIPT_SRC }) })}
<body class="front-door refusal">
<header><h1>Showclock</h1></header>
<section role="alert"><h2>${escapeHtml(title)}</h2><p>${sentenceHtml(message)}</p></section>${again}
</body>
</html>
`;
}

/**
 * An error answer with the headers gathered for the request (rate limit,
 * no-store): `{ ok: false, error: message }`, or the page for a browser. The URL
 * may hold a key, right or wrong, so the page is never sent on as a Referer.
 */
export function refusal(c: Context, status: number, title: string, message: string, field?: KeyField): Response {
  if (!wantsHtml(c)) return errorResponse(c, status, message);
  return answer(c, renderErrorPage(title, message, field), status, pageHeaders({ keyInUrl: true }));
}

/**
 * A wrong key in a control or viewer link: 429 once the address has spent its
 * quota of wrong keys, else 401, each as a page for a browser and JSON otherwise.
 * The 401 page of a control or viewer link has the field for that key; a question
 * link's has none (the audience scans a code, it types no key), nor has the 429.
 */
export function wrongLinkRefusal(c: Context, decision: RateDecision, link: 'control' | 'viewer' | 'question', notValid: string): Response {
  if (!decision.allowed) {
    const why = isBoxWide(decision) ? boxWideMessage(decision) : `too many requests with a wrong ${link} link from your address; try again in ${decision.resetSeconds} s`;
    return refusal(c, 429, 'Too many attempts', why);
  }
  return refusal(c, 401, `This ${link} link is not valid`, notValid, fieldFor(link));
}

function fieldFor(link: 'control' | 'viewer' | 'question'): KeyField | undefined {
  switch (link) {
    case 'control':
      return 'control';
    case 'viewer':
      return 'viewer';
    case 'question':
      return undefined;
  }
}
