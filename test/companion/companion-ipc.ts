// Companion's side of a module process, as far as a smoke test needs it: the
// module runs as a child with an IPC channel; each message is
// `{ direction: 'call' | 'response', name, payload: <JSON>, callbackId }`
// (@companion-module/base's host-api). This answers every call the module makes
// with success and records it, and lets the test call the module (init,
// executeAction, updateFeedbacks, destroy).
import { fork, type ChildProcess } from 'node:child_process';

interface IpcMessage {
  readonly direction: 'call' | 'response';
  readonly name?: string;
  readonly payload?: string;
  readonly callbackId?: number;
  readonly success?: boolean;
}

export interface ModuleCall {
  readonly name: string;
  readonly payload: unknown;
}

export class CompanionHost {
  readonly child: ChildProcess;
  readonly calls: ModuleCall[] = [];
  readonly output: string[] = [];
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(mainJs: string, manifest: string) {
    this.child = fork(mainJs, [], {
      env: { PATH: process.env.PATH ?? '', MODULE_MANIFEST: manifest, CONNECTION_ID: 'showclock-test', VERIFICATION_TOKEN: 'token' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.output.push(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.output.push(chunk));
    this.child.on('message', (raw) => this.#received(raw as IpcMessage));
  }

  #received(msg: IpcMessage): void {
    if (msg.direction === 'response') {
      const waiting = this.#pending.get(msg.callbackId ?? -1);
      if (waiting === undefined) return;
      this.#pending.delete(msg.callbackId ?? -1);
      const payload: unknown = msg.payload === undefined ? undefined : JSON.parse(msg.payload);
      if (msg.success === true) waiting.resolve(payload);
      else waiting.reject(new Error(`module refused: ${msg.payload ?? ''}`));
      return;
    }
    const payload: unknown = msg.payload === undefined ? undefined : JSON.parse(msg.payload);
    this.calls.push({ name: msg.name ?? '', payload });
    if (msg.callbackId !== undefined) {
      this.child.send({ direction: 'response', callbackId: msg.callbackId, success: true, payload: JSON.stringify({}) });
    }
  }

  call(name: string, payload: unknown): Promise<unknown> {
    const callbackId = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(callbackId, { resolve, reject });
      this.child.send({ direction: 'call', name, payload: JSON.stringify(payload), callbackId });
    });
  }

  callsNamed(name: string): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.payload);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}
