// The box, booted (issue 27): a Debian 13 virtual machine made by
// scripts/box-vm.sh, with the release installed by install.sh inside it, real
// systemd and kernel, the kiosk on a virtual HDMI screen. One machine for the
// whole file, its checks in order, each timed; the figures are printed.
// Run with `npm run test:box` (root, mmdebstrap, qemu-system-x86, tesseract-ocr;
// .ci/run installs them). The screen is read with tesseract: the digits it shows
// are compared with the state the API gives.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser/browser-kit.js';
import { chimeLevels } from './chime-levels.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
/** The machine's state (scripts/box-vm.sh's SHOWCLOCK_BOX_DIR): disk, console, recorded sound. */
const BOX_DIR = process.env.SHOWCLOCK_BOX_DIR ?? path.join(ROOT, '.box');
/** Development only: SHOWCLOCK_BOX_REUSE=1 boots the box already built in BOX_DIR instead of building one (with -t, to rerun some checks). */
const REUSE = process.env.SHOWCLOCK_BOX_REUSE === '1';
const run = promisify(execFile);
const CUT_ROUNDS = Number(process.env.SHOWCLOCK_BOX_CUTS ?? 3);
/** The read-only system's rounds (issue 33 asks for 10); the writable box's are fewer, to keep CI under its time. */
const READ_ONLY_CUT_ROUNDS = Number(process.env.SHOWCLOCK_BOX_READ_ONLY_CUTS ?? 10);
const FIRST_START_ROUNDS = Number(process.env.SHOWCLOCK_BOX_FIRST_START_CUTS ?? 3);
const INSTALL_ROUNDS = Number(process.env.SHOWCLOCK_BOX_INSTALL_CUTS ?? 2);
const shots = mkdtempSync(path.join(tmpdir(), 'showclock-box-shots-'));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function unavailable(): string | null {
  if (process.platform !== 'linux') return 'needs Linux';
  if (process.getuid?.() !== 0) return 'needs root (mmdebstrap)';
  for (const tool of ['mmdebstrap', 'qemu-system-x86_64', 'qemu-img', 'python3', 'tesseract', 'ssh', 'curl']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  return null;
}
const missing = unavailable();
if (missing !== null) console.warn(`SKIPPED: the booted box is not tested here: ${missing}`);

/** The release the first build packed: the install rounds put it on fresh machines. */
let releaseTarball = '';

async function box(...args: string[]): Promise<string> {
  const { stdout } = await run('bash', [path.join(ROOT, 'scripts/box-vm.sh'), ...args], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 1_200_000,
    env: { ...process.env, SHOWCLOCK_BOX_RELEASE: releaseTarball },
  });
  return stdout;
}

