// The service under test: the built bundle as a separate process on a loopback
// port, started the way a box starts it (the Node flags of the systemd unit and
// of `npm start`, NODE_ENV=production, log lines at info level written to a
// file as journald would take them), with the rate limit lifted.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_ENVIRONMENT, NODE_FLAGS as BOX_FLAGS } from '../../scripts/node-flags.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUNDLE = path.join(ROOT, 'dist/showclock.mjs');
/**
 * What "bundle size" counts: the launcher (the entry above), the service bundle it runs, and
 * the code the bundle loads from beside it (QR drawing); not the OpenAPI document it serves.
 */
export const BUNDLE_FILES = [BUNDLE, path.join(ROOT, 'dist/showclock.cjs'), path.join(ROOT, 'dist/showclock-qr.cjs')];
export const API_KEY = 'BenchApiKey_0123456789abcdefXYZ';
export const VIEWER_KEY = 'BenchViewerKey_0123456789abcdefX';
/** Lifted, not off: every request still goes through the limiter, as on a box. */
export const RATE_LIMIT = '1000000000';
/** The flags a box runs with, unless an experiment (--node-flags) replaces them. */
export let NODE_FLAGS = [...BOX_FLAGS];

/** @param {readonly string[]} flags */
export function useNodeFlags(flags) {
  NODE_FLAGS = [...flags];
}

/** What a box runs: the unit that starts the service. */
const unitText = () => readFileSync(path.join(ROOT, 'systemd/showclock.service'), 'utf8');

/**
 * The Node flags in the ExecStart line of systemd/showclock.service, so the bench
 * can refuse to measure something other than what a box runs.
 */
export function unitNodeFlags() {
  const line = /^ExecStart=\S*node\s+(.*)$/m.exec(unitText());
  if (line === null) return null;
  return (line[1] ?? '').split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * The unit's Environment= values for the names of NODE_ENVIRONMENT (the process
 * settings beside the flags), so the bench can refuse to measure something else.
 */
export function unitNodeEnvironment() {
  const found = {};
  for (const match of unitText().matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)) {
    if (Object.hasOwn(NODE_ENVIRONMENT, match[1])) found[match[1]] = match[2];
  }
  return found;
}

/** Every process the bench started and that still runs, so a failing bench leaves none behind. */
const live = new Set();

export function killAll() {
  for (const child of live) child.kill('SIGKILL');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection; resolves with the status (0 when the port does not answer). */
export function getStatus(port, pathname) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

/** A data directory for one bench session; runs that share it start from a saved room, as a box does. */
export function benchDataDir() {
  return mkdtempSync(path.join(tmpdir(), 'showclock-bench-'));
}

/**
 * Starts the bundle. Resolves once the process is spawned (not once it is ready:
 * the start figure measures that), with `spawnedAt` taken just before spawn().
 * @param {{ dataDir: string; port: number; logFile: string; script?: string[]; command?: string[]; env?: Record<string, string> }} opts
 *   script: what to run in place of the bundle (the reference processes), with the same flags
 *   command: a program to run in place of node (bench/limits/'s C floor)
 *   env: more environment, for experiments (bench/ab.mjs)
 */
export function spawnService(opts) {
  const log = openSync(opts.logFile, 'a');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    // As the box runs it (MALLOC_ARENA_MAX); the floors get it too, as they get the flags.
    ...NODE_ENVIRONMENT,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
    SHOWCLOCK_DATA_DIR: opts.dataDir,
    // No GPIO header here; a box with lamps also loads onoff (not measured).
    SHOWCLOCK_GPIO: 'off',
    SHOWCLOCK_RATE_LIMIT: RATE_LIMIT,
    SHOWCLOCK_API_KEY: API_KEY,
    SHOWCLOCK_VIEWER_KEY: VIEWER_KEY,
    ...opts.env,
  };
  const spawnedAt = performance.now();
  // opts.command: a program run as it is (the C floor of bench/limits/), not a script for node.
  const [file, ...args] = opts.command ?? [process.execPath, ...NODE_FLAGS, ...(opts.script ?? [BUNDLE, 'serve'])];
  const child = spawn(file, args, { cwd: ROOT, env, stdio: ['ignore', log, log] });
  closeSync(log);
  live.add(child);
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('the service could not be spawned');
  return {
    child,
    pid,
    port: opts.port,
    spawnedAt,
    exited,
    base: `http://127.0.0.1:${opts.port}`,
    api: `/api/v1/${API_KEY}`,
    /** Orderly stop (SIGTERM: the store is flushed), SIGKILL after 5 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/**
 * Polls GET /healthz until it answers 200; resolves with ms since spawn.
 * @param {{ port: number; spawnedAt: number; exited: Promise<unknown>; child: import('node:child_process').ChildProcess }} service
 * @param {string} logFile shown when the service dies before answering
 */
export async function waitHealthy(service, logFile, timeoutMs = 20_000) {
  let died = false;
  service.exited.then(() => {
    died = true;
  });
  for (;;) {
    const status = await getStatus(service.port, '/healthz');
    if (status === 200) return performance.now() - service.spawnedAt;
    if (died) throw new Error(`the service exited before answering /healthz; its log:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    if (performance.now() - service.spawnedAt > timeoutMs) throw new Error(`no 200 from /healthz within ${timeoutMs} ms`);
    // Refused connections come back at once: a short pause keeps the poller off the CPU the service needs.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Spawns and waits until healthy. */
export async function startService(opts) {
  const service = spawnService(opts);
  try {
    const startMs = await waitHealthy(service, opts.logFile);
    return Object.assign(service, { startMs });
  } catch (error) {
    service.child.kill('SIGKILL');
    throw error;
  }
}
