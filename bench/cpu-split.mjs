// Per-thread CPU (user and system) and context switches of a service while it answers commands in series.
//   node bench/cpu-split.mjs [launcher|floor] [commands]
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { timeInSeries } from './lib/series-client.mjs';
import { cannon } from './lib/load.mjs';
import http from 'node:http';
import { getJson } from './lib/series-client.mjs';
import { openStreams } from './lib/sse-clients.mjs';
import { ROOT, freePort, startService } from './lib/service.mjs';
const spec = process.argv[2] ?? 'dist/showclock.mjs';
const count = Number(process.argv[3] ?? 2000);
const script = spec === 'floor' ? [path.join(ROOT, 'bench/lib/floor-server.mjs')] : [path.resolve(spec), 'serve'];
const dir = mkdtempSync(path.join(os.tmpdir(), 'cpu-split-'));
const env = Object.fromEntries((process.env.SERVICE_ENV ?? '').split(',').filter(Boolean).map((kv) => kv.split('=')));
const s = await startService({ dataDir: mkdtempSync(path.join(dir, 'data-')), port: await freePort(), logFile: path.join(dir, 'log'), script, env });
const threads = () => {
  const out = {};
  for (const t of readdirSync(`/proc/${s.pid}/task`)) {
    const st = readFileSync(`/proc/${s.pid}/task/${t}/stat`, 'utf8');
    const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${s.pid}/task/${t}/status`, 'utf8');
    const vol = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)[1]);
    const inv = Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)[1]);
    out[`${t} ${name}`] = { u: Number(f[11]) * 10, s: Number(f[12]) * 10, vol, inv };
  }
  return out;
};
const paths = [`${s.api}/adjust?ms=1000`, `${s.api}/adjust?ms=-1000`];
let a;
let b;
let n = count;
if (process.env.LOAD === 'fanout') {
  const streams = await openStreams({ port: s.port, pathname: `${s.api}/events`, count: 500 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const change = async (i) => {
    const target = streams.seq + 1;
    const answer = getJson(agent, s.port, `${s.api}/adjust?ms=${i % 2 === 0 ? 1000 : -1000}`);
    await streams.waitFor(target);
    await answer;
    await new Promise((r) => setTimeout(r, 10));
  };
  for (let i = 0; i < 10; i++) await change(i);
  a = threads();
  n = Math.min(count, 300);
  for (let i = 0; i < n; i++) await change(i);
  b = threads();
  streams.close();
} else if (process.env.LOAD === 'state') {
  await cannon({ url: `${s.base}${s.api}/state`, connections: 10, duration: 1 });
  a = threads();
  const r = await cannon({ url: `${s.base}${s.api}/state`, connections: 10, duration: 6 });
  b = threads();
  n = r.requests.total;
} else {
  await timeInSeries(s.port, paths, 200);
  a = threads();
  await timeInSeries(s.port, paths, count);
  b = threads();
}
for (const k of Object.keys(b)) {
  const x = a[k] ?? { u: 0, s: 0, vol: 0, inv: 0 };
  const y = b[k];
  const per = (v) => ((v * 1000) / n).toFixed(1);
  if (y.u - x.u + y.s - x.s + y.vol - x.vol > 0) console.log(`${k.padEnd(24)} user ${per(y.u - x.u)} µs  sys ${per(y.s - x.s)} µs  per command; switches vol ${((y.vol - x.vol) / n).toFixed(2)} inv ${((y.inv - x.inv) / n).toFixed(2)}`);
}
await s.stop();
