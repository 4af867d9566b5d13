// The UDP port under OSC and plain text: on the default host it hears IPv4 and
// IPv6 senders alike (`localhost` may be ::1), names an IPv4 sender as HTTP does,
// and answers each at its own address.
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { plainAddress, UdpListener, type UdpSender } from '../../src/osc/udp-listener.js';
import { capturingLogger } from '../gpio/gpio-fixtures.js';
import { until } from './udp-rig.js';

const open: (UdpListener | Socket)[] = [];
afterEach(() => {
  for (const thing of open.splice(0)) thing.close();
});

async function client(type: 'udp4' | 'udp6', host: string, got: string[]): Promise<Socket> {
  const socket = createSocket(type);
  open.push(socket);
  socket.on('message', (data) => void got.push(data.toString()));
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return socket;
}

describe('UdpListener', () => {
  it('on 0.0.0.0 hears 127.0.0.1 and ::1, and answers both', async () => {
    const heard: UdpSender[] = [];
    const { logger } = capturingLogger();
    const listener: UdpListener = new UdpListener({
      host: '0.0.0.0',
      port: 0,
      label: 'test',
      logger,
      onDatagram: (data, from) => {
        heard.push(from);
        listener.send(Buffer.from(`echo ${data.toString()}`), from);
      },
    });
    open.push(listener);
    const port = await listener.start();
    const got4: string[] = [];
    const got6: string[] = [];
    (await client('udp4', '127.0.0.1', got4)).send('four', port, '127.0.0.1');
    (await client('udp6', '::1', got6)).send('six', port, '::1');
    await until(() => got4.length === 1 && got6.length === 1, 'both answers');
    expect([got4, got6]).toEqual([['echo four'], ['echo six']]);
    expect(heard.map((from) => from.address).sort()).toEqual(['127.0.0.1', '::1']);
  });

  it('names a mapped IPv4 sender by its IPv4 address', () => {
    expect(plainAddress('::ffff:10.0.0.5')).toBe('10.0.0.5');
    expect(plainAddress('::ffff:abcd')).toBe('::ffff:abcd');
    expect(plainAddress('fe80::1')).toBe('fe80::1');
    expect(plainAddress('192.168.1.2')).toBe('192.168.1.2');
  });
});
