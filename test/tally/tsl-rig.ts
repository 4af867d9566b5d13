// The tally adapter in process on a loopback TSL port (UDP and TCP), beside the
// real HTTP app on the same room service (test-app.ts), with the ON AIR lamp on
// the in-memory GPIO (the lamp follows onAir, src/gpio/lamp-bindings.ts). The TSL
// 5.0 packets come from the `tsl-umd-v5` package's sender, code nobody here wrote.
import { createSocket, type Socket } from 'node:dgram';
import TSL5 from 'tsl-umd-v5';
import type { RoomChange } from '../../src/app/room-service.js';
import type { TslConfig } from '../../src/config/tally-config.js';
import { LampBindings } from '../../src/gpio/lamp-bindings.js';
import { MemoryGpio } from '../../src/gpio/memory-gpio.js';
import { createLogger } from '../../src/log/logger.js';
import { startTally, type TallyAdapter } from '../../src/tally/tally-adapter.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

export const LAMP_PIN = 17;
export const OBS_OFF = { url: undefined, password: undefined, on: 'stream' } as const;

/** Tally values of TSL 5.0. */
export const OFF = 0;
export const RED = 1;
export const GREEN = 2;
export const AMBER = 3;

export interface TslRig {
  readonly t: TestApp;
  readonly tally: TallyAdapter;
  readonly port: number;
  readonly gpio: MemoryGpio;
  /** Every level written to the ON AIR lamp's pin, with when (performance.now()). */
  readonly lampWrites: { readonly high: boolean; readonly atMs: number }[];
  readonly changes: RoomChange[];
  /** Reports the adapter made to the room (one per packet for this room's displays). */
  readonly reports: () => number;
  readonly lines: string[];
  logs(): Record<string, unknown>[];
  /** TSL 5.0 from tsl-umd-v5: one display's right-hand tally. */
  send5(transport: 'udp' | 'tcp', index: number, rh: number, opts?: { screen?: number; text?: string }): void;
  /** Raw bytes in one datagram. */
  sendRaw(data: Uint8Array): void;
  close(): Promise<void>;
}

export async function tslRig(opts: { tsl?: Partial<TslConfig>; app?: TestAppOptions } = {}): Promise<TslRig> {
  const t = createTestApp(opts.app);
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
  const lampWrites: { high: boolean; atMs: number }[] = [];
  const gpio = new MemoryGpio({ onOutput: (bcm, high) => bcm === LAMP_PIN && void lampWrites.push({ high, atMs: performance.now() }) });
  const lamps = new LampBindings({
    port: gpio,
    lamps: [{ bcm: LAMP_PIN, signal: 'onAir', activeLow: false, safeOn: false, alsoFlash: false }],
    feed: t.service,
    clock: t.clock,
    scheduler: t.clock.scheduler,
    logger,
  });
  lamps.start();
  const changes: RoomChange[] = [];
  t.service.subscribe((change) => void changes.push(change));
  let reports = 0;
  const tally = await startTally({
    config: { tsl: { port: 0, host: '127.0.0.1', indices: [1], on: 'program', ...opts.tsl }, obs: OBS_OFF },
    service: {
      dispatch: (command, source) => {
        reports += 1;
        return t.service.dispatch(command, source);
      },
    },
    monoMs: t.clock.monoMs,
    scheduler: t.clock.scheduler,
    logger,
  });
  const port = tally.tslPort;
  if (port === null) throw new Error(`the TSL port did not open: ${lines.join('\n')}`);
  const sender = new TSL5();
  const client: Socket = createSocket('udp4');
  await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
  return {
    t,
    tally,
    port,
    gpio,
    lampWrites,
    changes,
    reports: () => reports,
    lines,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    send5(transport, index, rh, o = {}) {
      const packet = { screen: o.screen ?? 0, index, display: { rh_tally: rh, text_tally: OFF, lh_tally: OFF, brightness: 3, text: o.text ?? 'CAM 1' } };
      if (transport === 'udp') sender.sendTallyUDP('127.0.0.1', port, packet);
      else sender.sendTallyTCP('127.0.0.1', port, packet);
    },
    sendRaw: (data) => client.send(data, port, '127.0.0.1'),
    close: async () => {
      tally.close();
      lamps.close();
      await new Promise<void>((resolve) => client.close(() => resolve()));
    },
  };
}

/** A TSL 3.1 message built by the spec: address + 0x80, tally 1 to 4 in bits 0-3, brightness 3 in bits 4-5, 16 characters. */
export function tsl31(address: number, tallies: { program?: boolean; preview?: boolean } = {}, text = 'CAM 1'): Buffer {
  const message = Buffer.alloc(18, 0x20);
  message[0] = 0x80 + address;
  message[1] = (tallies.program === true ? 0b01 : 0) | (tallies.preview === true ? 0b10 : 0) | (0b11 << 4);
  message.write(text.padEnd(16).slice(0, 16), 2, 'ascii');
  return message;
}

/** Waits until `check` holds (loopback packets take well under a millisecond). */
export async function until(check: () => boolean, what: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
