// Where a start's CPU goes in the built service as a box runs it (the launcher, the
// code cache, the minified bundle): --cpu-prof of N starts on a saved room, self time
// by original module through the bundle's source map, and zod's time by the module
// that called it. Not part of `npm run bench`.
//   node bench/start-profile.mjs dist 7          (NODE_DETAIL=1: Node's modules one by one)
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort, startService } from './lib/service.mjs';
const dist = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-'));
const dataDir = mkdtempSync(path.join(dir, 'd'));
await (await startService({ dataDir, port: await freePort(), logFile: path.join(dir, 'log'), script: [path.join(dist, 'showclock.mjs'), 'serve'] })).stop();
for (let i = 0; i < runs; i++) {
  const s = await startService({ dataDir, port: await freePort(), logFile: path.join(dir, 'log'), script: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=50', path.join(dist, 'showclock.mjs'), 'serve'] });
  await s.stop();
}
const map = new SourceMap(JSON.parse(readFileSync(path.join(dist, 'showclock.cjs.map'), 'utf8')));
const by = new Map(); let total = 0; const zodBy = new Map();
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const p = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  // only until the process had answered: the whole profile (a start then a stop); count all
  const dt = (p.endTime - p.startTime) / p.samples.length / 1000;
  const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const srcOf = (cf) => { if (!cf.url.endsWith('showclock.cjs')) return null; const e = map.findEntry(cf.lineNumber, cf.columnNumber); return e?.originalSource ?? '?'; };
  for (const id of p.samples) {
    const cf = byId.get(id).callFrame;
    const src0 = srcOf(cf);
    if (src0 && src0.includes('node_modules/zod')) {
      let q = parent.get(id); let caller = '(top)';
      while (q !== undefined) { const c2 = byId.get(q).callFrame; const s2 = srcOf(c2); if (s2 && !s2.includes('node_modules/zod')) { caller = s2.replace(/^.*\/src\//, 'src/').replace(/^.*node_modules\//, '') + ' ' + c2.functionName; break; } q = parent.get(q); }
      zodBy.set(caller, (zodBy.get(caller) ?? 0) + dt);
    }
    let key;
    if (cf.url.endsWith('showclock.cjs')) {
      const e = map.findEntry(cf.lineNumber, cf.columnNumber);
      const src = e?.originalSource ?? '?';
      key = src.includes('node_modules/') ? src.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1') : src.replace(/^.*\/src\//, 'src/');
    } else key = cf.url === '' ? `(${cf.functionName || 'native'})` : cf.url.startsWith('node:') ? (process.env.NODE_DETAIL ? cf.url : 'node:*') : cf.url.split('/').pop();
    by.set(key, (by.get(key) ?? 0) + dt);
    total += dt;
  }
}
console.log(`per start: ${(total / runs).toFixed(1)} ms sampled`);
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / runs).toFixed(2).padStart(7), 'ms', k);
console.log('zod by caller:');
for (const [k, v] of [...zodBy].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((v / runs).toFixed(2).padStart(7), 'ms', k);
