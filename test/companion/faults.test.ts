// The packaged module, started the way Companion starts it (companion-ipc.ts),
// against the real service, under the faults a show has:
// - a frozen link (FreezingProxy holds every byte both ways, then delivers it):
//   shown as lost within 5 s, every press made meanwhile answered to Companion
//   before its own 5 s limit, and none of them applied by the box after the
//   link returns (the one that was on the wire arrives then, and is refused);
// - a box down 40 s (a reboot): connected again within 5 s of answering, with
//   the room on the keys as the box has it.
// The figures are printed and written to test-artifacts/companion-faults.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { CompanionHost, COMPANION_CALL_TIMEOUT_MS } from './companion-ipc.js';
import { waitFor } from './fake-host.js';
import { FreezingProxy } from './freezing-proxy.js';
import { command, serverState } from './live-box.js';
import { packagedModule, type PackagedModule } from './packaged-module.js';

const ARTIFACTS = path.resolve('test-artifacts');
const figures: Record<string, number> = {};

const dirs: string[] = [];
const hosts: CompanionHost[] = [];
let services: ServiceProcess[] = [];
let proxies: FreezingProxy[] = [];
let packaged: PackagedModule;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-faults-'));
  dirs.push(dir);
  return dir;
}

async function service(dir: string, port = '0'): Promise<ServiceProcess> {
  // A generous quota: the module's reconnects and the test's own reads must not meet the rate limit here.
  const started = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_RATE_LIMIT: '10000', PORT: port }));
  services.push(started);
  return started;
}

/** The module as Companion runs it, configured for `port`; resolves once it says it is connected. */
async function companionOn(port: number): Promise<CompanionHost> {
  const companion = new CompanionHost(packaged.mainJs, packaged.manifest);
  hosts.push(companion);
  await waitFor(() => companion.callsNamed('register').length > 0, 15_000, `the module to register; output: ${companion.output.join('')}`);
  await companion.call('init', {
    label: 'showclock',
    isFirstInit: false,
    config: { host: '127.0.0.1', port },
    secrets: { apiKey: TEST_API_KEY },
    lastUpgradeIndex: -1,
    feedbacks: {},
    actions: {},
  });
  await statusAfter(companion, 'ok', 0, 10_000);
  return companion;
}

/** When the module first reported `status` after `since` (performance.now()). */
async function statusAfter(companion: CompanionHost, status: string, since: number, timeoutMs: number): Promise<number> {
  const find = () => companion.timedCallsNamed('set-status').find((c) => c.at > since && (c.payload as { status: string }).status === status);
  await waitFor(() => find() !== undefined, timeoutMs, `status ${status}; output: ${companion.output.join('')}`);
  return (find() as { at: number }).at;
}

/** The variables as Companion holds them: every setVariableValues applied in turn. */
function variablesOf(companion: CompanionHost): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const p of companion.callsNamed('setVariableValues')) for (const v of (p as { newValues: { id: string; value: unknown }[] }).newValues) values[v.id] = v.value;
  return values;
}

function moduleLogs(companion: CompanionHost): string[] {
  return companion.callsNamed('log-message').map((p) => (p as { message: string }).message);
}

interface PressResult {
  readonly ms: number;
  readonly error: string | null;
}

/** A key press as Companion sends it: executeAction, given up by Companion after 5 s. */
async function press(companion: CompanionHost, actionId: string, options: Record<string, unknown>): Promise<PressResult> {
  const startedAt = performance.now();
  try {
    await companion.call('executeAction', {
      action: { id: `press-${startedAt}`, controlId: 'bank:1', actionId, options, upgradeIndex: null, disabled: false },
      surfaceId: undefined,
    });
    return { ms: performance.now() - startedAt, error: null };
  } catch (error) {
    return { ms: performance.now() - startedAt, error: error instanceof Error ? error.message : String(error) };
  }
}

beforeAll(async () => {
  ensureBundle();
  packaged = await packagedModule();
}, 180_000);

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop();
  for (const p of proxies) await p.close();
  proxies = [];
  for (const s of services) await stopService(s);
  services = [];
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, 'companion-faults.json'), `${JSON.stringify(figures, null, 2)}\n`);
  console.info(`companion faults: ${JSON.stringify(figures)}`);
});

