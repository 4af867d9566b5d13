// The real bundle (dist/showclock.mjs) as a child process on port 0 of the
// loopback address, driven over a socket with fetch: what a curl user or a
// button panel meets. `npm test` builds the bundle before vitest runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { buildOpenApiDocument } from '../../src/commands/openapi.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = path.join(root, 'dist/showclock.mjs');
const API_KEY = 'E2eFixedKey_0123456789-abcdefXYZ';
const START_TIMEOUT_MS = 20_000;
/** Child processes on a shared 2-core machine: generous, since a slow start is not a failure. */
const TEST_TIMEOUT_MS = 60_000;

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
  readonly base: string;
  stdout(): string;
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code once the process is gone. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
const dataDirs: string[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-e2e-'));
  dataDirs.push(dir);
  return dir;
}

/** Starts the bundle with only the environment given (nothing of the test runner's SHOWCLOCK_* leaks in). */
function startServer(env: Record<string, string>): Promise<Server> {
  // The box's Node flags: the code cache the build made is for them.
  const child = spawn(process.execPath, [...NODE_FLAGS, bundle], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: '0', HOST: '127.0.0.1', SHOWCLOCK_GPIO: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "showclock started" line within ${START_TIMEOUT_MS} ms\nstdout: ${out}\nstderr: ${err}`)), START_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as { msg?: string; port?: number };
        if (parsed.msg === 'showclock started' && typeof parsed.port === 'number') {
          clearTimeout(timer);
          const port = parsed.port;
          resolve({
            child,
            port,
            base: `http://127.0.0.1:${port}`,
            stdout: () => out,
            stderr: () => err,
            stop: () => {
              child.kill('SIGTERM');
              return exited;
            },
          });
          return;
        }
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited early (code ${code}, signal ${signal})\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

async function getJson(url: string, init?: RequestInit): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await fetch(url, init);
  return { res, body: (await res.json()) as Record<string, unknown> };
}

function stateOf(body: Record<string, unknown>): Record<string, unknown> {
  expect(body.ok).toBe(true);
  return body.state as Record<string, unknown>;
}

function readKeysFile(dataDir: string): { version: number; apiKey: string; viewerKey: string } {
  return JSON.parse(readFileSync(path.join(dataDir, 'keys.json'), 'utf8')) as { version: number; apiKey: string; viewerKey: string };
}

beforeAll(() => {
  if (!existsSync(bundle)) {
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  }
}, 120_000);

