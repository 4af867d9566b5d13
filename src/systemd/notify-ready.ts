// Tells systemd the service is ready (Type=notify in systemd/showclock.service),
// so the kiosk starts only once the display page answers. sd_notify is a
// datagram on a unix socket, which Node cannot send without a native module;
// systemd's own `systemd-notify` sends it instead (the unit sets
// NotifyAccess=all), and waits until systemd has taken the message in, so the
// message is never lost to the race of a helper that exits too soon.
// Without NOTIFY_SOCKET (not under systemd) nothing happens, and node:child_process
// is not even loaded: it is loaded here, after the port answers, not at start.
import type { Logger } from '../log/logger.js';

export function notifyReady(logger: Logger, status: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.NOTIFY_SOCKET === undefined || env.NOTIFY_SOCKET === '') return;
  const warn = (reason: string) =>
    logger.warn({ reason }, 'readiness could not be reported to systemd; the unit may time out starting (is systemd-notify installed?)');
  import('node:child_process')
    .then(({ spawn }) => {
      const child = spawn('systemd-notify', ['--ready', `--status=${status}`], { stdio: 'ignore', env });
      child.on('error', (error) => warn(error.message));
      child.on('exit', (code) => {
        if (code !== 0) warn(`systemd-notify exited with ${String(code)}`);
      });
    })
    .catch((error: unknown) => warn(error instanceof Error ? error.message : String(error)));
}
