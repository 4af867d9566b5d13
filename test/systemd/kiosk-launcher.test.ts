// The kiosk launcher (systemd/showclock-kiosk.sh), run for real with a stand-in
// for cage that prints what it was asked to run: it reads the port from the
// service's config file through the service's own code, waits until the service
// answers, and starts Chromium on http://127.0.0.1:<port>/display with a fresh
// profile.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ROOT, ensureBundle, serviceEnv, startService, type ServiceProcess } from '../e2e/service-process.js';

const top = mkdtempSync(path.join(tmpdir(), 'showclock-kiosk-'));
let service: ServiceProcess | null = null;
afterAll(async () => {
  if (service !== null && service.child.exitCode === null) {
    service.child.kill('SIGKILL');
    await service.exited;
  }
  rmSync(top, { recursive: true, force: true });
});
beforeAll(() => ensureBundle());

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('the kiosk launcher', () => {
  it('waits for the service, then runs cage with Chromium in kiosk mode on /display', async () => {
    const port = await freePort();
    const config = path.join(top, 'config.json');
    writeFileSync(config, `{\n  // as install.sh writes it\n  "port": ${port},\n  "host": "127.0.0.1"\n}\n`);
    const cage = path.join(top, 'cage');
    writeFileSync(cage, '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    chmodSync(cage, 0o755);
    const home = path.join(top, 'home');
    mkdirSync(path.join(home, 'chromium'), { recursive: true });
    writeFileSync(path.join(home, 'chromium', 'Last Session'), 'from the previous run');

    const launcher = spawn('bash', [path.join(ROOT, 'systemd/showclock-kiosk.sh')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        SHOWCLOCK_CONFIG: config,
        SHOWCLOCK_NODE: process.execPath,
        SHOWCLOCK_BUNDLE: BUNDLE,
        SHOWCLOCK_COMPOSITOR: cage,
        SHOWCLOCK_BROWSER: '/usr/bin/chromium',
        // No sound card: the system's default device, no flag.
        SHOWCLOCK_ASOUND: path.join(top, 'no-asound'),
      },
    });
    let out = '';
    launcher.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    launcher.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const done = new Promise<number | null>((resolve) => launcher.on('exit', resolve));

    // Nothing is started while the service does not answer.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(launcher.exitCode).toBeNull();
    expect(out).toBe('');

    service = await startService(serviceEnv({ SHOWCLOCK_CONFIG: config, HOST: '127.0.0.1', PORT: '', SHOWCLOCK_DATA_DIR: path.join(top, 'data') }));
    expect(await done).toBe(0);
    // What the launcher says itself (to the journal) is not cage's command line.
    const args = out.trim().split('\n').filter((line) => !line.startsWith('showclock-kiosk: '));
    expect(out).toContain('showclock-kiosk: sound to default (kiosk.audio auto)');
    expect(args.slice(0, 3)).toEqual(['-d', '--', '/usr/bin/chromium']);
    expect(args).toEqual(expect.arrayContaining(['--kiosk', '--no-first-run', '--noerrdialogs', '--hide-crash-restore-bubble', `--user-data-dir=${path.join(home, 'chromium')}`]));
    expect(args.at(-1)).toBe(`http://127.0.0.1:${port}/display`);
    expect(args.filter((arg) => arg.startsWith('--alsa-output-device') || arg === '--mute-audio')).toEqual([]);
    // A fresh profile: nothing left from the previous run to restore.
    expect(existsSync(path.join(home, 'chromium', 'Last Session'))).toBe(false);
    expect(existsSync(path.join(home, 'chromium'))).toBe(true);
  }, 30_000);

  // Runs after the test above, with its service still answering on the configured port.
  it.each([
    ['virtio-pci', undefined, 'pixman'],
    ['vc4-drm', undefined, ''],
    ['virtio-pci', 'gles2', 'gles2'],
  ])('a card driven by %s (WLR_RENDERER %s): cage runs with WLR_RENDERER=%j', async (driver, preset, expected) => {
    const config = path.join(top, 'config.json');
    const drm = mkdtempSync(path.join(top, 'drm-'));
    mkdirSync(path.join(drm, 'drivers', driver), { recursive: true });
    mkdirSync(path.join(drm, 'card0', 'device'), { recursive: true });
    symlinkSync(path.join(drm, 'drivers', driver), path.join(drm, 'card0', 'device', 'driver'));
    const cage = path.join(top, 'cage-env');
    writeFileSync(cage, '#!/bin/sh\nprintf "WLR_RENDERER=%s\\n" "$WLR_RENDERER"\n');
    chmodSync(cage, 0o755);
    const launcher = spawn('bash', [path.join(ROOT, 'systemd/showclock-kiosk.sh')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: path.join(top, 'home'),
        SHOWCLOCK_CONFIG: config,
        SHOWCLOCK_NODE: process.execPath,
        SHOWCLOCK_BUNDLE: BUNDLE,
        SHOWCLOCK_COMPOSITOR: cage,
        SHOWCLOCK_DRM_CLASS: drm,
        ...(preset === undefined ? {} : { WLR_RENDERER: preset }),
      },
    });
    let out = '';
    launcher.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    expect(await new Promise<number | null>((resolve) => launcher.on('exit', resolve))).toBe(0);
    expect(out.trim()).toBe(`WLR_RENDERER=${expected}`);
  }, 30_000);
});
