// Imported first by main.ts, before any schema exists: zod compiles a parser for
// each object schema with `new Function` the first time it parses, which at start
// (the room file, keys.json, the config file) costs more than all the parsing a
// box ever does (a few small objects at start, a few fields per command), and
// none of it is in the V8 code cache. Without it zod takes its plain path: same
// checks, same results. BENCHMARKS.md has the measurement.
import { z } from 'zod';

z.config({ jitless: true });