/** A command in the machine whose output is kept as it comes, for when the power goes in the middle. */
function streamInBox(command: string): { output: () => string; done: Promise<number | null> } {
  let output = '';
  const child = spawn('bash', [path.join(ROOT, 'scripts/box-vm.sh'), 'run', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { output: () => output, done: new Promise((resolve) => child.on('close', resolve)) };
}
/** A command as root inside the machine; its output, trimmed. */
const inBox = async (command: string): Promise<string> => (await box('run', command)).trim();
/**
 * How many lines of a command's output in the machine hold `text`, as plain text (`grep -cF -e`: an
 * API key may begin with "-", which grep would take for an option); a grep that fails (exit 2)
 * fails the check instead of reading as none.
 */
async function linesInBox(source: string, text: string): Promise<number> {
  const quoted = `'${text.replaceAll("'", "'\\''")}'`;
  const count = await inBox(`${source} | grep -cF -e ${quoted} || [ $? -eq 1 ]`);
  if (!/^\d+$/.test(count)) throw new Error(`counting "${text}" in the output of ${source} read ${JSON.stringify(count)}`);
  return Number(count);
}

interface Box {
  url: string;
  apiKey: string;
}
let machine: Box = { url: '', apiKey: '' };
/** Emulated kernels that panicked and started again (panic=5 in scripts/box-vm.sh), over every machine of the run. */
let panics = 0;
function countPanics(): void {
  for (const name of ['console.log', 'console-earlier.log']) {
    try {
      // The kernel-hang test's own crash (sysrq) is not one of the emulator's.
      panics += readFileSync(path.join(BOX_DIR, name), 'utf8').split(/Kernel panic - not syncing(?!: sysrq)/).length - 1;
    } catch {
      // No such console yet.
    }
  }
}
const figures: Record<string, string> = {};

async function up(): Promise<Box> {
  return parseUp(await box('up'));
}

/** `up` on a machine where install.sh may not have finished: null when it says so (exit 3). */
async function upIfInstalled(): Promise<Box | null> {
  try {
    return await up();
  } catch (error) {
    if ((error as { code?: unknown }).code === 3) return null;
    throw error;
  }
}

function parseUp(printed: string): Box {
  const lines = Object.fromEntries(
    printed
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { url: lines.SHOWCLOCK_URL ?? '', apiKey: lines.SHOWCLOCK_API_KEY ?? '' };
}

/** The box works: the service and the kiosk active, no unit failed, /state answers with the keys it has. */
async function expectWorkingBox(when: string): Promise<void> {
  expect(await inBox('systemctl is-active showclock.service showclock-kiosk.service'), when).toBe('active\nactive');
  expect(await inBox('systemctl --failed --no-legend --plain'), when).toBe('');
  expect((await api('/state')).status, when).toBe(200);
}

interface State {
  readonly seq: number;
  readonly remaining: number;
  readonly running: boolean;
  readonly timers: readonly { readonly id: string; readonly label: string }[];
}

async function api(pathAndQuery: string, init: RequestInit = {}): Promise<{ status: number; body: { ok: boolean; state?: State; timer?: { id: string; label: string } } }> {
  const response = await fetch(`${machine.url}/api/v1/${machine.apiKey}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as { ok: boolean; state?: State } };
}

async function state(): Promise<State> {
  const { body } = await api('/state');
  if (body.state === undefined) throw new Error('no state');
  return body.state;
}

/** m:ss as the display shows a remaining time under an hour (whole seconds, rounded up). */
function shown(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

interface Healthz {
  readonly clock: { readonly synced: boolean | null; readonly source: string; readonly setByHandAt?: number };
}
async function healthz(): Promise<Healthz> {
  const response = await fetch(`${machine.url}/healthz`, { signal: AbortSignal.timeout(10_000) });
  return (await response.json()) as Healthz;
}

/** The config file in the machine, as the technician would write it, with `extra` sections; the service or kiosk restarted by the caller. */
async function writeBoxConfig(extra: Record<string, unknown>): Promise<void> {
  const config = JSON.stringify({ port: 8080, host: '0.0.0.0', ...extra }, null, 2);
  await inBox(`test -e /root/config.installed.json || cp -p /etc/showclock/config.json /root/config.installed.json; cat > /etc/showclock/config.json <<'EOF'\n${config}\nEOF`);
}

/** The sound the machine's HDMI-side card played (QEMU's HDA, written to .box/audio.wav): its size now, and what came after `from`. */
const AUDIO_FILE = path.join(BOX_DIR, 'audio.wav');
const audioSize = (): number => {
  try {
    return statSync(AUDIO_FILE).size;
  } catch {
    return 44;
  }
};
function audioSince(from: number): Buffer {
  const to = audioSize();
  const start = Math.max(44, from);
  const length = Math.max(0, to - start) - (Math.max(0, to - start) % 4);
  const buffer = Buffer.alloc(length);
  const fd = openSync(AUDIO_FILE, 'r');
  try {
    readSync(fd, buffer, 0, length, start);
  } finally {
    closeSync(fd);
  }
  return buffer;
}

let shotCount = 0;
/** The text tesseract reads on the virtual screen, and when the picture had been taken (performance.now(), before the reading). */
async function screenShot(name: string, region: readonly number[] = []): Promise<{ text: string; takenMs: number }> {
  shotCount += 1;
  const file = path.join(shots, `${String(shotCount).padStart(3, '0')}-${name}.png`);
  await box('shot', file, ...region.map(String));
  const takenMs = performance.now();
  const { stdout } = await run('tesseract', [file, '-', '--psm', region.length === 0 ? '11' : '7'], { timeout: 60_000 });
  return { text: stdout, takenMs };
}

/**
 * Polls the screen until its text has `wanted`; the milliseconds until the picture that showed
 * it was taken (the second or so tesseract then takes to read it is not the box's).
 */
async function untilScreenShows(wanted: string, name: string, timeoutMs: number, region: readonly number[] = []): Promise<number> {
  const startedMs = performance.now();
  let last = '';
  while (performance.now() - startedMs < timeoutMs) {
    const shot = await screenShot(name, region);
    last = shot.text;
    if (last.replace(/\s+/g, ' ').includes(wanted)) return shot.takenMs - startedMs;
    await sleep(250);
  }
  throw new Error(`the screen did not show "${wanted}" within ${timeoutMs} ms; last read: ${JSON.stringify(last.slice(0, 200))} (shots in ${shots})`);
}

async function healthzAfter(timeoutMs: number): Promise<number> {
  const startedMs = performance.now();
  while (performance.now() - startedMs < timeoutMs) {
    try {
      const response = await fetch(`${machine.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return performance.now() - startedMs;
    } catch {
      // Not answering yet.
    }
    await sleep(250);
  }
  throw new Error(`/healthz did not answer 200 within ${timeoutMs} ms`);
}

/**
 * One round of power cuts under changes: a client creates timers (labels `<prefix> <round> edit <i>`)
 * until the power is pulled at a random moment 1-4 s in, the box boots again, and every create
 * answered 201 is there, seq went past every seq seen, room.json is whole. This round's timers go
 * after the checks (the running order holds 100). How many creates were answered, the state, the boot's ms.
 */
async function cutUnderChanges(prefix: string, round: number, lastSeq: number): Promise<{ answered: number; after: State; bootMs: number }> {
  const answered: string[] = [];
  let maxSeq = lastSeq;
  let cutting = false;
  const client = (async () => {
    for (let i = 0; !cutting; i += 1) {
      const label = `${prefix} ${round} edit ${i}`;
      try {
        const result = await api('/timers', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label, duration: 60_000 }) });
        if (result.status === 201 && !cutting) answered.push(label);
        const now = await api('/state');
        if (now.body.state !== undefined) maxSeq = Math.max(maxSeq, now.body.state.seq);
      } catch {
        // The power went while it waited: it may or may not have happened.
      }
    }
  })();
  await sleep(1_000 + Math.floor(Math.random() * 3_000));
  cutting = true;
  await box('cut');
  await client;
  const bootStartedMs = performance.now();
  machine = await up();
  const bootMs = performance.now() - bootStartedMs;
  const after = await state();
  const labels = new Set(after.timers.map((t) => t.label));
  for (const label of answered) expect(labels.has(label), `${prefix} ${round}: "${label}" was answered 201`).toBe(true);
  expect(after.seq, `${prefix} ${round}`).toBeGreaterThan(maxSeq);
  expect(await inBox('node -e "JSON.parse(require(\'fs\').readFileSync(\'/var/lib/showclock/room.json\',\'utf8\')); console.log(\'valid\')"')).toBe('valid');
  for (const timer of after.timers.filter((t) => t.label.startsWith(`${prefix} `))) await api(`/timer/${timer.id}/delete`);
  return { answered: answered.length, after, bootMs };
}

