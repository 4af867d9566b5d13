// An argument as the command table reads it, whichever transport brought it: OSC
// (typed) or a plain-text line (always text). The table turns each into the text
// an HTTP query would carry, so both are validated by the HTTP query schemas.

/** A number, text, an OSC true/false, or an OSC type that no command takes (named for the message). */
export type ArgValue = string | number | boolean | { readonly unsupported: string };

/**
 * The query spelling of an argument: numbers in decimal (an integral float is a
 * whole number, so `60000.0` is `60000`), true/false as `1`/`0` as a query spells
 * a flag. Null for a type no command takes.
 */
export function queryText(value: ArgValue): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  return null;
}

/**
 * A button's release: the 0 (or false) that TouchOSC and most surfaces send when a
 * push button is let go, after the 1 of its press. A command that takes no
 * argument ignores it, so one press of a `/next` button is one `next`.
 */
export function isRelease(value: ArgValue | undefined): boolean {
  return value === 0 || value === false;
}
