// The room's time zone: an IANA name as the runtime's time-zone database knows
// it. Checked by asking Intl (pure computation, no clock, no I/O), so the box and
// every browser with the same database agree on what a name means.

/** The name as Intl spells it (`europe/berlin` -> `Europe/Berlin`), or null when the database does not know it. */
export function canonicalTimeZone(name: string): string | null {
  if (name.length === 0) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
