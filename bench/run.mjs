// `npm run bench`: builds the bundle, runs it as a separate process on
// 127.0.0.1 with the rate limit lifted, measures every figure of the budget
// tables (issue 6; issue 17's as ratios to floor servers run interleaved with
// it) several times, prints a table, writes JSON and, in a full run, the
// results section of BENCHMARKS.md. BENCHMARKS.md explains the method.
//
//   npm run bench                      full run (about 10 minutes); exits 1 if a budget is missed
//   npm run bench -- --quick           a few seconds per figure, small counts, nothing judged (CI)
//   npm run bench -- --only=start,load phases: build, start, idle, kiosk, load
//   npm run bench -- --wait-quiet=1.5  first wait (up to 30 min) for the 1-minute load average to drop below 1.5
//   npm run bench -- --runs=N         N runs of each figure (start: at least 3) in place of 3
//   npm run bench -- --node-flags="--max-semi-space-size=1"  an experiment: other flags than a box's (nothing judged, BENCHMARKS.md untouched)
//   npm run bench -- --set=growthRounds=4      change any count of the plan (see FULL below; nothing judged)
//   npm run bench -- --out=FILE        JSON elsewhere (default bench/results/latest.json, quick.json when --quick)
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { buildServer } from '../scripts/build.mjs';
import { FIGURES } from './lib/figures.mjs';
import { openKiosk, CHROMIUM } from './lib/kiosk.mjs';
import { cannon, checkClean } from './lib/load.mjs';
import { cpuMs, memoryKb } from './lib/proc.mjs';
import { figureRows, markdownTable, textTable, updateMarkdown, writeJson } from './lib/report.mjs';
import { getJson, postJson, timeInSeries } from './lib/series-client.mjs';
import { BUNDLE, BUNDLE_FILES, NODE_FLAGS, ROOT, freePort, killAll, spawnService, startService, unitNodeEnvironment, unitNodeFlags, useNodeFlags, waitHealthy } from './lib/service.mjs';
import { NODE_ENVIRONMENT } from '../scripts/node-flags.mjs';
import { openStreams } from './lib/sse-clients.mjs';
import { percentile } from './lib/stats.mjs';
import { option } from './lib/options.mjs';

const FULL = {
  startRuns: 7,
  idleRuns: 3,
  idleWaitMs: 30_000,
  cpuWindowMs: 60_000,
  settleMs: 5_000,
  loadRuns: 3,
  warmupSec: 2,
  throughputSec: 10,
  // 10,000: over 2,000 the window held the JIT's last optimisations and CPU counts in
  // 10 ms ticks (5 µs a command), and single pairs with the floor ranged 1.07x-1.43x;
  // over 10,000 they agree within 1.26x-1.38x (BENCHMARKS.md, "How each figure is measured").
  seriesCount: 10_000,
  fanoutClients: 500,
  fanoutChanges: 100,
  growthRounds: 10,
  growthRequests: 20_000,
  growthClients: 500,
  /** 1: each load run of the service is followed by one of the node:http floor (A B A B); 0: none. */
  floorLoadRuns: 1,
};
/** Proves every phase still works; the figures mean little. */
const QUICK = {
  startRuns: 2,
  idleRuns: 1,
  idleWaitMs: 3_000,
  cpuWindowMs: 3_000,
  settleMs: 1_000,
  loadRuns: 1,
  warmupSec: 0.5,
  throughputSec: 1,
  seriesCount: 100,
  fanoutClients: 50,
  fanoutChanges: 10,
  growthRounds: 3,
  growthRequests: 1_000,
  growthClients: 50,
  floorLoadRuns: 1,
};
const PHASES = ['build', 'start', 'idle', 'kiosk', 'load'];
const FLOOR_SERVER = path.join(ROOT, 'bench/lib/floor-server.mjs');
const HONO_FLOOR_SOURCE = path.join(ROOT, 'bench/lib/hono-floor-server.mjs');
/** Where the floor's load-run figures go (null: not kept). */
const REFERENCE_IDS = {
  stateRps: 'nodeFloorStateRps',
  stateP99Ms: null,
  stateCpuUs: 'nodeFloorStateCpuUs',
  cmdCpuUs: 'nodeFloorCmdCpuUs',
  adjustCmdP50Ms: 'nodeFloorAdjustP50Ms',
  adjustCmdP99Ms: 'nodeFloorAdjustP99Ms',
  fanoutP99Ms: 'nodeFloorFanoutP99Ms',
  fanoutLastP50Ms: 'nodeFloorFanoutLastP50Ms',
  fanoutFirstP50Ms: 'nodeFloorFanoutFirstP50Ms',
  fanoutCpuMs: 'nodeFloorFanoutCpuMs',
  rssGrowthMb: 'nodeFloorGrowthMb',
  rssPeakMb: 'nodeFloorPeakMb',
};

