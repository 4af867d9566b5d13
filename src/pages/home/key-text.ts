// What the front door makes of a typed key: a bare key, or a pasted control or
// viewer link, reduced to the key (pure, so it is tested without a browser).

/** Keys are URL-safe base64 or similar: letters, digits, `-` and `_`. */
const KEY = /^[A-Za-z0-9_-]{8,256}$/;

/** The key in what was typed: a bare key, or a link holding `/<kind>/<key>`; null when there is none. */
export function keyFrom(typed: string, kind: 'control' | 'view'): string | null {
  const text = typed.trim();
  const marker = `/${kind}/`;
  const at = text.indexOf(marker);
  const candidate = at === -1 ? text : text.slice(at + marker.length).split(/[/?#]/)[0] ?? '';
  return KEY.test(candidate) ? candidate : null;
}