describe('the packaged module under a frozen link', () => {
  it('shows the link lost within 5 s, answers every press before Companion gives up, and no press reaches the box late', async () => {
    const box = await service(dataDir());
    const proxy = await FreezingProxy.start(box.port);
    proxies.push(proxy);
    const companion = await companionOn(proxy.port);
    const before = await serverState(box);
    // Idle for longer than the module's fetch keeps a connection (4 s): the press below opens a new one, as a
    // press seconds after the last request does in a show. On a kept connection the box, whose keep-alive ends
    // after 5 s, would close it during the freeze and the held press would never reach it at all.
    await sleep(6_000);

    const frozenAt = performance.now();
    proxy.freeze();
    // Pressed before the module can know: sent, and held on the frozen link.
    await sleep(300);
    const onTheWire = press(companion, 'blackout', { mode: 'toggle' });
    const lostAt = await statusAfter(companion, 'connection_failure', frozenAt, 10_000);
    // Pressed once the link is known lost: dropped at once.
    const whileLost = [await press(companion, 'blackout', { mode: 'toggle' }), await press(companion, 'onair', { mode: 'toggle' }), await press(companion, 'start', {})];
    const results = [await onTheWire, ...whileLost];
    for (const r of results) {
      expect(r.error).toBeNull();
      expect(r.ms).toBeLessThan(COMPANION_CALL_TIMEOUT_MS);
    }
    expect(results[0]?.ms).toBeGreaterThan(3_500);
    for (const r of whileLost) expect(r.ms).toBeLessThan(500);
    const logs = moduleLogs(companion);
    expect(logs.filter((m) => m.includes('"toggle_blackout" got no answer') && m.includes('was dropped'))).toHaveLength(1);
    expect(logs.filter((m) => m.includes('dropped: not sent, not connected'))).toHaveLength(3);

    // The link comes back much later, as in the show that found this (about 38 s); what it held arrives now.
    await sleep(Math.max(0, frozenAt + 12_000 - performance.now()));
    const thawAt = performance.now();
    proxy.thaw();
    const backAt = await statusAfter(companion, 'ok', thawAt, 10_000);
    // The press that was on the wire reached the box, which refused it: it arrived after its deadline.
    const refused = await box.waitForLog((line) => line.msg === 'request' && line.status === 412 && String(line.route).endsWith('/toggle_blackout'), 5_000);
    expect(refused.method).toBe('POST');
    await sleep(1_000);
    const after = await serverState(box);
    const appliedLate = [after.blackout !== before.blackout, after.onAir !== before.onAir, after.running !== before.running].filter(Boolean).length;
    expect(appliedLate).toBe(0);
    expect(after.seq).toBe(before.seq);
    expect(variablesOf(companion)).toMatchObject({ connection: 'connected', blackout: before.blackout, onair: before.onAir });

    figures.frozenLinkToDisconnectedMs = Math.round(lostAt - frozenAt);
    figures.thawToConnectedMs = Math.round(backAt - thawAt);
    figures.pressOnTheWireAnsweredMs = Math.round(results[0]?.ms ?? -1);
    figures.pressesAppliedLate = appliedLate;
    expect(lostAt - frozenAt).toBeLessThanOrEqual(5_000);
  }, 60_000);
});

describe('the packaged module and a box down 40 s', () => {
  it('is connected again within 5 s of the box answering, with the room as the box has it', async () => {
    const dir = dataDir();
    let box = await service(dir);
    const port = box.port;
    const companion = await companionOn(port);
    await command(box, '/onair', { on: '1' });
    await waitFor(() => variablesOf(companion).onair === true, 5_000, 'ON AIR on the keys');

    const downAt = performance.now();
    box.child.kill('SIGTERM');
    await box.exited;
    await statusAfter(companion, 'connection_failure', downAt, 10_000);
    await sleep(Math.max(0, downAt + 40_000 - performance.now()));

    box = await service(dir, String(port));
    const answeringAt = performance.now();
    // Changed on the box before the module is back: the keys must show it, not what they held.
    await command(box, '/message/set', { text: 'Back after the reboot' });
    const connectedAt = await statusAfter(companion, 'ok', answeringAt, 10_000);
    await waitFor(() => variablesOf(companion).message_text === 'Back after the reboot', 2_000, 'the message on the keys');
    expect(variablesOf(companion)).toMatchObject({ connection: 'connected', onair: true });
    const pressed = await press(companion, 'onair', { mode: 'off' });
    expect(pressed.error).toBeNull();
    expect((await serverState(box)).onAir).toBe(false);

    figures.boxBackToConnectedMs = Math.round(connectedAt - answeringAt);
    expect(connectedAt - answeringAt).toBeLessThanOrEqual(5_000);
  }, 90_000);
});
