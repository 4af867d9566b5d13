// The OSC adapter in process on loopback UDP ports, beside the real HTTP app on
// the same room service and rate limiter (test-app.ts), and a client socket that
// sends datagrams and collects what comes back.
import { createSocket, type Socket } from 'node:dgram';
import { toBuffer, fromBuffer, type OscPacketInput } from 'osc-min';
import type { OscConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/log/logger.js';
import { startOsc, type OscAdapter, type OscDeps } from '../../src/osc/osc-adapter.js';
import { API_KEY, createTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

export { API_KEY };

export interface Reply {
  readonly text: string;
  /** The decoded OSC message, when it was one. */
  readonly osc: { address: string; args: unknown[] } | null;
}

export interface UdpRig {
  readonly t: TestApp;
  readonly osc: OscAdapter;
  /** Log lines of the adapter, not scrubbed of the keys: a key in them is a bug the tests must see. */
  readonly lines: string[];
  logs(): Record<string, unknown>[];
  readonly replies: Reply[];
  sendOsc(packet: OscPacketInput | Uint8Array): void;
  sendText(text: string | Uint8Array): void;
  close(): Promise<void>;
}

export function oscBytes(packet: OscPacketInput): Buffer {
  const view = toBuffer(packet);
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

export async function udpRig(opts: { osc?: Partial<OscConfig>; app?: TestAppOptions; service?: OscDeps['service']; apiKey?: () => string } = {}): Promise<UdpRig> {
  const t = createTestApp(opts.app);
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
  const osc = await startOsc({
    config: { port: 0, host: '127.0.0.1', textPort: 0, reply: false, feedback: [], ...opts.osc },
    service: opts.service ?? t.service,
    apiKey: opts.apiKey ?? (() => t.keys.apiKey),
    limiter: t.limiter,
    monoMs: t.clock.monoMs,
    scheduler: t.clock.scheduler,
    logger,
  });
  const client: Socket = createSocket('udp4');
  const replies: Reply[] = [];
  client.on('message', (data) => {
    let decoded: Reply['osc'] = null;
    try {
      const packet = fromBuffer(data);
      if (packet.oscType === 'message') decoded = { address: packet.address, args: packet.args.map((arg) => arg.value) };
    } catch {
      // A plain-text answer.
    }
    replies.push({ text: data.toString('utf8'), osc: decoded });
  });
  await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
  const send = (port: number | null, data: Uint8Array) => {
    if (port === null) throw new Error('that port is off');
    client.send(data, port, '127.0.0.1');
  };
  return {
    t,
    osc,
    lines,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    replies,
    sendOsc: (packet) => send(osc.oscPort, packet instanceof Uint8Array ? packet : oscBytes(packet)),
    sendText: (text) => send(osc.textPort, typeof text === 'string' ? Buffer.from(text) : text),
    close: async () => {
      osc.close();
      await new Promise<void>((resolve) => client.close(() => resolve()));
    },
  };
}

/** Waits until `check` holds (datagrams on loopback take well under a millisecond, handling a little more). */
export async function until(check: () => boolean, what: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
