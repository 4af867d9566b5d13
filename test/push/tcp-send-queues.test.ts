// The kernel's count of unacknowledged bytes per connection: real sockets on
// loopback (IPv4, IPv6 and IPv4 on a dual-stack listener) are found under the
// name connectionKey() gives them, and a peer that stops reading shows bytes
// that stay unacknowledged. Linux only: elsewhere there is no table to read.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionKey, parseTcpTable, readSendQueues } from '../../src/push/tcp-send-queues.js';

const onLinux = process.platform === 'linux';
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A server on `host` and one client connected to it; resolves with the server's side of the connection. */
async function connected(host: string, connectTo = host): Promise<{ server: net.Socket; client: net.Socket }> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, host, resolve));
  const accepted = new Promise<net.Socket>((resolve) => listener.once('connection', resolve));
  const client = net.connect((listener.address() as AddressInfo).port, connectTo);
  const server = await accepted;
  cleanups.push(() => {
    client.destroy();
    server.destroy();
    listener.close();
  });
  return { server, client };
}

describe('the kernel’s send queues', () => {
  it('reads the lines of /proc/net/tcp and tcp6, keyed by local port and remote address, without TIME_WAIT or LISTEN', () => {
    const text = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:1F90 0100007F:C350 01 0000001A:00000000 01:00000014 00000003  1000        0 2 1 0000000000000000 20 4 30 10 -1',
      '   2: 0100007F:1F90 0100007F:C351 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000',
    ].join('\n');
    const text6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000500000A:C352 01 00000000:00000000 02:00000AF0 00000000  1000        0 3 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    const queues = new Map<string, number>();
    parseTcpTable(text, queues);
    parseTcpTable(text6, queues);
    expect([...queues]).toEqual([
      ['1F90|0100007F:C350', 26],
      ['1F90|0000000000000000FFFF00000500000A:C352', 0],
    ]);
  });

  it('names a connection as the table does, for IPv4, IPv6 and IPv4 seen by a dual-stack socket', () => {
    const socket = { localPort: 8080, remotePort: 50_000, bytesWritten: 0, writableLength: 0 };
    const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    expect(connectionKey({ ...socket, remoteAddress: '10.0.0.5' })).toBe(little ? '1F90|0500000A:C350' : '1F90|0A000005:C350');
    if (!little) return;
    expect(connectionKey({ ...socket, remoteAddress: '::ffff:10.0.0.5' })).toBe('1F90|0000000000000000FFFF00000500000A:C350');
    expect(connectionKey({ ...socket, remoteAddress: '::1' })).toBe('1F90|00000000000000000000000001000000:C350');
    expect(connectionKey({ ...socket, remoteAddress: 'fe80::1:2%eth0' })).toBe('1F90|000080FE000000000000000002000100:C350');
    expect(connectionKey({ ...socket, remoteAddress: 'not an address' })).toBeNull();
    expect(connectionKey({ localPort: 8080, bytesWritten: 0, writableLength: 0 })).toBeNull();
  });

  it.runIf(onLinux)('finds real connections under their names, and counts what a peer that stopped reading leaves unacknowledged', async () => {
    const v4 = await connected('127.0.0.1');
    const v6 = await connected('::1');
    const dual = await connected('::', '127.0.0.1');
    expect(dual.server.remoteAddress).toBe('::ffff:127.0.0.1');
    const queues = await readSendQueues();
    for (const { server } of [v4, v6, dual]) expect(queues?.get(connectionKey(server) ?? '')).toBe(0);
    // The client never reads: once its receive window is full, what the server writes stays unacknowledged.
    v4.client.pause();
    const block = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 64; i++) v4.server.write(block);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const later = await readSendQueues();
    const unacked = later?.get(connectionKey(v4.server) ?? '') ?? 0;
    expect(unacked).toBeGreaterThan(0);
    expect(v4.server.bytesWritten - v4.server.writableLength - unacked).toBeLessThan(block.length * 64);
  });
});
