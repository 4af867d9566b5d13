// process.exit that survives a closed terminal. When the terminal that ran
// `npm start` is closed, its tty hangs up (SIGHUP, then every use of it fails with
// EIO). The service still stops in order, but Node 20 then dies on the way out,
// of SIGABRT or SIGSEGV: at exit it restores the terminal settings of each stdio
// fd that was a tty at start and is still the same file (ResetStdio, src/node.cc),
// and aborts when tcsetattr fails, which it does on a hung-up tty
// (nodejs/node#51519; fixed by nodejs/node#58200, not in Node 20). ResetStdio
// skips a closed fd, so the stdio fds whose terminal has hung up are closed just
// before exiting: nothing can be written to them any more anyway. A live
// terminal (Ctrl-C, kill, systemd's stop) and stdio that is no terminal are left
// as they are. scripts/start.mjs, `npm start`'s wrapper, does the same.
import { closeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** The stdio fds that are terminals when the service starts (this module loads with the bundle). */
const STDIO_TTYS: readonly number[] = [0, 1, 2].filter((fd) => isatty(fd));

/**
 * Of `ttys`, those that no longer answer as a terminal: a hung-up tty fails
 * the ioctl that isatty() makes (EIO), though fstat still finds the same file.
 */
export function hungUpStdio(ttys: readonly number[] = STDIO_TTYS): number[] {
  return ttys.filter((fd) => !isatty(fd));
}

/** process.exit(code), with the stdio fds of a hung-up terminal closed first (see above). */
export function exitAfterHangup(code: number): never {
  for (const fd of hungUpStdio()) {
    try {
      closeSync(fd);
    } catch {
      // Already closed: ResetStdio skips it all the same.
    }
  }
  return process.exit(code);
}
