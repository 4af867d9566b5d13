// tally-adapter.ts in the service bundle (scripts/build.mjs, BUNDLE_STAND_INS): the
// build makes src/tally with obs-websocket-js and ws a file of its own beside the
// bundle (dist/showclock-tally.cjs), loaded here when a box with tally configured
// starts it. About 80 KB of bundle that V8 would otherwise keep in memory on every
// box, most of which never use tally (BENCHMARKS.md).
import { createRequire } from 'node:module';
import type * as FromSource from './tally-adapter.js';

export const startTally: typeof FromSource.startTally = (deps) =>
  (createRequire(import.meta.url)('./showclock-tally.cjs') as typeof FromSource).startTally(deps);
