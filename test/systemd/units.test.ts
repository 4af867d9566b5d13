// The systemd units checked by systemd itself (`systemd-analyze verify`), the
// shell scripts by shellcheck, and the promises the units make that a
// verifier cannot see (GPIO-compatible sandboxing, no wait for network time).
// A missing tool skips its test with the reason; .ci/run installs both.
import { NODE_ENVIRONMENT, NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CONFIG, EXIT_DATA_DIR } from '../../src/config/config.js';
import { ROOT } from '../e2e/service-process.js';

const UNITS = ['showclock.service', 'showclock-kiosk.service'];
const SCRIPTS = ['scripts/install.sh', 'systemd/showclock-kiosk.sh'];

function missing(tool: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return found.status === 0 ? null : `${tool} is not installed (.ci/run installs it with apt-get)`;
}

const top = mkdtempSync(path.join(tmpdir(), 'showclock-units-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

/**
 * A root for `systemd-analyze verify --root`: the system's own units (for
 * sysinit.target and friends), ours where install.sh puts them, and stand-ins
 * for the programs they run, so verify checks the paths too.
 */
function verifyRoot(name: string, edit: (unit: string, text: string) => string = (_u, text) => text): string {
  const root = path.join(top, name);
  const systemUnits = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((dir) => existsSync(dir));
  if (systemUnits === undefined) throw new Error('no system unit directory');
  cpSync(systemUnits, path.join(root, 'usr/lib/systemd/system'), { recursive: true, dereference: false, verbatimSymlinks: true });
  mkdirSync(path.join(root, 'etc/systemd/system'), { recursive: true });
  for (const unit of UNITS) {
    writeFileSync(path.join(root, 'etc/systemd/system', unit), edit(unit, readFileSync(path.join(ROOT, 'systemd', unit), 'utf8')));
  }
  for (const program of ['usr/bin/node', 'opt/showclock/bin/showclock-kiosk']) {
    mkdirSync(path.dirname(path.join(root, program)), { recursive: true });
    writeFileSync(path.join(root, program), '#!/bin/sh\n');
    chmodSync(path.join(root, program), 0o755);
  }
  return root;
}

function verify(root: string): { status: number | null; output: string } {
  const result = spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, ...UNITS], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

const unit = (name: string) => readFileSync(path.join(ROOT, 'systemd', name), 'utf8');
/** Directive values of a unit, comments left out. */
const directives = (text: string, key: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));

describe('systemd units', () => {
  it('pass systemd-analyze verify without a word of complaint', (ctx) => {
    const reason = missing('systemd-analyze');
    if (reason !== null) ctx.skip(reason);
    const result = verify(verifyRoot('as-shipped'));
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('would be caught by the verifier with a misspelt directive or a missing program', (ctx) => {
    const reason = missing('systemd-analyze');
    if (reason !== null) ctx.skip(reason);
    const typo = verify(verifyRoot('typo', (name, text) => (name === 'showclock.service' ? text.replace('\nUser=showclock', '\nUsr=showclock') : text)));
    expect(typo.output).toContain("Unknown key 'Usr'");
    const wrongPath = verify(verifyRoot('wrong-path', (name, text) => (name === 'showclock-kiosk.service' ? text.replace('/opt/showclock/bin/', '/opt/showclock/sbin/') : text)));
    expect(wrongPath.status).not.toBe(0);
  });

  it('sandbox the service without breaking GPIO or V8, and run it as showclock in the gpio group', () => {
    const service = unit('showclock.service');
    expect(directives(service, 'User')).toEqual(['showclock']);
    expect(directives(service, 'SupplementaryGroups')).toEqual(['gpio video']);
    // The screen over HDMI-CEC: cec-ctl opens /dev/cec*, and nothing else in /dev but the pseudo-devices.
    expect(directives(service, 'PrivateDevices')).toEqual([]);
    expect(directives(service, 'DevicePolicy')).toEqual(['closed']);
    expect(directives(service, 'DeviceAllow')).toEqual(['char-cec rw']);
    expect(directives(service, 'StateDirectory')).toEqual(['showclock']);
    expect(directives(service, 'Restart')).toEqual(['always']);
    expect(directives(service, 'Type')).toEqual(['notify']);
    // Read-only /sys would stop sysfs GPIO; W^X memory would crash V8.
    expect(directives(service, 'ProtectKernelTunables')).toEqual([]);
    expect(directives(service, 'MemoryDenyWriteExecute')).toEqual([]);
    expect(directives(service, 'ProtectSystem')).toEqual(['strict']);
    expect(directives(service, 'CapabilityBoundingSet')).toEqual(['']);
  });

  it('do not restart the service on a bad config or an unusable data directory, which a restart cannot fix', () => {
    const service = unit('showclock.service');
    const codes = directives(service, 'RestartPreventExitStatus').flatMap((value) => value.split(/\s+/));
    expect(codes).toContain(String(EXIT_CONFIG));
    expect(codes).toContain(String(EXIT_DATA_DIR));
    // Exit 1 (a port in use, a crash) is still restarted.
    expect(codes).not.toContain('1');
  });

  it('give the launcher a writable place for its code cache, since /opt is read-only to the service', () => {
    const service = unit('showclock.service');
    expect(directives(service, 'CacheDirectory')).toEqual(['showclock']);
    expect(directives(service, 'Environment')).toContain('SHOWCLOCK_CODE_CACHE=/var/cache/showclock/showclock.cjs.cache');
  });

  it('run node with the flags and the malloc setting of scripts/node-flags.mjs, which npm start and the bench use', () => {
    const service = unit('showclock.service');
    const exec = directives(service, 'ExecStart')[0] ?? '';
    expect(exec.split(/\s+/).filter((word) => word.startsWith('--'))).toEqual(NODE_FLAGS);
    for (const [name, value] of Object.entries(NODE_ENVIRONMENT)) expect(directives(service, 'Environment')).toContain(`${name}=${value}`);
  });

  it('start the kiosk after the service, on /display, without waiting for network time', () => {
    const kiosk = unit('showclock-kiosk.service');
    for (const text of [kiosk, unit('showclock.service')]) {
      expect(text).not.toMatch(/^(After|Wants|Requires)=.*(time-sync|network-online)\.target/m);
    }
    expect(directives(kiosk, 'After')).toContain('showclock.service');
    expect(directives(kiosk, 'BindsTo')).toEqual(['showclock.service']);
    expect(directives(kiosk, 'WantedBy')).toEqual(['showclock.service']);
    expect(directives(kiosk, 'Restart')).toEqual(['always']);
    // Nothing to save in a browser: a kiosk that ignores SIGTERM while it starts must not hold a reboot for 90 s.
    expect(directives(kiosk, 'TimeoutStopSec')).toEqual(['5']);
    const launcher = readFileSync(path.join(ROOT, 'systemd/showclock-kiosk.sh'), 'utf8');
    expect(launcher).toContain('url="http://127.0.0.1:${port}/display"');
    expect(launcher).toContain('--kiosk');
    expect(launcher).toContain('--hide-crash-restore-bubble');
  });
});

describe('shell scripts', () => {
  it.for(SCRIPTS)('%s passes shellcheck', (script, ctx) => {
    const reason = missing('shellcheck');
    if (reason !== null) ctx.skip(reason);
    const result = spawnSync('shellcheck', ['--shell=bash', '--severity=style', path.join(ROOT, script)], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
