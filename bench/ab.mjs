// A/B pairs for one change at a time: two builds of the service (or a build and
// the node:http floor), measured in turn (A B, B A, A B, ...) on the same figures
// as `npm run bench`, CPU read from /proc per unit of work. Not part of
// `npm run bench`: a tool for deciding whether a change is worth keeping.
//
//   cp -r dist /tmp/ab-a   (before the change)      npm run build   (after it)
//   node bench/ab.mjs --a=/tmp/ab-a/showclock.mjs --b=dist/showclock.mjs --pairs=5 --what=fanout,state,cmd
//   --what: fanout, state, cmd, start, idle (any of them; default fanout,state,cmd)
//   --a / --b: a launcher (dist/showclock.mjs of a copy of dist/), or `floor` for bench/lib/floor-server.mjs
//   --env-a=LOG_LEVEL=warn (and --env-b): more environment for one side
//   --changes=100 --streams=500 --seconds=6 --commands=2000 --starts=7 --idle-ms=30000
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { cannon, checkClean } from './lib/load.mjs';
import { cpuMs, memoryKb } from './lib/proc.mjs';
import { getJson, timeInSeries } from './lib/series-client.mjs';
import { ROOT, freePort, killAll, spawnService, startService, waitHealthy } from './lib/service.mjs';
import { openStreams } from './lib/sse-clients.mjs';
import { percentile } from './lib/stats.mjs';
import { option } from './lib/options.mjs';
import { C_FLOOR } from './limits/build.mjs';

