// `npm start`: builds the bundle when it is missing or older than the sources, then runs it.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isatty } from 'node:tty';
import { BESIDE_BUNDLE, buildServer } from './build.mjs';
import { NODE_ENVIRONMENT, NODE_FLAGS } from './node-flags.mjs';

// Which stdio fds are terminals, taken before anything can close that terminal (see the end).
const stdioTtys = [0, 1, 2].filter((fd) => isatty(fd));

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bundle = path.join(root, 'dist/showclock.mjs');
// The launcher (above) runs the bundle, which reads the files beside it; a dist/ from an
// older build may lack any of them.
const builtFiles = ['showclock.cjs', ...BESIDE_BUNDLE].map((file) => path.join(root, 'dist', file));

function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMs(full) : statSync(full).mtimeMs);
  }
  return newest;
}

if (!existsSync(bundle) || !builtFiles.every((file) => existsSync(file)) || statSync(bundle).mtimeMs < newestSourceMs(path.join(root, 'src'))) {
  await buildServer();
}

// The same Node flags and malloc setting as the systemd unit, so `npm start` runs what a box runs.
// The IPC channel is the service's lifeline: if this wrapper dies, however it
// dies (even SIGKILL), the channel closes and the service stops in order.
const child = spawn(process.execPath, [...NODE_FLAGS, bundle, ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, ...NODE_ENVIRONMENT },
});
// Pass stop signals on, for a `kill` aimed at this process alone. A terminal's
// Ctrl-C reaches the service too (one process group): the service takes a repeat
// within a second as the same stop.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
// npm, which started this wrapper (through `sh -c`, which dash does not replace
// with us), may be killed without passing anything on: then this wrapper stops
// the service. Watched: the parent and, on Linux, its parent (npm itself).
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
const parentPid = process.ppid;
const watched = [parentPid, parentOf(parentPid)].filter((pid) => pid !== null && pid > 1);
const orphanWatch = setInterval(() => {
  if (process.ppid !== parentPid || watched.some((pid) => !alive(pid))) child.kill('SIGTERM');
}, 1_000);
orphanWatch.unref();
// Exits as the service did. The stdio fds of a terminal that has been closed (a
// tty that was one at start and no longer answers as one) are closed first: Node
// 20 would die of SIGABRT or SIGSEGV on the way out, restoring that hung-up tty's
// settings (nodejs/node#51519), and it skips a closed fd. As the service does
// (src/app/exit-after-hangup.ts).
child.on('exit', (code, signal) => {
  for (const fd of stdioTtys) if (!isatty(fd)) closeSync(fd);
  process.exit(code ?? (signal === null ? 1 : 128));
});
