// What the config sections' checks share: a string field checked by a function that
// says its problem in words (the same function checks the environment variable, so the
// file and the environment give the same message), and an environment variable read
// as text, where empty means not set.
import * as z from '../schema/zod.js';

export type Problem = (raw: string) => string | null;

/** A string whose problem, if any, `problem` names; the message is the field's, after its path. */
export const checkedString = (problem: Problem) =>
  z.string({ error: 'expected a string' }).check(
    z.superRefine((raw, ctx) => {
      const found = problem(raw);
      if (found !== null) ctx.addIssue({ code: 'custom', message: found, input: raw });
    }),
  );

/** The variable's text; undefined when it is not set or empty. */
export function envText(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}
