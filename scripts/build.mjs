// Bundles the service into one ESM file for Node 20: dist/showclock.mjs.
// pino and friends call require() at run time, so ESM needs a createRequire banner.
// onoff stays external: it loads a native addon built on the Pi at install.
import { build } from 'esbuild';
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
}
