// A schema built for one use and dropped must be collected, whatever its kind:
// zod keeps the first schema of some kinds for the life of the process
// (src/schema/zod.ts), so the service builds those first ones itself, tiny. Here
// each kind the service uses is built after that, around a marker object only it
// refers to, and dropped; after a full collection the marker must be gone.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import * as z from '../../src/schema/zod.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A schema of one kind whose transform refers to `marker`, as the room file's migrations refer to their surroundings. */
type Build = (inner: z.ZodMiniType) => z.ZodMiniType;
const KINDS: Record<string, Build> = {
  object: (inner) => z.object({ kind: z.literal('x'), value: inner }),
  discriminatedUnion: (inner) => z.discriminatedUnion('kind', [z.object({ kind: z.literal('x'), value: inner })]),
  union: (inner) => z.union([inner, z.number()]),
  optional: (inner) => z.optional(inner),
  nullable: (inner) => z.nullable(inner),
  default: (inner) => z._default(inner, 'x'),
  pipe: (inner) => z.pipe(z.unknown(), inner),
};

function builtAndDropped(build: Build): WeakRef<object> {
  const marker = { payload: new Array(1000).fill('kept?') };
  const schema = build(z.pipe(z.unknown(), z.transform((value) => (marker.payload.length > 0 ? value : value))));
  // Used once, as the room file's schemas are: reading the derived internals installs zod's getters.
  schema.safeParse({ kind: 'x', value: 'x' });
  schema.safeParse('x');
  return new WeakRef(marker);
}

describe('zod schemas built for one use', () => {
  for (const [kind, build] of Object.entries(KINDS)) {
    it(`are collected once dropped: ${kind}`, async () => {
      const ref = builtAndDropped(build);
      // A WeakRef keeps its target until the current job ends.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      expect(ref.deref()).toBeUndefined();
    });
  }
});
