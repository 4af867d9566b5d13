// Builds the service for Node 20 into dist/:
//   showclock.cjs        the service, one minified CommonJS bundle (CommonJS so
//                        that it can be compiled with a V8 code cache on Node 20)
//   showclock.mjs        the entry: src/launcher.ts, which runs showclock.cjs
//                        with that cache
//   showclock.cjs.cache  the cache, made by a short warm-up run of the service
//   openapi.json         the OpenAPI document the service serves, and
//   showclock-qr.cjs     its QR code drawing: beside the bundle, not in it (BUNDLE_STAND_INS)
//   showclock-tally.cjs  tally in (TSL UMD, OBS): beside the bundle, loaded where configured
//   showclock-mqtt.cjs   MQTT (MQTT.js): beside the bundle, loaded where configured
//   showclock-mdns.cjs   mDNS (ciao, multicast-dns): beside the bundle, loaded where venue.advertise is on
//   pages/               the browser bundles of the display, the console and the venue
//                        overview (every src/pages/<name>/main.ts: src/pages/venue/ is found as they are)
// onoff stays external: it loads a native addon built on the Pi at install.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { build } from 'esbuild';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { NODE_FLAGS } from './node-flags.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * The files beside the bundle that its stand-ins read: see writeBundleSideFiles. A chunk
 * holds its entry and, of src, only what `alsoFromSrc` allows: modules with no state of
 * their own at module level, so the copy in the chunk cannot disagree with the bundle's.
 */
const QR_CHUNK = { entry: 'src/pages/qr-svg.ts', file: 'showclock-qr.cjs', alsoFromSrc: /^$/ };
const TALLY_CHUNK = { entry: 'src/tally/tally-adapter.ts', file: 'showclock-tally.cjs', alsoFromSrc: /^src\/(tally\/|log\/line-throttle\.ts$|app\/clock\.ts$)/ };
// mqtt-commands.ts (the shared vocabulary) stays in the bundle: main.ts hands it to the adapter.
const MQTT_CHUNK = { entry: 'src/mqtt/mqtt-adapter.ts', file: 'showclock-mqtt.cjs', alsoFromSrc: /^src\/(mqtt\/mqtt-topics\.ts$|log\/line-throttle\.ts$|app\/clock\.ts$)/ };
// ciao's index registers source-map-support at load (for its own stack traces), which would
// replace Error.prepareStackTrace for the whole service: the chunk takes an empty module instead.
const MDNS_CHUNK = { entry: 'src/mdns/mdns-adapter.ts', file: 'showclock-mdns.cjs', alsoFromSrc: /^src\/mdns\//, emptyModules: /^source-map-support\/register$/ };
const CHUNKS = [QR_CHUNK, TALLY_CHUNK, MQTT_CHUNK, MDNS_CHUNK];
const OPENAPI_FILE = 'openapi.json';
/** Their names in dist/, for whoever checks that a build is whole (scripts/start.mjs). */
export const BESIDE_BUNDLE = [OPENAPI_FILE, ...CHUNKS.map((chunk) => chunk.file)];

/**
 * Modules the service bundle takes in another form, each stand-in typed against the module of
 * src it replaces (tests and tools run src as it is). V8 keeps the whole text of a bundle for
 * the life of the process, so code a box does not run at idle costs its memory there all the
 * same (BENCHMARKS.md, issue 17); these carry it beside the bundle instead:
 *   openapi-text.ts  the document the build wrote to dist/openapi.json, read when asked for, not
 *                    its generator (openapi.ts and zod's JSON Schema code, about 40 KB);
 *   qr-svg.ts        dist/showclock-qr.cjs (qr-svg.ts with the qrcode package, about 23 KB),
 *                    loaded at the first QR code;
 *   tally-adapter.ts dist/showclock-tally.cjs (src/tally with obs-websocket-js and ws, about
 *                    80 KB), loaded at start only on a box with tally configured;
 *   mqtt-adapter.ts  dist/showclock-mqtt.cjs (the adapter with the mqtt package), loaded at
 *                    start only on a box with mqtt.url configured;
 *   mdns-adapter.ts  dist/showclock-mdns.cjs (src/mdns with @homebridge/ciao and multicast-dns),
 *                    loaded after the start only on a box with venue.advertise on.
 */
const BUNDLE_STAND_INS = new Map([
  ['src/api/openapi-text.ts', 'src/api/openapi-text.bundle.ts'],
  [QR_CHUNK.entry, 'src/pages/qr-svg.bundle.ts'],
  [TALLY_CHUNK.entry, 'src/tally/tally-adapter.bundle.ts'],
  [MQTT_CHUNK.entry, 'src/mqtt/mqtt-adapter.bundle.ts'],
  [MDNS_CHUNK.entry, 'src/mdns/mdns-adapter.bundle.ts'],
]);

// pino's transports (worker threads, thread-stream) and its SonicBoom destination are what
// it uses when it is given no stream; the service gives it one (src/log/logger.ts), so the
// bundle has a stand-in for each that says so if it is ever reached. SonicBoom stays a
// class: pino checks streams with instanceof.
const PINO_STAND_INS = new Map([
  [
    'transport',
    "module.exports = function transport() { throw new Error('pino transports are not in the Showclock bundle: it logs to standard output (src/log/logger.ts)'); };",
  ],
  [
    'sonic-boom',
    "module.exports = class SonicBoom { constructor() { throw new Error('SonicBoom is not in the Showclock bundle: it logs to standard output (src/log/logger.ts)'); } };",
  ],
]);

function standInsPlugin(sourceRoot) {
  return {
    name: 'showclock-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
        const ts = path.relative(sourceRoot, path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))).split(path.sep).join('/');
        const standIn = BUNDLE_STAND_INS.get(ts);
        return standIn === undefined ? undefined : { path: path.join(sourceRoot, standIn) };
      });
      b.onResolve({ filter: /^(\.\/lib\/transport|\.\/transport|sonic-boom)$/ }, (args) =>
        /[\\/]pino[\\/](pino|lib[\\/]tools)\.js$/.test(args.importer)
          ? { path: args.path === 'sonic-boom' ? 'sonic-boom' : 'transport', namespace: 'pino-stand-in' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'pino-stand-in' }, (args) => ({ contents: PINO_STAND_INS.get(args.path), loader: 'js' }));
    },
  };
}

