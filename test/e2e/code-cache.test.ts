// The launcher (dist/showclock.mjs, src/launcher.ts) from outside: it runs the
// service bundle with a V8 code cache made for that bundle, Node and flags;
// anything else there (another bundle's cache, damaged data, a cache made with
// other flags) is replaced once the service has run a moment; and the service
// serves the same with no cache, with the cache off, or with nowhere to write it.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBundle, serviceEnv, startService, stopService, type ServiceProcess } from './service-process.js';

/** The launcher writes the cache this long after start (SHOWCLOCK_CODE_CACHE_AFTER_MS). */
const AFTER_MS = 300;

const top = mkdtempSync(path.join(tmpdir(), 'showclock-code-cache-'));
// A copy of the launcher and the bundle: what these tests write stays out of dist/.
const app = path.join(top, 'app');
const entry = path.join(app, 'showclock.mjs');
/** The start of a cache made for this bundle: the SHA-256 of the V8 data and a newline follow. */
let headerStart = '';
const HEX64 = 64;
const running: ServiceProcess[] = [];

beforeAll(() => {
  ensureBundle();
  mkdirSync(app);
  for (const name of ['showclock.mjs', 'showclock.cjs']) copyFileSync(path.join(ROOT, 'dist', name), path.join(app, name));
  const sha256 = createHash('sha256').update(readFileSync(path.join(app, 'showclock.cjs'))).digest('hex');
  headerStart = `showclock code cache 2 ${sha256} `;
});
afterAll(async () => {
  for (const service of running) await stopService(service);
  rmSync(top, { recursive: true, force: true });
});

async function serve(cache: string, extra: Record<string, string> = {}): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(path.join(top, 'data-'));
  const service = await startService(
    serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_CODE_CACHE: cache, SHOWCLOCK_CODE_CACHE_AFTER_MS: String(AFTER_MS), ...extra }),
    { entry },
  );
  running.push(service);
  const health = await fetch(`http://127.0.0.1:${service.port}/healthz`);
  expect(health.status).toBe(200);
  return service;
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A cache for this bundle whose V8 data matches the digest in its header. */
function expectGoodCache(file: string): Buffer {
  const data = readFileSync(file);
  const headerLength = headerStart.length + HEX64 + 1;
  expect(data.subarray(0, headerStart.length).toString()).toBe(headerStart);
  expect(data.subarray(headerStart.length, headerLength).toString()).toBe(`${digest(data.subarray(headerLength))}\n`);
  expect(data.length).toBeGreaterThan(headerLength + 100_000);
  return data;
}

/** Long enough past AFTER_MS that a rewrite would have happened. */
const pastWriteTime = () => new Promise((resolve) => setTimeout(resolve, AFTER_MS + 700));

describe('the launcher', () => {
  it('makes a cache for its bundle on the first start and uses it, unchanged, on the next', async () => {
    const cache = path.join(top, 'first.cache');
    const first = await serve(cache);
    await waitFor(() => existsSync(cache), 'the cache');
    await stopService(first);
    const made = expectGoodCache(cache);
    const madeAt = statSync(cache).mtimeMs;

    // Accepted by V8: the launcher writes only when there was no good cache.
    const second = await serve(cache);
    await pastWriteTime();
    expect(second.child.exitCode).toBeNull();
    expect(statSync(cache).mtimeMs).toBe(madeAt);
    expect(readFileSync(cache).equals(made)).toBe(true);
  });

  it.each([
    ['a cache of another bundle', (good: Buffer) => Buffer.concat([Buffer.from(`showclock code cache 2 ${'0'.repeat(64)} `), good.subarray(headerStart.length)])],
    // V8 does not check its own data: without the digest, these bytes crash Node at start.
    ['a flipped bit in the V8 data', (good: Buffer) => Buffer.from(good.map((byte, i) => (i === good.length - 5000 ? byte ^ 0xff : byte)))],
    ['damaged V8 data with a matching digest', () => Buffer.concat([Buffer.from(headerStart), Buffer.from(`${digest(Buffer.alloc(4096, 7))}\n`), Buffer.alloc(4096, 7)])],
    ['a file that is no cache at all', () => Buffer.from('hello')],
  ])('serves with %s there, and replaces it with a good one', async (_name, damage) => {
    const cache = path.join(top, `bad-${Math.random().toString(36).slice(2)}.cache`);
    // first.cache: the good cache the first test made.
    const bad = damage(readFileSync(path.join(top, 'first.cache')));
    writeFileSync(cache, bad);
    await serve(cache);
    await waitFor(() => !readFileSync(cache).equals(bad), 'the cache to be replaced');
    expectGoodCache(cache);
  });

  it('replaces a cache made with other Node flags (V8 refuses it), but not from a short command', async () => {
    const cache = path.join(top, 'flags.cache');
    const first = await serve(cache);
    await waitFor(() => existsSync(cache), 'the cache');
    await stopService(first);
    const made = readFileSync(cache);
    const env = serviceEnv({ SHOWCLOCK_DATA_DIR: mkdtempSync(path.join(top, 'data-')), SHOWCLOCK_CODE_CACHE: cache });

    // `config` (the installer runs it) ends long before the write time: the cache is left as it was.
    const config = spawn(process.execPath, [entry, 'config'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    config.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    expect(await new Promise((resolve) => config.on('exit', resolve))).toBe(0);
    expect(JSON.parse(out)).toHaveProperty('port');
    expect(readFileSync(cache).equals(made)).toBe(true);

    // The service without the unit's flags: V8 refuses the cache, so a new one is written for these flags.
    const service = spawn(process.execPath, [entry, 'serve'], { env: { ...env, SHOWCLOCK_CODE_CACHE_AFTER_MS: String(AFTER_MS) }, stdio: 'ignore' });
    try {
      await waitFor(() => !readFileSync(cache).equals(made), 'the cache to be replaced');
      expectGoodCache(cache);
    } finally {
      service.kill('SIGKILL');
    }
  });

  it('writes nothing with SHOWCLOCK_CODE_CACHE=off', async () => {
    const before = new Set(readdirSync(app));
    await serve('off');
    await pastWriteTime();
    expect(new Set(readdirSync(app))).toEqual(before);
  });

  it('keeps serving when the cache cannot be written', async () => {
    const service = await serve(path.join(top, 'no-such-dir', 'x.cache'));
    await pastWriteTime();
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${service.port}/healthz`)).status).toBe(200);
  });
});
