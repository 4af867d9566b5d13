// A UDP port the service listens on (OSC, plain text): binds, hands each datagram
// on, and answers a sender when asked. A datagram handler that throws is logged
// and the port keeps listening; a socket error is logged, never thrown.
//
// The default host 0.0.0.0 is read as "every address", IPv6 included: a sender
// told `localhost` may resolve it to ::1 (Raspberry Pi OS lists both), and an
// IPv4-only socket would never hear it. Where IPv6 is off, it is IPv4 alone.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import type { Logger } from '../log/logger.js';

export interface UdpSender {
  readonly address: string;
  readonly port: number;
}

/** An IPv4 sender on a dual-stack socket as IPv4 (`::ffff:10.0.0.5` is 10.0.0.5), as HTTP counts it. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

export class UdpListener {
  readonly #opts: { host: string; port: number; label: string; logger: Logger; onDatagram: (data: Buffer, from: UdpSender) => void };
  #socket: Socket | null = null;

  constructor(opts: { host: string; port: number; label: string; logger: Logger; onDatagram: (data: Buffer, from: UdpSender) => void }) {
    this.#opts = opts;
  }

  /** The bound port; rejects when the port cannot be had (in use, no permission, no such address). */
  async start(): Promise<number> {
    const { host, port } = this.#opts;
    if (host !== '0.0.0.0') return this.#bind(isIPv6(host) ? 'udp6' : 'udp4', host, port);
    try {
      return await this.#bind('udp6', '::', port);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL' && code !== 'EINVAL') throw error;
      return this.#bind('udp4', '0.0.0.0', port);
    }
  }

  #bind(type: 'udp4' | 'udp6', host: string, port: number): Promise<number> {
    const { label, logger } = this.#opts;
    const socket = createSocket(type === 'udp6' ? { type, ipv6Only: false } : { type });
    this.#socket = socket;
    socket.on('message', (data: Buffer, rinfo: RemoteInfo) => {
      try {
        this.#opts.onDatagram(data, { address: plainAddress(rinfo.address), port: rinfo.port });
      } catch (error) {
        logger.error({ err: error }, `${label}: handling a datagram failed; the port keeps listening`);
      }
    });
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        this.#socket = null;
        socket.close();
        reject(error);
      };
      socket.once('error', failed);
      socket.bind(port, host, () => {
        socket.off('error', failed);
        // After the bind, an error (an ICMP answer to a reply, a full buffer) concerns one datagram: log it, go on.
        socket.on('error', (error) => logger.warn({ code: (error as NodeJS.ErrnoException).code }, `${label}: ${error.message}`));
        resolve(socket.address().port);
      });
    });
  }

  /** Best effort: a reply that cannot be sent is dropped, as UDP would. */
  send(data: Uint8Array, to: UdpSender): void {
    const socket = this.#socket;
    if (socket === null) return;
    // A dual-stack socket sends to an IPv4 sender at its mapped address.
    const address = socket.address().family === 'IPv6' && isIPv4(to.address) ? `::ffff:${to.address}` : to.address;
    socket.send(data, to.port, address, () => {});
  }

  close(): void {
    const socket = this.#socket;
    this.#socket = null;
    if (socket === null) return;
    try {
      socket.close();
    } catch {
      // Already closed: nothing to release.
    }
  }
}
