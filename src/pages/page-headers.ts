// Headers for the HTML pages the box serves (display, console). The policy allows
// only the box's own scripts and styles: no inline script, no CDN, nothing from
// elsewhere; pages get their configuration from their own URL or data- attributes.
import type { Context } from 'hono';
import { answer } from '../web/answer.js';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // The display's keep-awake fallback plays a silent video held in a data: URI.
  "media-src 'self' data:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageOptions {
  /** The URL holds a key: no browser may send it on as a Referer. */
  readonly keyInUrl: boolean;
}

export function pageHeaders(opts: PageOptions): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    ...(opts.keyInUrl ? { 'Referrer-Policy': 'no-referrer' } : {}),
  };
}

export function pageResponse(c: Context, html: string, opts: PageOptions): Response {
  return answer(c, html, 200, pageHeaders(opts));
}