const FLOOR = path.join(ROOT, 'bench/lib/floor-server.mjs');
/** --env-a=LOG_LEVEL=warn,X=1: more environment for one side (an experiment without a build). */
const envOf = (spec) => Object.fromEntries((spec ?? '').split(',').filter((kv) => kv.includes('=')).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
/**
 * What one side runs: `floor`; `floor:socket`, `floor:handle` or `floor:native`
 * (the floor writing each change another way, bench/limits/writers.mjs); `c` (the
 * C floor of bench/limits/, built by its build.mjs); or a launcher.
 */
function subject(spec, extraEnv) {
  if (spec === 'c') {
    if (!existsSync(C_FLOOR)) throw new Error(`--a/--b=c: ${C_FLOOR} is not built; run node bench/limits/build.mjs first`);
    return { command: [C_FLOOR], env: extraEnv, floor: true };
  }
  if (spec === 'floor' || spec.startsWith('floor:')) {
    const write = spec.slice('floor:'.length);
    return { script: [FLOOR], env: spec === 'floor' ? extraEnv : { FLOOR_WRITE: write, ...extraEnv }, floor: true };
  }
  return { script: [path.resolve(spec), 'serve'], env: extraEnv, floor: false };
}
const subjects = {
  A: subject(option('a', 'floor'), envOf(option('env-a', ''))),
  B: subject(option('b', path.join(ROOT, 'dist/showclock.mjs')), envOf(option('env-b', ''))),
};
/** What spawnService needs of a side, beside its data directory, port and log. */
const run = (who) => ({ script: subjects[who].script, command: subjects[who].command, env: subjects[who].env });
const pairs = Number(option('pairs', '5'));
const what = new Set(option('what', 'fanout,state,cmd').split(','));
const changes = Number(option('changes', '100'));
const streamCount = Number(option('streams', '500'));
const seconds = Number(option('seconds', '6'));
const commands = Number(option('commands', '2000'));
const starts = Number(option('starts', '7'));
const idleMs = Number(option('idle-ms', '30000'));

const workDir = mkdtempSync(path.join(os.tmpdir(), 'showclock-ab-'));
let dirs = 0;
const freshDir = () => mkdtempSync(path.join(workDir, `d${(dirs += 1)}-`));
const logFile = (name) => path.join(workDir, `${name}.log`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @type {Record<string, Record<string, number[]>>} */
const results = { A: {}, B: {} };
const put = (who, figure, value) => (results[who][figure] ??= []).push(value);

async function fanout(service, who) {
  const streams = await openStreams({ port: service.port, pathname: `${service.api}/events`, count: streamCount });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const first = [];
  const last = [];
  let cpu0 = 0;
  try {
    for (let i = 0; i < changes + 10; i++) {
      if (i === 10) cpu0 = cpuMs(service.pid);
      const target = streams.seq + 1;
      const t0 = performance.now();
      const answer = getJson(agent, service.port, `${service.api}/adjust?ms=${i % 2 === 0 ? 1000 : -1000}`);
      const reached = await streams.waitFor(target);
      if ((await answer).status !== 200) throw new Error('/adjust did not answer 200');
      if (i >= 10) {
        first.push(reached.first - t0);
        last.push(reached.last - t0);
      }
      await sleep(10);
    }
    put(who, 'fanout CPU ms/change', (cpuMs(service.pid) - cpu0) / changes);
  } finally {
    agent.destroy();
    streams.close();
  }
  put(who, 'fanout first p50 ms', percentile(first, 50));
  put(who, 'fanout last p50 ms', percentile(last, 50));
  await sleep(300);
}

async function state(service, who) {
  const url = `${service.base}${service.api}/state`;
  await cannon({ url, connections: 10, duration: 1 });
  const cpu0 = cpuMs(service.pid);
  const result = await cannon({ url, connections: 10, duration: seconds });
  const used = cpuMs(service.pid) - cpu0;
  checkClean('GET /state', result);
  put(who, 'state CPU µs/req', (used * 1000) / result.requests.total);
}

async function cmd(service, who) {
  const paths = [`${service.api}/adjust?ms=1000`, `${service.api}/adjust?ms=-1000`];
  // As the bench: the service first answers /start and /pause in series (the floor has no room to start).
  if (!subjects[who].floor) await timeInSeries(service.port, [`${service.api}/start`, `${service.api}/pause`], 100 + commands);
  await timeInSeries(service.port, paths, 100);
  const cpu0 = cpuMs(service.pid);
  const times = (await timeInSeries(service.port, paths, commands)).map((t) => t.ms);
  put(who, 'cmd CPU µs/req', ((cpuMs(service.pid) - cpu0) * 1000) / commands);
  put(who, 'cmd p50 ms', percentile(times, 50));
  put(who, 'cmd p99 ms', percentile(times, 99));
}

async function loadPair(order) {
  for (const who of order) {
    const service = await startService({ dataDir: freshDir(), port: await freePort(), logFile: logFile(who), ...run(who) });
    try {
      if (what.has('state')) await state(service, who);
      if (what.has('cmd')) await cmd(service, who);
      if (what.has('fanout')) await fanout(service, who);
    } finally {
      await service.stop();
    }
  }
}

async function startPairs() {
  const dataDirs = { A: freshDir(), B: freshDir() };
  for (const who of ['A', 'B']) await (await startService({ dataDir: dataDirs[who], port: await freePort(), logFile: logFile(who), ...run(who) })).stop();
  for (let i = 0; i < starts; i++) {
    for (const who of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const s = await startService({ dataDir: dataDirs[who], port: await freePort(), logFile: logFile(who), ...run(who) });
      put(who, 'start CPU ms', cpuMs(s.pid));
      put(who, 'start wall ms', s.startMs);
      await s.stop();
    }
  }
}

async function idle() {
  const all = [];
  for (let i = 0; i < pairs; i++) {
    for (const who of ['A', 'B']) {
      const dataDir = freshDir();
      // --saved-room: as a box boots (a first start makes the room), as the bench's idle phase does.
      if (option('saved-room', undefined) !== undefined) await (await startService({ dataDir, port: await freePort(), logFile: logFile(who), ...run(who) })).stop();
      all.push({ who, s: spawnService({ dataDir, port: await freePort(), logFile: logFile(who), ...run(who) }) });
    }
  }
  for (const { who, s } of all) await waitHealthy(s, logFile(who));
  await Promise.all(
    all.map(async ({ who, s }) => {
      await sleep(Math.max(0, s.spawnedAt + idleMs - performance.now()));
      const m = memoryKb(s.pid);
      put(who, 'idle RssAnon MiB', m.anon / 1024);
      put(who, 'idle VmRSS MB', m.rss / 1024);
    }),
  );
  for (const { s } of all) await s.stop();
}

const describe = (who) => [...(subjects[who].command ?? subjects[who].script ?? []), ...Object.entries(subjects[who].env).map(([k, v]) => `${k}=${v}`)].join(' ');

const fmt = (v) => (Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 10 ? v.toFixed(2) : v.toFixed(3));

async function main() {
  console.log(`A: ${describe('A')}\nB: ${describe('B')}\nload average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (what.has('start')) await startPairs();
  if (what.has('idle')) await idle();
  if (what.has('fanout') || what.has('state') || what.has('cmd')) {
    for (let i = 0; i < pairs; i++) {
      await loadPair(i % 2 === 0 ? ['A', 'B'] : ['B', 'A']);
      process.stdout.write(`pair ${i + 1}/${pairs} done\n`);
    }
  }
  for (const figure of Object.keys(results.B)) {
    const a = results.A[figure] ?? [];
    const b = results.B[figure] ?? [];
    const ratios = b.map((v, i) => v / (a[i] ?? Number.NaN));
    console.log(
      `${figure.padEnd(22)} A ${fmt(percentile(a, 50)).padStart(8)}  B ${fmt(percentile(b, 50)).padStart(8)}  B/A per pair: median ${percentile(ratios, 50).toFixed(3)} [${ratios.map((r) => r.toFixed(2)).join(' ')}]` +
        `\n${''.padEnd(22)} A: ${a.map(fmt).join(' ')}\n${''.padEnd(22)} B: ${b.map(fmt).join(' ')}`,
    );
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  rmSync(workDir, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});
main().catch((error) => {
  killAll();
  console.error(error);
  process.exit(2);
});
