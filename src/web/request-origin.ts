// Where a request comes from, as the socket says (never a header a client can forge),
// and whether that is this box itself: the kiosk page is for the local browser only;
// whether the client has gone away before its request was complete; and the origin
// the links in an answer start with, which comes from configuration and the port
// the request came in on, never from its Host (or X-Forwarded-Host) header or an
// absolute URL in its request line: those are the client's to write.
import { isIPv4 } from 'node:net';
import type { Context } from 'hono';
import { DEFAULTS } from '../config/config.js';
import { linkOrigin, type LinkConfig } from '../app/urls.js';

export function socketAddress(c: Context): string {
  // @hono/node-server puts the Node request on the env; app.request() in tests has none.
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (what a dual-stack socket reports). */
export function isLoopback(address: string): boolean {
  const lower = address.toLowerCase();
  if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return isIPv4(v4) && v4.startsWith('127.');
}

/**
 * Whether `error` is Node's for a request whose client closed the connection
 * before sending all of its body (a phone leaving the Wi-Fi mid-POST): the read
 * fails with ECONNRESET ("aborted") and the socket is gone. Nothing to answer
 * and nothing wrong with the box, so src/http/app.ts logs it quietly instead of as a 500.
 */
export function clientWentAway(c: Context, error: Error): boolean {
  if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') return false;
  const incoming = (c.env as { incoming?: { destroyed?: boolean; socket?: { destroyed?: boolean } } } | undefined)?.incoming;
  // In process (app.request) there is no socket: the error alone says it.
  return incoming === undefined || incoming.destroyed === true || incoming.socket?.destroyed === true;
}

/** The port the request came in on, as the socket says; undefined in process (app.request), where there is no socket. */
export function servedPort(c: Context): number | undefined {
  const incoming = (c.env as { incoming?: { socket?: { localPort?: number } } } | undefined)?.incoming;
  return incoming?.socket?.localPort;
}

/** Links without a configuration (tests of other things): the box's own address on the default port. */
const DEFAULT_LINKS: LinkConfig = { host: DEFAULTS.host, port: DEFAULTS.port };

/**
 * The origin of the links an answer gives out (the console's viewer and audience
 * links, the audience code on the screens): `publicUrl` when configured, else this
 * box's first LAN IPv4 (as `npm run key` prints it) and the port being served on.
 */
export function linkOriginOf(c: Context, links: LinkConfig | undefined): string {
  const config = links ?? DEFAULT_LINKS;
  return linkOrigin(config, servedPort(c) ?? config.port);
}
