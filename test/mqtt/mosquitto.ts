// A real Mosquitto (Debian's `mosquitto`) for the MQTT tests, on a free loopback
// port with a config file written here, and its own clients (`mosquitto_sub`,
// `mosquitto_pub`: code nobody here wrote) to look at what the box publishes and to
// send it commands. A TCP relay can stand between the box and the broker, so a
// test can cut the box's connection the way a pulled cable does (no DISCONNECT:
// the broker publishes the last will).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MqttConfig } from '../../src/config/mqtt-config.js';

/** The adapter's config for `room` as the config file's defaults make it, with no broker yet (each test gives its url). */
export function roomConfig(room: string): MqttConfig {
  return {
    url: undefined,
    username: undefined,
    password: undefined,
    baseTopic: 'showclock',
    room,
    caFile: undefined,
    discoveryPrefix: 'homeassistant',
    discovery: true,
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function accepting(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`mosquitto did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export class Mosquitto {
  readonly dir: string;
  readonly port: number;
  readonly #extra: string;
  #process: ChildProcess | null = null;
  readonly log: string[] = [];

  private constructor(port: number, extra: string) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'showclock-mosquitto-'));
    this.port = port;
    this.#extra = extra;
  }

  /**
   * `passwords`: user name to password; the broker then refuses anonymous clients.
   * `listeners`: more of the config file after the plain listener (TLS listeners), each
   * of whose `ports` is waited for as the plain one is.
   */
  static async start(opts: { passwords?: Record<string, string>; listeners?: { config: string; ports: readonly number[] } } = {}): Promise<Mosquitto> {
    const broker = new Mosquitto(await freePort(), opts.listeners?.config ?? '');
    broker.#alsoPorts = opts.listeners?.ports ?? [];
    if (opts.passwords !== undefined) {
      const file = path.join(broker.dir, 'passwords');
      writeFileSync(file, '');
      for (const [user, password] of Object.entries(opts.passwords)) {
        await run('mosquitto_passwd', ['-b', file, user, password]);
      }
      broker.#passwordFile = file;
    }
    await broker.run();
    return broker;
  }

  #passwordFile: string | null = null;
  #alsoPorts: readonly number[] = [];

  async run(): Promise<void> {
    const conf = path.join(this.dir, 'mosquitto.conf');
    const auth = this.#passwordFile === null ? 'allow_anonymous true\n' : `allow_anonymous false\npassword_file ${this.#passwordFile}\n`;
    // As root, mosquitto drops to the user `mosquitto`, which cannot read this private directory.
    const user = process.getuid?.() === 0 ? 'user root\n' : '';
    writeFileSync(conf, `listener ${this.port} 127.0.0.1\n${auth}${user}persistence false\n${this.#extra}`);
    const child = spawn('mosquitto', ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => void this.log.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => void this.log.push(chunk.toString()));
    this.#process = child;
    for (const port of [this.port, ...this.#alsoPorts]) await accepting(port, 10_000);
  }

  /** SIGKILL: no goodbye to anyone; retained messages are gone (persistence off). */
  async kill(): Promise<void> {
    const child = this.#process;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.#process = null;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function run(file: string, args: string[]): Promise<{ stdout: string; code: number }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 15_000 }, (error, stdout) => {
      if (error !== null && typeof error.code !== 'number') reject(error);
      else resolve({ stdout, code: error === null ? 0 : (error.code as number) });
    });
  });
}

export interface Received {
  readonly topic: string;
  readonly payload: string;
}

function parseLines(stdout: string): Received[] {
  return stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const tab = line.indexOf('\t');
      return { topic: line.slice(0, tab), payload: line.slice(tab + 1) };
    });
}

const auth = (opts: { user?: string; password?: string }): string[] =>
  opts.user === undefined ? [] : ['-u', opts.user, ...(opts.password === undefined ? [] : ['-P', opts.password])];

/** The retained messages under a filter, as `mosquitto_sub` sees them on connecting (`count` of them, or what came within `waitS`). */
/** `cafile`: over TLS, trusting that CA (mosquitto_sub's --cafile). */
export async function retained(port: number, filter: string, opts: { count?: number; waitS?: number; user?: string; password?: string; cafile?: string } = {}): Promise<Received[]> {
  const args = ['-h', '127.0.0.1', '-p', String(port), '-t', filter, '-F', '%t\t%p', '--retained-only', '-W', String(opts.waitS ?? 2), ...auth(opts)];
  if (opts.cafile !== undefined) args.push('--cafile', opts.cafile);
  if (opts.count !== undefined) args.push('-C', String(opts.count));
  const { stdout } = await run('mosquitto_sub', args);
  return parseLines(stdout);
}

/** A `mosquitto_sub` left running: every message under the filter, retained or not, as it comes. */
export class Subscriber {
  readonly messages: Received[] = [];
  readonly #child: ChildProcess;
  #partial = '';

  constructor(port: number, filter: string) {
    this.#child = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(port), '-t', filter, '-F', '%t\t%p', '-q', '1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      const text = this.#partial + chunk.toString();
      const cut = text.lastIndexOf('\n');
      this.#partial = text.slice(cut + 1);
      if (cut >= 0) this.messages.push(...parseLines(text.slice(0, cut)));
    });
  }

  close(): void {
    if (this.#child.exitCode === null) this.#child.kill('SIGTERM');
  }
}

export async function publish(port: number, topic: string, payload: string, opts: { retain?: boolean } = {}): Promise<void> {
  const args = ['-h', '127.0.0.1', '-p', String(port), '-t', topic, ...(payload === '' ? ['-n'] : ['-m', payload]), '-q', '1'];
  if (opts.retain === true) args.push('-r');
  const { code } = await run('mosquitto_pub', args);
  if (code !== 0) throw new Error(`mosquitto_pub exited ${code}`);
}

/** A TCP relay to the broker: `cut()` destroys every connection through it at once, like a pulled cable. */
export class Relay {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  port = 0;

  private constructor(target: number) {
    this.#server = createServer((inbound) => {
      const outbound = createConnection({ port: target, host: '127.0.0.1' });
      this.#sockets.add(inbound);
      this.#sockets.add(outbound);
      inbound.pipe(outbound);
      outbound.pipe(inbound);
      const end = () => {
        inbound.destroy();
        outbound.destroy();
        this.#sockets.delete(inbound);
        this.#sockets.delete(outbound);
      };
      inbound.on('error', end).on('close', end);
      outbound.on('error', end).on('close', end);
    });
  }

  static async start(target: number): Promise<Relay> {
    const relay = new Relay(target);
    await new Promise<void>((resolve) => relay.#server.listen(0, '127.0.0.1', resolve));
    const address = relay.#server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    relay.port = address.port;
    return relay;
  }

  cut(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.cut();
    await closed;
  }
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
