// The one zod of the service: zod/mini, set up before any schema exists. Every
// module that makes a schema imports it from here (`import * as z`), so the setup
// runs first in the service, in the tools and in every test alike. Named exports,
// not zod's `z` object: the bundle then keeps only the parts of zod in use.
//
// zod/mini rather than the classic zod: the same core, the same checks and the
// same messages, but schemas without their ~40 methods each, and 56 KB of the
// bundle instead of 194; on an idle box about a megabyte less (BENCHMARKS.md).
import { _default, config, discriminatedUnion, literal, nullable, object, optional, pipe, string, union } from 'zod/mini';
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

// zod 4.6 derives a few internals of a schema (`optin`, `optout`, `values`,
// `propValues`) through getters it installs once per kind of schema, on the kind's
// shared prototype, with functions made inside the first schema of that kind ever
// built: that first schema, and all it refers to, is then kept for the life of the
// process. The room file's schemas are built for one read and meant to be dropped
// (room-document.ts); built first, they were all kept: about 100 KB of an idle
// box's heap (BENCHMARKS.md). So the first schema of each such kind that holds
// other schemas, of those the service uses, is built here, tiny, before any
// other (test/schema/zod-first-of-kind.test.ts). Kept in a frozen array so that
// the bundler does not drop the calls as unused (zod marks them free of side effects).
const tiny = string();
export const FIRST_OF_EACH_KIND = Object.freeze([
  object({ kind: literal('first') }),
  discriminatedUnion('kind', [object({ kind: literal('first') })]),
  union([tiny, tiny]),
  optional(tiny),
  nullable(tiny),
  _default(tiny, 'first'),
  pipe(tiny, tiny),
]);

export * from 'zod/mini';
