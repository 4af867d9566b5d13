// The systemd watchdog (WatchdogSec= in systemd/showclock.service): while the
// event loop turns, the service tells systemd WATCHDOG=1 six times a period (in
// the booted box, under load, a ping was at times a whole third of a period
// late: six keep a late one or two from looking like a hang);
// a loop that stops turning (a hang, an endless loop, `kill -STOP`) stops the
// pings, and systemd kills and restarts the service, which restores the room
// from its file as after any restart. Sent as readiness is (notify-ready.ts):
// through systemd-notify, since Node has no unix datagrams; a ping is a timer
// callback, so it is sent only if the loop really turns. Without WATCHDOG_USEC
// (not under systemd, or no WatchdogSec=) nothing happens.
import type { Logger } from '../log/logger.js';

/** How a ping is sent; tests pass one that records. */
export type Ping = () => Promise<void>;

function systemdNotify(env: NodeJS.ProcessEnv): Ping {
  return () =>
    import('node:child_process').then(
      ({ spawn }) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn('systemd-notify', ['WATCHDOG=1'], { stdio: 'ignore', env });
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`systemd-notify exited with ${String(code)}`))));
        }),
    );
}

/** The ping period for systemd's WATCHDOG_USEC, or null when systemd asks for no pings from this process. */
export function watchdogPeriodMs(env: NodeJS.ProcessEnv, pid: number = process.pid): number | null {
  if (env.NOTIFY_SOCKET === undefined || env.NOTIFY_SOCKET === '') return null;
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isFinite(usec) || usec <= 0) return null;
  // WATCHDOG_PID names the process systemd expects the pings from; another process's (a child's) is not ours.
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID !== '' && Number(env.WATCHDOG_PID) !== pid) return null;
  return Math.max(250, Math.floor(usec / 1000 / 6));
}

export interface Watchdog {
  close(): void;
}

export function startWatchdog(logger: Logger, env: NodeJS.ProcessEnv = process.env, ping: Ping = systemdNotify(env)): Watchdog | null {
  const periodMs = watchdogPeriodMs(env);
  if (periodMs === null) return null;
  let warned = false;
  const send = () => {
    ping().then(
      () => {
        warned = false;
      },
      (error: unknown) => {
        // Once per run of failures: a box whose pings fail is restarted by systemd, and this line says why.
        if (warned) return;
        warned = true;
        logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'the watchdog ping could not be sent to systemd; the service will be restarted by its watchdog');
      },
    );
  };
  send();
  const timer = setInterval(send, periodMs);
  // The pings alone must never keep the process alive at shutdown.
  timer.unref();
  logger.info({ periodMs }, 'watchdog: pinging systemd while the event loop turns');
  return { close: () => clearInterval(timer) };
}