/** Packages a chunk takes as empty modules: code they would run at load that the service does not want. */
function emptyModulesPlugin(filter) {
  return {
    name: 'showclock-empty-modules',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'showclock-empty' }));
      b.onLoad({ filter: /.*/, namespace: 'showclock-empty' }, () => ({ contents: '', loader: 'js' }));
    },
  };
}

/**
 * The esbuild options of the service bundle (dist/showclock.cjs), for the build and for
 * tools that bundle a copy of the same sources (bench/profile.mjs), so the two never differ.
 */
export function serviceBundleOptions({ sourceRoot = root, outfile, minify = true }) {
  return {
    ...nodeBundleOptions(sourceRoot, minify),
    entryPoints: [path.join(sourceRoot, 'src/main.ts')],
    outfile,
    external: ['onoff'],
    // import.meta does not exist in CommonJS: the bundle's own file URL stands in for it.
    define: { 'import.meta.url': '__showclockBundleUrl' },
    // import() becomes require(): a script compiled by node:vm has no loader for import().
    supported: { 'dynamic-import': false },
    banner: { js: "const __showclockBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [standInsPlugin(sourceRoot)],
  };
}

/** What the service bundle and the files beside it share: one CommonJS file each, for Node 20. */
function nodeBundleOptions(sourceRoot, minify) {
  return { absWorkingDir: sourceRoot, bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify, legalComments: 'none', logLevel: 'warning' };
}

/**
 * Writes what the bundle's stand-ins read into `dir`, beside it: the OpenAPI document as
 * served (compact JSON) and the QR chunk. The chunk must hold nothing of src but its
 * entry, or the service would have two copies of a module (and of its state).
 */
export async function writeBundleSideFiles(dir, { sourceRoot = root, minify = true } = {}) {
  writeFileSync(path.join(dir, OPENAPI_FILE), JSON.stringify(await openApiDocument(sourceRoot)));
  for (const chunk of CHUNKS) {
    const { metafile } = await build({
      ...nodeBundleOptions(sourceRoot, minify),
      entryPoints: [path.join(sourceRoot, chunk.entry)],
      outfile: path.join(dir, chunk.file),
      metafile: true,
      plugins: chunk.emptyModules === undefined ? [] : [emptyModulesPlugin(chunk.emptyModules)],
    });
    const fromSrc = Object.keys(metafile.inputs).filter((input) => input.startsWith('src/') && input !== chunk.entry && !chunk.alsoFromSrc.test(input));
    if (fromSrc.length > 0) throw new Error(`${chunk.file} must hold only ${chunk.entry} of src (and ${chunk.alsoFromSrc}), not ${fromSrc.join(', ')}`);
  }
}

/**
 * The OpenAPI document made from src as it stands (src/commands/openapi.ts bundled into a
 * temporary module, a fraction of a second): for dist/openapi.json and for the lint.
 */
export async function openApiDocument(sourceRoot = root) {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-openapi-'));
  try {
    const module = path.join(dir, 'openapi.mjs');
    // An ES module, so that it can be imported here; unminified, as it is thrown away.
    await build({ ...nodeBundleOptions(sourceRoot, false), format: 'esm', entryPoints: [path.join(sourceRoot, 'src/commands/openapi.ts')], outfile: module });
    const { buildOpenApiDocument } = await import(pathToFileURL(module).href);
    return buildOpenApiDocument();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function buildServer({ minify = true } = {}) {
  const dist = path.join(root, 'dist');
  const bundle = path.join(dist, 'showclock.cjs');
  await build({ ...serviceBundleOptions({ outfile: bundle, minify }), sourcemap: 'linked' });
  await writeBundleSideFiles(dist, { minify });
  const sha256 = createHash('sha256').update(readFileSync(bundle)).digest('hex');
  await build({
    entryPoints: [path.join(root, 'src/launcher.ts')],
    outfile: path.join(dist, 'showclock.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify,
    define: { SHOWCLOCK_BUNDLE_SHA256: JSON.stringify(sha256) },
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Left by builds before the launcher; nothing reads it now.
  rmSync(path.join(dist, 'showclock.mjs.map'), { force: true });
  // The pages belong to the bundle: the server serves them from dist/pages next to it.
  await buildPages({ minify });
  await warmCodeCache(path.join(dist, 'showclock.cjs.cache'));
}

/**
 * Runs the built service for a moment (loopback, a free port, a throwaway data
 * directory, the box's Node flags) and asks it what a box is asked first, so the
 * launcher writes a code cache that holds the code of a start and of those
 * answers. Without a cache the service runs the same, only starts slower: a
 * failure here is a warning, not a failed build.
 */
export async function warmCodeCache(cacheFile, { timeoutMs = 15_000 } = {}) {
  rmSync(cacheFile, { force: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-warm-'));
  const apiKey = randomBytes(16).toString('hex');
  const child = spawn(process.execPath, [...NODE_FLAGS, path.join(root, 'dist/showclock.mjs'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      SHOWCLOCK_DATA_DIR: dataDir,
      SHOWCLOCK_GPIO: 'off',
      SHOWCLOCK_API_KEY: apiKey,
      SHOWCLOCK_VIEWER_KEY: randomBytes(16).toString('hex'),
      SHOWCLOCK_CODE_CACHE: cacheFile,
      SHOWCLOCK_CODE_CACHE_AFTER_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await new Promise((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error('it did not start')), timeoutMs);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const started = /"port":(\d+),[^\n]*"msg":"showclock started"/.exec(output);
        if (started !== null) {
          clearTimeout(timer);
          resolve(Number(started[1]));
        }
      });
      child.once('exit', (code) => reject(new Error(`it exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    for (const url of ['/healthz', `/api/v1/${apiKey}/state`, `/api/v1/${apiKey}/adjust?ms=1000`, `/api/v0/${apiKey}/state`]) {
      const answer = await fetch(base + url);
      await answer.arrayBuffer();
    }
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(cacheFile)) {
      if (Date.now() > deadline) throw new Error('no cache was written');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    console.warn(`build: no code cache (${error instanceof Error ? error.message : String(error)}); the service will start without one`);
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
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
    // The display's bundled font: copied beside the bundles under its own plain name, which
    // is all /assets serves (see src/pages/page-assets.ts).
    loader: { '.woff2': 'file' },
    assetNames: '[name]',
    logLevel: 'warning',
  });
  if (names.includes('display')) writeKeepAwakeMedia(outdir);
  gzipBesides(outdir);
  return names;
}

/**
 * A gzip copy beside every script and stylesheet (<name>.js.gz), made once here so the
 * box never compresses at run time: /assets sends it to a browser that accepts gzip
 * (every one does), a third of the bytes over a venue's Wi-Fi. The font is compressed already.
 */
function gzipBesides(outdir) {
  for (const name of readdirSync(outdir)) {
    if (!/\.(js|css)$/.test(name)) continue;
    writeFileSync(path.join(outdir, `${name}.gz`), gzipSync(readFileSync(path.join(outdir, name)), { level: 9 }));
  }
}

/**
 * dist/pages/keep-awake-media.js: the two silent one-second videos of NoSleep.js (MIT) as
 * data URIs. A phone on the box's plain http:// has no Wake Lock API; a muted inline video
 * playing in a loop keeps its screen on instead. It is a script of its own, loaded only
 * by a screen that needs it, so the kiosk's page stays small.
 */
function writeKeepAwakeMedia(outdir) {
  const media = createRequire(import.meta.url)('nosleep.js/src/media.js');
  const body = `window.showclockKeepAwakeMedia=${JSON.stringify({ webm: media.webm, mp4: media.mp4 })};\n`;
  writeFileSync(path.join(outdir, 'keep-awake-media.js'), `/* Silent videos from NoSleep.js 0.12.0, (c) Rich Tibbett, MIT licence. */\n${body}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
}