afterEach(() => {
  // A failed test must not leave its server behind.
  for (const child of running) child.kill('SIGKILL');
});

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the bundled server over a socket', () => {
  it('serves the API with a fixed key, never prints it, and exits 0 on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const server = await startServer({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_API_KEY: API_KEY });
    const api = `${server.base}/api/v1/${API_KEY}`;

    const first = await getJson(`${api}/state`);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.res.headers.get('cache-control')).toBe('no-store');
    expect(first.res.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.res.headers.get('ratelimit-limit')).toBe('100');
    expect(first.res.headers.get('ratelimit-remaining')).toBe('99');
    expect(Number(first.res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(59);
    const initial = stateOf(first.body);
    expect(initial).toMatchObject({ running: false, remaining: 600_000 });

    const started = stateOf((await getJson(`${api}/start`)).body);
    expect(started.running).toBe(true);
    expect(Number(started.endAt) - Number(started.serverNow)).toBe(started.remaining);

    const plus = stateOf((await getJson(`${api}/adjust?ms=+60000`)).body);
    // Real time passes between requests on a busy machine: allow it, but not a minute.
    expect(Number(plus.remaining)).toBeGreaterThan(600_000);
    expect(Number(plus.remaining)).toBeLessThanOrEqual(660_000);
    // endAt is derived from the monotonic clock at each snapshot: equal up to rounding.
    expect(Math.abs(Number(plus.endAt) - (Number(started.endAt) + 60_000))).toBeLessThanOrEqual(2);

    const minus = await getJson(`${api}/adjust`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ms: -30_000 }) });
    expect(minus.res.status).toBe(200);
    expect(Math.abs(Number(stateOf(minus.body).endAt) - (Number(started.endAt) + 30_000))).toBeLessThanOrEqual(2);

    const v0 = await getJson(`${server.base}/api/v0/${API_KEY}/status`);
    expect(v0.res.status).toBe(200);
    expect(stateOf(v0.body)).toMatchObject({ running: true, seq: Number(initial.seq) + 3 });

    const bad = await getJson(`${server.base}/api/v1/${API_KEY.slice(0, -1)}Q/state`);
    expect(bad.res.status).toBe(401);
    expect(bad.body).toMatchObject({ ok: false });
    expect(bad.res.headers.get('ratelimit-limit')).toBe('100');
    // Counted per address, apart from the room's quota.
    expect(bad.res.headers.get('ratelimit-remaining')).toBe('99');

    const unknown = await getJson(`${api}/launch`);
    expect(unknown.res.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false });
    // The room's sixth request (the wrong-key one was counted apart): 100 - 6 left.
    expect(unknown.res.headers.get('ratelimit-remaining')).toBe('94');

    const tooBig = await getJson(`${api}/adjust`, { method: 'POST', body: 'x'.repeat(17_000) });
    expect(tooBig.res.status).toBe(413);

    // Read from dist/openapi.json (the bundle carries no generator): the document src makes.
    const doc = await getJson(`${server.base}/api/v1/openapi.json`);
    expect(doc.res.status).toBe(200);
    expect(doc.body).toEqual(buildOpenApiDocument());

    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(200);

    const { code, signal } = await server.stop();
    expect({ code, signal }).toEqual({ code: 0, signal: null });

    const out = server.stdout();
    const { viewerKey } = readKeysFile(dataDir);
    for (const secret of [API_KEY, viewerKey]) {
      expect(out).not.toContain(secret);
      expect(server.stderr()).not.toContain(secret);
    }
    // Not on a terminal: it logs how to get the URL instead of printing it.
    expect(out).toMatch(/npm run key/);
    // One JSON line per command and per refusal, each with a route pattern; the reads
    // that answered (state, v0 status, the OpenAPI document, /healthz) are at debug level.
    const requests = out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; route?: string; status?: number })
      .filter((line) => line.msg === 'request');
    expect(requests.map((line) => line.status)).toEqual([200, 200, 200, 401, 404, 413]);
    expect(requests[0]?.route).toBe('GET /api/v1/{api_key}/start');
  }, TEST_TIMEOUT_MS);

  it('draws QR codes and serves the OpenAPI document from beside the bundle, which carries neither generator', async () => {
    const server = await startServer({ SHOWCLOCK_DATA_DIR: tempDataDir(), SHOWCLOCK_API_KEY: API_KEY });
    const page = await fetch(`${server.base}/control/${API_KEY}`);
    expect(page.status).toBe(200);
    // The viewer link's and the audience link's, drawn by dist/showclock-qr.cjs.
    const codes = (await page.text()).match(/<svg class="qr" [^>]*viewBox="0 0 \d+ \d+"/g) ?? [];
    expect(codes).toHaveLength(2);
    const doc = await fetch(`${server.base}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(await doc.text()).toBe(readFileSync(path.join(root, 'dist/openapi.json'), 'utf8'));
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stdout()).not.toMatch(/"level":50/);

    // Strings of qrcode, of the document's generator (zod's JSON Schema target) and of
    // pino's SonicBoom and transports: in the side files or nowhere, never in the bundle.
    const text = readFileSync(path.join(root, 'dist/showclock.cjs'), 'utf8');
    expect(readFileSync(path.join(root, 'dist/showclock-qr.cjs'), 'utf8')).toContain('Unknown EC Level');
    for (const marker of ['Unknown EC Level', 'openapi-3.0', 'sonic boom is not ready yet', 'the worker thread exited']) {
      expect(text).not.toContain(marker);
    }
  }, TEST_TIMEOUT_MS);

  it('refuses with 429 and Retry-After over a real socket when SHOWCLOCK_RATE_LIMIT is low', async () => {
    const server = await startServer({ SHOWCLOCK_DATA_DIR: tempDataDir(), SHOWCLOCK_API_KEY: API_KEY, SHOWCLOCK_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i += 1) {
      last = await fetch(`${server.base}/api/v0/${API_KEY}/status`);
      statuses.push(last.status);
      await last.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.headers.get('ratelimit-limit')).toBe('3');
    expect(last?.headers.get('ratelimit-remaining')).toBe('0');
    expect(last?.headers.get('retry-after')).toBe(last?.headers.get('ratelimit-reset'));
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await server.stop()).code).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('generates the keys when none is given, keeps them in keys.json (0600), and uses the same ones on the next start', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ SHOWCLOCK_DATA_DIR: dataDir });
    const keysPath = path.join(dataDir, 'keys.json');
    expect(existsSync(keysPath)).toBe(true);
    expect(statSync(keysPath).mode & 0o777).toBe(0o600);
    const keys = readKeysFile(dataDir);
    for (const key of [keys.apiKey, keys.viewerKey]) {
      expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
      // At least 128 random bits: base64url carries 6 bits a character.
      expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
    }
    expect(keys.apiKey).not.toBe(keys.viewerKey);
    expect((await fetch(`${first.base}/api/v1/${keys.apiKey}/start`)).status).toBe(200);
    expect((await fetch(`${first.base}/api/v1/${keys.viewerKey}/state`)).status).toBe(401);
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const second = await startServer({ SHOWCLOCK_DATA_DIR: dataDir });
    expect(readKeysFile(dataDir)).toEqual(keys);
    const state = await getJson(`${second.base}/api/v1/${keys.apiKey}/state`);
    expect(state.res.status).toBe(200);
    expect(await second.stop()).toEqual({ code: 0, signal: null });

    for (const server of [first, second]) {
      for (const secret of [keys.apiKey, keys.viewerKey]) {
        expect(server.stdout()).not.toContain(secret);
        expect(server.stderr()).not.toContain(secret);
      }
    }
  }, TEST_TIMEOUT_MS);
});