/**
 * The judged figures of issue 17, one per interleaved pair (a service run and
 * the floor's run next to it), so each compares what ran under the same load
 * of the machine. Made from the absolute samples once every phase has run.
 */
function derivePairs() {
  const each = (id, a, b, op) => {
    const xs = samples[a] ?? [];
    const ys = samples[b] ?? [];
    for (let i = 0; i < Math.min(xs.length, ys.length); i++) samples[id].push(op(xs[i], ys[i]));
  };
  const ratio = (x, y) => x / y;
  each('fanoutLastRatio', 'fanoutLastP50Ms', 'nodeFloorFanoutLastP50Ms', ratio);
  each('fanoutCpuRatio', 'fanoutCpuMs', 'nodeFloorFanoutCpuMs', ratio);
  each('fanoutFirstRatio', 'fanoutFirstP50Ms', 'nodeFloorFanoutFirstP50Ms', ratio);
  each('stateCpuRatio', 'stateCpuUs', 'nodeFloorStateCpuUs', ratio);
  each('cmdCpuRatio', 'cmdCpuUs', 'nodeFloorCmdCpuUs', ratio);
  each('cmdP99Ratio', 'adjustCmdP99Ms', 'nodeFloorAdjustP99Ms', ratio);
  each('rssPeakRatio', 'rssPeakMb', 'nodeFloorPeakMb', ratio);
  each('startCpuOverMs', 'startCpuMs', 'honoFloorStartCpuMs', (x, y) => x - y);
  // The idle services started together with one hono floor: each is compared with it.
  const honoAnon = samples.honoFloorAnonMb[0];
  if (honoAnon !== undefined) for (const anon of samples.anonIdleMb) samples.anonIdleOverMb.push(anon - honoAnon);
}

const quick = option('quick') !== undefined;
const runsOption = option('runs');
const plan = { ...(quick ? QUICK : FULL), ...(runsOption ? { startRuns: Math.max(3, Number(runsOption)), idleRuns: Number(runsOption), loadRuns: Number(runsOption) } : {}) };
// --set=growthRounds=4,throughputSec=3: any count of the plan, for trying things out.
for (const pair of (option('set') ?? '').split(',').filter((p) => p !== '')) {
  const [key = '', value = ''] = pair.split('=');
  if (!(key in plan)) throw new Error(`--set: unknown "${key}"; known: ${Object.keys(plan).join(', ')}`);
  plan[key] = Number(value);
}
const tweaked = runsOption !== undefined || option('set') !== undefined;
const only = option('only');
const phases = new Set(only === undefined || only === '' ? PHASES : only.split(','));
for (const p of phases) if (!PHASES.includes(p)) throw new Error(`unknown phase "${p}"; phases: ${PHASES.join(', ')}`);
const flagsOption = option('node-flags');
const experiment = flagsOption !== undefined || tweaked;
if (flagsOption !== undefined) useNodeFlags(flagsOption.split(/\s+/).filter((f) => f !== ''));
const outFile = path.resolve(option('out') || path.join(ROOT, 'bench/results', quick ? 'quick.json' : 'latest.json'));

/** @type {Record<string, number[]>} */
const samples = Object.fromEntries(FIGURES.map((f) => [f.id, []]));
/** Details per phase for the JSON (per-run breakdowns, round-by-round memory). */
const details = {};
const workDir = mkdtempSync(path.join(os.tmpdir(), 'showclock-bench-'));
let dirCount = 0;
const freshDir = (name) => {
  dirCount += 1;
  return mkdtempSync(path.join(workDir, `${name}-${dirCount}-`));
};
const logFile = (name) => path.join(workDir, `${name}.log`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb) => kb / 1024;
const say = (text) => process.stdout.write(`bench: ${text}\n`);
const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

function machine() {
  const cpus = os.cpus();
  let chromium = null;
  try {
    chromium = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Reported as null: the kiosk phase will say why it failed.
  }
  return {
    host: os.hostname(),
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryMb: Math.round(os.totalmem() / 1048576),
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    chromium,
  };
}

