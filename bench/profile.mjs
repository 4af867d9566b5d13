// A CPU profile of the service under one of the bench's loads, summarised: the
// service bundled without minifying (each function keeps its name and the
// module it came from), run with the box's flags and --cpu-prof, put through
// the load, stopped; then self time per function and per module, and for a
// chosen function its callers. A tool for finding where a figure's time goes.
//
//   node bench/profile.mjs --load=state      GET /state, autocannon 10 connections (also: cmd, fanout, start)
//   node bench/profile.mjs --load=fanout --top=40 --callers=writeBuffer
//   --root=DIR (sources elsewhere) --seconds=8 --streams=500 --changes=300 --keep (keep the .cpuprofile; its path is printed)
//   node bench/profile.mjs --load=cmd --heap --commands=20000
//                                            what is allocated per request (garbage included: V8's sampling heap
//                                            profiler with the objects that die young, bench/lib/heap-sampler.cjs),
//                                            by function and module, and the GCs over the measured requests
import { build } from 'esbuild';
import { serviceBundleOptions } from '../scripts/build.mjs';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { cannon } from './lib/load.mjs';
import { getJson, timeInSeries } from './lib/series-client.mjs';
import { NODE_FLAGS, ROOT, freePort, startService } from './lib/service.mjs';
import { openStreams } from './lib/sse-clients.mjs';
import { option } from './lib/options.mjs';

const load = option('load', 'state');
/** Allocation instead of CPU: bytes per request by function, garbage included. */
const heap = option('heap', undefined) !== undefined;
const top = Number(option('top', '30'));
const seconds = Number(option('seconds', '8'));
const callersOf = option('callers', '');
const dir = mkdtempSync(path.join(os.tmpdir(), 'showclock-profile-'));
const bundle = path.join(dir, 'showclock.cjs');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Where the sources are: this tree by default, or a copy (--root=DIR) with its own src/ and node_modules. */
const sourceRoot = path.resolve(option('root', ROOT));

await build(serviceBundleOptions({ sourceRoot, outfile: bundle, minify: false }));

const dataDir = mkdtempSync(path.join(dir, 'data-'));
// A start is profiled as the bench times it: on a saved room (a first start makes it).
if (load === 'start') await (await startService({ dataDir, port: await freePort(), logFile: path.join(dir, 'first.log'), script: [bundle, 'serve'] })).stop();
const heapOut = path.join(dir, 'heap');
const service = await startService({
  dataDir,
  port: await freePort(),
  logFile: path.join(dir, 'service.log'),
  script: heap
    ? ['-r', path.join(ROOT, 'bench/lib/heap-sampler.cjs'), bundle, 'serve']
    : ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', bundle, 'serve'],
  env: heap ? { HEAP_PROF_OUT: heapOut, HEAP_PROF_PROMOTED: option('promoted', undefined) === undefined ? '0' : '1' } : {},
});
/** --heap: the warm-up is not sampled; the measured requests are. */
const measured = async (run) => {
  if (!heap) return run();
  process.kill(service.pid, 'SIGUSR2');
  await sleep(100);
  const result = await run();
  process.kill(service.pid, 'SIGUSR2');
  while (!existsSync(`${heapOut}.gc.json`)) await sleep(50);
  await sleep(200);
  return result;
};
let requests = 0;
try {
  if (load === 'state') {
    if (heap) await cannon({ url: `${service.base}${service.api}/state`, connections: 10, duration: 2 });
    const result = await measured(() => cannon({ url: `${service.base}${service.api}/state`, connections: 10, duration: seconds }));
    requests = result.requests.total;
    console.log(`${result.requests.total} requests`);
  } else if (load === 'cmd') {
    const adjust = [`${service.api}/adjust?ms=1000`, `${service.api}/adjust?ms=-1000`];
    const transport = [`${service.api}/start`, `${service.api}/pause`];
    const paths = option('paths', 'adjust') === 'transport' ? transport : adjust;
    if (heap) {
      await timeInSeries(service.port, transport, 2000);
      await timeInSeries(service.port, adjust, 2000);
    }
    requests = Number(option('commands', '10000'));
    await measured(() => timeInSeries(service.port, paths, requests));
    console.log(`${requests} requests`);
  } else if (load === 'fanout') {
    const streams = await openStreams({ port: service.port, pathname: `${service.api}/events`, count: Number(option('streams', '500')) });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < Number(option('changes', '300')); i++) {
      const target = streams.seq + 1;
      const answer = getJson(agent, service.port, `${service.api}/adjust?ms=${i % 2 === 0 ? 1000 : -1000}`);
      await streams.waitFor(target);
      await answer;
      await sleep(10);
    }
    agent.destroy();
    streams.close();
    await sleep(300);
  } else if (load !== 'start') {
    throw new Error(`unknown load ${load}`);
  }
} finally {
  await service.stop();
}

