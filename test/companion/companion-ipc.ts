// Companion's side of a module process, launched the way Companion 4.x/5.x
// launches a connection module built on @companion-module/base 1.x (read from
// bitfocus/companion 5.1: companion/lib/Instance/ProcessManager.ts, NodePath.ts,
// Environment.ts and Connection/ChildHandlerLegacy.ts):
// - spawned, not forked, with the node runtime the manifest names (node22 =
//   Companion's 22.23.2, fetched by scripts/companion-deps.mjs) and the
//   permission model's arguments (getNodeJsPermissionArguments): read access to
//   the module's real directory and to the host's code only, no writes, no child
//   processes, no workers;
// - cwd the module's directory, stdio ['pipe', 'pipe', 'pipe', 'ipc'];
// - an environment of the few variables Companion passes on (PreserveEnvVars, no
//   PATH) plus VERIFICATION_TOKEN, MODULE_MANIFEST='companion/manifest.json' and
//   CONNECTION_ID.
// Messages on the IPC channel are `{ direction: 'call' | 'response', name,
// payload: <EJSON text>, callbackId }` (@companion-module/base's
// host-api/ipc-wrapper.js, which Companion uses for these modules). This answers
// every call the module makes with success (register only with the right
// token) and records it with the time it arrived; calls to the module time out
// as Companion's do (5 s, 'Call timed out').
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { companionNode } from '../../scripts/companion-deps.mjs';

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
  /** performance.now() when the host received it. */
  readonly at: number;
}

interface ModuleManifest {
  readonly runtime: { readonly type: string; readonly entrypoint: string; readonly apiVersion: string; readonly permissions?: Record<string, boolean> };
}

/** Companion's default limit on a call to a module (IpcWrapper's defaultTimeout in ChildHandlerLegacy). */
export const COMPANION_CALL_TIMEOUT_MS = 5_000;
/** Companion allows init longer: "init is likely to have a lot to do". */
export const COMPANION_INIT_TIMEOUT_MS = 10_000;

/** Environment variables Companion passes on to a module (Instance/Environment.ts PreserveEnvVars). */
const PRESERVED_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'XDG_RUNTIME_DIR', 'HOME', 'USERPROFILE', 'TMP', 'TEMP', 'TMPDIR', 'DISABLE_IPV6'];

/** The "Companion code" directory the permission model also lets a module read: here, the host's own. */
const HOST_CODE_DIR = path.dirname(fileURLToPath(import.meta.url));

/**
 * NodePath.ts getNodeJsPermissionArguments for a node22 connection module of API 1.12 or later, as a packaged
 * Companion (not a development checkout) and without the inspector. Grants are real paths, as Node checks them.
 */
export function companionPermissionArguments(manifest: ModuleManifest, moduleDir: string): string[] {
  const permissions = manifest.runtime.permissions ?? {};
  const args: string[] = [];
  if (permissions['insecure-algorithms'] === true) args.push('--openssl-legacy-provider');
  args.push('--use-system-ca', '--no-warnings=SecurityWarning', '--permission', `--allow-fs-read=${realpathSync(moduleDir)}`, `--allow-fs-read=${realpathSync(HOST_CODE_DIR)}`);
  if (permissions['worker-threads'] === true) args.push('--allow-worker');
  if (permissions['child-process'] === true || permissions['native-addons'] === true) args.push('--allow-child-process');
  if (permissions['native-addons'] === true) args.push('--allow-addons');
  if (permissions['native-addons'] === true || permissions.filesystem === true) args.push('--allow-fs-read=*', '--allow-fs-write=*');
  return args;
}

