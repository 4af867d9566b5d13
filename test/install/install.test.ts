// scripts/install.sh from a real release tarball (`npm run package`), into a
// sandbox root (SHOWCLOCK_ROOT), with stand-ins on PATH for what would change
// the machine itself: apt-get, dpkg-query, useradd and friends, systemctl,
// runuser, chown, npm. The stand-ins keep their state in files and log every
// call, so a second run can be checked to change nothing at all: not a file,
// not a user, not a package, no unit reloaded, enabled or restarted.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBundle } from '../e2e/service-process.js';

const top = mkdtempSync(path.join(tmpdir(), 'showclock-install-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

const STUBS: Record<string, string> = {
  'apt-get': `
    if [ "$1" = install ]; then
      for a in "$@"; do case "$a" in install|-*) ;; *) echo "$a" >> "$STATE/pkgs" ;; esac; done
    fi`,
  dpkg: ``,
  'dpkg-query': `
    pkg="\${*: -1}"
    if grep -qx "$pkg" "$STATE/pkgs"; then printf installed; else exit 1; fi`,
  getent: `
    grep "^$2:" "$STATE/$1" || exit 2`,
  useradd: `
    name="\${*: -1}"
    echo "$name:x:" >> "$STATE/passwd"
    echo "$name:x:" >> "$STATE/group"`,
  groupadd: `
    echo "\${*: -1}:x:" >> "$STATE/group"`,
  usermod: `
    echo "\${*: -1} $3" >> "$STATE/members"`,
  userdel: `
    for f in passwd group; do grep -v "^$1:" "$STATE/$f" > "$STATE/$f.tmp" || true; mv "$STATE/$f.tmp" "$STATE/$f"; done
    grep -v "^$1 " "$STATE/members" > "$STATE/members.tmp" || true; mv "$STATE/members.tmp" "$STATE/members"`,
  id: `
    if [ "$1" = -nG ]; then echo "$2 $(grep "^$2 " "$STATE/members" | cut -d' ' -f2 | tr '\\n' ' ')"; else exec /usr/bin/id "$@"; fi`,
  systemctl: `
    unit="\${*: -1}"
    case "$1" in
      is-enabled) grep -qx "$unit" "$STATE/enabled" ;;
      is-active) grep -qx "$unit" "$STATE/active" ;;
      enable) echo "$unit" >> "$STATE/enabled" ;;
      disable)
        grep -vx "$unit" "$STATE/enabled" > "$STATE/e.tmp" || true; mv "$STATE/e.tmp" "$STATE/enabled"
        if [ "$2" = --now ]; then grep -vx "$unit" "$STATE/active" > "$STATE/a.tmp" || true; mv "$STATE/a.tmp" "$STATE/active"; fi ;;
      start|restart) grep -qx "$unit" "$STATE/active" || echo "$unit" >> "$STATE/active" ;;
      stop) grep -vx "$unit" "$STATE/active" > "$STATE/a.tmp" || true; mv "$STATE/a.tmp" "$STATE/active" ;;
      daemon-reload|daemon-reexec) ;;
      *) echo "systemctl stand-in: $*" >&2; exit 1 ;;
    esac`,
  runuser: `
    shift 3
    exec "$@"`,
  chown: ``,
  // The read-only system's devices and mounts, from files in $STATE: disks ("DEV TYPE PARENT"),
  // blkid ("DEV KEY VALUE"), mounts ("SOURCE TARGET"), rootfs (the root's file system type).
  findmnt: `
    set -o pipefail
    case "$*" in
      "-n -o FSTYPE --mountpoint /") cat "$STATE/rootfs" 2>/dev/null || echo ext4 ;;
      "-n -o SOURCE --mountpoint /") echo /dev/mmcblk0p2 ;;
      "-n -o SOURCE --mountpoint /boot/firmware") echo /dev/mmcblk0p1 ;;
      "-rn -o TARGET --source "*) grep "^\${*: -1} " "$STATE/mounts" | cut -d' ' -f2 | sed "s|^$SHOWCLOCK_ROOT||" ;;
      "-n -o SOURCE --mountpoint "*) grep " $SHOWCLOCK_ROOT\${*: -1}$" "$STATE/mounts" | cut -d' ' -f1 ;;
      *) exit 1 ;;
    esac`,
  mountpoint: `
    grep -q " \${*: -1}$" "$STATE/mounts"`,
  mount: `
    case "$1" in
      -o) case "$2" in remount,*) ;; *) echo "$3 $4" >> "$STATE/mounts" ;; esac ;;
      *) echo "fstab $1" >> "$STATE/mounts" ;;
    esac`,
  lsblk: `
    dev="\${*: -1}"
    line=$(grep "^$dev " "$STATE/disks") || { echo "lsblk: $dev: not a block device" >&2; exit 32; }
    case "$2" in PKNAME) echo "$line" | cut -d' ' -f3 ;; *) echo "$line" | cut -d' ' -f2 ;; esac`,
  blkid: `
    grep "^\${*: -1} $5 " "$STATE/blkid" | cut -d' ' -f3 | grep . || exit 2`,
  'mkfs.ext4': `
    dev="\${*: -1}"
    printf '%s TYPE ext4\n%s UUID 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n' "$dev" "$dev" >> "$STATE/blkid"`,
  npm: `
    version=$(node -p "require('./package.json').dependencies.onoff")
    # As npm does: the wanted version already in node_modules is "up to date", whether it works or not.
    if grep -qs "\"$version\"" node_modules/onoff/package.json; then echo "up to date"; exit 0; fi
    mkdir -p node_modules/onoff node_modules/epoll/build/Release
    echo "{\\"version\\": \\"$version\\"}" > node_modules/onoff/package.json
    echo 'module.exports = { Gpio: class {} };' > node_modules/onoff/index.js
    echo binary > node_modules/epoll/build/Release/epoll.node`,
};

/** Calls that change the machine; a second run must make none. */
const CHANGING = /^(apt-get install|useradd|groupadd|usermod|userdel|npm|systemctl (daemon-reload|daemon-reexec|enable|disable|start|restart|stop))/;

interface Sandbox {
  readonly root: string;
  readonly state: string;
  readonly release: string;
  run(...args: string[]): { status: number | null; out: string; calls: string[] };
  snapshot(): Record<string, string>;
}

let tarball = '';

beforeAll(() => {
  ensureBundle();
  const packed = spawnSync(process.execPath, [path.join(ROOT, 'scripts/package.mjs'), '--no-build', '--out', path.join(top, 'out')], { cwd: ROOT, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm run package failed: ${packed.stderr}`);
  const name = readdirSync(path.join(top, 'out')).find((f) => f.endsWith('.tar.gz'));
  if (name === undefined) throw new Error('no tarball');
  tarball = path.join(top, 'out', name);
}, 60_000);

let sandboxes = 0;
function sandbox(): Sandbox {
  sandboxes += 1;
  const base = path.join(top, `sandbox-${sandboxes}`);
  const root = path.join(base, 'root');
  const state = path.join(base, 'state');
  const bin = path.join(base, 'bin');
  for (const dir of [root, state, bin, path.join(root, 'etc'), path.join(root, 'run/systemd/system'), path.join(base, 'release')]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(root, 'etc/os-release'), 'ID=debian\nVERSION_CODENAME=trixie\n');
  for (const file of ['pkgs', 'passwd', 'members', 'enabled', 'active', 'calls', 'disks', 'blkid', 'mounts']) writeFileSync(path.join(state, file), '');
  writeFileSync(path.join(state, 'group'), 'video:x:\nrender:x:\ninput:x:\ngpio:x:\n');
  for (const [name, body] of Object.entries(STUBS)) {
    const file = path.join(bin, name);
    writeFileSync(file, `#!/bin/bash\necho "${name} $*" >> "$STATE/calls"\n${body}\n`);
    chmodSync(file, 0o755);
  }
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', path.join(base, 'release')], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(untar.stderr);
  const releaseName = readdirSync(path.join(base, 'release'))[0] ?? '';
  const release = path.join(base, 'release', releaseName);

  return {
    root,
    state,
    release,
    run: (...args) => {
      writeFileSync(path.join(state, 'calls'), '');
      const result = spawnSync('bash', [path.join(release, 'install.sh'), ...args], {
        encoding: 'utf8',
        env: {
          PATH: `${bin}:${path.dirname(process.execPath)}:/usr/sbin:/usr/bin:/sbin:/bin`,
          STATE: state,
          SHOWCLOCK_ROOT: root,
          SHOWCLOCK_NODE: process.execPath,
          HOME: base,
        },
      });
      const calls = readFileSync(path.join(state, 'calls'), 'utf8').split('\n').filter((l) => l !== '');
      return { status: result.status, out: result.stdout + result.stderr, calls };
    },
    snapshot: () => {
      const files: Record<string, string> = {};
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(full);
          else files[path.relative(base, full)] = `${(statSync(full).mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
        }
      };
      walk(root);
      for (const file of ['pkgs', 'passwd', 'group', 'members', 'enabled', 'active']) files[`state/${file}`] = readFileSync(path.join(state, file), 'utf8');
      return files;
    },
  };
}

const exists = (s: Sandbox, file: string) => existsSync(path.join(s.root, file));
const read = (s: Sandbox, file: string) => readFileSync(path.join(s.root, file), 'utf8');

const SLOW = 120_000;

describe('npm run package', () => {
  it('lays out the release install.sh runs from', () => {
    const listed = spawnSync('tar', ['-tvzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
    const entry = (name: string) => listed.find((line) => line.endsWith(`/${name}`)) ?? '';
    expect(entry('install.sh')).toMatch(/^-rwxr-xr-x 0\/0 /);
    expect(entry('bin/showclock-kiosk')).toMatch(/^-rwxr-xr-x 0\/0 /);
    expect(listed.some((line) => line.endsWith('.cache'))).toBe(false);
    for (const name of ['dist/showclock.mjs', 'dist/showclock.cjs', 'systemd/showclock.service', 'systemd/showclock-kiosk.service', 'package.json', 'README.md']) {
      expect(entry(name), name).toMatch(/^-rw-r--r-- 0\/0 /);
    }
    const release = JSON.parse(spawnSync('tar', ['-xzOf', tarball, `${path.basename(tarball, '.tar.gz')}/package.json`], { encoding: 'utf8' }).stdout) as {
      dependencies: Record<string, string>;
    };
    // Only onoff is installed on the Pi: everything else is in the bundle.
    expect(Object.keys(release.dependencies)).toEqual(['onoff']);
    expect(release.dependencies.onoff).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('install.sh on a fresh box', () => {
  it(
    'installs everything, then a second run changes nothing',
    () => {
      const s = sandbox();
      const first = s.run();
      expect(first.status, first.out).toBe(0);
      expect(first.calls).toContain('apt-get install -y -q --no-install-recommends nodejs npm g++ make python3 polkitd cage chromium v4l-utils alsa-utils');
      expect(first.calls.filter((c) => c.startsWith('useradd')).map((c) => c.split(' ').at(-1))).toEqual(['showclock', 'showclock-kiosk']);
      expect(first.calls).toContain('usermod -a -G gpio showclock');
      expect(first.calls).toEqual(
        expect.arrayContaining([
          'systemctl daemon-reload',
          'systemctl daemon-reexec',
          'systemctl enable showclock.service',
          'systemctl enable showclock-kiosk.service',
          'systemctl start showclock.service',
          'systemctl start showclock-kiosk.service',
        ]),
      );
      for (const file of [
        'opt/showclock/dist/showclock.mjs',
        'opt/showclock/bin/showclock-kiosk',
        'opt/showclock/node_modules/onoff/package.json',
        'etc/systemd/system/showclock.service',
        'etc/systemd/system/showclock-kiosk.service',
        'etc/pam.d/showclock-kiosk',
        'usr/local/bin/showclock',
        'etc/showclock/config.json',
        'var/lib/showclock/keys.json',
        'etc/polkit-1/rules.d/50-showclock-clock.rules',
        'etc/systemd/system.conf.d/showclock-watchdog.conf',
      ]) {
        expect(exists(s, file), file).toBe(true);
      }
      // The clock rule: the service's user, timedated's set-time and set-ntp, nothing else.
      const rule = read(s, 'etc/polkit-1/rules.d/50-showclock-clock.rules');
      expect(rule).toContain('subject.user === "showclock"');
      expect([...rule.matchAll(/"(org\.freedesktop\.[a-z0-9.-]+)"/g)].map((m) => m[1])).toEqual(['org.freedesktop.timedate1.set-time', 'org.freedesktop.timedate1.set-ntp']);
      // The hardware watchdog: within the Pi's 15 s, and systemd re-executed to take it.
      expect(read(s, 'etc/systemd/system.conf.d/showclock-watchdog.conf')).toMatch(/^\[Manager\]\nRuntimeWatchdogSec=14s\nRebootWatchdogSec=2min$/m);
      expect(statSync(path.join(s.root, 'opt/showclock/bin/showclock-kiosk')).mode & 0o777).toBe(0o755);
      // The links are printed at the end (and the keys made for them).
      expect(first.out).toMatch(/Control room: http:\/\/\S+:8080\/control\/[A-Za-z0-9_-]{16,}/);

      const before = s.snapshot();
      const second = s.run();
      expect(second.status, second.out).toBe(0);
      expect(second.calls.filter((c) => CHANGING.test(c))).toEqual([]);
      expect(second.out).not.toMatch(/wrote|created|added|removed|restarted|started/);
      expect(s.snapshot()).toEqual(before);
    },
    SLOW,
  );

  it(
    '--no-kiosk installs no cage, no Chromium and no kiosk unit',
    () => {
      const s = sandbox();
      const first = s.run('--no-kiosk');
      expect(first.status, first.out).toBe(0);
      expect(first.calls).toContain('apt-get install -y -q --no-install-recommends nodejs npm g++ make python3 polkitd');
      expect(exists(s, 'etc/systemd/system/showclock-kiosk.service')).toBe(false);
      expect(first.calls.filter((c) => c.startsWith('useradd')).map((c) => c.split(' ').at(-1))).toEqual(['showclock']);
    },
    SLOW,
  );
});

// One box through its life, step by step: each test starts where the last one ended.
describe('install.sh over the life of a box', () => {
  let s: Sandbox;
  beforeAll(() => {
    s = sandbox();
    const first = s.run();
    if (first.status !== 0) throw new Error(first.out);
  }, SLOW);

  it(
    'writes a commented default config the service reads, and never overwrites one',
    () => {
      const config = read(s, 'etc/showclock/config.json');
      expect(config).toMatch(/^\/\/ /m);
      expect(config).toContain('gpio=5,6,13,19=ip,pu');
      // The service's own loader accepts it, comments and all.
      const checked = spawnSync(process.execPath, [path.join(s.root, 'opt/showclock/dist/showclock.mjs'), 'config'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', SHOWCLOCK_CONFIG: path.join(s.root, 'etc/showclock/config.json') },
      });
      expect(checked.status, checked.stderr).toBe(0);
      expect(JSON.parse(checked.stdout)).toMatchObject({ port: 8080, host: '0.0.0.0', gpio: {} });

      const mine = '{ "port": 8090, "gpio": { "lamp": { "pin": 17 } } }\n';
      writeFileSync(path.join(s.root, 'etc/showclock/config.json'), mine);
      const again = s.run();
      expect(again.status, again.out).toBe(0);
      expect(read(s, 'etc/showclock/config.json')).toBe(mine);
      expect(again.out).toContain(':8090/control/');
    },
    SLOW,
  );

  it(
    'grants the low port capability only while a port below 1024 is configured',
    () => {
      const dropin = 'etc/systemd/system/showclock.service.d/port.conf';
      expect(exists(s, dropin)).toBe(false);
      writeFileSync(path.join(s.root, 'etc/showclock/config.json'), '{ "port": 80 }\n');
      const low = s.run();
      expect(low.status, low.out).toBe(0);
      expect(read(s, dropin)).toContain('AmbientCapabilities=CAP_NET_BIND_SERVICE');
      expect(low.calls).toEqual(expect.arrayContaining(['systemctl daemon-reload', 'systemctl restart showclock.service']));
      writeFileSync(path.join(s.root, 'etc/showclock/config.json'), '{ "port": 8080 }\n');
      const high = s.run();
      expect(high.status, high.out).toBe(0);
      expect(exists(s, dropin)).toBe(false);
    },
    SLOW,
  );

  it(
    'stops with the problem named when the config file is wrong',
    () => {
      const good = read(s, 'etc/showclock/config.json');
      writeFileSync(path.join(s.root, 'etc/showclock/config.json'), '{ "port": 80, "gpio": { "lamp": { "pin": 40 } } }\n');
      const bad = s.run();
      expect(bad.status).not.toBe(0);
      expect(bad.out).toMatch(/gpio\.lamp\.pin/);
      writeFileSync(path.join(s.root, 'etc/showclock/config.json'), good);
    },
    SLOW,
  );

  it(
    'after a power cut mid-install: an onoff that no longer loads is installed again, a half-done dpkg is finished before apt-get',
    () => {
      // What a cut during npm install can leave: the files there, the module not loadable.
      writeFileSync(path.join(s.root, 'opt/showclock/node_modules/onoff/index.js'), '\0\0\0');
      const repaired = s.run();
      expect(repaired.status, repaired.out).toBe(0);
      expect(repaired.calls.filter((c) => c.startsWith('npm '))).toHaveLength(1);
      expect(read(s, 'opt/showclock/node_modules/onoff/index.js')).toContain('module.exports');
      expect(s.run().calls.filter((c) => c.startsWith('npm '))).toEqual([]);

      // A working onoff of another version (an update): npm runs, over what is there, not from nothing.
      writeFileSync(path.join(s.root, 'opt/showclock/node_modules/onoff/package.json'), '{"version": "0.0.1"}\n');
      writeFileSync(path.join(s.root, 'opt/showclock/node_modules/kept'), '');
      const updated = s.run();
      expect(updated.status, updated.out).toBe(0);
      expect(updated.calls.filter((c) => c.startsWith('npm '))).toHaveLength(1);
      expect(exists(s, 'opt/showclock/node_modules/kept')).toBe(true);
      expect(read(s, 'opt/showclock/node_modules/onoff/package.json')).not.toContain('0.0.1');

      // A package missing again (a cut during apt-get): dpkg finishes what it began, then apt-get runs.
      writeFileSync(path.join(s.state, 'pkgs'), readFileSync(path.join(s.state, 'pkgs'), 'utf8').replace(/^chromium\n/m, ''));
      const apt = s.run();
      expect(apt.status, apt.out).toBe(0);
      const dpkgAt = apt.calls.indexOf('dpkg --configure -a');
      expect(dpkgAt).toBeGreaterThanOrEqual(0);
      expect(apt.calls.findIndex((c) => c.startsWith('apt-get install'))).toBeGreaterThan(dpkgAt);
    },
    SLOW,
  );

  it(
    'restarts the service when the release changed, and only then',
    () => {
      appendFileSync(path.join(s.release, 'dist/showclock.mjs'), '\n// a new release\n');
      const update = s.run();
      expect(update.status, update.out).toBe(0);
      expect(update.calls).toEqual(expect.arrayContaining(['systemctl restart showclock.service', 'systemctl restart showclock-kiosk.service']));
      expect(update.calls.filter((c) => /^(apt-get install|useradd|npm )/.test(c))).toEqual([]);
      expect(read(s, 'opt/showclock/dist/showclock.mjs')).toContain('a new release');
    },
    SLOW,
  );

  it(
    '--no-kiosk takes the kiosk away again',
    () => {
      const headless = s.run('--no-kiosk');
      expect(headless.status, headless.out).toBe(0);
      expect(headless.calls).toContain('systemctl disable --now showclock-kiosk.service');
      expect(headless.calls).toContain('userdel showclock-kiosk');
      for (const file of ['etc/systemd/system/showclock-kiosk.service', 'opt/showclock/bin/showclock-kiosk', 'etc/pam.d/showclock-kiosk']) {
        expect(exists(s, file), file).toBe(false);
      }
      expect(exists(s, 'etc/systemd/system/showclock.service')).toBe(true);
    },
    SLOW,
  );

  it(
    '--uninstall keeps the room, keys and config; --purge removes them too',
    () => {
      const keys = read(s, 'var/lib/showclock/keys.json');
      // What the service's first start leaves in its systemd cache directory.
      mkdirSync(path.join(s.root, 'var/cache/showclock'), { recursive: true });
      writeFileSync(path.join(s.root, 'var/cache/showclock/showclock.cjs.cache'), 'cache');
      const removed = s.run('--uninstall');
      expect(removed.status, removed.out).toBe(0);
      for (const file of ['opt/showclock', 'var/cache/showclock', 'etc/systemd/system/showclock.service', 'usr/local/bin/showclock', 'etc/polkit-1/rules.d/50-showclock-clock.rules', 'etc/systemd/system.conf.d/showclock-watchdog.conf']) {
        expect(exists(s, file), file).toBe(false);
      }
      expect(removed.calls).toEqual(expect.arrayContaining(['systemctl disable --now showclock.service', 'userdel showclock']));
      expect(read(s, 'var/lib/showclock/keys.json')).toBe(keys);
      expect(exists(s, 'etc/showclock/config.json')).toBe(true);

      // Installing again finds the same keys: the links people have keep working.
      expect(s.run().status).toBe(0);
      expect(read(s, 'var/lib/showclock/keys.json')).toBe(keys);

      const purged = s.run('--uninstall', '--purge');
      expect(purged.status, purged.out).toBe(0);
      expect(exists(s, 'var/lib/showclock')).toBe(false);
      expect(exists(s, 'etc/showclock')).toBe(false);
    },
    SLOW,
  );
});

// install.sh --read-only and --read-write (issue 33): the files and mounts it makes, what it
// refuses, and what it says on a system already read-only. The booted box (test/box) checks
// that overlayroot really comes up, keeps the data place, and survives power cuts.
describe('install.sh --read-only and --read-write', () => {
  const OVERLAY_CONF = 'etc/overlayroot.local.conf';
  const JOURNAL_DROPIN = 'etc/systemd/journald.conf.d/showclock-read-only.conf';
  const SERVICE_DROPIN = 'etc/systemd/system/showclock.service.d/read-only.conf';
  const REMOUNT_DROPIN = 'etc/systemd/system/systemd-remount-fs.service.d/showclock-read-only.conf';
  let s: Sandbox;
  beforeAll(() => {
    s = sandbox();
    const first = s.run();
    if (first.status !== 0) throw new Error(first.out);
    // A Pi: the SD card holds the system; a USB stick, an old FAT stick, a partitioned disk.
    writeFileSync(
      path.join(s.state, 'disks'),
      ['/dev/mmcblk0 disk', '/dev/mmcblk0p1 part mmcblk0', '/dev/mmcblk0p2 part mmcblk0', '/dev/sda1 part sda', '/dev/sdb1 part sdb', '/dev/sdc1 part sdc', '/dev/sdd disk'].join('\n') + '\n',
    );
    writeFileSync(path.join(s.state, 'blkid'), '/dev/mmcblk0p2 TYPE ext4\n/dev/sdc1 TYPE vfat\n/dev/sdd PTTYPE dos\n');
    writeFileSync(path.join(s.state, 'mounts'), '/dev/sdb1 /media/pi/STICK\n');
    writeFileSync(path.join(s.root, 'etc/fstab'), 'PARTUUID=1234-02 / ext4 defaults,noatime 0 1\n');
  }, SLOW);

  it(
    'refuses, with what to do, a missing device, the system own device, a mounted one, one with another file system or with partitions, and raspi-config overlay',
    () => {
      const before = s.snapshot();
      const refused = (args: string[], wanted: RegExp) => {
        const result = s.run(...args);
        expect(result.status, result.out).not.toBe(0);
        expect(result.out).toMatch(wanted);
        expect(result.calls.filter((c) => CHANGING.test(c)), args.join(' ')).toEqual([]);
      };
      refused(['--read-only'], /--read-only needs the device for the room, keys and config/);
      refused(['--read-only', '--uninstall'], /--read-only needs the device/);
      refused(['--read-only', '/dev/sda1', '--uninstall'], /--read-only and --uninstall do not go together/);
      refused(['--read-write', '--no-kiosk'], /--no-kiosk goes with an install/);
      refused(['--read-only', '/dev/nothing'], /\/dev\/nothing is not a disk or a partition \(lsblk -o NAME,SIZE,FSTYPE,LABEL,MOUNTPOINTS lists them\)/);
      refused(['--read-only', '/dev/mmcblk0p2'], /\/dev\/mmcblk0p2 holds the system \(it is mounted at \/\): the room, keys and config need a device of their own/);
      refused(['--read-only', '/dev/mmcblk0'], /\/dev\/mmcblk0 holds the system/);
      refused(['--read-only', '/dev/mmcblk0p1'], /holds the system \(it is mounted at \/boot\/firmware\)/);
      refused(['--read-only', '/dev/sdb1'], /\/dev\/sdb1 is mounted at \/media\/pi\/STICK: unmount it first \(sudo umount \/media\/pi\/STICK\)/);
      refused(['--read-only', '/dev/sdc1'], /\/dev\/sdc1 holds a vfat file system: install.sh formats only an empty device .*sudo wipefs -a \/dev\/sdc1/);
      refused(['--read-only', '/dev/sdd'], /\/dev\/sdd is a disk with partitions \(dos\): give one of its partitions/);
      mkdirSync(path.join(s.root, 'boot/firmware'), { recursive: true });
      writeFileSync(path.join(s.root, 'boot/firmware/cmdline.txt'), 'console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait overlayroot=tmpfs\n');
      refused(['--read-only', '/dev/sda1'], /raspi-config's Overlay File System.*Turn it off \(sudo raspi-config: Performance Options, Overlay File System, No\)/);
      rmSync(path.join(s.root, 'boot'), { recursive: true });
      expect(s.snapshot()).toEqual(before);
      expect(exists(s, OVERLAY_CONF)).toBe(false);
    },
    SLOW,
  );

  it(
    'formats an empty device, copies the room, keys and config onto it, binds them back, makes the system read-only from the next boot; a second run changes nothing',
    () => {
      const keys = read(s, 'var/lib/showclock/keys.json');
      const config = read(s, 'etc/showclock/config.json');
      const first = s.run('--read-only', '/dev/sda1');
      expect(first.status, first.out).toBe(0);
      expect(first.calls).toContain('apt-get install -y -q --no-install-recommends overlayroot cryptsetup-bin busybox');
      expect(first.calls).toContain('mkfs.ext4 -q -F -L showclock-data /dev/sda1');
      expect(first.calls).toContain(`mount -o noatime /dev/sda1 ${s.root}/srv/showclock`);
      // Stopped for the copy, started after it, with the binds in place.
      const stop = first.calls.indexOf('systemctl stop showclock.service');
      expect(stop).toBeGreaterThanOrEqual(0);
      expect(first.calls.indexOf(`mount ${s.root}/var/lib/showclock`)).toBeGreaterThan(stop);
      expect(first.calls.indexOf('systemctl start showclock.service')).toBeGreaterThan(first.calls.indexOf(`mount ${s.root}/etc/showclock`));
      expect(read(s, 'srv/showclock/data/keys.json')).toBe(keys);
      expect(read(s, 'srv/showclock/config/config.json')).toBe(config);
      expect(statSync(path.join(s.root, 'srv/showclock/data')).mode & 0o777).toBe(0o700);
      const fstab = read(s, 'etc/fstab');
      expect(fstab).toContain('PARTUUID=1234-02 / ext4 defaults,noatime 0 1\n');
      expect(fstab).toContain('UUID=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 /srv/showclock ext4 defaults,noatime,nofail 0 2\n');
      expect(fstab).toContain('/srv/showclock/data /var/lib/showclock none bind,nofail,x-systemd.requires-mounts-for=/srv/showclock 0 0\n');
      expect(fstab).toContain('/srv/showclock/config /etc/showclock none bind,nofail,x-systemd.requires-mounts-for=/srv/showclock 0 0\n');
      expect(read(s, OVERLAY_CONF)).toMatch(/^overlayroot="tmpfs:recurse=0"$/m);
      expect(read(s, SERVICE_DROPIN)).toContain('RequiresMountsFor=/var/lib/showclock /etc/showclock');
      expect(read(s, JOURNAL_DROPIN)).toMatch(/Storage=volatile[\s\S]*RuntimeMaxUse=/);
      expect(read(s, REMOUNT_DROPIN)).toContain('ConditionPathIsMountPoint=!/media/root-ro');
      expect(first.out).toContain('the system becomes read-only at the next boot: sudo reboot');
      expect(first.out).toContain('sudo ./install.sh --read-write, reboot, change it, sudo ./install.sh --read-only /dev/sda1, reboot');

      const before = s.snapshot();
      const second = s.run('--read-only', '/dev/sda1');
      expect(second.status, second.out).toBe(0);
      expect(second.calls.filter((c) => CHANGING.test(c))).toEqual([]);
      expect(second.out).not.toMatch(/wrote|formatted|copied|mounted|installing|removed/);
      expect(s.snapshot()).toEqual(before);

      // Another device while the data place is on this one: refused, nothing moved.
      writeFileSync(path.join(s.state, 'blkid'), `${readFileSync(path.join(s.state, 'blkid'), 'utf8')}/dev/sdb1 TYPE ext4\n/dev/sdb1 UUID 99999999-0000-0000-0000-000000000000\n`);
      writeFileSync(path.join(s.state, 'mounts'), readFileSync(path.join(s.state, 'mounts'), 'utf8').replace('/dev/sdb1 /media/pi/STICK\n', ''));
      const other = s.run('--read-only', '/dev/sdb1');
      expect(other.status).not.toBe(0);
      expect(other.out).toMatch(/\/etc\/fstab already has another data place \(UUID=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\) at \/srv\/showclock/);
    },
    SLOW,
  );

  it(
    'once read-only (after the reboot): install.sh, an update or --uninstall is refused with the way to make a change; --read-only has nothing to do',
    () => {
      // What overlayroot leaves at boot: / an overlay, the real root read-only at /media/root-ro.
      writeFileSync(path.join(s.state, 'rootfs'), 'overlay\n');
      appendFileSync(path.join(s.state, 'mounts'), `/dev/mmcblk0p2 ${s.root}/media/root-ro\n`);
      for (const file of [OVERLAY_CONF, JOURNAL_DROPIN, REMOUNT_DROPIN]) {
        mkdirSync(path.dirname(path.join(s.root, 'media/root-ro', file)), { recursive: true });
        writeFileSync(path.join(s.root, 'media/root-ro', file), read(s, file));
      }
      const before = s.snapshot();
      for (const args of [[], ['--no-kiosk'], ['--uninstall'], ['--uninstall', '--purge']]) {
        const refused = s.run(...args);
        expect(refused.status, args.join(' ')).not.toBe(0);
        expect(refused.out).toContain('the system is read-only (install.sh --read-only)');
        expect(refused.out).toContain('sudo ./install.sh --read-write, sudo reboot, do the change (sudo ./install.sh ...)');
        expect(refused.out).toContain('then sudo ./install.sh --read-only DEVICE, sudo reboot');
        expect(refused.out).toContain('sudo overlayroot-chroot');
        expect(refused.out).toContain('edit /etc/showclock/config.json and sudo systemctl restart showclock');
        expect(refused.calls.filter((c) => CHANGING.test(c) || c.startsWith('apt-get'))).toEqual([]);
      }
      const again = s.run('--read-only', '/dev/sda1');
      expect(again.status, again.out).toBe(0);
      expect(again.out).toContain('the system is already read-only, with the room, keys and config on /dev/sda1 at /srv/showclock; nothing to do');
      expect(s.snapshot()).toEqual(before);
    },
    SLOW,
  );

  it(
    '--read-write takes the overlay off the real root (writable for a moment), keeps the data place; then nothing is left to do',
    () => {
      const undo = s.run('--read-write');
      expect(undo.status, undo.out).toBe(0);
      expect(undo.calls).toEqual(expect.arrayContaining([`mount -o remount,rw ${s.root}/media/root-ro`, `mount -o remount,ro ${s.root}/media/root-ro`]));
      expect(exists(s, `media/root-ro/${OVERLAY_CONF}`)).toBe(false);
      expect(exists(s, `media/root-ro/${JOURNAL_DROPIN}`)).toBe(false);
      expect(exists(s, `media/root-ro/${REMOUNT_DROPIN}`)).toBe(false);
      expect(undo.out).toContain('the system becomes writable at the next boot: sudo reboot. The room, keys and config stay on the data place');
      expect(read(s, 'etc/fstab')).toContain('/srv/showclock/data /var/lib/showclock');
      const later = s.run('--read-write');
      expect(later.out).toContain('the system is read-only until the next boot, which makes it writable: sudo reboot');

      // After that reboot: writable, the data place still mounted, install.sh works again.
      rmSync(path.join(s.state, 'rootfs'));
      rmSync(path.join(s.root, OVERLAY_CONF));
      rmSync(path.join(s.root, JOURNAL_DROPIN));
      rmSync(path.join(s.root, REMOUNT_DROPIN));
      const writable = s.run('--read-write');
      expect(writable.status).toBe(0);
      expect(writable.out).toContain('the system is not read-only (no /etc/overlayroot.local.conf); nothing to do');
      const update = s.run();
      expect(update.status, update.out).toBe(0);
    },
    SLOW,
  );

  it(
    '--read-write before the reboot: the overlay never comes; it says so',
    () => {
      const t = sandbox();
      expect(t.run().status).toBe(0);
      writeFileSync(path.join(t.state, 'disks'), '/dev/vdb disk\n');
      const on = t.run('--read-only', '/dev/vdb');
      expect(on.status, on.out).toBe(0);
      const off = t.run('--read-write');
      expect(off.status, off.out).toBe(0);
      expect(off.calls.filter((c) => c.startsWith('mount -o remount'))).toEqual([]);
      expect(exists(t, OVERLAY_CONF)).toBe(false);
      expect(exists(t, JOURNAL_DROPIN)).toBe(false);
      expect(exists(t, REMOUNT_DROPIN)).toBe(false);
      expect(off.out).toContain('removed /etc/overlayroot.local.conf');
    },
    SLOW,
  );

  it('refuses --read-only before Showclock is installed', () => {
    const t = sandbox();
    const result = t.run('--read-only', '/dev/sda1');
    expect(result.status).not.toBe(0);
    expect(result.out).toContain('Showclock is not installed here: sudo ./install.sh first, then --read-only');
  });
});
