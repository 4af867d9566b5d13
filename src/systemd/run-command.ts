// Runs a system program (timedatectl, chronyc) and gives back its output, never
// waiting long: one that hangs (a D-Bus that does not answer, a chronyd stuck on
// DNS) is killed after its time. Programs are found on PATH as the service's
// environment gives it (systemd's default PATH has /usr/bin), so tests put fakes
// first on PATH. The locale is C, so the words parsed are the same on every box.
import { execFile } from 'node:child_process';

/** How long a program may take before it is killed and taken as not answering. */
export const COMMAND_TIMEOUT_MS = 2_000;

export type CommandResult =
  | { readonly ok: true; readonly stdout: string }
  /** `missing`: no such program on this box; `reason`: its words (stderr's first lines), or why it gave none. */
  | { readonly ok: false; readonly missing: boolean; readonly timedOut: boolean; readonly reason: string };

export type RunCommand = (file: string, args: readonly string[]) => Promise<CommandResult>;

export function runCommand(env: NodeJS.ProcessEnv = process.env, timeoutMs: number = COMMAND_TIMEOUT_MS): RunCommand {
  return (file, args) =>
    new Promise((resolve) => {
      execFile(
        file,
        [...args],
        { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 64 * 1024, env: { ...env, LC_ALL: 'C', SYSTEMD_COLORS: '0', SYSTEMD_PAGER: '' } },
        (error, stdout, stderr) => {
          if (error === null) return resolve({ ok: true, stdout });
          const code = (error as NodeJS.ErrnoException).code;
          const timedOut = error.killed === true || error.signal === 'SIGKILL';
          const words = stderr.trim().split('\n').slice(0, 3).join(' ').trim();
          resolve({
            ok: false,
            missing: code === 'ENOENT',
            timedOut,
            reason: timedOut ? `${file} did not answer within ${timeoutMs} ms` : words !== '' ? words : `${file} failed (${String(code ?? error.message)})`,
          });
        },
      );
    });
}
