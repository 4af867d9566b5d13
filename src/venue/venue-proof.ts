// Before this box sends the venue key to a box that mDNS found, that box proves it
// holds the key. The venue tag a box advertises is public: without the proof, any
// machine on the network could advertise this venue's tag and be handed the venue
// key by every box of the venue that watches it. The proof is an HMAC of a fresh
// nonce and of the address the request reached the box at, as its own socket
// says (not the Host header, which the client writes): a machine that relays the
// nonce to a real box of the venue gets back a proof for that box's address, not
// for its own, and is not believed. Listed rooms need none: someone gave their links.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 128 bits, as hex: never the same twice. */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

export const NONCE_PATTERN = /^[0-9a-f]{32}$/;

/** `10.0.0.5:8080`, `[fe80::1]:8080`: an address as a URL's host writes it, IPv4-mapped IPv6 as plain IPv4. */
export function addressHost(address: string, port: number): string {
  let plain = address.toLowerCase();
  if (plain.startsWith('::ffff:') && plain.includes('.')) plain = plain.slice('::ffff:'.length);
  // A link-local address's zone (fe80::1%eth0) is the sender's own business.
  const zone = plain.indexOf('%');
  if (zone >= 0) plain = plain.slice(0, zone);
  return plain.includes(':') ? `[${plain}]:${port}` : `${plain}:${port}`;
}

/** The host of an origin as addressHost writes it (`http://10.0.0.5:8080` → `10.0.0.5:8080`); null when it is none. */
export function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    return addressHost(hostname, url.port === '' ? 80 : Number(url.port));
  } catch {
    return null;
  }
}

/** What a box of the venue answers for `nonce` asked at `host` (addressHost of its socket's local side). */
export function venueProof(key: string, nonce: string, host: string): string {
  return createHmac('sha256', key).update(`showclock venue proof\n${nonce}\n${host}`).digest('hex');
}

export function proofMatches(key: string, nonce: string, host: string, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(Buffer.from(venueProof(key, nonce, host), 'hex'), Buffer.from(proof, 'hex'));
}
