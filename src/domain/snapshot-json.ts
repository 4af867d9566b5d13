// The JSON text of a snapshot: byte for byte what JSON.stringify gives, for less
// work. Most of a snapshot's bytes are the room's own (running order, tags,
// settings, display, questions), which change only with a command, while every
// answer and every push makes a fresh snapshot for its fresh time fields. A room
// never changes in place (every change makes new objects: the domain's types are
// readonly throughout), so the text of each of those parts is kept by the
// object's identity and reused until the object is replaced. BENCHMARKS.md has
// the measurement.

/**
 * Snapshot fields whose value is an object held by the room itself (not made per
 * snapshot), or, for the schedule, the same object from snapshot to snapshot while
 * its values do not change (snapshot.ts, steadySchedule).
 */
const ROOM_OWNED = new Set(['timers', 'tags', 'settings', 'display', 'questions', 'message', 'actuals', 'schedule']);

/** `,"name":text` of room-owned objects by identity (and the field they were met under); a replaced object is collected with its text. */
const texts = new WeakMap<object, { readonly key: string; readonly field: string }>();
/** `,"name":` for each field name met so far (a snapshot has a fixed, small set). */
const prefixes = new Map<string, string>();

function prefixOf(key: string): string {
  let prefix = prefixes.get(key);
  if (prefix === undefined) {
    prefix = `,${JSON.stringify(key)}:`;
    if (prefixes.size < 256) prefixes.set(key, prefix);
  }
  return prefix;
}

/** The whole field, `,"timers":[...]`: one string to add per answer rather than three. */
function roomOwnedField(key: string, value: object): string {
  const kept = texts.get(value);
  if (kept !== undefined && kept.key === key) return kept.field;
  const field = `${prefixOf(key)}${JSON.stringify(value)}`;
  texts.set(value, { key, field });
  return field;
}

/**
 * JSON.stringify(snapshot) for a plain snapshot object (own enumerable fields, no
 * toJSON of its own). Fields JSON leaves out (undefined, functions) are left out here too.
 * Every field but the first is written as `,"name":` (kept per name) and its text:
 * each piece added is a string made per answer (about 2.6 KB of garbage per answer
 * before, BENCHMARKS.md).
 */
export function snapshotJson(snapshot: object): string {
  let out = '{';
  let first = true;
  const record = snapshot as Record<string, unknown>;
  // for...in rather than Object.keys (an array per answer); hasOwn keeps the own fields, as Object.keys does.
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const value: unknown = record[key];
    const type = typeof value;
    if (type === 'undefined' || type === 'function' || type === 'symbol') continue;
    // The first field goes without the kept prefix's comma (a copy of a short string, once per answer).
    if (type === 'object' && value !== null && ROOM_OWNED.has(key)) {
      const field = roomOwnedField(key, value as object);
      out += first ? field.slice(1) : field;
    } else {
      const prefix = prefixOf(key);
      out += first ? prefix.slice(1) : prefix;
      out += fieldText(value);
    }
    first = false;
  }
  return `${out}}`;
}

/** A field's value as JSON.stringify writes it (not undefined, a function or a symbol). */
function fieldText(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  return JSON.stringify(value) as string;
}
