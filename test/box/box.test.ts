// The box, booted (issue 27): a Debian 13 virtual machine made by
// scripts/box-vm.sh, with the release installed by install.sh inside it, real
// systemd and kernel, the kiosk on a virtual HDMI screen. One machine for the
// whole file, its checks in order, each timed; the figures are printed.
// Run with `npm run test:box` (root, mmdebstrap, qemu-system-x86, tesseract-ocr;
// .ci/run installs them). The screen is read with tesseract: the digits it shows
// are compared with the state the API gives.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const run = promisify(execFile);
const CUT_ROUNDS = Number(process.env.SHOWCLOCK_BOX_CUTS ?? 10);
const FIRST_START_ROUNDS = Number(process.env.SHOWCLOCK_BOX_FIRST_START_CUTS ?? 4);
const INSTALL_ROUNDS = Number(process.env.SHOWCLOCK_BOX_INSTALL_CUTS ?? 3);
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
      panics += readFileSync(path.join(ROOT, '.box', name), 'utf8').split('Kernel panic - not syncing').length - 1;
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

let shotCount = 0;
/** The text tesseract reads on the virtual screen now. */
async function screenText(name: string): Promise<string> {
  shotCount += 1;
  const file = path.join(shots, `${String(shotCount).padStart(3, '0')}-${name}.png`);
  await box('shot', file);
  const { stdout } = await run('tesseract', [file, '-', '--psm', '11'], { timeout: 60_000 });
  return stdout;
}

/** Polls the screen until its text has `wanted`; the milliseconds it took. */
async function untilScreenShows(wanted: string, name: string, timeoutMs: number): Promise<number> {
  const startedMs = performance.now();
  let last = '';
  while (performance.now() - startedMs < timeoutMs) {
    last = await screenText(name);
    if (last.replace(/\s+/g, ' ').includes(wanted)) return performance.now() - startedMs;
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

describe.skipIf(missing !== null)('the box, booted in a virtual machine', () => {
  beforeAll(async () => {
    let startedMs = performance.now();
    await box('build');
    figures.build = `${Math.round((performance.now() - startedMs) / 1000)} s`;
    figures['install.sh in the machine'] = `${readFileSync(path.join(ROOT, '.box/install-seconds'), 'utf8').trim()} s`;
    const packed = readdirSync(path.join(ROOT, '.box/release')).find((name) => name.endsWith('.tar.gz'));
    if (packed === undefined) throw new Error('build left no release in .box/release');
    releaseTarball = path.join(shots, packed);
    copyFileSync(path.join(ROOT, '.box/release', packed), releaseTarball);
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
    expect(await inBox('journalctl -b -u showclock.service --no-pager -o cat | grep -c "listening; to print the control-room URL, run \\`sudo showclock key\\`" || true')).not.toBe('0');
    expect(machine.apiKey).not.toBe('');
    expect(await inBox(`journalctl -b --no-pager -o cat | grep -cF "${machine.apiKey}" || true`)).toBe('0');
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
      const answered: string[] = [];
      let maxSeq = lastSeq;
      let cutting = false;
      const client = (async () => {
        for (let i = 0; !cutting; i += 1) {
          const label = `round ${round} edit ${i}`;
          try {
            const result = await api('/timers', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label, duration: 60_000 }) });
            if (result.status === 201 && !cutting) answered.push(label);
            // Keep the running order within its 100 timers: the oldest of this test's go.
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
      machine = await up();
      const after = await state();
      const labels = new Set(after.timers.map((t) => t.label));
      for (const label of answered) expect(labels.has(label), `round ${round}: "${label}" was answered 201`).toBe(true);
      expect(after.seq, `round ${round}`).toBeGreaterThan(maxSeq);
      expect(await inBox('node -e "JSON.parse(require(\'fs\').readFileSync(\'/var/lib/showclock/room.json\',\'utf8\')); console.log(\'valid\')"')).toBe('valid');
      acknowledged += answered.length;
      lastSeq = after.seq;
      // Room for the next rounds: this round's timers go, in one request each, after the check.
      for (const timer of after.timers.filter((t) => t.label.startsWith('round '))) await api(`/timer/${timer.id}/delete`);
    }
    figures['power cuts'] = `${CUT_ROUNDS} rounds, ${acknowledged} creates answered 201, 0 lost`;
    await untilScreenShows(shown((await state()).remaining), 'after-cuts', 180_000);
    expect(await inBox('systemctl is-active showclock-kiosk.service')).toBe('active');
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
    const timeouts = await inBox('journalctl --no-pager -u showclock.service | grep "Watchdog timeout" || true');
    figures['watchdog restarts before the hang'] = String(timeouts === '' ? 0 : timeouts.split('\n').length);
    expect(timeouts).toBe('');
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
    expect(await inBox('journalctl -u showclock.service --no-pager | grep -c "Watchdog timeout" || true')).not.toBe('0');
    await untilScreenShows(shown((await state()).remaining), 'after-watchdog', 180_000);
  });

  it('install.sh a second time changes nothing; --uninstall leaves no unit behind', async () => {
    const pid = await inBox('systemctl show -p MainPID --value showclock.service');
    const again = await inBox('cd /root/showclock-*/ && ./install.sh 2>&1');
    expect(again).not.toMatch(/wrote|installing|restarted|created|enabled/);
    expect(await inBox('systemctl show -p MainPID --value showclock.service')).toBe(pid);
    await inBox('cd /root/showclock-*/ && ./install.sh --uninstall');
    expect(await inBox('ls /etc/systemd/system | grep -c showclock || true')).toBe('0');
    expect(await inBox('systemctl list-units --all --no-legend --plain "showclock*" | wc -l')).toBe('0');
    expect(readFileSync(path.join(ROOT, '.box', 'machine.env'), 'utf8')).toContain('BASE=');
  });

  it(`power cuts during install.sh itself (${INSTALL_ROUNDS} rounds, from its start to past its end): run again it finishes and the box works; once it said "installed", the box works without it and keeps the keys it printed`, async () => {
    const installMs = Number(readFileSync(path.join(ROOT, '.box/install-seconds'), 'utf8')) * 1000;
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