async function waitQuiet(limit) {
  const deadline = Date.now() + 30 * 60_000;
  while (os.loadavg()[0] >= limit && Date.now() < deadline) {
    say(`load average ${os.loadavg()[0].toFixed(2)} >= ${limit}: waiting`);
    await sleep(30_000);
  }
}

// ---------------------------------------------------------------- phases

function checkFlags() {
  if (flagsOption !== undefined) return;
  const unit = unitNodeFlags();
  const same = unit !== null && unit.join(' ') === NODE_FLAGS.join(' ');
  if (!same) {
    throw new Error(
      `systemd/showclock.service runs node with [${unit?.join(' ') ?? 'no ExecStart'}] but scripts/node-flags.mjs says [${NODE_FLAGS.join(' ')}]: the bench would not measure what a box runs`,
    );
  }
  const unitEnv = JSON.stringify(unitNodeEnvironment());
  if (unitEnv !== JSON.stringify(NODE_ENVIRONMENT)) {
    throw new Error(`systemd/showclock.service sets ${unitEnv} but scripts/node-flags.mjs says ${JSON.stringify(NODE_ENVIRONMENT)} (NODE_ENVIRONMENT): the bench would not measure what a box runs`);
  }
}

async function buildPhase() {
  say('building the bundle (npm run build)');
  await buildServer();
  samples.bundleKb.push(BUNDLE_FILES.reduce((sum, file) => sum + statSync(file).size, 0) / 1024);
}

