// The links people are given: the control console (API key), the viewer page and the audience's question page.
// They come from configuration, never from a request: the configured public URL
// (`publicUrl`) when there is one, else this box's own address and port, the
// same that `npm run key` and `npm start` print. A Host or X-Forwarded-Host
// header is never read for them, so no request can put another host into the
// console's links and QR codes, or into the audience code on the screens.
import { networkInterfaces } from 'node:os';
import type { RoomKeys } from '../keys/key-file.js';

/** What the links are made from: `Config`'s fields of the same names. */
export interface LinkConfig {
  /** The address the service listens on (`host`). */
  readonly host: string;
  /** The port it listens on (`port`); the port a request actually came in on wins where known. */
  readonly port: number;
  /** `http(s)://name[:port]`, already checked (config.ts); undefined: the box's own address. */
  readonly publicUrl?: string | undefined;
}

/** The address to put in a link: the configured host, or this box's first LAN IPv4 when it listens on all. */
export function publicHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host.includes(':') ? `[${host}]` : host;
  // Read each time, not kept: a box that starts before its network is up gets its address later.
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return 'localhost';
}

/** `http://host:port` (or the public URL's origin) that every link starts with; `port` is the port being served on. */
export function linkOrigin(links: LinkConfig, port: number = links.port): string {
  if (links.publicUrl !== undefined) return links.publicUrl;
  return `http://${publicHost(links.host)}:${port}`;
}

export function roomUrls(host: string, port: number, keys: RoomKeys, publicUrl?: string): { control: string; viewer: string; audience: string; api: string } {
  const base = linkOrigin({ host, port, publicUrl });
  return {
    control: `${base}/control/${keys.apiKey}`,
    viewer: `${base}/view/${keys.viewerKey}`,
    audience: `${base}/ask/${keys.audienceKey}`,
    api: `${base}/api/v1/${keys.apiKey}`,
  };
}

/** The venue overview's link (`/venue/{venue_key}`), for a box that has a venue key; made like the room's links. */
export function venueUrl(host: string, port: number, venueKey: string, publicUrl?: string): string {
  return `${linkOrigin({ host, port, publicUrl })}/venue/${venueKey}`;
}
