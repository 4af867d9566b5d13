// Bundles the service into one ESM file for Node 20: dist/showclock.mjs.
// pino and friends call require() at run time, so ESM needs a createRequire banner.
// onoff stays external: it loads a native addon built on the Pi at install.
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// zod's namespace re-exports ~50 translated error-message locales (about 270 KB
// minified) that tree shaking cannot drop. Every message we show is our own, so
// keep English only: the bundle shrinks by almost half, which matters on a Pi.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

export async function buildServer({ minify = true } = {}) {
  await build({
    entryPoints: [path.join(root, 'src/main.ts')],
    outfile: path.join(root, 'dist/showclock.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify,
    sourcemap: 'linked',
    external: ['onoff'],
    plugins: [zodEnglishOnly],
    legalComments: 'none',
    banner: { js: "import { createRequire as __showclockCreateRequire } from 'node:module'; const require = __showclockCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The pages belong to the bundle: the server serves them from dist/pages next to it.
  await buildPages({ minify });
}

/**
 * Every src/pages/<name>/main.ts becomes dist/pages/<name>.js (and <name>.css when
 * it imports CSS): one minified IIFE each, for the browsers of old kiosks and
 * tablets (Chromium 70, Safari 12). `only` limits it to some pages (tests). Returns the page names.
 */
export async function buildPages({ outdir = path.join(root, 'dist/pages'), minify = true, only } = {}) {
  const pagesRoot = path.join(root, 'src/pages');
  const names = existsSync(pagesRoot)
    ? readdirSync(pagesRoot, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(path.join(pagesRoot, entry.name, 'main.ts')))
        .map((entry) => entry.name)
        .filter((name) => only === undefined || only.includes(name))
    : [];
  if (names.length === 0) return names;
  await build({
    entryPoints: Object.fromEntries(names.map((name) => [name, path.join(pagesRoot, name, 'main.ts')])),
    outdir,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome70', 'safari12'],
    minify,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
  return names;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
}
