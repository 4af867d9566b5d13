// The entry that runs (dist/showclock.mjs): it compiles the service bundle
// (dist/showclock.cjs) with a V8 code cache when a good one is there, and makes
// one when it is not. Parsing and compiling 440 KB of JavaScript is about a quarter
// of the start time here and more on a Pi; with the cache the box boots without
// it (BENCHMARKS.md has the figures). Node 20 has no compile cache of its own
// (module.enableCompileCache came in Node 22), hence this small launcher.
//
// The cache belongs to one bundle, one Node build and one set of Node flags: its
// header names the bundle's SHA-256 (fixed into this file by the build), and V8
// refuses data made by another V8 or with other flags. The header also carries the
// SHA-256 of the V8 data itself: V8 does not check it, and a flipped bit on an SD
// card would crash every start of the box. In every such case the bundle just
// compiles as usual, and a new cache is written once the service has run a few
// seconds, so that it holds the code of a whole start and the first requests.
//
// SHOWCLOCK_CODE_CACHE: where the cache is (default: dist/showclock.cjs.cache), or
// `off`. The systemd unit points it at the service's cache directory, since the
// installed program is read-only there.
import { createHash } from 'node:crypto';
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
/** The header is this, the SHA-256 of the V8 data in hex, and a newline. */
const headerStart = Buffer.from(`showclock code cache 2 ${SHOWCLOCK_BUNDLE_SHA256} `);
const HEADER_LENGTH = headerStart.length + 64 + 1;

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

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
  if (data.length <= HEADER_LENGTH || !data.subarray(0, headerStart.length).equals(headerStart)) return undefined;
  const v8Data = data.subarray(HEADER_LENGTH);
  return data.toString('latin1', headerStart.length, HEADER_LENGTH) === `${sha256(v8Data)}\n` ? v8Data : undefined;
}

/** Temp file, fsync, rename: a cut in the middle leaves the old cache or none, never half of one. */
function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.tmp-${process.pid}`;
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, Buffer.concat([headerStart, Buffer.from(`${sha256(data)}\n`), data]));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/** SHOWCLOCK_CODE_CACHE_AFTER_MS: set by the build's warm-up run, to write sooner. */
function writeAfterMs(env: NodeJS.ProcessEnv): number {
  const value = env.SHOWCLOCK_CODE_CACHE_AFTER_MS ? Number(env.SHOWCLOCK_CODE_CACHE_AFTER_MS) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_WRITE_AFTER_MS;
}

/**
 * Compiles the bundle, with the cache when it is good, and arms the write of a
 * new one when it is not. A function, so that the cache's bytes (about 700 KB)
 * are garbage once V8 has read them, instead of living as long as this module.
 */
function compileBundle(env: NodeJS.ProcessEnv): Script {
  const file = cacheFile(env);
  const cachedData = file === null ? undefined : readCache(file);
  const script = new Script(Module.wrap(readFileSync(bundleFile, 'utf8')), { filename: bundleFile, cachedData });
  if (file !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
    // unref: a short command (`key`, `config`) exits before it and writes nothing.
    setTimeout(() => {
      try {
        writeCache(file, script.createCachedData());
      } catch {
        // A read-only place only costs the next start its compile time; the service runs the same.
      }
    }, writeAfterMs(env)).unref();
  }
  return script;
}

// As Node runs a CommonJS file: the wrapper's arguments are exports, require, module, __filename, __dirname.
const bundleModule = { exports: {} };
const run = compileBundle(process.env).runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
run.call(bundleModule.exports, bundleModule.exports, createRequire(bundleFile), bundleModule, bundleFile, here);
