// `publicUrl` (config file) / SHOWCLOCK_PUBLIC_URL (environment): the address
// every link the box gives out starts with (the console's viewer and audience
// links and their QR codes, the audience code on the screens, `npm run key`).
// Only a scheme, a host and a port: the box adds the paths itself.

export const PUBLIC_URL_EXAMPLE = 'such as http://showclock.local:8080 or https://timer.example.org';

/** A host name of letters, digits, '-' and '.', an IPv4 address, or an IPv6 address in brackets (as URL gives them). */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;

export type PublicUrlCheck = { readonly ok: true; readonly origin: string } | { readonly ok: false; readonly problem: string };

/**
 * The origin links start with (`http://showclock.local:8080`, lower case, no
 * default port, no trailing '/'), or what is wrong with `raw`, said so a person
 * can fix it without reading this code.
 */
export function checkPublicUrl(raw: string): PublicUrlCheck {
  const shown = JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
  const bad = (why: string): PublicUrlCheck => ({ ok: false, problem: `expected an http:// or https:// address ${PUBLIC_URL_EXAMPLE}; ${why} (got ${shown})` });
  if (!/^https?:\/\//i.test(raw)) return bad('it must start with http:// or https://');
  if (/[\s\\]/.test(raw)) return bad('it must hold no spaces or backslashes');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return bad('it is not a valid address');
  }
  if (url.username !== '' || url.password !== '' || raw.includes('@')) return bad('it must hold no user name or password');
  if (raw.includes('?') || raw.includes('#')) return bad('it must have no query (?) or fragment (#)');
  if (url.pathname !== '/') return bad(`it must have no path (${url.pathname}): the box adds /control/, /view/ and /ask/ itself`);
  if (!HOST_NAME.test(url.hostname)) return bad('its host must be a name or an address');
  return { ok: true, origin: url.origin };
}
