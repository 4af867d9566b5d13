// The browser bundles of the pages (dist/pages/<name>.js and .css, and the display's
// font, built by scripts/build.mjs), served at /assets/<file>. They are found next to the
// running code: beside the server bundle (dist/showclock.cjs -> dist/pages), or,
// when running from source (vitest, src/http/page-assets.ts), in dist/pages at
// the project root.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
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
  const here = path.dirname(fileURLToPath(moduleUrl));
  return [path.join(here, 'pages'), path.join(here, '..', '..', 'dist', 'pages')];
}

interface Found {
  readonly file: string;
  readonly size: number;
  readonly mtimeMs: number;
}

async function findAsset(dirs: readonly string[], name: string): Promise<Found | null> {
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      const info = await stat(file);
      if (info.isFile()) return { file, size: info.size, mtimeMs: info.mtimeMs };
    } catch {
      // Not in this candidate: try the next one.
    }
  }
  return null;
}

/** GET /assets/:file. Revalidated on every load (ETag), so a rebuilt page is never stale. */
export function assetHandler(dirs: readonly string[]) {
  return async (c: Context): Promise<Response> => {
    const name = c.req.param('file') ?? '';
    const match = ASSET_NAME.exec(name);
    const type = match === null ? undefined : CONTENT_TYPES[match[1] ?? ''];
    const found = type === undefined ? null : await findAsset(dirs, name);
    if (type === undefined || found === null) {
      return c.json({ ok: false as const, error: `no asset "${name.slice(0, 64)}"; was the project built (npm run build)?` }, 404);
    }
    const etag = `W/"${found.size.toString(36)}-${Math.floor(found.mtimeMs).toString(36)}"`;
    const headers = {
      'Content-Type': type,
      'Cache-Control': 'no-cache',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
    const bytes = await readFile(found.file);
    return c.body(new Uint8Array(bytes), 200, headers);
  };
}
