// Where a request comes from, as the socket says (never a header a client can forge),
// and whether that is this box itself: the kiosk page is for the local browser only.
import { isIPv4 } from 'node:net';
import type { Context } from 'hono';

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
