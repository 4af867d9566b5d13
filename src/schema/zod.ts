// The one zod of the service: zod/mini, set up before any schema exists. Every
// module that makes a schema imports it from here (`import * as z`), so the setup
// runs first in the service, in the tools and in every test alike. Named exports,
// not zod's `z` object: the bundle then keeps only the parts of zod in use.
//
// zod/mini rather than the classic zod: the same core, the same checks and the
// same messages, but schemas without their ~40 methods each, and 56 KB of the
// bundle instead of 194; on an idle box about a megabyte less (BENCHMARKS.md).
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// Where a schema gives no message of its own, zod's English one ("Invalid input:
// expected string, received number"); zod/mini loads no language by itself.
config(en());
// zod compiles a parser for each object schema with `new Function` the first time
// it parses, which at start (the room file, keys.json, the config file) costs more
// than all the parsing a box ever does (a few small objects at start, a few fields
// per command), and none of it is in the V8 code cache. Without it zod takes its
// plain path: same checks, same results.
config({ jitless: true });

export * from 'zod/mini';
