// Zod shapes shared by the room file (src/store) and the OpenAPI document
// (src/commands), which describe the same room fields for different readers.
import * as z from './zod.js';

/** `{ name: z.boolean() }` for each name, typed by the names: e.g. the screens' on/off switches. */
export function booleanFields<const K extends string>(names: readonly K[]): { [P in K]: z.ZodMiniBoolean } {
  return Object.fromEntries(names.map((name) => [name, z.boolean()])) as { [P in K]: z.ZodMiniBoolean };
}