// Which module each line of the unminified bundle came from (esbuild's `// path` comments).
const lines = readFileSync(bundle, 'utf8').split('\n');
const moduleAt = [];
let current = '(bundle)';
for (const line of lines) {
  const m = /^\/\/ (?:\.\.\/)*(?:work\/main\/|tmp\/snap\/)?((?:src|node_modules)\/\S+)$/.exec(line);
  if (m !== null) current = m[1].replace(/^node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*$/, '$1');
  moduleAt.push(current);
}
if (heap) {
  const profile = JSON.parse(readFileSync(`${heapOut}.heapprofile`, 'utf8'));
  const gcs = JSON.parse(readFileSync(`${heapOut}.gc.json`, 'utf8'));
  const where = (cf) => (cf.url.endsWith('showclock.cjs') ? (moduleAt[cf.lineNumber] ?? '(bundle)') : cf.url === '' ? '(native)' : cf.url.replace(/^.*\/node_modules\//, ''));
  const name = (cf) => `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;
  const selfBy = new Map();
  const modBy = new Map();
  const inclusive = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const key = name(node.callFrame);
    const here = [...stack, key];
    const self = node.selfSize;
    if (self > 0) {
      total += self;
      selfBy.set(key, (selfBy.get(key) ?? 0) + self);
      const w = where(node.callFrame);
      modBy.set(w, (modBy.get(w) ?? 0) + self);
      for (const k of new Set(here)) inclusive.set(k, (inclusive.get(k) ?? 0) + self);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  const stacks = new Map();
  const callersWalk = (node, stack) => {
    const here = [...stack, name(node.callFrame)];
    if (callersOf !== '' && node.selfSize > 0 && (node.callFrame.functionName || '(anonymous)').includes(callersOf)) {
      const key = here.slice(-7, -1).reverse().join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) callersWalk(child, here);
  };
  callersWalk(profile.head, []);
  const per = requests > 0 ? requests : 1;
  const show = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([k, v]) => `${(v / per).toFixed(0).padStart(7)} B/req ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  const ours = new Map([...inclusive].filter(([k]) => / src\//.test(k)));
  console.log(
    `load ${load} (--heap); ${requests} requests: ${(total / per).toFixed(0)} bytes allocated per request (sampled); ` +
      `GCs: ${gcs.minor} scavenges, ${gcs.major} mark-compacts, ${gcs.other} other, ${gcs.ms.toFixed(0)} ms; a scavenge every ${(requests / Math.max(1, gcs.minor)).toFixed(0)} requests\n\n` +
      `allocated, by function (self):\n${show(selfBy, top)}\n\nby module:\n${show(modBy, 25)}\n\ninclusive, the service's own functions:\n${show(ours, top)}`,
  );
  if (callersOf !== '') console.log(`\ncallers of ${callersOf}:\n${show(stacks, 15)}`);
  if (option('keep', undefined) === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(`\nprofile: ${heapOut}.heapprofile`);
  process.exit(0);
}
const profileFile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (profileFile === undefined) throw new Error(`no profile written; log in ${dir}/service.log`);
const profile = JSON.parse(readFileSync(path.join(dir, profileFile), 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const hits = new Map();
for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
const dt = (profile.endTime - profile.startTime) / profile.samples.length / 1000;
const where = (cf) => {
  if (cf.url.endsWith('showclock.cjs')) return moduleAt[cf.lineNumber] ?? '(bundle)';
  if (cf.url === '') return '(native)';
  return cf.url.replace(/^node:/, 'node:').replace(/^.*\/node_modules\//, '');
};
const name = (cf) => `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;
const selfBy = new Map();
const modBy = new Map();
let total = 0;
for (const [id, count] of hits) {
  const n = byId.get(id);
  total += count;
  selfBy.set(name(n.callFrame), (selfBy.get(name(n.callFrame)) ?? 0) + count);
  const w = where(n.callFrame);
  modBy.set(w, (modBy.get(w) ?? 0) + count);
}
const show = (map, count) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([k, v]) => `${((v * dt) | 0).toString().padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
    .join('\n');
// Inclusive time: each sample counts once for every distinct function on its stack.
const inclusive = new Map();
for (const [id, count] of hits) {
  const seen = new Set();
  for (let p = id; p !== undefined; p = parent.get(p)) {
    const key = name(byId.get(p).callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + count);
  }
}
const ours = new Map([...inclusive].filter(([k]) => / src\//.test(k)));
console.log(`load ${load}; ${total} samples, ${(total * dt).toFixed(0)} ms sampled (idle included)\n\nself time by function:\n${show(selfBy, top)}\n\nby module:\n${show(modBy, 25)}\n\ninclusive, the service's own functions:\n${show(ours, top)}`);
if (callersOf !== '') {
  const stacks = new Map();
  for (const [id, count] of hits) {
    let n = byId.get(id);
    if (!n.callFrame.functionName.includes(callersOf)) continue;
    const chain = [];
    for (let p = parent.get(n.id); p !== undefined && chain.length < 6; p = parent.get(p)) chain.push(name(byId.get(p).callFrame));
    const key = chain.join(' < ');
    stacks.set(key, (stacks.get(key) ?? 0) + count);
  }
  console.log(`\ncallers of ${callersOf}:\n${show(stacks, 15)}`);
}
if (option('keep', undefined) === undefined) rmSync(dir, { recursive: true, force: true });
else console.log(`\nprofile: ${path.join(dir, profileFile)}`);
void NODE_FLAGS;
