// `npm start` as a person runs it: in a terminal. util-linux `script` makes the
// pty; inside it `bash -c 'set -m; npm start'` is the shell with job control, so
// npm and everything under it (sh -c, the wrapper scripts/start.mjs, the service)
// form the terminal's foreground process group, as after typing `npm start` at a
// prompt, and the shell stays out of that group. (Without `set -m`, `script -c`'s
// shell would share the group and die of the same signal, and the session would
// hang up: a SIGHUP a real prompt never sends.) After the job the shell waits
// for a line, as a prompt does: the terminal stays open until the test has seen
// everything stop, so the last log lines are not cut off by the terminal closing.
// `trap : INT` keeps that shell alive when its job dies of Ctrl-C, as a prompt
// does (a non-interactive bash would kill itself with SIGINT); a trap with a
// handler, unlike an ignored signal, is reset to the default in the children.
//   Ctrl-C is the byte 0x03 written to script's stdin: script copies it to the pty
// master and the line discipline sends SIGINT to the foreground group, exactly
// what a key press does. A process-group SIGTERM is `kill -TERM -<pgid of npm>`.
//   npm does not report the service's exit code (it dies of the signal it passed
// on: 130/143), so every node process of the session loads a tiny preload
// (NODE_OPTIONS=--require) that appends its own exit code to a file on 'exit'.
// That changes nothing in how signals are handled. The processes of one session
// are found by their environment (SHOWCLOCK_DATA_DIR is unique per test), which
// also finds orphans that left the session's process group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE, ROOT, TEST_API_KEY, type LogLine } from './service-process.js';

export const TEST_VIEWER_KEY = 'StopTestViewerKey_0123456789';
/** util-linux script(1), from PATH. */
export const SCRIPT_BIN = 'script';

/** Why `npm start` in a pty cannot be run here, or null. */
export function terminalUnavailable(): string | null {
  if (process.platform !== 'linux') return 'needs Linux (/proc, util-linux script)';
  for (const tool of ['script', 'bash', 'npm']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
    if (found.status !== 0) return `${tool} is not installed`;
  }
  return null;
}

function newestMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMs(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds when `npm start` would (bundle missing or older than src/), so that the
 * build does not happen inside a timed round. Sources edited while the test runs
 * still make one start rebuild: the start timeouts allow for that.
 */
export function ensureFreshBundle(): void {
  const cjs = BUNDLE.replace(/\.mjs$/, '.cjs');
  if (existsSync(BUNDLE) && existsSync(cjs) && statSync(BUNDLE).mtimeMs >= newestMs(path.join(ROOT, 'src'))) return;
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
}

const EXIT_RECORDER = `// Written by test/e2e/terminal-session.ts: each node process appends its exit code.
const { appendFileSync } = require('node:fs');
process.on('exit', (code) => {
  try {
    appendFileSync(process.env.STOP_TEST_EXIT_LOG, JSON.stringify({ pid: process.pid, script: process.argv[1] || '', code }) + '\\n');
  } catch {}
});
`;

export interface ProcessInfo {
  readonly pid: number;
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  readonly args: readonly string[];
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
    return { pid, state: state ?? '?', ppid: Number(ppid), pgid: Number(pgid), args };
  } catch {
    return null;
  }
}

/** Alive: present and not a zombie (PID 1 in a container may never reap). */
export function isAlive(pid: number): boolean {
  const info = readProcess(pid);
  return info !== null && info.state !== 'Z';
}

