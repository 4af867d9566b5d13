// What a start prints, and `npm run key` in another shell (issue 31, finding 8):
// in a terminal the start prints the links; with its output to a pipe or a file
// (systemd's journal) one line and no key. The box notes its process and port in
// serving.json once it listens, `key` prints the links of the box as it runs while
// that process is a running Showclock, the note goes when the box stops, and with
// no box running `key` prints the configured port, saying so.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from './service-process.js';

const dir = mkdtempSync(path.join(tmpdir(), 'showclock-key-running-'));

/** `key` as another shell runs it: the same data directory, no PORT. */
function key(): string {
  const run = spawnSync(process.execPath, [BUNDLE, 'key'], { env: { PATH: process.env.PATH ?? '', SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: TEST_API_KEY }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('npm run key and the box that runs', () => {
  let box: ServiceProcess | undefined;
  beforeAll(() => ensureBundle());
  afterAll(async () => {
    await stopService(box);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the port the running box serves on, not the configured 8080', async () => {
    box = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: TEST_API_KEY }));
    expect(box.port).not.toBe(8080);
    const out = key();
    expect(out).toContain(`API base:     http://127.0.0.1:${box.port}/api/v1/${TEST_API_KEY}`);
    expect(out).toContain(`serves on port ${box.port}; the config says 8080`);
  });

  it('prints the configured port, saying so, once the box has stopped (and removed its note)', async () => {
    const running = box as ServiceProcess;
    running.child.kill('SIGTERM');
    await running.exited;
    expect(existsSync(path.join(dir, 'serving.json'))).toBe(false);
    const out = key();
    expect(out).toMatch(/API base: {5}http:\/\/\S+:8080\/api\/v1\//);
    expect(out).toContain('No box is running from');
  });

  it('does not trust a note left by a box that died (kill -9, a power cut)', () => {
    writeFileSync(path.join(dir, 'serving.json'), JSON.stringify({ pid: 2 ** 22 + 1, host: '127.0.0.1', port: 9999 }));
    expect(key()).not.toContain(':9999');
  });
});

describe('what a start prints', () => {
  it('with its output to a pipe (as under systemd): one line pointing at npm run key, and no key anywhere', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'showclock-start-pipe-'));
    const box = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: data, SHOWCLOCK_API_KEY: TEST_API_KEY }));
    try {
      await box.waitForLog((line) => String(line.msg).startsWith('listening; to print the control-room URL'));
      expect(JSON.stringify(box.lines)).not.toContain(TEST_API_KEY);
      expect(box.stderr()).not.toContain(TEST_API_KEY);
    } finally {
      await stopService(box);
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('with its output to a file (npm start > show.log): the same one line, and no key in the file', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'showclock-start-file-'));
    const logFile = path.join(data, 'show.log');
    const fd = openSync(logFile, 'w');
    const child = spawn(process.execPath, [BUNDLE], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', SHOWCLOCK_GPIO: 'off', SHOWCLOCK_DATA_DIR: data, SHOWCLOCK_API_KEY: TEST_API_KEY },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    try {
      const deadline = performance.now() + 15_000;
      while (!readFileSync(logFile, 'utf8').includes('listening') && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const written = readFileSync(logFile, 'utf8');
      expect(written).toContain('listening; to print the control-room URL, run `sudo showclock key` on an installed box, or `npm run key` where it was cloned');
      expect(written).not.toContain('Control room:');
      expect(written).not.toContain(TEST_API_KEY);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(readFileSync(logFile, 'utf8')).not.toContain(TEST_API_KEY);
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('in a terminal: the control-room URL with the port it serves on', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'showclock-start-tty-'));
    // script(1) gives the box a terminal, as a person's shell does.
    const command = `${process.execPath} ${BUNDLE}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', SHOWCLOCK_GPIO: 'off', SHOWCLOCK_DATA_DIR: data, SHOWCLOCK_API_KEY: TEST_API_KEY, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    try {
      const deadline = performance.now() + 15_000;
      while (!out.includes('API base:') && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(out).toContain('Showclock is running.');
      expect(out).toMatch(new RegExp(`Control room: http://127\\.0\\.0\\.1:\\d+/control/${TEST_API_KEY}`));
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(data, { recursive: true, force: true });
    }
  });
});
