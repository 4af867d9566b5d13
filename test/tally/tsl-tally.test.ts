// Tally in over TSL UMD, end to end in process: packets from a TSL sender nobody
// here wrote (the `tsl-umd-v5` package) over UDP and TCP, and TSL 3.1 datagrams
// built by the spec, switch ON AIR in the real room service and the lamp on the
// in-memory GPIO; a manual switch holds until the next tally change; repeats are
// no change; malformed and foreign packets change nothing and are logged at most
// once a minute with a count. The tally-to-lamp latency is measured and written
// to test-artifacts/tally-latency.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import TSL5 from 'tsl-umd-v5';
import { afterEach, describe, expect, it } from 'vitest';
import { LAMP_PIN, OFF, RED, GREEN, AMBER, tsl31, tslRig, until, type TslRig } from './tsl-rig.js';

let rig: TslRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function open(opts: Parameters<typeof tslRig>[0] = {}): Promise<TslRig> {
  rig = await tslRig(opts);
  return rig;
}

const lamp = (r: TslRig) => r.gpio.outputLevel(LAMP_PIN);
const packet5 = (index: number, rh: number, sequence = false) =>
  new TSL5().constructPacket({ screen: 0, index, display: { rh_tally: rh, text_tally: OFF, lh_tally: OFF, brightness: 3, text: 'CAM' } }, sequence);

async function stateOf(r: TslRig, version: 'v0' | 'v1' = 'v1'): Promise<Record<string, unknown>> {
  const body = (await (await r.t.get(version, version === 'v1' ? '/state' : '/status')).json()) as { state: Record<string, unknown> };
  return body.state;
}

describe('TSL 5.0 from tsl-umd-v5 switches ON AIR and the lamp', () => {
  for (const transport of ['udp', 'tcp'] as const) {
    it(`over ${transport.toUpperCase()}: red on the room's index is on air, off is off`, async () => {
      const r = await open();
      expect([r.t.service.room.onAir, lamp(r)]).toEqual([false, false]);
      expect((await stateOf(r)).tally).toBeNull();
      r.send5(transport, 1, RED);
      await until(() => lamp(r) === true, 'the lamp on');
      expect(r.t.service.room.onAir).toBe(true);
      expect((await stateOf(r)).tally).toEqual({ on: true, sources: { tsl: true } });
      expect(r.changes.at(-1)?.source).toBe('tally');
      r.send5(transport, 1, OFF);
      await until(() => lamp(r) === false, 'the lamp off');
      const state = await stateOf(r);
      expect([state.onAir, state.tally]).toEqual([false, { on: false, sources: { tsl: false } }]);
      // v0 is frozen: no tally there.
      expect('tally' in (await stateOf(r, 'v0'))).toBe(false);
      // One log line per change, none per packet.
      const said = r.logs().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('tally: TSL says'));
      expect(said.map((line) => line.msg)).toEqual(['tally: TSL says on air', 'tally: TSL says off air']);
    });
  }

  it('amber is program and preview; green is preview only, on air with `on: preview` or `both`', async () => {
    const r = await open({ tsl: { on: 'preview' } });
    r.send5('udp', 1, RED);
    await until(() => r.reports() === 1, 'the first report');
    expect(r.t.service.room.onAir).toBe(false);
    r.send5('udp', 1, GREEN);
    await until(() => lamp(r) === true, 'the lamp on for preview');
    r.send5('udp', 1, AMBER);
    await until(() => r.reports() === 3, 'the third report');
    expect(lamp(r)).toBe(true);
  });

  it('several indices: on air while any of them is; the broadcast index 0xFFFF speaks for all', async () => {
    const r = await open({ tsl: { indices: [1, 2] } });
    r.sendRaw(packet5(1, RED));
    await until(() => lamp(r) === true, 'on by index 1');
    r.sendRaw(packet5(2, RED));
    r.sendRaw(packet5(1, OFF));
    await until(() => r.reports() === 3, 'three reports');
    expect(lamp(r)).toBe(true);
    r.sendRaw(packet5(2, OFF));
    await until(() => lamp(r) === false, 'off once both are off');
    r.sendRaw(packet5(0xffff, RED));
    await until(() => lamp(r) === true, 'on by broadcast');
  });

  it('TCP: packets cut anywhere and several in one write, framed with DLE stuffing', async () => {
    const r = await open({ tsl: { indices: [0xfe] } });
    // Index 0xFE is a DLE byte: the sender stuffs it, the reader must undo it.
    const on = packet5(0xfe, RED, true);
    const off = packet5(0xfe, OFF, true);
    expect(on.subarray(2).includes(0xfe)).toBe(true);
    const socket = createConnection(r.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const bytes = Buffer.concat([on, off, on]);
    for (let at = 0; at < bytes.length; at += 3) socket.write(bytes.subarray(at, at + 3));
    await until(() => r.reports() === 3, 'three packets read');
    expect(lamp(r)).toBe(true);
    expect(r.changes.map((c) => c.room.onAir)).toEqual([true, false, true]);
    socket.destroy();
  });
});

