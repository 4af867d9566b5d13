// The <head> every page of the box starts with: no referrer (most of their URLs
// hold a key), not for search engines, the box's icon, and the page's own
// stylesheet and script from /assets (the CSP allows nothing else).
import { escapeHtml } from './html-text.js';

export interface PageHead {
  readonly title: string;
  readonly stylesheet: string;
  /** The page's script, deferred; none for a static page. */
  readonly script?: string;
  /** Extra lines for the head (a page's own meta tags). */
  readonly extra?: string;
}

/** `<!doctype html>` through `</head>`. */
export function pageHead(head: PageHead): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">${head.extra === undefined ? '' : `\n${head.extra}`}
<title>${escapeHtml(head.title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${head.stylesheet}">${head.script === undefined ? '' : `\n<script src="${head.script}" defer></script>`}
</head>`;
}
