// Readiness as systemd sees it: the bundled service under a NOTIFY_SOCKET sends
// READY=1 (through systemd-notify, with its barrier) once its port answers. A
// small Python listener plays systemd's side of the socket, since Node cannot
// bind a unix datagram socket. Skipped with the reason where python3 or
// systemd-notify is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ROOT, ensureBundle } from '../e2e/service-process.js';
import { NODE_FLAGS } from '../../scripts/node-flags.mjs';

const LISTENER = `
import array, os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print("bound", flush=True)
while True:
    msg, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(64))
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds = array.array("i")
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
            for fd in fds:
                os.close(fd)  # answers systemd-notify's barrier
    print(msg.decode().replace("\\n", "|"), flush=True)
`;

function missing(): string | null {
  for (const tool of ['python3', 'systemd-notify']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  return null;
}

const top = mkdtempSync(path.join(tmpdir(), 'showclock-notify-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(top, { recursive: true, force: true });
});
beforeAll(() => ensureBundle());

function lines(child: ChildProcess, onLine: (line: string) => void): void {
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) onLine(line);
  });
}

describe('readiness', () => {
  it('tells systemd READY=1 once the port answers', async (ctx) => {
    const reason = missing();
    if (reason !== null) ctx.skip(reason);
    const socketPath = path.join(top, 'notify.sock');
    writeFileSync(path.join(top, 'listener.py'), LISTENER);
    const listener = spawn('python3', [path.join(top, 'listener.py'), socketPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(listener);
    const messages: string[] = [];
    let ready: (message: string) => void = () => {};
    const readyMessage = new Promise<string>((resolve) => (ready = resolve));
    const bound = new Promise<void>((resolve) =>
      lines(listener, (line) => {
        if (line === 'bound') resolve();
        else {
          messages.push(line);
          if (line.startsWith('READY=1')) ready(line);
        }
      }),
    );
    await bound;

    const service = spawn(process.execPath, [...NODE_FLAGS, BUNDLE], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        SHOWCLOCK_GPIO: 'off',
        SHOWCLOCK_DATA_DIR: path.join(top, 'data'),
        NOTIFY_SOCKET: socketPath,
      },
    });
    children.push(service);
    const message = await Promise.race([
      readyMessage,
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`no READY=1 within 15 s; got ${JSON.stringify(messages)}`)), 15_000)),
    ]);
    const port = /STATUS=listening on port (\d+)/.exec(message)?.[1];
    expect(port).toBeDefined();
    // Ready means answering: the port named in the status serves /healthz.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    service.kill('SIGTERM');
    await new Promise((resolve) => service.on('exit', resolve));
  });
});
