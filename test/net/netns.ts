// Two network namespaces joined by a veth pair, made by a test and removed after it:
// a little network of its own, so tests of mDNS and of boxes watching each other talk
// to nothing but what they started (root needed; CI runs as root).
//
//   const reason = netnsUnavailable();           // null, or why the test must skip
//   const pair = makeNetnsPair();                // pair.ns = [ns1, ns2], pair.addresses = ['10.77.x.1', '10.77.x.2']
//   const box = runIn(pair, 0, process.execPath, ['dist/showclock.mjs'], { env: {...} });
//   const out = await execIn(pair, 1, 'avahi-browse', ['-rpt', '_showclock._tcp'], { timeoutMs: 5_000 });
//   cleanupNetns(pair);                          // in afterAll: kills what runIn started, removes both
//
// Multicast works on the veth (each side has a route for 224.0.0.0/4), loopback is up
// in both. Names are unique per run (pid and random), short enough for interface names.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface NetnsPair {
  /** The two namespaces' names. */
  readonly ns: readonly [string, string];
  /** The veth ends, ns[0]'s and ns[1]'s. */
  readonly links: readonly [string, string];
  /** Each side's IPv4 address (a /24 of 10.77.x.0). */
  readonly addresses: readonly [string, string];
  /** Processes started by runIn, killed by cleanupNetns. */
  readonly children: ChildProcess[];
}

export type Side = 0 | 1;

function ip(args: readonly string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Null when namespaces can be made here; else the reason, for a skip message. */
export function netnsUnavailable(): string | null {
  if (process.platform !== 'linux') return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'needs root to make network namespaces (ip netns add); CI runs as root';
  const probe = `scprobe${process.pid}`;
  try {
    ip(['netns', 'add', probe]);
    ip(['netns', 'del', probe]);
    return null;
  } catch (error) {
    const text = error instanceof Error ? ((error as { stderr?: string }).stderr ?? error.message) : String(error);
    return `\`ip netns add\` does not work here: ${text.trim()}`;
  }
}

export function makeNetnsPair(): NetnsPair {
  const id = `${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
  const ns: [string, string] = [`sc${id}a`, `sc${id}b`];
  // Interface names are at most 15 characters.
  const links: [string, string] = [`v${id}a`.slice(0, 15), `v${id}b`.slice(0, 15)];
  const subnet = 1 + randomBytes(1)[0]! % 250;
  const addresses: [string, string] = [`10.77.${subnet}.1`, `10.77.${subnet}.2`];
  const pair: NetnsPair = { ns, links, addresses, children: [] };
  try {
    ip(['netns', 'add', ns[0]]);
    ip(['netns', 'add', ns[1]]);
    ip(['link', 'add', links[0], 'type', 'veth', 'peer', 'name', links[1]]);
    for (const side of [0, 1] as const) {
      ip(['link', 'set', links[side], 'netns', ns[side]]);
      ip(['-n', ns[side], 'addr', 'add', `${addresses[side]}/24`, 'dev', links[side]]);
      ip(['-n', ns[side], 'link', 'set', 'lo', 'up']);
      ip(['-n', ns[side], 'link', 'set', links[side], 'up']);
      // Without a route for multicast, a socket bound to 0.0.0.0 cannot send to 224.0.0.251 (no default route here).
      ip(['-n', ns[side], 'route', 'add', '224.0.0.0/4', 'dev', links[side]]);
    }
  } catch (error) {
    cleanupNetns(pair);
    throw error;
  }
  return pair;
}

/** Every address of the side's veth, IPv4 and IPv6 (the link-local one the kernel gave it included). */
export function linkAddresses(pair: NetnsPair, side: Side): string[] {
  const parsed = JSON.parse(ip(['-n', pair.ns[side], '-j', 'addr', 'show', 'dev', pair.links[side]])) as { addr_info?: { local?: string }[] }[];
  return parsed.flatMap((link) => (link.addr_info ?? []).flatMap((info) => (info.local === undefined ? [] : [info.local])));
}

export interface RunOptions {
  /** The whole environment of the process (nothing of the test's is passed unless given). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** Starts `command` inside the side's namespace (`ip netns exec` execs it: the child's pid is the command's). */
export function runIn(pair: NetnsPair, side: Side, command: string, args: readonly string[], options: RunOptions = {}): ChildProcess {
  const child = spawn('ip', ['netns', 'exec', pair.ns[side], command, ...args], {
    env: options.env ?? { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin' },
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pair.children.push(child);
  return child;
}

export interface ExecResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` in the namespace to its end (or kills it after timeoutMs, with what it printed so far). */
export function execIn(pair: NetnsPair, side: Side, command: string, args: readonly string[], options: RunOptions & { readonly timeoutMs?: number } = {}): Promise<ExecResult> {
  const child = runIn(pair, side, command, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Kills what runIn started in the pair and removes both namespaces (the veth goes with them). Never throws. */
export function cleanupNetns(pair: NetnsPair): void {
  for (const child of pair.children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const ns of pair.ns) {
    try {
      ip(['netns', 'del', ns]);
    } catch {
      // Not made (a failure part-way through makeNetnsPair), or gone already.
    }
  }
}

/** A line a process printed (stdout or stderr), with when the test read it (Date.now()). */
export interface SeenLine {
  readonly at: number;
  readonly text: string;
}

/**
 * Every line a child prints, kept from the start, so a wait never misses one printed before
 * it began. `waitFor` resolves with the first line (already seen or still to come) that
 * `match` accepts, after `from` lines; it rejects after timeoutMs or when the child exits.
 */
export class OutputLines {
  readonly lines: SeenLine[] = [];
  readonly #child: ChildProcess;
  readonly #waiters = new Set<() => void>();
  #exited = false;

  constructor(child: ChildProcess) {
    this.#child = child;
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      let partial = '';
      stream.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop() ?? '';
        const at = Date.now();
        for (const text of parts) this.lines.push({ at, text });
        for (const waiter of this.#waiters) waiter();
      });
    }
    child.once('exit', () => {
      this.#exited = true;
      for (const waiter of this.#waiters) waiter();
    });
  }

  text(): string {
    return this.lines.map((line) => line.text).join('\n');
  }

  waitFor(match: (text: string) => boolean, timeoutMs: number, what: string, from = 0): Promise<SeenLine> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.lines.slice(from).find((line) => match(line.text));
        if (found !== undefined) finish(null, found);
        else if (this.#exited || this.#child.exitCode !== null) finish(new Error(`${what}: the process exited first; it printed:\n${this.text().slice(-3_000)}`));
      };
      const timer = setTimeout(() => finish(new Error(`${what}: not seen within ${timeoutMs} ms; the process printed:\n${this.text().slice(-3_000)}`)), timeoutMs);
      const finish = (error: Error | null, line?: SeenLine): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (error !== null) reject(error);
        else if (line !== undefined) resolve(line);
      };
      this.#waiters.add(check);
      check();
    });
  }
}