describe.skipIf(missing !== null)('the box, booted in a virtual machine', () => {
  beforeAll(async () => {
    if (REUSE) {
      machine = await up();
      return;
    }
    let startedMs = performance.now();
    await box('build');
    figures.build = `${Math.round((performance.now() - startedMs) / 1000)} s`;
    figures['install.sh in the machine'] = `${readFileSync(path.join(BOX_DIR, 'install-seconds'), 'utf8').trim()} s`;
    const packed = readdirSync(path.join(BOX_DIR, 'release')).find((name) => name.endsWith('.tar.gz'));
    if (packed === undefined) throw new Error('build left no release in .box/release');
    releaseTarball = path.join(shots, packed);
    copyFileSync(path.join(BOX_DIR, 'release', packed), releaseTarball);
    startedMs = performance.now();
    machine = await up();
    figures['power-on to /healthz'] = `${Math.round((performance.now() - startedMs) / 1000)} s`;
  });

  afterAll(async () => {
    await box('cut').catch(() => {});
    countPanics();
    figures['emulated kernel panics, restarted by panic=5'] = String(panics);
    console.log(`box figures: ${JSON.stringify(figures)}; screenshots in ${shots}`);
    if (Object.keys(figures).length === 0) rmSync(shots, { recursive: true, force: true });
  });

  it('boots with the service active, /healthz ok through the forwarded port, and no unit failed', async () => {
    expect(await inBox('systemctl is-active showclock.service')).toBe('active');
    expect((await fetch(`${machine.url}/healthz`)).status).toBe(200);
    expect(await inBox('systemctl --failed --no-legend --plain')).toBe('');
  });

  it('under systemd the start logs where to find the links, and no key reaches the journal', async () => {
    expect(await linesInBox('journalctl -b -u showclock.service --no-pager -o cat', 'listening; to print the control-room URL, run `sudo showclock key`')).toBeGreaterThan(0);
    expect(machine.apiKey).not.toBe('');
    expect(await linesInBox('journalctl -b --no-pager -o cat', machine.apiKey)).toBe(0);
  });

  it('the screen shows the display page with the digits of /state, and a change through the API within 2 s', async () => {
    const bootToClock = await untilScreenShows(shown((await state()).remaining), 'boot', 180_000);
    figures['clock on the screen after /healthz'] = `${Math.round(bootToClock / 1000)} s`;
    const adjusted = await api('/adjust?ms=-60000');
    expect(adjusted.status).toBe(200);
    const changeMs = await untilScreenShows(shown((await state()).remaining), 'change', 10_000);
    figures['an API change on the screen'] = `${Math.round(changeMs)} ms`;
    expect(changeMs).toBeLessThan(2_000);
  });

  it('reboot: the room and the keys are back', async () => {
    const created = await api('/timers', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label: 'Before the reboot' }) });
    expect(created.status).toBe(201);
    const keys = await inBox('cat /var/lib/showclock/keys.json');
    await inBox('systemctl reboot').catch(() => {});
    await sleep(5_000);
    const backMs = await healthzAfter(300_000);
    figures['reboot to /healthz'] = `${Math.round(backMs / 1000 + 5)} s`;
    expect((await state()).timers.map((t) => t.label)).toContain('Before the reboot');
    expect(await inBox('cat /var/lib/showclock/keys.json')).toBe(keys);
  });

  it(`power cuts at a random moment while a client makes changes, ${CUT_ROUNDS} rounds: nothing answered 2xx is lost, seq never goes back, room.json is valid, the kiosk comes back`, async () => {
    let acknowledged = 0;
    let lastSeq = (await state()).seq;
    for (let round = 1; round <= CUT_ROUNDS; round += 1) {
      const { answered, after } = await cutUnderChanges('round', round, lastSeq);
      acknowledged += answered;
      lastSeq = after.seq;
    }
    figures['power cuts'] = `${CUT_ROUNDS} rounds, ${acknowledged} creates answered 201, 0 lost`;
    await untilScreenShows(shown((await state()).remaining), 'after-cuts', 180_000);
    expect(await inBox('systemctl is-active showclock-kiosk.service')).toBe('active');
  });

  // Issue 33: the read-only system. Placed after the power-cut test (it starts from the installed,
  // running box and leaves it writable again, with the same room, keys and config, for the tests
  // after it). The data place is the machine's second disk, /dev/vdb (scripts/box-vm.sh), as a
  // second partition or a USB stick is on a Pi.
  it(`read-only system (install.sh --read-only /dev/vdb): after a reboot / is an overlay, the room, keys and config are kept and a file outside the data place is gone; ${READ_ONLY_CUT_ROUNDS} power cuts under a stream of changes: it boots read-only every time and nothing answered 2xx is lost; --read-write makes it writable again`, async () => {
    const install = 'cd /root/showclock-*/ && ./install.sh';
    const keys = await inBox('cat /var/lib/showclock/keys.json');
    const before = await api('/timers', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label: 'Before read-only' }) });
    expect(before.status).toBe(201);

    const on = await inBox(`${install} --read-only /dev/vdb 2>&1`);
    expect(on).toContain('formatted /dev/vdb (ext4, label showclock-data)');
    expect(on).toContain('the system becomes read-only at the next boot: sudo reboot');
    expect(await inBox(`${install} --read-only /dev/vdb 2>&1`)).not.toMatch(/wrote|formatted|copied|mounted|installing|removed/);
    // Served from the data place already, before any reboot.
    expect(await inBox('findmnt -n -o SOURCE /var/lib/showclock')).toBe('/dev/vdb[/data]');
    expect((await state()).timers.map((t) => t.label)).toContain('Before read-only');

    await inBox('systemctl reboot').catch(() => {});
    await sleep(5_000);
    let backMs = await healthzAfter(300_000);
    figures['read-only: reboot to /healthz'] = `${Math.round(backMs / 1000 + 5)} s`;
    expect(await inBox('findmnt -n -o FSTYPE /')).toBe('overlay');
    expect(await inBox('findmnt -n -o OPTIONS /media/root-ro')).toMatch(/^ro[,$]/);
    expect(await inBox('findmnt -n -o SOURCE,FSTYPE /srv/showclock')).toMatch(/^\/dev\/vdb\s+ext4$/);
    expect(await inBox('findmnt -n -o SOURCE /etc/showclock')).toBe('/dev/vdb[/config]');
    expect((await state()).timers.map((t) => t.label)).toContain('Before read-only');
    expect(await inBox('cat /var/lib/showclock/keys.json')).toBe(keys);
    await expectWorkingBox('read-only, first boot');
    // install.sh changes nothing on a read-only system, and says how to make a change.
    expect(await inBox(`${install} 2>&1; echo "exit $?"`)).toMatch(/the system is read-only[\s\S]*--read-write[\s\S]*overlayroot-chroot[\s\S]*exit 1$/);

    // Outside the data place, gone at the reboot; the config (on the data place) kept.
    await inBox(`echo outside > /root/outside.txt && sed -i '1i // kept by the read-only test' /etc/showclock/config.json && sync`);
    await inBox('systemctl reboot').catch(() => {});
    await sleep(5_000);
    await healthzAfter(300_000);
    expect(await inBox('test -e /root/outside.txt && echo kept || echo gone')).toBe('gone');
    expect(await inBox('head -n 1 /etc/showclock/config.json')).toBe('// kept by the read-only test');
    expect(await inBox('findmnt -n -o FSTYPE /')).toBe('overlay');

    // Power cuts while a client makes changes, as in the test above, on the read-only system.
    let acknowledged = 0;
    let lastSeq = (await state()).seq;
    const boots: number[] = [];
    for (let round = 1; round <= READ_ONLY_CUT_ROUNDS; round += 1) {
      const { answered, after, bootMs } = await cutUnderChanges('ro round', round, lastSeq);
      boots.push(bootMs);
      expect(await inBox('findmnt -n -o FSTYPE /'), `round ${round}`).toBe('overlay');
      expect(await inBox('cat /var/lib/showclock/keys.json'), `round ${round}`).toBe(keys);
      acknowledged += answered;
      lastSeq = after.seq;
    }
    figures['read-only: power cuts'] = `${READ_ONLY_CUT_ROUNDS} rounds, ${acknowledged} creates answered 201, 0 lost; power-on to /healthz ${Math.round(Math.min(...boots) / 1000)}-${Math.round(Math.max(...boots) / 1000)} s`;
    await expectWorkingBox('read-only, after the cuts');

    // Back to writable: the room, keys and config stay on the data place.
    await inBox(`sed -i '/kept by the read-only test/d' /etc/showclock/config.json`);
    expect(await inBox(`${install} --read-write 2>&1`)).toContain('the system becomes writable at the next boot');
    await inBox('systemctl reboot').catch(() => {});
    await sleep(5_000);
    backMs = await healthzAfter(300_000);
    figures['read-write again: reboot to /healthz'] = `${Math.round(backMs / 1000 + 5)} s`;
    expect(await inBox('findmnt -n -o FSTYPE /')).toBe('ext4');
    expect(await inBox('findmnt -n -o SOURCE /var/lib/showclock')).toBe('/dev/vdb[/data]');
    expect((await state()).timers.map((t) => t.label)).toContain('Before read-only');
    expect(await inBox('cat /var/lib/showclock/keys.json')).toBe(keys);
    await expectWorkingBox('writable again');
  });

  it(`power cuts during the first start, while the keys and the room are made (${FIRST_START_ROUNDS} rounds): the box starts again by itself, and keys it gave out are kept`, async () => {
    const dataFiles = '/var/lib/showclock/keys.json /var/lib/showclock/room.json /var/lib/showclock/room.previous.json';
    let gaveOut = 0;
    const backMs: number[] = [];
    for (let round = 1; round <= FIRST_START_ROUNDS; round += 1) {
      const roundStartedMs = performance.now();
      // The box as on its first start: no keys, no room.
      await inBox(`systemctl stop showclock-kiosk.service showclock.service && rm -f ${dataFiles} && sync && systemctl start --no-block showclock.service`);
      let cutting = false;
      let given: string | null = null;
      // Keys count as given out once the service answers: it says it is ready only after they are on disk.
      const watcher = (async () => {
        while (!cutting) {
          try {
            const response = await fetch(`${machine.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
            if (response.status === 200) {
              const keys = await inBox('cat /var/lib/showclock/keys.json');
              if (!cutting) given = keys;
              return;
            }
          } catch {
            // Starting, or the power went.
          }
          await sleep(100);
        }
      })();
      // From the first instant of the start to well after it (about 4 s here).
      await sleep(Math.floor((round - 1 + Math.random()) * (6_000 / FIRST_START_ROUNDS)));
      cutting = true;
      await box('cut');
      await watcher;
      const bootStartedMs = performance.now();
      machine = await up();
      backMs.push(performance.now() - bootStartedMs);
      const keys = await inBox('cat /var/lib/showclock/keys.json');
      expect(() => JSON.parse(keys) as unknown, `round ${round}: keys.json`).not.toThrow();
      if (given !== null) {
        gaveOut += 1;
        expect(keys, `round ${round}: the keys given out before the cut`).toBe(given);
      }
      await expectWorkingBox(`first-start round ${round}`);
      console.log(`first-start round ${round}: ${Math.round((performance.now() - roundStartedMs) / 1000)} s in all, ${Math.round((backMs.at(-1) ?? 0) / 1000)} s from power-on to /healthz`);
    }
    figures['cuts during the first start'] = `${FIRST_START_ROUNDS} rounds, keys given out before ${gaveOut} of them, all kept; power-on to /healthz ${Math.round(Math.min(...backMs) / 1000)}-${Math.round(Math.max(...backMs) / 1000)} s`;
  });

  it('no watchdog restart that was not a hang, through everything so far', async () => {
    const timeouts = await linesInBox('journalctl --no-pager -u showclock.service', 'Watchdog timeout');
    figures['watchdog restarts before the hang'] = String(timeouts);
    expect(timeouts).toBe(0);
  });

  it('a hung service (kill -STOP of node) is restarted by the watchdog, and the kiosk shows the clock again', async () => {
    const before = await inBox('systemctl show -p MainPID --value showclock.service');
    const startedMs = performance.now();
    await inBox(`kill -STOP ${before}`);
    let after = before;
    while (performance.now() - startedMs < 120_000) {
      after = await inBox('systemctl show -p MainPID --value showclock.service');
      if (after !== before && after !== '0') {
        try {
          const response = await fetch(`${machine.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
          if (response.status === 200) break;
        } catch {
          // Starting.
        }
      }
      await sleep(500);
    }
    const recoveredMs = performance.now() - startedMs;
    figures['watchdog recovery'] = `${(recoveredMs / 1000).toFixed(1)} s`;
    expect(after).not.toBe(before);
    expect(recoveredMs).toBeLessThan(45_000);
    expect(await linesInBox('journalctl -u showclock.service --no-pager', 'Watchdog timeout')).toBeGreaterThan(0);
    await untilScreenShows(shown((await state()).remaining), 'after-watchdog', 180_000);
  });

  it('the clock: with timesyncd stopped and the clock set wrong, /healthz, the console and the screen say so; set from the console it is right, and a running countdown moves with neither step', async () => {
    // No time server answers the machine's network: the kernel's flag is set as an NTP client sets it
    // (test/box/ntp-synced.py), so the box starts out synchronised, as a Pi with a server does.
    await inBox(`systemctl start systemd-timesyncd && python3 - <<'EOF'\n${readFileSync(path.join(ROOT, 'test/box/ntp-synced.py'), 'utf8')}\nEOF`);
    await expect.poll(async () => (await healthz()).clock.synced, { timeout: 60_000, interval: 1_000 }).toBe(true);
    await api('/start');
    const before = await state();
    const beforeMs = performance.now();
    const movedBy = async (): Promise<number> => {
      const now = await state();
      return before.remaining - now.remaining - (performance.now() - beforeMs);
    };

    await inBox('systemctl stop systemd-timesyncd && date -s "-2 hours" > /dev/null');
    const steppedMs = performance.now();
    await expect.poll(async () => (await healthz()).clock.synced, { timeout: 60_000, interval: 250 }).toBe(false);
    const warnedMs = performance.now() - steppedMs;
    figures['clock warning latency (a step of -2 h to /healthz)'] = `${(warnedMs / 1000).toFixed(1)} s`;
    // The box checks every 30 s; the warning comes within one check.
    expect(warnedMs).toBeLessThan(35_000);
    expect(Math.abs(await movedBy()), 'the countdown after the -2 h step').toBeLessThan(2_000);
    // The kiosk learns it with its clock measurements (every minute): its bottom-right corner, enlarged for tesseract.
    const screenWarnedMs = await untilScreenShows('Clock not synchronised', 'clock-warning', 120_000, [960, 760, 320, 40]);
    figures['clock warning on the kiosk after /healthz'] = `${Math.round(screenWarnedMs / 1000)} s`;

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${machine.url}/control/${machine.apiKey}`);
      await expect.poll(() => page.locator('#clock-banner-text').textContent(), { timeout: 60_000 }).toContain("The box's clock is not synchronised");
      await expect.poll(() => page.locator('#clock-offset').textContent(), { timeout: 60_000 }).toMatch(/^This device's clock is (1 h 59 min|2 h 0 min) ahead of the box\.$/);
      const button = page.locator('#clock-set');
      await button.click();
      await button.click();
      await expect.poll(() => page.locator('#clock-banner-text').textContent(), { timeout: 30_000 }).toMatch(/set by hand at/);
      await expect.poll(() => page.locator('#clock-offset').textContent(), { timeout: 60_000 }).toMatch(/agree|0\.\d s|1\.\d s/);
    } finally {
      await browser.close();
    }
    // The box's clock is this machine's again, within what ssh takes.
    const boxMs = Number(await inBox('date +%s%3N'));
    expect(Math.abs(boxMs - Date.now())).toBeLessThan(3_000);
    expect((await healthz()).clock.setByHandAt).toBeGreaterThan(0);
    expect(Math.abs(await movedBy()), 'the countdown after the set (+2 h)').toBeLessThan(2_000);
    // The later checks read the screen's digits: a still clock.
    await api('/pause');
    await inBox('systemctl start systemd-timesyncd');
  });

  it('the chime comes out where kiosk.audio says: the machine\'s HDMI-side card (QEMU\'s HDA, recorded) when it is chosen, nothing there when another card is', async () => {
    // A second card, as a Pi has two HDMI ports and headphones: only the chosen one may sound.
    await inBox('modprobe snd-dummy && cat /proc/asound/cards');
    const kioskWith = async (audio: string): Promise<void> => {
      await writeBoxConfig({ kiosk: { audio } });
      await inBox('systemctl restart showclock-kiosk.service');
      // The launcher says where the sound goes as it starts Chromium, once the service answers (from
      // the kiosk's login session by then: the whole journal, not the unit's).
      const said = () => linesInBox('journalctl -b --since "-90 s" --no-pager -o cat', `sound to default:CARD=${audio} (kiosk.audio ${audio})`);
      await expect.poll(said, { timeout: 90_000, interval: 1_000 }).toBeGreaterThan(0);
      await untilScreenShows(shown((await state()).remaining), `kiosk-audio-${audio}`, 180_000);
    };
    const chimeAfterPress = async (): Promise<ReturnType<typeof chimeLevels>> => {
      const from = audioSize();
      expect((await api('/chime')).status).toBe(200);
      await sleep(4_000);
      return chimeLevels(audioSince(from));
    };

    await kioskWith('Intel');
    // The page may take a moment to open its sound: the chime is pressed until it is heard, 6 times at most.
    let heard = chimeLevels(Buffer.alloc(0));
    for (let press = 1; press <= 6 && heard.ratio < 100; press += 1) heard = await chimeAfterPress();
    figures['the test chime on the chosen card'] = `peak ${heard.peak} of 32767, the chime's notes ${Math.round(heard.ratio)}x the neighbouring frequencies`;
    expect(heard.ratio, 'the chime\'s three notes against other frequencies').toBeGreaterThan(100);

    await kioskWith('Dummy');
    const elsewhere = await chimeAfterPress();
    expect(elsewhere.ratio, 'nothing of the chime on the card that was not chosen').toBeLessThan(10);
    // It played all the same: on the chosen card, the other one.
    expect(await inBox('cat /proc/asound/Dummy/pcm0p/sub0/status')).toContain('state: RUNNING');

    await writeBoxConfig({});
    await inBox('cp -p /root/config.installed.json /etc/showclock/config.json && systemctl restart showclock-kiosk.service');
  });

  it('the screen over HDMI-CEC: with vivid\'s emulated bus and cec-follower playing the TV, "screen on" and "standby" reach the TV and the power the box reports follows it', async () => {
    // vivid: an emulated HDMI input with its CEC adapter (the TV's side, /dev/cec0) and an HDMI
    // output (the box's, /dev/cec1), the output cabled to the input; cec-follower answers as the TV.
    await inBox(
      'modprobe vivid && for d in /sys/class/video4linux/video*; do if grep -qx vivid-000-vid-cap "$d/name"; then v4l2-ctl -d "/dev/$(basename "$d")" -c hdmi_000_0_is_connected_to=2; fi; done' +
        ' && cec-ctl -d /dev/cec0 --tv --osd-name TV > /dev/null && (nohup cec-follower -d /dev/cec0 -v -w > /root/tv.log 2>&1 &)',
    );
    const tvHeard = (message: string): Promise<number> => linesInBox('cat /root/tv.log', `to TV (4 to 0): ${message}`);
    const screenPower = async (): Promise<string | undefined> => {
      const { body } = await api('/state');
      return (body.state as { screen?: { power: string } | null } | undefined)?.screen?.power;
    };
    // The device is allowed to the service when it starts (DeviceAllow=char-cec): the config, then a restart.
    await writeBoxConfig({ screen: { cec: { device: '/dev/cec1' }, onAtBoot: true } });
    await inBox('systemctl restart showclock.service');
    await healthzAfter(120_000);
    // On at boot: the TV was told to show the box, and the box asked how it is.
    await expect.poll(tvHeard.bind(null, 'IMAGE_VIEW_ON'), { timeout: 60_000, interval: 1_000 }).toBeGreaterThan(0);
    await expect.poll(screenPower, { timeout: 60_000, interval: 1_000 }).toBe('on');

    let startedMs = performance.now();
    const standby = await api('/screen/standby');
    const standbyAnswerMs = performance.now() - startedMs;
    expect(standby.status).toBe(200);
    expect(await tvHeard('STANDBY')).toBeGreaterThan(0);
    await expect.poll(screenPower, { timeout: 30_000, interval: 250 }).toBe('standby');
    const standbyReportedMs = performance.now() - startedMs;

    const onsBefore = await tvHeard('IMAGE_VIEW_ON');
    startedMs = performance.now();
    const on = await api('/screen/on');
    const onAnswerMs = performance.now() - startedMs;
    expect(on.status).toBe(200);
    expect(await tvHeard('IMAGE_VIEW_ON')).toBeGreaterThan(onsBefore);
    expect(await linesInBox('cat /root/tv.log', 'to all (4 to 15): ACTIVE_SOURCE')).toBeGreaterThan(0);
    await expect.poll(screenPower, { timeout: 30_000, interval: 250 }).toBe('on');
    const onReportedMs = performance.now() - startedMs;
    figures['CEC round trip (answer / power reported)'] = `standby ${Math.round(standbyAnswerMs)} ms / ${(standbyReportedMs / 1000).toFixed(1)} s, on ${Math.round(onAnswerMs)} ms / ${(onReportedMs / 1000).toFixed(1)} s`;

    await inBox('pkill cec-follower; cp -p /root/config.installed.json /etc/showclock/config.json && systemctl restart showclock.service');
    await healthzAfter(120_000);
  });

  it('a hung kernel (crashed, with no reboot on panic) is restarted by the hardware watchdog, and the show comes back', async () => {
    expect(await inBox('systemctl show -p RuntimeWatchdogUSec --value')).toBe('14s');
    expect(await linesInBox('journalctl -b --no-pager -o cat', 'Using hardware watchdog')).toBeGreaterThan(0);
    const bootId = await inBox('cat /proc/sys/kernel/random/boot_id');
    const before = await state();
    // kernel.panic=0: after the crash the kernel stops for good, as a hung one does; only the
    // watchdog's hardware can start the machine again. The ssh session ends before the crash.
    await inBox('(sysctl -q kernel.panic=0 && sleep 2 && echo c > /proc/sysrq-trigger) < /dev/null > /dev/null 2>&1 &');
    const crashedMs = performance.now();
    await sleep(5_000);
    await healthzAfter(300_000);
    figures['kernel hang to /healthz, by the hardware watchdog'] = `${Math.round((performance.now() - crashedMs) / 1000)} s`;
    expect(await inBox('cat /proc/sys/kernel/random/boot_id')).not.toBe(bootId);
    expect(readFileSync(path.join(BOX_DIR, 'console.log'), 'utf8')).toContain('sysrq triggered crash');
    expect((await state()).timers.map((t) => t.id)).toEqual(before.timers.map((t) => t.id));
    await expectWorkingBox('after the hardware watchdog');
    await untilScreenShows(shown((await state()).remaining), 'after-hardware-watchdog', 180_000);
  });

  it('install.sh a second time changes nothing; --uninstall leaves no unit behind', async () => {
    const pid = await inBox('systemctl show -p MainPID --value showclock.service');
    const again = await inBox('cd /root/showclock-*/ && ./install.sh 2>&1');
    expect(again).not.toMatch(/wrote|installing|restarted|created|enabled/);
    expect(await inBox('systemctl show -p MainPID --value showclock.service')).toBe(pid);
    await inBox('cd /root/showclock-*/ && ./install.sh --uninstall');
    expect(await linesInBox('ls /etc/systemd/system', 'showclock')).toBe(0);
    expect(await inBox('systemctl list-units --all --no-legend --plain "showclock*" | wc -l')).toBe('0');
    expect(readFileSync(path.join(BOX_DIR, 'machine.env'), 'utf8')).toContain('BASE=');
  });

  it(`power cuts during install.sh itself (${INSTALL_ROUNDS} rounds, from its start to past its end): run again it finishes and the box works; once it said "installed", the box works without it and keeps the keys it printed`, async () => {
    const installMs = Number(readFileSync(path.join(BOX_DIR, 'install-seconds'), 'utf8')) * 1000;
    const outcomes: string[] = [];
    for (let round = 0; round < INSTALL_ROUNDS; round += 1) {
      countPanics();
      await box('build', '--no-install');
      const install = streamInBox('cd /root/showclock-*/ && ./install.sh 2>&1');
      // Spread over the whole run and a little past it, where "installed" was already said.
      const cutAtMs = Math.floor(((round + Math.random()) / INSTALL_ROUNDS) * installMs * 1.15);
      await sleep(cutAtMs);
      await box('cut');
      await install.done;
      const said = install.output();
      // A whole line only: the cut can fall between "installed" and the links, or inside a line.
      const printedKey = /^Control room: \S*\/control\/([A-Za-z0-9_-]+)\r?\n/m.exec(said)?.[1];
      const booted = await upIfInstalled();
      const when = `install round ${round + 1}, cut at ${(cutAtMs / 1000).toFixed(1)} s`;
      if (said.includes('showclock: installed.')) {
        expect(booted, `${when}: it had said "installed"`).not.toBeNull();
        if (booted !== null) machine = booted;
        // The links come a few seconds after "installed" (node starts slowly here); a cut in
        // between leaves no key printed to keep, and the box must still work below.
        if (printedKey !== undefined) expect(machine.apiKey, when).toBe(printedKey);
        outcomes.push(`${(cutAtMs / 1000).toFixed(0)} s: after "installed"${printedKey === undefined ? ' (before the links)' : ''}, nothing to redo`);
      } else {
        const again = await inBox('cd /root/showclock-*/ && ./install.sh 2>&1; echo "exit $?"');
        expect(again, when).toMatch(/showclock: installed\.[\s\S]*exit 0$/);
        machine = await up();
        outcomes.push(`${(cutAtMs / 1000).toFixed(0)} s: ${booted === null ? 'not yet enabled' : 'enabled, ran'}, install.sh again finished`);
      }
      await expectWorkingBox(when);
      expect(await inBox('node -e "require(\'/opt/showclock/node_modules/onoff\'); console.log(\'loads\')"'), `${when}: onoff`).toBe('loads');
    }
    figures['cuts during install.sh'] = outcomes.join('; ');
  });
});
