// Issue 25 from outside, on the bundled service: what a card and a careless hand
// do to the data directory while the show runs, each followed by kill -9 and a
// restart on the same directory.
// - Logos: upload, replace and delete with kill -9 at a random moment within
//   20 ms of the answer: after the restart the logo the room names is served.
// - `rm -rf` of the data directory: the keys are back on disk within the check
//   interval, and after kill -9 the same API key (from keys.json) still works.
// - Garbage written into room.json: after kill -9, before or after a check, the
//   room and seq survive.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readKeys } from '../../src/keys/key-file.js';
import { LOGO_FIXTURES } from '../helpers/logo-fixtures.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from './service-process.js';

const LOGO_ROUNDS = 20;
const CHECK_SECONDS = 1;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface State {
  readonly seq: number;
  readonly timers: readonly { readonly id: string; readonly label: string }[];
  readonly display: { readonly logo: string | null };
}

async function stateOf(api: string): Promise<State> {
  const response = await fetch(`${api}/state`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { state: State }).state;
}

/** Polls until `check` holds, or fails after `timeoutMs`. */
async function eventually(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const startedMs = performance.now();
  while (!check()) {
    if (performance.now() - startedMs > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(25);
  }
  return performance.now() - startedMs;
}

const top = mkdtempSync(path.join(tmpdir(), 'showclock-card-faults-'));
let count = 0;
function freshDataDir(): string {
  count += 1;
  return path.join(top, `data-${count}`);
}

let service: ServiceProcess | undefined;
beforeAll(() => ensureBundle());
afterEach(async () => {
  await stopService(service);
  service = undefined;
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

const envFor = (dataDir: string, extra: Record<string, string> = {}) =>
  serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_RATE_LIMIT: '100000', SHOWCLOCK_STORAGE_CHECK_SECONDS: String(CHECK_SECONDS), ...extra });

async function killAndRestart(env: NodeJS.ProcessEnv, apiKey = TEST_API_KEY): Promise<ServiceProcess> {
  service?.child.kill('SIGKILL');
  await service?.exited;
  service = await startService(env, { apiKey });
  return service;
}

describe('logos and kill -9 (finding 3)', () => {
  it(`upload, replace and delete with kill -9 within 20 ms of the answer, ${LOGO_ROUNDS} rounds: the logo the room names is always served after the restart`, { timeout: 240_000 }, async () => {
    const dataDir = freshDataDir();
    const env = envFor(dataDir, { SHOWCLOCK_API_KEY: TEST_API_KEY });
    service = await startService(env);
    const types = ['image/png', 'image/svg+xml', 'image/webp'] as const;
    const upload = (api: string, i: number) => {
      const type = types[i % types.length] ?? 'image/png';
      return fetch(`${api}/display/logo`, { method: 'POST', headers: { 'Content-Type': type }, body: LOGO_FIXTURES[type] });
    };
    const named = new Map<string, number>();
    for (let round = 0; round < LOGO_ROUNDS; round += 1) {
      const api = service.api;
      // A logo that is on disk (its room change saved: more than the 1 s coalescing ago).
      const first = round % 3;
      expect((await upload(api, first)).status).toBe(200);
      await sleep(1_300);
      // Then replace it, or delete it, and pull the plug at once or a little later.
      const replace = round % 4 !== 3;
      const second = (first + 1) % 3;
      const answer = replace ? await upload(api, second) : await fetch(`${api}/display/logo/delete`);
      expect(answer.status).toBe(200);
      await sleep(Math.floor(Math.random() * 20));
      await killAndRestart(env);
      const state = await stateOf(service.api);
      const logo = state.display.logo;
      named.set(logo === null ? 'none' : logo, (named.get(logo === null ? 'none' : logo) ?? 0) + 1);
      if (logo !== null) {
        const served = await fetch(`http://127.0.0.1:${service.port}/logo/${logo}`);
        expect(served.status, `round ${round}: the room names ${logo}`).toBe(200);
      }
    }
    console.log(`logo rounds: ${LOGO_ROUNDS}; named after restart: ${JSON.stringify(Object.fromEntries(named))}`);
  });

  it('a logo temp file left by a crash is removed at the next start', { timeout: 60_000 }, async () => {
    const dataDir = freshDataDir();
    const env = envFor(dataDir, { SHOWCLOCK_API_KEY: TEST_API_KEY });
    service = await startService(env);
    const leftover = path.join(dataDir, 'logo-0123456789abcdef.png.tmp-4242-1');
    writeFileSync(leftover, 'half a logo');
    await killAndRestart(env);
    expect(existsSync(leftover)).toBe(false);
  });
});

describe('the data directory removed while running (finding 4)', () => {
  it('keys are back on disk within the check interval, and the same API key works after kill -9 and a restart', { timeout: 60_000 }, async () => {
    const dataDir = freshDataDir();
    // No key in the environment: the keys are made at the first start and live in keys.json only.
    const env = envFor(dataDir);
    service = await startService(env);
    const read = readKeys(dataDir);
    if (read.kind !== 'ok') throw new Error('no keys.json after the first start');
    const apiKey = read.keys.apiKey;
    const api = `http://127.0.0.1:${service.port}/api/v1/${apiKey}`;
    const created = await fetch(`${api}/timers`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label: 'Before the rm' }) });
    expect(created.status).toBe(201);
    rmSync(dataDir, { recursive: true, force: true });
    const tookMs = await eventually(() => readKeys(dataDir).kind === 'ok' && existsSync(path.join(dataDir, 'room.json')), CHECK_SECONDS * 1_000 + 1_500, 'keys.json and room.json back');
    console.log(`data directory removed: keys.json and room.json back after ${Math.round(tookMs)} ms (check every ${CHECK_SECONDS} s)`);
    expect(readKeys(dataDir)).toEqual(read);
    await killAndRestart(env, apiKey);
    const state = await stateOf(`http://127.0.0.1:${service.port}/api/v1/${apiKey}`);
    expect(state.timers.map((t) => t.label)).toContain('Before the rm');
    const health = await fetch(`http://127.0.0.1:${service.port}/healthz`);
    expect(health.status).toBe(200);
  });
});

describe('garbage in room.json while running (finding 5)', () => {
  for (const when of ['before a check', 'after a check'] as const) {
    it(`kill -9 ${when}: the room and seq survive`, { timeout: 60_000 }, async () => {
      const dataDir = freshDataDir();
      const env = envFor(dataDir, { SHOWCLOCK_API_KEY: TEST_API_KEY });
      service = await startService(env);
      const api = service.api;
      for (const label of ['Doors', 'Keynote', 'Panel']) {
        const response = await fetch(`${api}/timers`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label }) });
        expect(response.status).toBe(201);
      }
      const before = await stateOf(api);
      writeFileSync(path.join(dataDir, 'room.json'), 'garbage from a careless hand');
      if (when === 'after a check') {
        await service.waitForLog((line) => /not what this service wrote/.test(line.msg), CHECK_SECONDS * 1_000 + 3_000);
        await eventually(() => readFileSync(path.join(dataDir, 'room.json'), 'utf8').startsWith('{'), 3_000, 'room.json written again');
      }
      await killAndRestart(env);
      const after = await stateOf(service.api);
      // Before a check, the previous generation is read: the last edit's write may be the one lost to the garbage.
      const expected = when === 'after a check' ? before.timers.map((t) => t.label) : before.timers.map((t) => t.label).slice(0, -1);
      expect(after.timers.map((t) => t.label).slice(0, expected.length)).toEqual(expected);
      expect(after.seq).toBeGreaterThan(before.seq);
    });
  }
});
