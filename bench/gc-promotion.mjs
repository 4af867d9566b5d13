// What outlives V8's young generation under one of the bench's loads: the service
// (or the node:http floor) run with --trace-gc-nvp, then the bytes promoted to the
// old generation per request and the mark-compacts it took. Objects that live for
// a request should die young: a steady promotion per request is garbage for the
// old generation (mark-compacts, a heap grown to twice its live size), and finding
// its cause means cutting the answer path down until it stops (BENCHMARKS.md).
//
//   node bench/gc-promotion.mjs [launcher|floor] [--load=state|cmd] [--seconds=5] [--commands=20000]
// Extra Node flags after `--`, e.g. `-- --max-semi-space-size=8`. The code cache is
// off (a cache made without --trace-gc-nvp would be refused anyway).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cannon } from './lib/load.mjs';
import { argsAfterDashes, option, ownArgs } from './lib/options.mjs';
import { timeInSeries } from './lib/series-client.mjs';
import { ROOT, freePort, startService } from './lib/service.mjs';

const extraFlags = argsAfterDashes();
const subject = ownArgs().find((a) => !a.startsWith('--')) ?? 'dist/showclock.mjs';
const load = option('load', 'state');
const floor = subject === 'floor';
const dir = mkdtempSync(path.join(os.tmpdir(), 'gc-promotion-'));
const logFile = path.join(dir, 'service.log');

const floorEnv = {};
if (floor) {
  // The floor serialises the service's own snapshot, as in the bench.
  const file = path.join(dir, 'snapshot.json');
  const s = await startService({ dataDir: mkdtempSync(path.join(dir, 'data-')), port: await freePort(), logFile: path.join(dir, 'first.log') });
  const answer = await fetch(`${s.base}${s.api}/state`).then((r) => r.json());
  await s.stop();
  writeFileSync(file, JSON.stringify(answer.state));
  floorEnv.FLOOR_SNAPSHOT = file;
}
const script = [...extraFlags, '--trace-gc-nvp', ...(floor ? [path.join(ROOT, 'bench/lib/floor-server.mjs')] : [path.resolve(subject), 'serve'])];
const service = await startService({ dataDir: mkdtempSync(path.join(dir, 'data-')), port: await freePort(), logFile, script, env: { SHOWCLOCK_CODE_CACHE: 'off', ...floorEnv } });
let requests = 0;
const warm = async () => {
  if (load === 'cmd') await timeInSeries(service.port, [`${service.api}/adjust?ms=1000`, `${service.api}/adjust?ms=-1000`], 500);
  else await cannon({ url: `${service.base}${service.api}/state`, connections: 10, duration: 1 });
};
await warm();
const mark = readFileSync(logFile, 'utf8').length;
if (load === 'cmd') {
  requests = Number(option('commands', '20000'));
  await timeInSeries(service.port, [`${service.api}/adjust?ms=1000`, `${service.api}/adjust?ms=-1000`], requests);
} else {
  const result = await cannon({ url: `${service.base}${service.api}/state`, connections: 10, duration: Number(option('seconds', '5')) });
  requests = result.requests.total;
}
await service.stop();
const lines = readFileSync(logFile, 'utf8').slice(mark).split('\n');
const field = (line, name) => Number(new RegExp(`\\b${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
const scavenges = lines.filter((l) => / gc=s\b/.test(l));
const majors = lines.filter((l) => / gc=(mc|ms)\b/.test(l));
const promoted = scavenges.reduce((sum, l) => sum + field(l, 'promoted'), 0);
const allocated = scavenges.reduce((sum, l) => sum + field(l, 'allocated'), 0);
console.log(
  `${floor ? 'node:http floor' : subject}, load ${load}: ${requests} requests; ${scavenges.length} scavenges, ${majors.length} mark-compacts; ` +
    `promoted ${(promoted / requests).toFixed(1)} bytes per request (${(promoted / 1024).toFixed(0)} KB), allocated ${(allocated / requests).toFixed(0)} bytes per request`,
);
