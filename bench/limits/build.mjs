// Compiles the fan-out's lower bounds (fanout-floor.c, fanout-native.c) with the
// machine's C compiler into bench/limits/build/. Not part of `npm run bench` or
// `npm test`: a tool for the question "what is the least a change to 500 streams
// can cost here?" (BENCHMARKS.md, issue 17).
//   node bench/limits/build.mjs
//   node bench/ab.mjs --a=floor --b=c --what=fanout            (C, epoll)
//   node bench/ab.mjs --a=floor --b=floor:native --what=fanout (Node, the writes in C)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BUILD_DIR = path.join(HERE, 'build');
export const C_FLOOR = path.join(BUILD_DIR, 'fanout-floor');
export const NATIVE_WRITER = path.join(BUILD_DIR, 'fanout-native.node');
/** Where Node's own installation keeps node_api.h (Debian's /usr/include/node, or beside a downloaded node). */
const NODE_HEADERS = path.resolve(path.dirname(process.execPath), '../include/node');

export function buildLimits() {
  if (!existsSync(path.join(NODE_HEADERS, 'node_api.h'))) throw new Error(`no node_api.h in ${NODE_HEADERS}: Node's headers are needed for the addon`);
  mkdirSync(BUILD_DIR, { recursive: true });
  const cc = process.env.CC ?? 'cc';
  execFileSync(cc, ['-O2', '-Wall', '-o', C_FLOOR, path.join(HERE, 'fanout-floor.c')], { stdio: 'inherit' });
  execFileSync(cc, ['-O2', '-Wall', '-shared', '-fPIC', `-I${NODE_HEADERS}`, '-o', NATIVE_WRITER, path.join(HERE, 'fanout-native.c')], { stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildLimits();
  console.log(`built ${path.relative(process.cwd(), C_FLOOR)} and ${path.relative(process.cwd(), NATIVE_WRITER)}`);
}