describe('the manual switch and repeats', () => {
  it('a manual ON AIR off holds while the mixer repeats on; the next tally change takes over', async () => {
    const r = await open();
    r.send5('udp', 1, RED);
    await until(() => lamp(r) === true, 'the lamp on');
    expect((await r.t.get('v1', '/onair?on=0')).status).toBe(200);
    expect(lamp(r)).toBe(false);
    for (let i = 0; i < 5; i += 1) r.send5('udp', 1, RED);
    await until(() => r.reports() === 6, 'the repeats');
    expect([r.t.service.room.onAir, lamp(r)]).toEqual([false, false]);
    r.send5('udp', 1, OFF);
    await until(() => r.reports() === 7, 'off');
    expect(lamp(r)).toBe(false);
    r.send5('udp', 1, RED);
    await until(() => lamp(r) === true, 'on again: the tally changed');
    // And the other way: on by hand while the tally says off, until the tally goes on and off.
    r.send5('udp', 1, OFF);
    await until(() => lamp(r) === false, 'off');
    expect((await r.t.get('v1', '/toggle_onair')).status).toBe(200);
    r.send5('udp', 1, OFF);
    await until(() => r.reports() === 10, 'a repeat of off');
    expect(lamp(r)).toBe(true);
  });

  it('repeated identical packets make no seq step, no change and no log line', async () => {
    const r = await open();
    r.send5('udp', 1, RED);
    await until(() => lamp(r) === true, 'the lamp on');
    const seq = r.t.service.room.seq;
    const changes = r.changes.length;
    const lines = r.lines.length;
    for (let i = 0; i < 40; i += 1) r.sendRaw(packet5(1, RED));
    for (let i = 0; i < 10; i += 1) r.send5('tcp', 1, RED);
    await until(() => r.reports() === 51, '50 repeats');
    expect([r.t.service.room.seq, r.changes.length, r.lines.length]).toEqual([seq, changes, lines]);
    expect(r.lampWrites.length).toBe(2);
  });
});

describe('TSL 3.1 (UDP), built by the spec', () => {
  it('tally 1 on the room\'s address is on air; another address changes nothing', async () => {
    const r = await open({ tsl: { indices: [3] } });
    r.sendRaw(tsl31(3, { program: true }));
    await until(() => lamp(r) === true, 'on by 3.1');
    r.sendRaw(tsl31(4, { program: false }));
    r.sendRaw(Buffer.concat([tsl31(5), tsl31(3, { program: false, preview: true })]));
    await until(() => lamp(r) === false, 'off by the second message of a datagram');
    expect(r.t.service.room.tally).toEqual({ tsl: false });
  });
});

