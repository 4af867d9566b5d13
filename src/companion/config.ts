// The connection's settings in Companion: a box found on the network, or host and
// port typed in, in the config; the API key as a secret field (Companion keeps
// secrets out of exports and the UI shows them masked; secret fields need module
// API 1.13, Companion 4.1).
//
// Found boxes: every box advertises `_showclock._tcp` over mDNS (README "Found on the
// network (mDNS)"); the manifest's bonjourQueries asks Companion to browse for it under
// the id of the 'bonjour-device' field below, and Companion lists what it finds there
// as "<room> (<address>:<port>)", with "Manual" (no value) first. The field's value is
// that `<address>:<port>`; host and port are hidden while a found box is chosen.
import type { SomeCompanionConfigField } from '@companion-module/base';
import type { Setup } from './connection.js';

export interface ModuleConfig {
  /** A box found on the network: `<address>:<port>` as Companion gives it, or null/absent for Manual. */
  bonjourHost?: string | null;
  host?: string;
  port?: number;
}

/** The id of the 'bonjour-device' field, which is also the key of its query in companion/manifest.json's bonjourQueries. */
export const FOUND_BOX_FIELD = 'bonjourHost';

export interface ModuleSecrets {
  apiKey?: string;
}

export const DEFAULT_PORT = 8080;

export function configFields(): SomeCompanionConfigField[] {
  return [
    {
      type: 'static-text',
      id: 'info',
      label: 'Showclock',
      width: 12,
      value:
        'The box prints its API key with "npm run key" (on a Pi: "sudo showclock key"); the control console shows it too. ' +
        'The key gives full control of the room: keep it private.',
    },
    { type: 'bonjour-device', id: FOUND_BOX_FIELD, label: 'Showclock box (found on the network)', width: 12 },
    // Manual entry: for a box mDNS cannot reach (another subnet, a network without multicast).
    { type: 'textinput', id: 'host', label: 'Host (name or IP address)', width: 8, default: 'showclock.local', required: true, isVisibleExpression: `!$(options:${FOUND_BOX_FIELD})` },
    { type: 'number', id: 'port', label: 'Port', width: 4, default: DEFAULT_PORT, min: 1, max: 65535, required: true, isVisibleExpression: `!$(options:${FOUND_BOX_FIELD})` },
    { type: 'secret-text', id: 'apiKey', label: 'API key', width: 12, required: true },
  ];
}

/**
 * `http://host:port` from what was typed: a scheme, a path or a port typed into
 * the host field are tolerated (people paste the console's URL), IPv6 gets brackets.
 */
export function setupOf(config: ModuleConfig | undefined, secrets: ModuleSecrets | undefined): Setup {
  const found = foundBoxAddress(config?.[FOUND_BOX_FIELD]);
  let host = found === null ? (config?.host ?? '').trim() : found.host;
  // The whole "API base" line that `npm run key` prints may be pasted: its last segment is the key.
  const typedKey = (secrets?.apiKey ?? '').trim();
  const apiKey = decodeURIComponent(/\/api\/v[01]\/([^/?#\s]+)/.exec(typedKey)?.[1] ?? typedKey);
  const scheme = /^https:\/\//i.test(host) ? 'https' : 'http';
  host = host.replace(/^[a-z]+:\/\//i, '');
  // Cut at the first / ? or #, found by a search rather than /[/?#].*$/, which is quadratic on a long line of slashes.
  const pathAt = host.search(/[/?#]/);
  if (pathAt !== -1) host = host.slice(0, pathAt);
  let port = found === null ? Number(config?.port ?? DEFAULT_PORT) : found.port;
  const typedPort = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(host);
  if (typedPort !== null) {
    host = typedPort[1] as string;
    port = Number(typedPort[2]);
  }
  if (host === '') return { ok: false, problem: 'Enter the host of the Showclock box (e.g. showclock.local)' };
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, problem: `Port ${String(config?.port)} is not 1 to 65535` };
  if (apiKey === '') return { ok: false, problem: 'Enter the API key (npm run key prints it on the box)' };
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return { ok: true, target: { origin: `${scheme}://${host}:${port}`, apiKey } };
}

/**
 * The host and port of a box chosen among those found: Companion's value is `<address>:<port>`,
 * the address as mDNS gave it (IPv6 without brackets, so the port is after the last colon).
 * Null for Manual (no value) or a value that is not that shape, so the typed host and port count.
 */
export function foundBoxAddress(value: string | null | undefined): { host: string; port: number } | null {
  if (typeof value !== 'string') return null;
  const match = /^(.+):(\d{1,5})$/.exec(value.trim());
  if (match === null) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] as string, port };
}
