// The entry that runs (dist/showclock.mjs): it compiles the service bundle
// (dist/showclock.cjs) with a V8 code cache when a good one is there, and makes
// one when it is not. Parsing and compiling 440 KB of JavaScript is about a third
// of the start time here and more on a Pi; with the cache the box boots without
// it (BENCHMARKS.md has the figures). Node 20 has no compile cache of its own
// (module.enableCompileCache came in Node 22), hence this small launcher.
//
// The cache belongs to one bundle, one Node build and one set of Node flags: its
// header names the bundle's SHA-256 (fixed into this file by the build), and V8
// refuses data made by another V8 or with other flags. Either way the bundle just
// compiles as usual, and a new cache is written once the service has run a few
// seconds, so that it holds the code of a whole start and the first requests.
//
// SHOWCLOCK_CODE_CACHE: where the cache is (default: dist/showclock.cjs.cache), or
// `off`. The systemd unit points it at the service's cache directory, since the
// installed program is read-only there.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

declare const SHOWCLOCK_BUNDLE_SHA256: string;

/** How long the service runs before the cache is made: a whole start plus the first requests. */
const DEFAULT_WRITE_AFTER_MS = 5_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const bundleFile = path.join(here, 'showclock.cjs');
const header = Buffer.from(`showclock code cache 1 ${SHOWCLOCK_BUNDLE_SHA256}\n`);

function cacheFile(env: NodeJS.ProcessEnv): string | null {
  const setting = env.SHOWCLOCK_CODE_CACHE;
  if (setting === 'off') return null;
  return setting === undefined || setting === '' ? `${bundleFile}.cache` : path.resolve(setting);
}

/** The V8 data of a cache made for this bundle, or undefined. */
function readCache(file: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  return data.subarray(0, header.length).equals(header) ? data.subarray(header.length) : undefined;
}

/** Temp file, fsync, rename: a cut in the middle leaves the old cache or none, never half of one. */
function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.tmp-${process.pid}`;
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, header);
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

const file = cacheFile(process.env);
const cachedData = file === null ? undefined : readCache(file);
const script = new Script(Module.wrap(readFileSync(bundleFile, 'utf8')), { filename: bundleFile, cachedData });

if (file !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
  const afterMs = Number(process.env.SHOWCLOCK_CODE_CACHE_AFTER_MS ?? DEFAULT_WRITE_AFTER_MS);
  // unref: a short command (`key`, `config`) exits before it and writes nothing.
  setTimeout(() => {
    try {
      writeCache(file, script.createCachedData());
    } catch {
      // A read-only place only costs the next start its compile time; the service runs the same.
    }
  }, afterMs).unref();
}

// As Node runs a CommonJS file: the wrapper's arguments are exports, require, module, __filename, __dirname.
const bundleModule = { exports: {} };
const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
run.call(bundleModule.exports, bundleModule.exports, createRequire(bundleFile), bundleModule, bundleFile, here);
