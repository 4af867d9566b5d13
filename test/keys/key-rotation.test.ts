// `showclock key --rotate-api` / `--rotate-viewer` against a running bundled
// service on the same data directory: the new key works at once, the old one
// gets 401, without a restart.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKeys } from '../../src/keys/key-file.js';
import { BUNDLE, ensureBundle, ROOT, serviceEnv, startService, stopService, type ServiceProcess } from '../e2e/service-process.js';

function keyCommand(env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync(process.execPath, [BUNDLE, 'key', ...args], { cwd: ROOT, env, encoding: 'utf8' });
}

function currentKeys(dataDir: string) {
  const read = readKeys(dataDir);
  if (read.kind !== 'ok') throw new Error(`keys.json: ${read.kind}`);
  return read.keys;
}

/** The service applies the new key on the file-system event: allow a moment, never a restart. */
async function statusWithin(url: string, want: number, ms = 3_000): Promise<number> {
  const deadline = performance.now() + ms;
  for (;;) {
    const status = (await fetch(url)).status;
    if (status === want || performance.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('key rotation with the service running', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ensureBundle();
    dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-rotate-'));
    env = serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir });
    const first = keyCommand(env);
    expect(first.status).toBe(0);
    service = await startService(env, { apiKey: currentKeys(dataDir).apiKey });
  });

  afterAll(async () => {
    await stopService(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('`key` prints the control and viewer links of the keys in keys.json', () => {
    const keys = currentKeys(dataDir);
    const printed = keyCommand(env);
    expect(printed.status).toBe(0);
    expect(printed.stdout).toContain(`/control/${keys.apiKey}`);
    expect(printed.stdout).toContain(`/view/${keys.viewerKey}`);
  });

  it('--rotate-api: the new key works at once and the old one gets 401', async () => {
    const base = `http://127.0.0.1:${(service as ServiceProcess).port}/api/v1`;
    const old = currentKeys(dataDir);
    expect((await fetch(`${base}/${old.apiKey}/state`)).status).toBe(200);

    const rotated = keyCommand(env, '--rotate-api');
    expect(rotated.status).toBe(0);
    const now = currentKeys(dataDir);
    expect(now.apiKey).not.toBe(old.apiKey);
    expect(now.viewerKey).toBe(old.viewerKey);
    expect(rotated.stdout).toContain(`/control/${now.apiKey}`);
    expect(rotated.stdout).toMatch(/The API key is new/);

    expect(await statusWithin(`${base}/${now.apiKey}/state`, 200)).toBe(200);
    expect((await fetch(`${base}/${old.apiKey}/state`)).status).toBe(401);
    const logged = await (service as ServiceProcess).waitForLog((line) => /keys\.json changed/.test(line.msg));
    expect(logged).toMatchObject({ api: true, viewer: false });
    // Neither key is ever written to the log.
    const log = JSON.stringify((service as ServiceProcess).lines);
    expect(log).not.toContain(now.apiKey);
    expect(log).not.toContain(old.apiKey);
  });

  it('--rotate-viewer: only the viewer key changes', () => {
    const old = currentKeys(dataDir);
    const rotated = keyCommand(env, '--rotate-viewer');
    expect(rotated.status).toBe(0);
    const now = currentKeys(dataDir);
    expect(now.apiKey).toBe(old.apiKey);
    expect(now.viewerKey).not.toBe(old.viewerKey);
    expect(rotated.stdout).toContain(`/view/${now.viewerKey}`);
  });

  it('an unknown option is refused with exit code 64 and changes nothing', () => {
    const old = currentKeys(dataDir);
    const refused = keyCommand(env, '--rotate-everything');
    expect(refused.status).toBe(64);
    expect(refused.stderr).toMatch(/unknown option --rotate-everything/);
    expect(currentKeys(dataDir)).toEqual(old);
  });
});
