// Issue 25, finding 6a: the terminal of `npm start` closed. `npm start` is typed at
// an interactive bash in a tmux session, and `tmux kill-session` closes the
// terminal: the pty hangs up and the job gets SIGHUP. The service stops in order
// and it and the wrapper (scripts/start.mjs) must then exit 0. Node 20 used to
// die there of SIGSEGV or SIGABRT (its exit-time terminal reset on a hung-up tty,
// nodejs/node#51519; see src/app/exit-after-hangup.ts), after "stopped" was logged.
//   A process killed by a signal runs no 'exit' handler, and its code as passed to
// process.exit says nothing of how it ended, so its wait status is taken from its
// parent: npm runs the start script through this test's script shell
// (npm_config_script_shell, a bash that takes the place of `sh -c` and outlives
// the SIGHUP), which writes down the wrapper's $? (128 + n: killed by signal n);
// and a preload in every node process of the session (NODE_OPTIONS=--require)
// records each child's exit as its parent saw it (the wrapper sees the service's)
// beside the code each process passed to exit. That changes nothing in how
// signals are handled.
//   Odd rounds leave standard output on the terminal, as typed; even rounds send
// it to a file (`npm start > service.log`, standard input and error stay on the
// terminal): lines written after the hang-up (all of the stop's) can only be read
// there. Every round changes the message just before the hang-up and reads it
// back from room.json afterwards.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TEST_API_KEY, type LogLine } from './service-process.js';
import { ensureFreshBundle, isAlive, parseLines, processesWithEnv, waitFor, type ProcessInfo } from './terminal-session.js';

const ROUNDS = 20;
/** Generous for a busy 2-core machine: `npm start` alone takes about half a second here. */
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const ROUND_TIMEOUT_MS = 60_000;

