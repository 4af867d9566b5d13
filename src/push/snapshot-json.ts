// The JSON text of a snapshot: byte for byte what JSON.stringify gives, for less
// work. Most of a snapshot's bytes are the room's own (running order, tags,
// settings, display, questions), which change only with a command, while every
// answer and every push makes a fresh snapshot for its fresh time fields. A room
// never changes in place (every change makes new objects: the domain's types are
// readonly throughout), so the text of each of those parts is kept by the
// object's identity and reused until the object is replaced. BENCHMARKS.md has
// the measurement.

/** Snapshot fields whose value is an object held by the room itself (not made per snapshot). */
const ROOM_OWNED = new Set(['timers', 'tags', 'settings', 'display', 'questions', 'message']);

/** Text of room-owned objects by identity; a replaced object is collected with its text. */
const texts = new WeakMap<object, string>();
/** `"name":` for each field name met so far (a snapshot has a fixed, small set). */
const prefixes = new Map<string, string>();

function prefixOf(key: string): string {
  let prefix = prefixes.get(key);
  if (prefix === undefined) {
    prefix = `${JSON.stringify(key)}:`;
    if (prefixes.size < 256) prefixes.set(key, prefix);
  }
  return prefix;
}

function roomOwnedText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/**
 * JSON.stringify(snapshot) for a plain snapshot object (own enumerable fields, no
 * toJSON of its own). Fields JSON leaves out (undefined, functions) are left out here too.
 */
export function snapshotJson(snapshot: object): string {
  let out = '{';
  for (const key of Object.keys(snapshot)) {
    const value: unknown = (snapshot as Record<string, unknown>)[key];
    let text: string;
    switch (typeof value) {
      case 'number':
        text = Number.isFinite(value) ? String(value) : 'null';
        break;
      case 'boolean':
        text = value ? 'true' : 'false';
        break;
      case 'object':
        text = value === null ? 'null' : ROOM_OWNED.has(key) ? roomOwnedText(value) : JSON.stringify(value);
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        continue;
      default:
        // Strings (escaped as JSON escapes them) and anything else JSON knows how to write.
        text = JSON.stringify(value);
    }
    out += out.length === 1 ? `${prefixOf(key)}${text}` : `,${prefixOf(key)}${text}`;
  }
  return `${out}}`;
}
