// A second service on a port that is taken: one log line a technician can act
// on, the room still written, exit 1 (so systemd tries again), no stack trace.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ROOT, ensureBundle, serviceEnv, startService, stopService, type ServiceProcess } from './service-process.js';

describe('starting on a port already in use', { timeout: 60_000 }, () => {
  const dirs: string[] = [];
  let first: ServiceProcess | undefined;

  beforeAll(() => ensureBundle());
  afterAll(async () => {
    await stopService(first);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('says the port is in use, stops in order and exits 1', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-port-'));
    dirs.push(dataDir);
    first = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir }));
    const secondDir = mkdtempSync(path.join(tmpdir(), 'showclock-port2-'));
    dirs.push(secondDir);
    const second = spawnSync(process.execPath, [BUNDLE], {
      cwd: ROOT,
      env: serviceEnv({ SHOWCLOCK_DATA_DIR: secondDir, PORT: String(first.port) }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(second.status).toBe(1);
    const lines = second.stdout
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as { level: number; msg: string; code?: string });
    const error = lines.find((line) => line.level === 50);
    expect(error?.code).toBe('EADDRINUSE');
    expect(error?.msg).toContain(`port ${first.port} on 127.0.0.1 is already in use`);
    expect(error?.msg).toContain('set PORT');
    expect(lines.some((line) => line.msg === 'stopped')).toBe(true);
    expect(second.stderr).not.toMatch(/at emitErrorNT|node:net/);
    // The first service is untouched.
    expect((await fetch(`http://127.0.0.1:${first.port}/healthz`)).status).toBe(200);
  });
});