function hangupUnavailable(): string | null {
  if (process.platform !== 'linux') return 'needs Linux (/proc, ptys)';
  for (const tool of ['tmux', 'bash', 'npm']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  return null;
}

const unavailable = hangupUnavailable();
if (unavailable !== null) console.warn(`SKIPPED: closing the terminal of npm start (tmux kill-session) is not tested here: ${unavailable}`);

// Each node process appends the code it passed to exit ({ pid, exitCode }) and,
// for each of its children that ended, the child's code or signal as the parent
// saw it ({ pid, parent, code, signal }). Patching ChildProcess.prototype.emit
// covers the wrapper's ESM import of spawn too: one class for both.
const PRELOAD = `// Written by test/e2e/terminal-hangup.test.ts.
const { appendFileSync } = require('node:fs');
const { ChildProcess } = require('node:child_process');
const record = (entry) => {
  try {
    appendFileSync(process.env.HANGUP_TEST_EXIT_LOG, JSON.stringify(entry) + '\\n');
  } catch {}
};
process.on('exit', (code) => record({ pid: process.pid, exitCode: code }));
const emit = ChildProcess.prototype.emit;
ChildProcess.prototype.emit = function (event, ...args) {
  if (event === 'exit') record({ pid: this.pid, parent: process.pid, code: args[0], signal: args[1] });
  return emit.call(this, event, ...args);
};
`;

// npm runs \`<script-shell> -c "node scripts/start.mjs"\`. The trap has a handler, not
// an ignore: the wrapper starts with SIGHUP at its default, as under sh. bash runs a
// trap only once its foreground command has ended, then writes that command's $?.
const SCRIPT_SHELL = `#!/bin/bash
# Written by test/e2e/terminal-hangup.test.ts: npm's script shell, the wrapper's parent.
trap : HUP
[ "$1" = "-c" ] || exit 2
eval "$2"
echo "$?" > "$HANGUP_TEST_WRAPPER_STATUS"
`;

interface SavedRoom {
  readonly seqReservedTo: number;
  readonly room: { seq: number; message: { text: string } | null };
}

interface ExitEntry {
  readonly pid: number;
  readonly exitCode?: number;
  readonly parent?: number;
  readonly code?: number | null;
  readonly signal?: string | null;
}

const top = mkdtempSync(path.join(tmpdir(), 'showclock-hangup-'));
const dataDir = path.join(top, 'data');
const preload = path.join(top, 'exit-recorder.cjs');
const scriptShell = path.join(top, 'script-shell.sh');
const sockets: string[] = [];
const markers: string[] = [];

function tmux(socket: string, args: readonly string[], env?: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('tmux', ['-S', socket, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 10_000 });
  return { status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
}

const readIfThere = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
const readRoom = (): SavedRoom => JSON.parse(readFileSync(path.join(dataDir, 'room.json'), 'utf8')) as SavedRoom;

function killLeftovers(): void {
  for (const marker of markers.splice(0)) {
    for (const p of processesWithEnv(marker)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
  for (const socket of sockets.splice(0)) tmux(socket, ['kill-server']);
}

beforeAll(() => {
  if (unavailable !== null) return;
  ensureFreshBundle();
  mkdirSync(dataDir);
  writeFileSync(preload, PRELOAD);
  writeFileSync(scriptShell, SCRIPT_SHELL);
  chmodSync(scriptShell, 0o755);
}, 120_000);

afterEach(killLeftovers);
afterAll(() => {
  killLeftovers();
  rmSync(top, { recursive: true, force: true });
});

async function hangupRound(round: number): Promise<void> {
  const workDir = path.join(top, `round-${round}`);
  mkdirSync(workDir);
  const socket = path.join(workDir, 'tmux.sock');
  const exitLog = path.join(workDir, 'exits.jsonl');
  const wrapperStatus = path.join(workDir, 'wrapper-status');
  const serviceLog = path.join(workDir, 'service.log');
  const toFile = round % 2 === 0;
  // Found in each process's environment: the processes of this round, orphans included.
  const marker = `HANGUP_TEST_ROUND=${workDir}`;
  markers.push(marker);
  sockets.push(socket);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    TERM: 'xterm',
    SHELL: '/bin/bash',
    HOST: '127.0.0.1',
    PORT: '0',
    SHOWCLOCK_GPIO: 'off',
    SHOWCLOCK_DATA_DIR: dataDir,
    SHOWCLOCK_API_KEY: TEST_API_KEY,
    // No code cache written into dist/ by these many short runs.
    SHOWCLOCK_CODE_CACHE: 'off',
    // npm must not ask the registry anything.
    npm_config_update_notifier: 'false',
    NO_UPDATE_NOTIFIER: '1',
    npm_config_script_shell: scriptShell,
    NODE_OPTIONS: `--require ${preload}`,
    HANGUP_TEST_ROUND: workDir,
    HANGUP_TEST_EXIT_LOG: exitLog,
    HANGUP_TEST_WRAPPER_STATUS: wrapperStatus,
  };
  // A fresh tmux server per round (its own socket, no tmux.conf), with an interactive
  // bash in its one pane (no rc files, no history file written at the hang-up).
  const started = tmux(socket, ['-f', '/dev/null', 'new-session', '-d', '-s', 'showclock', '-x', '200', '-y', '50', 'exec bash --norc --noprofile +o history -i'], env);
  if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`);
  const typed = toFile ? `npm start > ${serviceLog}` : 'npm start';
  const sent = tmux(socket, ['send-keys', '-t', 'showclock', typed, 'Enter']);
  if (sent.status !== 0) throw new Error(`tmux send-keys failed: ${sent.stderr}`);
  const screen = (): string => tmux(socket, ['capture-pane', '-p', '-J', '-S', '-', '-t', 'showclock']).stdout;
  const lines = (): LogLine[] => parseLines(toFile ? readIfThere(serviceLog) : screen());

  const ready = await waitFor('the "showclock started" line', () => lines().find((l) => l.msg === 'showclock started' && typeof l.port === 'number'), READY_TIMEOUT_MS, 50).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; terminal:\n${screen()}\nlog:\n${readIfThere(serviceLog)}`);
  });
  const api = `http://127.0.0.1:${ready.port as number}/api/v1/${TEST_API_KEY}`;
  const procs = processesWithEnv(marker);
  const node = (entry: string): ProcessInfo | undefined => procs.find((p) => /(^|\/)node$/.test(p.args[0] ?? '') && p.args.some((a) => a.endsWith(entry)));
  const service = node('dist/showclock.mjs');
  const wrapper = node('scripts/start.mjs');
  if (service === undefined || wrapper === undefined) throw new Error(`no service or wrapper among ${JSON.stringify(procs.map((p) => p.args))}`);
  expect(service.ppid, 'the wrapper started the service').toBe(wrapper.pid);

  const text = `round ${round}: before the terminal closed`;
  const res = await fetch(`${api}/message/set?text=${encodeURIComponent(text)}`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);

  const killed = tmux(socket, ['kill-session', '-t', 'showclock']);
  expect(killed.status, killed.stderr).toBe(0);
  await waitFor('the wrapper and the service to exit', () => !isAlive(wrapper.pid) && !isAlive(service.pid) && existsSync(wrapperStatus) && readFileSync(wrapperStatus, 'utf8').endsWith('\n'), STOP_TIMEOUT_MS, 20).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; still running: ${processesWithEnv(marker).map((p) => p.args.join(' ')).join('; ')}`);
  });

  const exits = readIfThere(exitLog)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ExitEntry);
  const recorded = `recorded: ${JSON.stringify(exits)}`;
  // The wrapper's wait status, from its parent: bash's $? (128 + n if signal n killed it).
  expect(readFileSync(wrapperStatus, 'utf8').trim(), `the wrapper's exit status (128 + n: killed by signal n); ${recorded}`).toBe('0');
  // The service's, from its parent, the wrapper.
  expect(exits.find((e) => e.pid === service.pid && e.parent === wrapper.pid), `the service's exit as the wrapper saw it; ${recorded}`).toMatchObject({ code: 0, signal: null });
  expect(exits.find((e) => e.pid === service.pid && e.exitCode !== undefined), `the code the service passed to exit; ${recorded}`).toMatchObject({ exitCode: 0 });
  expect(exits.find((e) => e.pid === wrapper.pid && e.exitCode !== undefined), `the code the wrapper passed to exit; ${recorded}`).toMatchObject({ exitCode: 0 });

  if (toFile) {
    const log = parseLines(readIfThere(serviceLog));
    const output = `log:\n${readIfThere(serviceLog)}`;
    expect(log.find((l) => l.msg === 'shutting down')?.signal, output).toBe('SIGHUP');
    expect(log.find((l) => l.msg === 'stopped'), output).toMatchObject({ failed: false });
    expect(log.filter((l) => l.level >= 50), output).toEqual([]);
  }
  // The change, written by the stop (clean: no seq reserved past the saved one), no temp file left.
  const saved = readRoom();
  expect(saved.room.message?.text).toBe(text);
  expect(saved.seqReservedTo).toBe(saved.room.seq);
  expect(readdirSync(dataDir).filter((name) => name.startsWith('room.json.tmp-'))).toEqual([]);
}

describe.skipIf(unavailable !== null)('npm start in tmux, the terminal closed (tmux kill-session): SIGHUP and a hung-up tty', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round} of ${ROUNDS} (standard output ${round % 2 === 0 ? 'to a file' : 'on the terminal'}): the service and the wrapper exit 0, not killed by a signal, the change saved`, async () => {
      await hangupRound(round);
    }, ROUND_TIMEOUT_MS);
  }
});