describe('malformed and foreign packets', () => {
  it('change nothing, never stop the port, and are logged once a minute per kind with a count', async () => {
    const r = await open();
    const seq = r.t.service.room.seq;
    const junk: Buffer[] = [
      Buffer.alloc(0),
      Buffer.from('hello, this is not TSL'),
      packet5(1, RED).subarray(0, 9),
      Buffer.alloc(65_507, 0xab),
      packet5(2, RED),
      packet5(7, RED, true),
      tsl31(9, { program: true }),
      Buffer.from([0xfe, 0x02, 0xfe, 0x41]),
    ];
    for (let round = 0; round < 3; round += 1) for (const data of junk) r.sendRaw(data);
    // A TCP connection that sends garbage and a packet cut short.
    const socket = createConnection(r.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(Buffer.concat([Buffer.from('GET / HTTP/1.1\r\n\r\n'), packet5(1, RED, true).subarray(0, 7), packet5(3, RED, true)]));
    // Sent last, from the same socket: once it has acted, everything before it was handled.
    r.sendRaw(packet5(1, OFF));
    await until(() => r.reports() === 1, 'the barrier packet');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    // Only the barrier changed the room: the first report (off) from unknown.
    expect(r.t.service.room.seq).toBe(seq + 1);
    expect(r.t.service.room.onAir).toBe(false);
    const refused = () => r.logs().filter((line) => typeof line.cause === 'string' && (line.cause as string).startsWith('tsl '));
    const firsts = refused().filter((line) => line.suppressed === undefined);
    // One line per kind and sender: malformed, other displays (info), framing.
    expect(new Set(firsts.map((line) => line.cause))).toEqual(new Set(['tsl malformed 127.0.0.1', 'tsl other-displays 127.0.0.1', 'tsl framing 127.0.0.1']));
    expect(firsts.length).toBe(3);
    expect(r.lines.every((line) => line.length < 600)).toBe(true);
    r.t.clock.advance(60_000);
    const summaries = refused().filter((line) => line.suppressed !== undefined);
    expect(summaries.map((line) => line.cause).sort()).toEqual(['tsl framing 127.0.0.1', 'tsl malformed 127.0.0.1', 'tsl other-displays 127.0.0.1']);
    const malformed = summaries.find((line) => line.cause === 'tsl malformed 127.0.0.1');
    // Five malformed kinds, three rounds, the first logged; loopback may drop one of the 64 KiB datagrams when its buffer is full.
    expect(malformed?.suppressed).toBeGreaterThanOrEqual(3 * 4 - 1);
    expect(malformed?.suppressed).toBeLessThanOrEqual(3 * 5 - 1);
    // The port still listens.
    r.send5('udp', 1, RED);
    await until(() => lamp(r) === true, 'the lamp on after all that');
  });

  it('a port already in use: logged once, tally off, the service runs on', async () => {
    const first = await open();
    const { startTally } = await import('../../src/tally/tally-adapter.js');
    const lines: string[] = [];
    const { createLogger } = await import('../../src/log/logger.js');
    const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
    const second = await startTally({
      config: { tsl: { port: first.port, host: '127.0.0.1', indices: [1], on: 'program' }, obs: { url: undefined, password: undefined, on: 'stream' } },
      service: first.t.service,
      monoMs: first.t.clock.monoMs,
      logger,
    });
    expect(second.tslPort).toBeNull();
    const errors = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 50);
    expect(errors.map((line) => line.msg)).toEqual([expect.stringMatching(new RegExp(`^TSL tally off: (TCP|UDP) port ${first.port} on 127\\.0\\.0\\.1 is already in use`))]);
    second.close();
    expect((await first.t.get('v1', '/start')).status).toBe(200);
  });
});

describe('a port only half free', () => {
  it('UDP taken, TCP free: TSL is off, logged once naming UDP, and the TCP port is given back', async () => {
    const { createSocket } = await import('node:dgram');
    const { createServer } = await import('node:net');
    const { startTally } = await import('../../src/tally/tally-adapter.js');
    const { createLogger } = await import('../../src/log/logger.js');
    const udp = createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const port = udp.address().port;
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
    const t = (await import('../helpers/test-app.js')).createTestApp();
    const tally = await startTally({
      config: { tsl: { port, host: '127.0.0.1', indices: [1], on: 'program' }, obs: { url: undefined, password: undefined, on: 'stream' } },
      service: t.service,
      monoMs: t.clock.monoMs,
      logger,
    });
    expect(tally.tslPort).toBeNull();
    const errors = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 50);
    expect(errors.map((line) => line.msg)).toEqual([`TSL tally off: UDP port ${port} on 127.0.0.1 is already in use (another tally receiver, or another Showclock?); choose another tally.tsl.port`]);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    tally.close();
  });
});

describe('tally-to-lamp latency', () => {
  it('is measured over 50 changes per transport, from the packet sent to the lamp pin written', async () => {
    const r = await open();
    const figures: Record<string, { changes: number; medianMs: number; p95Ms: number; maxMs: number }> = {};
    for (const transport of ['udp', 'tcp'] as const) {
      const samples: number[] = [];
      for (let i = 0; i < 50; i += 1) {
        const on = !lamp(r);
        const writes = r.lampWrites.length;
        const sentAt = performance.now();
        r.send5(transport, 1, on ? RED : OFF);
        await until(() => r.lampWrites.length > writes, `change ${i} over ${transport}`);
        samples.push((r.lampWrites.at(-1)?.atMs ?? NaN) - sentAt);
      }
      samples.sort((a, b) => a - b);
      const round = (ms: number) => Math.round(ms * 100) / 100;
      figures[transport] = {
        changes: samples.length,
        medianMs: round(samples[Math.floor(samples.length / 2)] ?? NaN),
        p95Ms: round(samples[Math.ceil(samples.length * 0.95) - 1] ?? NaN),
        maxMs: round(samples.at(-1) ?? NaN),
      };
      // A generous bound, not a timing test: the figure is what matters.
      expect(samples.at(-1)).toBeLessThan(1_000);
    }
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync(
      'test-artifacts/tally-latency.json',
      `${JSON.stringify({ what: 'TSL 5.0 packet sent by tsl-umd-v5 on loopback to the ON AIR lamp pin written (in-memory GPIO), in process', node: process.version, ...figures }, null, 2)}\n`,
    );
  });
});
