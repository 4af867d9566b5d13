// Reads a query string, or an application/x-www-form-urlencoded body, as hono
// reads a query (`+` is a space, a name without `=` has the value '', the first
// of a repeated name wins) with one difference: hono passes a broken
// percent-encoding (`%E0%A4%A`, `100%`) on raw, so `text=%E0%A4%A` would show
// "%E0%A4%A" on the stage screen. Here such a value is marked broken, and the
// input layer refuses it with 400 naming the field.

export type Decoded = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly raw: string };

/** Decoded values by decoded name; no prototype, so a `__proto__` or `constructor` name is just a name. */
export type UrlEncoded = Readonly<Record<string, Decoded>>;

function decode(text: string): string | null {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/** The query of a request URL, without `?` and without a fragment; '' when there is none. */
export function queryOf(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return '';
  const end = url.indexOf('#', start);
  return end === -1 ? url.slice(start + 1) : url.slice(start + 1, end);
}

export function decodeUrlEncoded(text: string): UrlEncoded {
  const result: Record<string, Decoded> = Object.create(null) as Record<string, Decoded>;
  for (const [name, decoded] of decodeUrlEncodedMap(text)) result[name] = decoded;
  return result;
}

const NOTHING: ReadonlyMap<string, Decoded> = new Map();

/**
 * decodeUrlEncoded as a Map, for the request path: an object without a prototype
 * is a dictionary-mode object in V8, slow to make and to fill (the largest
 * function of the service's own in a profile of commands in series, BENCHMARKS.md).
 */
export function decodeUrlEncodedMap(text: string): ReadonlyMap<string, Decoded> {
  if (text.length === 0) return NOTHING;
  const result = new Map<string, Decoded>();
  let start = 0;
  // The next "=" at or after `start`, searched for again only once passed: a search from
  // every pair would scan to a far "=" each time (`a&a&...&a=`: quadratic, issue 26).
  let equals = -1;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (equals < start) {
      equals = text.indexOf('=', start);
      if (equals === -1) equals = text.length + 1;
    }
    const hasValue = equals < end;
    const name = decode(text.slice(start, hasValue ? equals : end));
    start = end + 1;
    // A name that does not decode cannot be a field's (they are plain ASCII): ignored, as every unknown name is.
    if (name === null || name === '' || result.has(name)) continue;
    const raw = hasValue ? text.slice(equals + 1, end) : '';
    const value = decode(raw);
    result.set(name, value === null ? { ok: false, raw } : { ok: true, value });
  }
  return result;
}
