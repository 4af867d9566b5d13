// The links people are given: the control console (API key), the viewer page and the audience's question page.
import { networkInterfaces } from 'node:os';
import type { RoomKeys } from '../keys/key-file.js';

/** The address to put in a link: the configured host, or this box's first LAN IPv4 when it listens on all. */
export function publicHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host.includes(':') ? `[${host}]` : host;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return 'localhost';
}

export function roomUrls(host: string, port: number, keys: RoomKeys): { control: string; viewer: string; audience: string; api: string } {
  const base = `http://${publicHost(host)}:${port}`;
  return {
    control: `${base}/control/${keys.apiKey}`,
    viewer: `${base}/view/${keys.viewerKey}`,
    audience: `${base}/ask/${keys.audienceKey}`,
    api: `${base}/api/v1/${keys.apiKey}`,
  };
}