export class CompanionHost {
  readonly child: ChildProcess;
  readonly calls: ModuleCall[] = [];
  readonly output: string[] = [];
  readonly connectionId: string;
  /** The command line Companion would log ("Instance ... command"). */
  readonly command: readonly string[];
  readonly #token = randomBytes(16).toString('base64url');
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  /**
   * @param mainJs the packaged module's entry (pkg/main.js); its directory is the module's directory
   * @param manifest the packaged manifest (pkg/companion/manifest.json), read for the runtime and permissions
   */
  constructor(mainJs: string, manifest: string, options: { connectionId?: string } = {}) {
    this.connectionId = options.connectionId ?? 'showclock-test';
    const moduleDir = path.dirname(path.dirname(manifest));
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as ModuleManifest;
    if (parsed.runtime.type !== 'node22') throw new Error(`this host runs node22 modules only, the manifest asks for ${parsed.runtime.type}`);
    // ProcessManager: the entrypoint is companion/<runtime.entrypoint>, resolved in the module's directory.
    const entrypoint = path.resolve(moduleDir, 'companion', parsed.runtime.entrypoint);
    if (entrypoint !== path.resolve(mainJs)) throw new Error(`the manifest's entrypoint is ${entrypoint}, not ${mainJs}`);
    this.command = [companionNode(), ...companionPermissionArguments(parsed, moduleDir), entrypoint];
    const env: Record<string, string> = {};
    for (const name of PRESERVED_ENV) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    const [node, ...args] = this.command;
    this.child = spawn(node as string, args, {
      cwd: moduleDir,
      env: { ...env, VERIFICATION_TOKEN: this.#token, MODULE_MANIFEST: 'companion/manifest.json', CONNECTION_ID: this.connectionId },
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
    });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.output.push(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.output.push(chunk));
    this.child.on('message', (raw) => this.#received(raw as IpcMessage));
    this.child.on('exit', () => {
      for (const [id, waiting] of this.#pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error('module exited'));
        this.#pending.delete(id);
      }
    });
  }

  #received(msg: IpcMessage): void {
    const at = performance.now();
    if (msg.direction === 'response') {
      const waiting = this.#pending.get(msg.callbackId ?? -1);
      // After a timeout Companion has forgotten the call: a late answer is dropped, as IpcWrapper does.
      if (waiting === undefined) return;
      this.#pending.delete(msg.callbackId ?? -1);
      clearTimeout(waiting.timer);
      const payload: unknown = msg.payload === undefined ? undefined : JSON.parse(msg.payload);
      if (msg.success === true) waiting.resolve(payload);
      else waiting.reject(new Error(`module refused: ${msg.payload ?? ''}`));
      return;
    }
    const payload: unknown = msg.payload === undefined ? undefined : JSON.parse(msg.payload);
    this.calls.push({ name: msg.name ?? '', payload, at });
    if (msg.callbackId === undefined) return;
    // Companion restarts a module that registers with another token; here the registration is refused.
    const refused = msg.name === 'register' && (payload as { verificationToken?: unknown } | undefined)?.verificationToken !== this.#token;
    this.child.send(
      refused
        ? { direction: 'response', callbackId: msg.callbackId, success: false, payload: JSON.stringify({ message: 'bad verification token' }) }
        : { direction: 'response', callbackId: msg.callbackId, success: true, payload: JSON.stringify({}) },
    );
  }

  /** Calls the module as Companion does; rejects with 'Call timed out' after timeoutMs (Companion: 5 s, init 10 s). */
  call(name: string, payload: unknown, timeoutMs = name === 'init' ? COMPANION_INIT_TIMEOUT_MS : COMPANION_CALL_TIMEOUT_MS): Promise<unknown> {
    const callbackId = this.#nextId++;
    const timeoutError = new Error('Call timed out');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(callbackId);
        reject(timeoutError);
      }, timeoutMs);
      this.#pending.set(callbackId, { resolve, reject, timer });
      this.child.send({ direction: 'call', name, payload: JSON.stringify(payload), callbackId });
    });
  }

  callsNamed(name: string): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.payload);
  }

  /** The recorded calls of one name, with their times. */
  timedCallsNamed(name: string): ModuleCall[] {
    return this.calls.filter((c) => c.name === name);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}