/** The hono floor server, bundled and minified as the service is; built once per bench run. */
let honoFloorBundle = null;
async function honoFloor() {
  if (honoFloorBundle === null) {
    const outfile = path.join(workDir, 'hono-floor-server.mjs');
    await build({ entryPoints: [HONO_FLOOR_SOURCE], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', minify: true, logLevel: 'warning' });
    honoFloorBundle = outfile;
  }
  return [honoFloorBundle];
}

/** Start to first 200, the service and the reference servers in turn, on a saved data directory. */
async function startPhase() {
  const dataDir = freshDir('start');
  // The first start makes the room; a box starts from a saved one.
  const first = await startService({ dataDir, port: await freePort(), logFile: logFile('start') });
  await first.stop();
  const floorDir = freshDir('floor');
  for (let run = 0; run < plan.startRuns; run++) {
    const service = await startService({ dataDir, port: await freePort(), logFile: logFile('start') });
    samples.startMs.push(service.startMs);
    // CPU spent by then (all threads): less moved by other work on the machine than the wall time.
    samples.startCpuMs.push(cpuMs(service.pid));
    await service.stop();
    const floor = await startService({ dataDir: floorDir, port: await freePort(), logFile: logFile('floor'), script: [FLOOR_SERVER] });
    samples.nodeFloorStartMs.push(floor.startMs);
    samples.nodeFloorStartCpuMs.push(cpuMs(floor.pid));
    await floor.stop();
    const hono = await startService({ dataDir: floorDir, port: await freePort(), logFile: logFile('hono-floor'), script: await honoFloor() });
    samples.honoFloorStartMs.push(hono.startMs);
    samples.honoFloorStartCpuMs.push(cpuMs(hono.pid));
    await hono.stop();
  }
  details.start = { loadAverageAfter: loadAverage() };
  say(`start: ${samples.startMs.map((v) => v.toFixed(0)).join(', ')} ms`);
}

/**
 * Idle memory: the services and both references start together and are read
 * after the same wait. Returns the services, still running, for the kiosk phase.
 */
async function idlePhase() {
  // On a saved room, as a box boots (and as the start phase measures): a first start
  // makes it. A first start differs: it makes the room, and where the box's zone is not
  // in Intl's list of zones it reads it with a date formatter, which loads ICU and keeps
  // about 1.9 MB of it for the life of the process (src/app/box-time-zone.ts).
  const dataDirs = [];
  for (let run = 0; run < plan.idleRuns; run++) {
    const dataDir = freshDir('idle');
    await (await startService({ dataDir, port: await freePort(), logFile: logFile(`idle-${run}`) })).stop();
    dataDirs.push(dataDir);
  }
  const services = [];
  for (const [run, dataDir] of dataDirs.entries()) {
    services.push(spawnService({ dataDir, port: await freePort(), logFile: logFile(`idle-${run}`) }));
  }
  const bare = spawnService({ dataDir: freshDir('bare'), port: 0, logFile: logFile('bare'), script: ['-e', 'setInterval(() => {}, 1 << 30)'] });
  const floor = spawnService({ dataDir: freshDir('floor'), port: await freePort(), logFile: logFile('floor'), script: [FLOOR_SERVER] });
  const hono = spawnService({ dataDir: freshDir('hono-floor'), port: await freePort(), logFile: logFile('hono-floor'), script: await honoFloor() });
  for (const s of services) await waitHealthy(s, logFile('idle'));
  await waitHealthy(floor, logFile('floor'));
  await waitHealthy(hono, logFile('hono-floor'));
  say(`idle: waiting ${plan.idleWaitMs / 1000} s with ${services.length} services and 3 reference processes`);
  const readAt = (s) => sleep(Math.max(0, s.spawnedAt + plan.idleWaitMs - performance.now())).then(() => memoryKb(s.pid));
  const [serviceMem, bareMem, floorMem, honoMem] = await Promise.all([Promise.all(services.map(readAt)), readAt(bare), readAt(floor), readAt(hono)]);
  for (const m of serviceMem) {
    samples.rssIdleMb.push(mb(m.rss));
    // Private memory: what this process alone holds; the file-backed rest is mostly the node binary, shared.
    samples.anonIdleMb.push(mb(m.anon));
  }
  samples.nodeBareRssMb.push(mb(bareMem.rss));
  samples.nodeFloorRssMb.push(mb(floorMem.rss));
  samples.honoFloorRssMb.push(mb(honoMem.rss));
  samples.honoFloorAnonMb.push(mb(honoMem.anon));
  details.idle = { services: serviceMem, bareNode: bareMem, floorServer: floorMem, honoFloorServer: honoMem, unit: 'kB' };
  await bare.stop();
  await floor.stop();
  await hono.stop();
  say(
    `idle RSS: ${samples.rssIdleMb.map((v) => v.toFixed(1)).join(', ')} MB ` +
      `(bare node ${mb(bareMem.rss).toFixed(1)}, node:http floor ${mb(floorMem.rss).toFixed(1)}, hono floor ${mb(honoMem.rss).toFixed(1)}); ` +
      `RssAnon ${samples.anonIdleMb.map((v) => v.toFixed(2)).join(', ')} MiB (hono floor ${mb(honoMem.anon).toFixed(2)})`,
  );
  return services;
}

/** A running timer, the kiosk page on /display, and both processes' CPU over the window. */
async function kioskPhase(services) {
  details.kiosk = [];
  for (const service of services) {
    const agent = new http.Agent({ keepAlive: true });
    const started = await getJson(agent, service.port, `${service.api}/start`);
    agent.destroy();
    if (started.status !== 200 || started.body.state.running !== true) throw new Error(`/start answered ${started.status}`);
    const kiosk = await openKiosk(`${service.base}/display`, services.map((s) => s.pid));
    try {
      await sleep(plan.settleMs);
      const shownBefore = await kiosk.shownTime();
      const browserCpu = kiosk.trackCpu();
      const serviceBefore = cpuMs(service.pid);
      const t0 = performance.now();
      await sleep(plan.cpuWindowMs);
      const serviceUsed = cpuMs(service.pid) - serviceBefore;
      const windowMs = performance.now() - t0;
      const browserUsed = browserCpu.stop();
      const shownAfter = await kiosk.shownTime();
      // A page that stopped counting would measure nothing: it must have moved on.
      if (shownAfter === shownBefore) throw new Error(`the display page showed "${shownAfter}" all through the window`);
      samples.serviceCpuPct.push((serviceUsed / windowMs) * 100);
      samples.kioskCpuPct.push((browserUsed.rendererMs / windowMs) * 100);
      samples.chromiumCpuPct.push((browserUsed.browserMs / windowMs) * 100);
      samples.displayKb.push(kiosk.pageBytes() / 1024);
      details.kiosk.push({ loadAverage: loadAverage(), windowMs, serviceCpuMs: serviceUsed, browser: browserUsed.processes, transfers: kiosk.transfers, shown: [shownBefore, shownAfter] });
    } finally {
      await kiosk.close();
      await service.stop();
    }
  }
  say(`service CPU: ${samples.serviceCpuPct.map((v) => v.toFixed(3)).join(', ')} %; kiosk renderer: ${samples.kioskCpuPct.map((v) => v.toFixed(3)).join(', ')} %`);
}

/**
 * Throughput, commands in series, fan-out and the memory rounds, on one service
 * per run. The reference run puts the node:http floor server through the same
 * load right after it (its /adjust in series stands for every command: its
 * /start has no room to change). CPU is read from /proc around each part.
 */
async function loadRun(run, reference = false) {
  const name = reference ? 'floor-load' : `load-${run}`;
  const service = await startService({
    dataDir: freshDir(name),
    port: await freePort(),
    logFile: logFile(name),
    // The floor answers and pushes the service's own snapshot (same fields, same size), taken below.
    ...(reference ? { script: [FLOOR_SERVER], env: existsSync(floorSnapshotFile()) ? { FLOOR_SNAPSHOT: floorSnapshotFile() } : {} } : {}),
  });
  const detail = { run, reference, loadAverageBefore: loadAverage() };
  const put = (id, value) => samples[reference ? REFERENCE_IDS[id] : id]?.push(value);
  try {
    const url = service.base;
    const statePath = `${service.api}/state`;
    if (!reference) {
      // What the floor run beside this one serialises and pushes: this service's snapshot.
      const agent = new http.Agent({ keepAlive: false });
      const answer = await getJson(agent, service.port, statePath);
      agent.destroy();
      writeFileSync(floorSnapshotFile(), JSON.stringify(answer.body.state));
      detail.snapshotBytes = Buffer.byteLength(JSON.stringify(answer.body.state));
    }

    await cannon({ url: `${url}${statePath}`, connections: 10, duration: plan.warmupSec });
    const stateCpu0 = cpuMs(service.pid);
    const throughput = await cannon({ url: `${url}${statePath}`, connections: 10, duration: plan.throughputSec });
    const stateCpu = cpuMs(service.pid) - stateCpu0;
    checkClean('GET /state', throughput);
    put('stateRps', throughput.requests.average);
    put('stateCpuUs', (stateCpu * 1000) / throughput.requests.total);
    put('stateP99Ms', throughput.latency.p99);
    detail.state = { requests: throughput.requests.total, average: throughput.requests.average, latency: throughput.latency };

    const adjustPaths = [`${service.api}/adjust?ms=1000`, `${service.api}/adjust?ms=-1000`];
    let starts = [];
    if (!reference) {
      // Every /start really starts (a /pause in between), every /adjust really changes the room.
      await timeInSeries(service.port, [`${service.api}/start`, `${service.api}/pause`], 100);
      const transport = await timeInSeries(service.port, [`${service.api}/start`, `${service.api}/pause`], plan.seriesCount);
      starts = transport.filter((t) => t.path.endsWith('/start')).map((t) => t.ms);
      put('startCmdP50Ms', percentile(starts, 50));
    }
    // The same 100 /adjust before the timed ones for both (until 24 November only the floor had them,
    // so the service's first /adjust compiled its own code inside the timed window).
    await timeInSeries(service.port, adjustPaths, 100);
    const seriesCpu0 = cpuMs(service.pid);
    const adjusts = (await timeInSeries(service.port, adjustPaths, plan.seriesCount)).map((t) => t.ms);
    put('cmdCpuUs', ((cpuMs(service.pid) - seriesCpu0) * 1000) / adjusts.length);
    put('adjustCmdP50Ms', percentile(adjusts, 50));
    put('adjustCmdP99Ms', percentile(adjusts, 99));
    detail.series = {
      ...(reference ? {} : { start: { count: starts.length, p50: percentile(starts, 50), p90: percentile(starts, 90), p99: percentile(starts, 99) } }),
      adjust: { count: adjusts.length, p50: percentile(adjusts, 50), p90: percentile(adjusts, 90), p99: percentile(adjusts, 99) },
    };

    detail.fanout = await fanout(service);
    put('fanoutP99Ms', detail.fanout.lastP99);
    put('fanoutLastP50Ms', detail.fanout.lastP50);
    put('fanoutFirstP50Ms', detail.fanout.firstP50);
    put('fanoutCpuMs', detail.fanout.cpuMsPerChange);

    detail.rounds = await memoryRounds(service);
    const settled = detail.rounds.filter((r) => r.settled !== undefined).map((r) => r.settled.rssKb);
    put('rssGrowthMb', mb((settled[settled.length - 1] ?? Number.NaN) - (settled[0] ?? Number.NaN)));
    detail.peakKb = memoryKb(service.pid).hwm;
    put('rssPeakMb', mb(detail.peakKb));
    // Last: it fills the room, which the figures above are not about.
    if (!reference) {
      detail.largestRoom = await largestRoom(service);
      put('largestFanoutP99Ms', detail.largestRoom.largest.lastP99);
      put('largestBlockMaxMs', detail.largestRoom.largest.blockMax);
      put('usualBlockMaxMs', detail.largestRoom.usual.blockMax);
      put('largestStateKb', detail.largestRoom.stateKb);
    }
  } finally {
    await service.stop();
  }
  detail.loadAverageAfter = loadAverage();
  details.load ??= [];
  details.load.push(detail);
  const f = detail.fanout;
  say(
    `${reference ? 'reference (node:http floor) load' : `load run ${run + 1}`}: ${detail.state.average.toFixed(0)} req/s, p99 ${detail.state.latency.p99} ms; ` +
      `CPU ${(samples[reference ? 'nodeFloorStateCpuUs' : 'stateCpuUs'].at(-1) ?? 0).toFixed(1)} µs/GET; ` +
      `${detail.series.start === undefined ? '' : `start p50 ${detail.series.start.p50.toFixed(3)} ms, `}adjust p50 ${detail.series.adjust.p50.toFixed(3)} p99 ${detail.series.adjust.p99.toFixed(3)} ms, ` +
      `${(samples[reference ? 'nodeFloorCmdCpuUs' : 'cmdCpuUs'].at(-1) ?? 0).toFixed(1)} µs CPU each; ` +
      `fan-out first p50 ${f.firstP50.toFixed(2)}, last p50 ${f.lastP50.toFixed(2)} p99 ${f.lastP99.toFixed(2)} ms, ${f.cpuMsPerChange.toFixed(2)} ms CPU/change; growth ${mb(detail.rounds.at(-1).settled.rssKb - detail.rounds[1].settled.rssKb).toFixed(2)} MB (settled); peak ${mb(detail.peakKb).toFixed(1)} MB`,
  );
}

/** The service's snapshot for the node:http floor (bench/lib/floor-server.mjs, FLOOR_SNAPSHOT). */
const floorSnapshotFile = () => path.join(workDir, 'floor-snapshot.json');

/** Changes sent before the timed ones, and kept apart in the JSON. */
const FANOUT_WARMUP = 10;

/** Changes one at a time, each timed from the request until the last stream has it. */
async function fanout(service) {
  // Console streams (the API-key budget, 500): the kiosk's budget is one browser's worth.
  const streams = await openStreams({ port: service.port, pathname: `${service.api}/events`, count: plan.fanoutClients });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const last = [];
  const first = [];
  const warmup = [];
  let discarded = 0;
  let cpu0 = 0;
  let cpuUsed = 0;
  try {
    for (let i = 0; i < plan.fanoutChanges + FANOUT_WARMUP; i++) {
      // Server CPU over the timed changes only (the pauses between them are idle).
      if (i === FANOUT_WARMUP) cpu0 = cpuMs(service.pid);
      const target = streams.seq + 1;
      const t0 = performance.now();
      const answer = getJson(agent, service.port, `${service.api}/adjust?ms=${i % 2 === 0 ? 1000 : -1000}`);
      const reached = await streams.waitFor(target);
      const { status, body } = await answer;
      if (status !== 200) throw new Error(`/adjust answered ${status}`);
      // The first ones warm up (the JIT has not seen a fan-out yet); one whose seq was
      // not the expected one (something else changed the room) is not timed.
      if (i < FANOUT_WARMUP) warmup.push(reached.last - t0);
      else if (body.state.seq === target) {
        last.push(reached.last - t0);
        first.push(reached.first - t0);
      } else {
        discarded += 1;
      }
      await sleep(10);
    }
    cpuUsed = cpuMs(service.pid) - cpu0;
  } finally {
    agent.destroy();
    streams.close();
  }
  await sleep(300);
  return {
    clients: plan.fanoutClients,
    changes: last.length,
    discarded,
    warmupLastMs: warmup,
    lastP50: percentile(last, 50),
    lastP99: percentile(last, 99),
    lastMax: Math.max(...last),
    firstP50: percentile(first, 50),
    cpuMsPerChange: cpuUsed / plan.fanoutChanges,
  };
}

/** Timers in the fullest room the service allows (src/domain/limits.ts MAX_TIMERS); checked below. */
const MAX_TIMERS = 100;

/**
 * The largest room: how long a change takes to reach the last stream, and the
 * longest any other request waits meanwhile (a /healthz sent every millisecond
 * or so on its own connection), for the usual one-timer room first and then for
 * a running order filled to the limit with every label and speaker at full
 * length. The second figure is what the event loop was held up by a fan-out.
 */
async function largestRoom(service) {
  const measure = async (changes) => {
    const streams = await openStreams({ port: service.port, pathname: `${service.api}/events`, count: plan.fanoutClients });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const last = [];
    const blocks = [];
    try {
      for (let i = 0; i < changes + FANOUT_WARMUP; i++) {
        let probing = true;
        let longest = 0;
        const probe = (async () => {
          while (probing) {
            const p0 = performance.now();
            await getJson(probeAgent, service.port, '/healthz');
            longest = Math.max(longest, performance.now() - p0);
          }
        })();
        await sleep(5);
        const target = streams.seq + 1;
        const t0 = performance.now();
        const answer = getJson(agent, service.port, `${service.api}/adjust?ms=${i % 2 === 0 ? 1000 : -1000}`);
        const reached = await streams.waitFor(target);
        if ((await answer).status !== 200) throw new Error('/adjust did not answer 200');
        await sleep(5);
        probing = false;
        await probe;
        if (i >= FANOUT_WARMUP) {
          last.push(reached.last - t0);
          blocks.push(longest);
        }
      }
    } finally {
      agent.destroy();
      probeAgent.destroy();
      streams.close();
    }
    await sleep(300);
    return { lastP50: percentile(last, 50), lastP99: percentile(last, 99), blockP50: percentile(blocks, 50), blockMax: Math.max(...blocks) };
  };
  const changes = Math.max(5, Math.round(plan.fanoutChanges / 4));
  const usual = await measure(changes);
  // Full-length text in 4-byte characters: the most bytes the limits allow.
  const text = '🎤'.repeat(200);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (;;) {
      const created = await postJson(agent, service.port, `${service.api}/timers`, { label: text, speaker: text });
      if (created.status === 400 && /running order is full/.test(created.body.error)) break;
      if (created.status !== 201) throw new Error(`POST /timers answered ${created.status}: ${JSON.stringify(created.body)}`);
    }
    const state = await getJson(agent, service.port, `${service.api}/state`);
    if (state.body.state.timers.length !== MAX_TIMERS) throw new Error(`the full room holds ${state.body.state.timers.length} timers, the bench expects ${MAX_TIMERS}`);
  } finally {
    agent.destroy();
  }
  const stateKb = Buffer.byteLength(JSON.stringify((await (await fetch(`${service.base}${service.api}/state`)).json()).state)) / 1024;
  const largest = await measure(changes);
  say(
    `largest room (${MAX_TIMERS} timers, snapshot ${stateKb.toFixed(0)} KB): change to the last of ${plan.fanoutClients} streams p99 ${largest.lastP99.toFixed(1)} ms ` +
      `(usual room ${usual.lastP99.toFixed(1)} ms); longest wait of another request during a fan-out ${largest.blockMax.toFixed(1)} ms (usual room ${usual.blockMax.toFixed(1)} ms)`,
  );
  return { timers: MAX_TIMERS, stateKb, changes, usual, largest };
}

/**
 * Resident memory once the process has settled: sampled every half second
 * until it moved less than 0.5 MB over 4 s (V8's memory reducer runs a few
 * seconds after the load stops), or after `maxMs`.
 */
async function settledRssKb(pid, maxMs = 20_000) {
  const readings = [];
  const startedAt = performance.now();
  for (;;) {
    readings.push(memoryKb(pid).rss);
    const recent = readings.slice(-9);
    if (recent.length === 9 && Math.max(...recent) - Math.min(...recent) < 512) break;
    if (performance.now() - startedAt > maxMs) break;
    await sleep(500);
  }
  return { rssKb: readings[readings.length - 1], waitedMs: Math.round(performance.now() - startedAt) };
}

/**
 * Rounds of (streams connecting, a burst of requests, streams leaving), RSS
 * read right after each. Right after a round the heap holds whatever garbage
 * the last collection left, so the growth figure compares round 2 and the last
 * round after both settled (see settledRssKb): a leak stays, garbage does not.
 */
async function memoryRounds(service) {
  const state = { method: 'GET', path: `${service.api}/state` };
  // One command per hundred requests, so the streams have changes to carry.
  const requests = [...Array(99).fill(state), { method: 'GET', path: `${service.api}/adjust?ms=1000` }, ...Array(99).fill(state), { method: 'GET', path: `${service.api}/adjust?ms=-1000` }];
  const rounds = [];
  for (let round = 1; round <= plan.growthRounds; round++) {
    const streams = await openStreams({ port: service.port, pathname: `${service.api}/events`, count: plan.growthClients });
    const result = await cannon({ url: service.base, connections: 10, amount: plan.growthRequests, requests });
    checkClean(`memory round ${round}`, result);
    streams.close();
    // Let the closes land.
    await sleep(500);
    const mem = memoryKb(service.pid);
    const entry = { round, rssKb: mem.rss, hwmKb: mem.hwm, anonKb: mem.anon, requests: result.requests.total };
    if (round === 2 || round === plan.growthRounds) Object.assign(entry, { settled: await settledRssKb(service.pid) });
    rounds.push(entry);
  }
  return rounds;
}

// ---------------------------------------------------------------- main

async function main() {
  const waitLimit = option('wait-quiet');
  if (waitLimit !== undefined) await waitQuiet(Number(waitLimit || '1.5'));
  checkFlags();
  const startedAt = new Date();
  const loadBefore = loadAverage();
  say(`${quick ? 'quick' : 'full'} run; phases ${[...phases].join(', ')}; node flags [${NODE_FLAGS.join(' ')}], environment ${JSON.stringify(NODE_ENVIRONMENT)}; load average ${loadBefore.join(' ')}`);
  if (!quick && loadBefore[0] >= 1.5) say('WARNING: the machine is busy (load average >= 1.5); CPU and latency figures will be noisy');

  // The bundle is needed by every phase: built when asked, or when missing.
  if (phases.has('build') || !existsSync(BUNDLE)) await buildPhase();
  if (phases.has('start')) await startPhase();
  if (phases.has('idle') || phases.has('kiosk')) {
    const services = await idlePhase();
    if (phases.has('kiosk')) await kioskPhase(services);
    else for (const s of services) await s.stop();
  }
  if (phases.has('load')) {
    // Interleaved, A B A B: each service run has its floor run beside it, under the machine's load of the moment.
    for (let run = 0; run < plan.loadRuns; run++) {
      await loadRun(run);
      if (plan.floorLoadRuns > 0) await loadRun(run, true);
    }
  }
  derivePairs();

  const loadAfter = loadAverage();
  const rows = figureRows(samples, !quick && !experiment);
  const result = {
    date: startedAt.toISOString(),
    mode: `${quick ? 'quick' : 'full'}${experiment ? ' (experiment: other flags or counts than a full run)' : ''}`,
    phases: [...phases],
    durationS: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: machine(),
    loadAverage: { before: loadBefore, after: loadAfter },
    nodeFlags: NODE_FLAGS,
    plan,
    figures: rows,
    details,
  };
  writeJson(outFile, result);
  process.stdout.write(`\n${textTable(rows)}\n\n`);
  say(`load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}; JSON in ${path.relative(process.cwd(), outFile)}`);
  if (!quick && !experiment && only === undefined) {
    const m = result.machine;
    const section = [
      `Latest full run: ${result.date.slice(0, 16).replace('T', ' ')} UTC, ${result.durationS} s; ${m.cpu}, ${m.cores} cores, ${m.memoryMb} MB, ${m.kernel}; Node ${m.node}; ${m.chromium ?? 'no chromium'}.`,
      `Node flags: \`${NODE_FLAGS.join(' ') || '(none)'}\`; environment: \`${Object.entries(NODE_ENVIRONMENT).map(([k, v]) => `${k}=${v}`).join(' ')}\`. Load average (1, 5, 15 min) before: ${loadBefore.join(', ')}; after: ${loadAfter.join(', ')}.`,
      '',
      markdownTable(rows),
    ].join('\n');
    if (updateMarkdown(path.join(ROOT, 'BENCHMARKS.md'), section)) say('BENCHMARKS.md results updated');
  }
  rmSync(workDir, { recursive: true, force: true });
  const missed = rows.filter((r) => r.pass === false);
  if (missed.length > 0) {
    say(`missed: ${missed.map((r) => r.label).join('; ')}`);
    process.exitCode = 1;
  }
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});

main().catch((error) => {
  killAll();
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nbench: logs kept in ${workDir}\n`);
  process.exit(2);
});
