// The bundled service (dist/showclock.mjs) as a child process on a loopback port,
// for tests that must see it from outside: kill -9, signals, exit codes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { createSseParser, type SseEvent } from '../../src/client/sse-parser.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUNDLE = path.join(ROOT, 'dist/showclock.mjs');
export const TEST_API_KEY = 'KillTestApiKey_0123456789abc';

/** `npm test` builds first; a lone `vitest run` of this file builds when the bundle is missing. */
export function ensureBundle(): void {
  if (existsSync(BUNDLE)) return;
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
}

/** Only what the service needs: no SHOWCLOCK_* from the developer's shell leaks in. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', SHOWCLOCK_GPIO: 'off', ...extra };
}

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly api: string;
  readonly lines: LogLine[];
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

/**
 * The command line of the service: node with the unit's flags and the entry,
 * after `prefix` when given (e.g. `unshare -m sh -c '...; exec "$0" "$@"'`).
 */
export function serviceCommand(prefix: readonly string[] = [], entry: string = BUNDLE, args: readonly string[] = []): string[] {
  return [...prefix, process.execPath, ...NODE_FLAGS, entry, ...args];
}

/**
 * Starts the entry (dist/showclock.mjs unless `entry` says otherwise) as a box
 * runs it: with the Node flags of the systemd unit, which the code cache is made for.
 */
export function startService(
  env: NodeJS.ProcessEnv,
  opts: { apiKey?: string; readyTimeoutMs?: number; entry?: string; prefix?: readonly string[] } = {},
): Promise<ServiceProcess> {
  const command = serviceCommand(opts.prefix, opts.entry);
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: LogLine[] = [];
  const waiters: { match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  let stderr = '';
  let partial = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const text of parts) {
      if (text.trim() === '') continue;
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        continue;
      }
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 10_000): Promise<LogLine> => {
    const seen = lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching log line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  };
  const apiKey = opts.apiKey ?? TEST_API_KEY;
  const ready = waitForLog((line) => line.msg === 'showclock started' && typeof line.port === 'number', opts.readyTimeoutMs ?? 15_000);
  const died = exited.then(({ code, signal }) => {
    throw new Error(`service exited before it was ready (code ${code}, signal ${signal}): ${stderr}`);
  });
  return Promise.race([ready, died]).then(
    (line) => {
      const port = line.port as number;
      return { child, port, api: `http://127.0.0.1:${port}/api/v1/${apiKey}`, lines, stderr: () => stderr, exited, waitForLog };
    },
    (error: unknown) => {
      // Never leave a child behind when it did not come up in time.
      child.kill('SIGKILL');
      throw error;
    },
  );
}

/** Ends a child still running at the end of a test, by its own pid. */
export async function stopService(service: ServiceProcess | undefined): Promise<void> {
  if (service === undefined || service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGKILL');
  await service.exited;
}

/** Reads a push stream over HTTP until closed or the service dies, handing each event over. */
export function readSse(url: string, onEvent: (event: SseEvent) => void): { close(): void } {
  const abort = new AbortController();
  const parse = createSseParser(onEvent);
  void fetch(url, { signal: abort.signal })
    .then(async (response) => {
      const decoder = new TextDecoder();
      const reader = response.body?.getReader();
      for (let chunk = await reader?.read(); chunk !== undefined && !chunk.done; chunk = await reader?.read()) parse(decoder.decode(chunk.value, { stream: true }));
    })
    .catch(() => {});
  return { close: () => abort.abort() };
}