/** Every live process whose environment holds `marker` (NAME=value). */
export function processesWithEnv(marker: string): ProcessInfo[] {
  const needle = Buffer.from(`\0${marker}\0`);
  const found: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${name}/environ`), Buffer.from('\0')]);
    } catch {
      continue;
    }
    if (!environ.includes(needle)) continue;
    const info = readProcess(Number(name));
    if (info !== null && info.state !== 'Z') found.push(info);
  }
  return found;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | null | false, timeoutMs: number, everyMs = 10): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface SessionPids {
  /** npm, the leader of the terminal's foreground process group. */
  readonly npm: number;
  /** `sh -c node scripts/start.mjs`: npm runs scripts through a shell. */
  readonly npmShell: number;
  readonly wrapper: number;
  readonly service: number;
}

export interface ExitRecord {
  readonly pid: number;
  readonly script: string;
  readonly code: number;
}

export interface TerminalSession {
  readonly script: ChildProcess;
  readonly port: number;
  readonly api: string;
  readonly pids: SessionPids;
  /** Log lines of the service so far (JSON lines among the banner, npm's lines and echoed ^C). */
  lines(): LogLine[];
  output(): string;
  /** Ctrl-C: the byte the terminal turns into SIGINT for its foreground process group. */
  ctrlC(): void;
  /** `kill -<signal> -<pgid>` on npm's process group. */
  killGroup(signal: NodeJS.Signals): void;
  /** Resolves when npm, the wrapper and the service are gone; then closes the terminal (Enter at the prompt). */
  ended(timeoutMs?: number): Promise<void>;
  /** The terminal window closed: the terminal side of the pty goes away (SIGKILL to `script`), a hangup. */
  closeTerminal(): void;
  /** The codes the node processes passed to exit; a process killed by a signal has none. */
  exits(): ExitRecord[];
  /** Kills whatever of this session still runs (orphans included), by pid. */
  kill(): void;
}

export interface SessionOptions {
  readonly dataDir: string;
  /** A private directory for the exit recorder and its log. */
  readonly workDir: string;
  /** What the shell runs as the foreground job; `npm start` unless told. No single quotes. */
  readonly job?: string;
  readonly env?: Record<string, string>;
  readonly readyTimeoutMs?: number;
}

/** The JSON log lines in what a terminal (or a log file) shows; a line cut off is passed over. */
export function parseLines(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const raw of output.split('\n')) {
    const start = raw.indexOf('{"level"');
    if (start < 0) continue;
    try {
      lines.push(JSON.parse(raw.slice(start).trimEnd()) as LogLine);
    } catch {
      // a line cut by the terminal closing; not a whole log line
    }
  }
  return lines;
}

/** `npm start` in a new pty; resolves once the service logged "showclock started". */
export async function startInTerminal(opts: SessionOptions): Promise<TerminalSession> {
  const recorder = path.join(opts.workDir, 'exit-recorder.cjs');
  const exitLog = path.join(opts.workDir, 'exits.jsonl');
  if (!existsSync(recorder)) writeFileSync(recorder, EXIT_RECORDER);
  writeFileSync(exitLog, '');
  const marker = `SHOWCLOCK_DATA_DIR=${opts.dataDir}`;
  const job = opts.job ?? 'npm start';
  // The job is not the last command (bash would exec that one, in the shell's own process group).
  const command = `bash -c 'set -m; trap : INT; ${job}; read -r _'`;
  const script = spawn(SCRIPT_BIN, ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      TERM: 'xterm',
      HOST: '127.0.0.1',
      PORT: '0',
      SHOWCLOCK_GPIO: 'off',
      SHOWCLOCK_DATA_DIR: opts.dataDir,
      SHOWCLOCK_API_KEY: TEST_API_KEY,
      SHOWCLOCK_VIEWER_KEY: TEST_VIEWER_KEY,
      // No code cache written into dist/ by these many short runs.
      SHOWCLOCK_CODE_CACHE: 'off',
      // npm must not ask the registry anything.
      npm_config_update_notifier: 'false',
      NO_UPDATE_NOTIFIER: '1',
      NODE_OPTIONS: `--require ${recorder}`,
      STOP_TEST_EXIT_LOG: exitLog,
      ...opts.env,
    },
  });
  let output = '';
  let stderr = '';
  script.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  script.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A keystroke for a terminal that is gone is lost, as it would be; ended() reports a terminal that closed early.
  script.stdin?.on('error', () => {});
  const closed = new Promise<void>((resolve) => script.on('close', () => resolve()));
  let scriptDone = false;
  void closed.then(() => (scriptDone = true));

  const killAll = (): void => {
    for (const p of processesWithEnv(marker)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    try {
      if (script.pid !== undefined) process.kill(-script.pid, 'SIGKILL');
    } catch {
      // gone
    }
  };

  let port: number;
  let pids: SessionPids;
  try {
    const started = await waitFor(
      'the "showclock started" line',
      () => {
        if (scriptDone) throw new Error(`the terminal closed before the service started; output: ${output} ${stderr}`);
        return parseLines(output).find((l) => l.msg === 'showclock started' && typeof l.port === 'number');
      },
      opts.readyTimeoutMs ?? 20_000,
    );
    port = started.port as number;
    const procs = processesWithEnv(marker);
    const find = (what: string, match: (p: ProcessInfo) => boolean): ProcessInfo => {
      const hit = procs.find(match);
      if (hit === undefined) throw new Error(`no ${what} among ${JSON.stringify(procs.map((p) => p.args))}`);
      return hit;
    };
    // Node itself, not `sh -c node scripts/start.mjs` (whose last argument ends the same way).
    const nodeRunning = (p: ProcessInfo, entry: string): boolean => /(^|\/)node$/.test(p.args[0] ?? '') && p.args.some((a) => a.endsWith(entry));
    const service = find('service', (p) => nodeRunning(p, 'dist/showclock.mjs'));
    const wrapper = find('wrapper', (p) => nodeRunning(p, 'scripts/start.mjs'));
    const npm = find('npm', (p) => p.pid === wrapper.pgid);
    if (!npm.args.join(' ').includes('npm')) throw new Error(`the leader of the job's process group is not npm: ${npm.args.join(' ')}`);
    pids = { npm: npm.pid, npmShell: wrapper.ppid, wrapper: wrapper.pid, service: service.pid };
    // One answer first: the "started" line is written just before the last steps of the start.
    await fetch(`http://127.0.0.1:${port}/healthz`);
  } catch (error) {
    killAll();
    throw error;
  }

  return {
    script,
    port,
    api: `http://127.0.0.1:${port}/api/v1/${TEST_API_KEY}`,
    pids,
    lines: () => parseLines(output),
    output: () => output,
    ctrlC: () => void script.stdin?.write('\x03'),
    killGroup: (signal) => process.kill(-pids.npm, signal),
    ended: async (timeoutMs = 10_000) => {
      await waitFor('npm, the wrapper and the service to exit', () => ![pids.npm, pids.wrapper, pids.service].some(isAlive), timeoutMs);
      if (scriptDone) throw new Error(`the terminal closed before the prompt came back (the shell died); output: ${output} ${stderr}`);
      script.stdin?.write('\n');
      await waitFor('the terminal to close', () => scriptDone, timeoutMs);
    },
    closeTerminal: () => void script.kill('SIGKILL'),
    exits: () =>
      readFileSync(exitLog, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as ExitRecord),
    kill: killAll,
  };
}
