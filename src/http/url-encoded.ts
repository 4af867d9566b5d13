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
  if (text.length === 0) return result;
  for (const pair of text.split('&')) {
    const equals = pair.indexOf('=');
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    // A name that does not decode cannot be a field's (they are plain ASCII): ignored, as every unknown name is.
    if (name === null || name === '' || result[name] !== undefined) continue;
    const raw = equals === -1 ? '' : pair.slice(equals + 1);
    const value = decode(raw);
    result[name] = value === null ? { ok: false, raw } : { ok: true, value };
  }
  return result;
}
