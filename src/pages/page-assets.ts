// The browser bundles of the pages (dist/pages/<name>.js and .css, and the display's
// font, built by scripts/build.mjs), served at /assets/<file>. They are found next to the
// running code: beside the server bundle (dist/showclock.cjs -> dist/pages), or,
// when running from source (vitest, src/pages/page-assets.ts), in dist/pages at
// the project root.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';

/** Only plain bundle names: nothing with a slash or dots can reach the file system. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(js|css|woff2)$/;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  woff2: 'font/woff2',
};

/** Where to look for the page bundles, in order, seen from the module at `moduleUrl`. */
export function pagesDirCandidates(moduleUrl: string = import.meta.url): string[] {
  const here = dirname(fileURLToPath(moduleUrl));
  return [join(here, 'pages'), join(here, '..', '..', 'dist', 'pages')];
}

interface Found {
  readonly file: string;
  readonly size: number;
  readonly mtimeMs: number;
}

async function findAsset(dirs: readonly string[], name: string): Promise<Found | null> {
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      const info = await stat(file);
      if (info.isFile()) return { file, size: info.size, mtimeMs: info.mtimeMs };
    } catch {
      // Not in this candidate: try the next one.
    }
  }
  return null;
}

/** Whether the request takes gzip (`Accept-Encoding: gzip`, not refused with `q=0`). */
function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    return !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
  });
}

/**
 * GET /assets/:file. Revalidated on every load (ETag), so a rebuilt page is never stale.
 * Scripts and stylesheets go out gzipped where the build left a `.gz` beside them and
 * the browser takes it; the font as it is (woff2 is compressed).
 */
export function assetHandler(dirs: readonly string[]) {
  return async (c: Context): Promise<Response> => {
    const name = c.req.param('file') ?? '';
    const match = ASSET_NAME.exec(name);
    const type = match === null ? undefined : CONTENT_TYPES[match[1] ?? ''];
    const found = type === undefined ? null : await findAsset(dirs, name);
    if (type === undefined || found === null) {
      return c.json({ ok: false as const, error: `no asset "${name.slice(0, 64)}"; was the project built (npm run build)?` }, 404);
    }
    const gzipped = match?.[1] !== 'woff2' && acceptsGzip(c.req.header('Accept-Encoding')) ? await findAsset([dirname(found.file)], `${name}.gz`) : null;
    // The copy made by the same build: not older than the file (a stale one is never sent).
    const sent = gzipped !== null && gzipped.mtimeMs >= found.mtimeMs ? gzipped : found;
    const etag = `W/"${sent.size.toString(36)}-${Math.floor(sent.mtimeMs).toString(36)}${sent === found ? '' : '-gz'}"`;
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Cache-Control': 'no-cache',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      ...(match?.[1] === 'woff2' ? {} : { Vary: 'Accept-Encoding' }),
      ...(sent === found ? {} : { 'Content-Encoding': 'gzip' }),
    };
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
    const bytes = await readFile(sent.file);
    return c.body(new Uint8Array(bytes), 200, headers);
  };
}
