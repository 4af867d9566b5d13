// The TSL UMD port: UDP and TCP on the same number, as vision mixers and Tally
// Arbiter offer both. UDP datagrams are TSL 5.0 or 3.1 packets; a TCP connection
// is a stream of framed TSL 5.0 packets (tsl-stream.ts). Nothing a sender does
// throws out of here or holds more than one packet per connection: bad input is
// refused in the log (refused-log.ts), connections beyond MAX_TCP_CONNECTIONS are
// closed at once, and a handler that fails is logged while the port listens on.
//
// The default host 0.0.0.0 is every address, IPv6 included (as the OSC port).
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv4, isIPv6, type Server, type Socket as TcpSocket } from 'node:net';
import type { Logger } from '../log/logger.js';
import type { RefusedLog } from './refused-log.js';
import { readDatagram, readTsl5, type TslRead } from './tsl-packet.js';
import { Tsl5Stream } from './tsl-stream.js';
import type { TslTally } from './tsl-tally.js';

/** A mixer holds one connection, Tally Arbiter one per output: a few dozen is a rack, more is a fault. */
export const MAX_TCP_CONNECTIONS = 32;

/** A port that could not be had, and by which of the two. */
export class BindError extends Error {
  constructor(
    readonly transport: 'UDP' | 'TCP',
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function plainAddress(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

const FALLBACK_CODES = new Set(['EAFNOSUPPORT', 'EADDRNOTAVAIL', 'EINVAL']);

export class TslInput {
  readonly #opts: { host: string; port: number; tally: TslTally; refused: RefusedLog; logger: Logger; indices: readonly number[] };
  #udp: UdpSocket | null = null;
  #tcp: Server | null = null;
  readonly #connections = new Set<TcpSocket>();

  constructor(opts: { host: string; port: number; tally: TslTally; refused: RefusedLog; logger: Logger; indices: readonly number[] }) {
    this.#opts = opts;
  }

  /** The bound port; rejects with a BindError when either transport cannot have it. */
  async start(): Promise<number> {
    // Port 0 (tests): the TCP port the system picks may be taken for UDP; pick again.
    for (let attempt = 0; ; attempt += 1) {
      const port = await this.#listenTcp(this.#opts.port);
      try {
        await this.#bindUdp(port);
        return port;
      } catch (error) {
        // Both or neither: a TCP port without its UDP twin is given back.
        this.close();
        const pickAgain = this.#opts.port === 0 && attempt < 4 && error instanceof BindError && error.code === 'EADDRINUSE';
        if (!pickAgain) throw error;
      }
    }
  }

  close(): void {
    const udp = this.#udp;
    this.#udp = null;
    try {
      udp?.close();
    } catch {
      // Already closed.
    }
    this.#tcp?.close();
    this.#tcp = null;
    for (const socket of this.#connections) socket.destroy();
    this.#connections.clear();
  }

  #handle(read: TslRead, from: string): void {
    if (!read.ok) {
      this.#opts.refused.report('malformed', from, read.problem);
      return;
    }
    if (this.#opts.tally.take(read.displays, read.version)) return;
    const heard = [...new Set(read.displays.map((d) => d.index))];
    const listed = heard.length === 0 ? 'no display' : `display${heard.length === 1 ? '' : 's'} ${heard.slice(0, 8).join(', ')}${heard.length > 8 ? ', …' : ''}`;
    this.#opts.refused.report('other-displays', from, `a TSL ${read.version} packet for ${listed}, none of this room's (tally.tsl.indices ${this.#opts.indices.join(', ')})`);
  }

  #guarded(what: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.#opts.logger.error({ err: error }, `TSL tally: handling ${what} failed; the port keeps listening`);
    }
  }

  #bindUdp(port: number): Promise<void> {
    const { host } = this.#opts;
    if (host !== '0.0.0.0') return this.#bindUdpOn(isIPv6(host) ? 'udp6' : 'udp4', host, port);
    return this.#bindUdpOn('udp6', '::', port).catch((error: unknown) => {
      if (!(error instanceof BindError) || !FALLBACK_CODES.has(error.code ?? '')) throw error;
      return this.#bindUdpOn('udp4', '0.0.0.0', port);
    });
  }

  #bindUdpOn(type: 'udp4' | 'udp6', host: string, port: number): Promise<void> {
    const socket = createSocket(type === 'udp6' ? { type, ipv6Only: false } : { type });
    socket.on('message', (data, rinfo) => this.#guarded('a datagram', () => this.#handle(readDatagram(data), plainAddress(rinfo.address))));
    return new Promise((resolve, reject) => {
      const failed = (error: NodeJS.ErrnoException) => {
        socket.close();
        reject(new BindError('UDP', error.code, error.message));
      };
      socket.once('error', failed);
      socket.bind(port, host, () => {
        socket.off('error', failed);
        socket.on('error', (error) => this.#opts.logger.warn({ code: (error as NodeJS.ErrnoException).code }, `TSL tally UDP: ${error.message}`));
        this.#udp = socket;
        resolve();
      });
    });
  }

  async #listenTcp(port: number): Promise<number> {
    const { host } = this.#opts;
    if (host !== '0.0.0.0') return this.#listenTcpOn(host, port, false);
    try {
      return await this.#listenTcpOn('::', port, true);
    } catch (error) {
      if (!(error instanceof BindError) || !FALLBACK_CODES.has(error.code ?? '')) throw error;
      return this.#listenTcpOn('0.0.0.0', port, false);
    }
  }

  #listenTcpOn(host: string, port: number, dualStack: boolean): Promise<number> {
    const server = createServer((socket) => this.#connection(socket));
    return new Promise((resolve, reject) => {
      const failed = (error: NodeJS.ErrnoException) => {
        server.close();
        reject(new BindError('TCP', error.code, error.message));
      };
      server.once('error', failed);
      server.listen({ port, host, ...(dualStack ? { ipv6Only: false } : {}) }, () => {
        server.off('error', failed);
        server.on('error', (error) => this.#opts.logger.warn({ code: (error as NodeJS.ErrnoException).code }, `TSL tally TCP: ${error.message}`));
        this.#tcp = server;
        const address = server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  }

  #connection(socket: TcpSocket): void {
    const from = plainAddress(socket.remoteAddress);
    // An error on one connection (a reset) concerns it alone.
    socket.on('error', () => socket.destroy());
    if (this.#connections.size >= MAX_TCP_CONNECTIONS) {
      this.#opts.refused.report('connections', from, `more than ${MAX_TCP_CONNECTIONS} TCP connections at once; this one was closed`);
      socket.destroy();
      return;
    }
    this.#connections.add(socket);
    socket.on('close', () => this.#connections.delete(socket));
    const stream = new Tsl5Stream({
      onPacket: (packet) => this.#handle(readTsl5(packet), from),
      onProblem: (problem) => this.#opts.refused.report('framing', from, problem),
    });
    socket.on('data', (chunk: Buffer) => this.#guarded('TCP data', () => stream.push(chunk)));
  }
}
