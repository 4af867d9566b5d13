// Process metrics from /proc (Linux), read from outside the measured process so
// that measuring costs it nothing: resident memory from /proc/<pid>/status and
// CPU time from /proc/<pid>/stat (utime + stime, all threads, in clock ticks).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of utime/stime; 100 on Linux almost everywhere, asked once. */
export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * Memory of a process in kB: VmRSS (resident now), VmHWM (resident peak since
 * start), and RSS split into anonymous (heap, stacks) and file-backed pages (the
 * node binary and libraries as far as they were touched).
 * @param {number} pid
 */
export function memoryKb(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return match === null ? Number.NaN : Number(match[1]);
  };
  return { rss: field('VmRSS'), hwm: field('VmHWM'), anon: field('RssAnon'), file: field('RssFile') };
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU time used so far, user + system, all threads, in ms (resolution 1000/CLK_TCK ms).
 * @param {number} pid
 */
export function cpuMs(pid) {
  const f = statFields(pid);
  // After ")": state is field 3, so utime (field 14) is index 11 and stime (15) index 12.
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
}

/** Every live process as pid -> parent pid. */
function parents() {
  /** @type {Map<number, number>} */
  const map = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      map.set(Number(name), Number(statFields(Number(name))[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return map;
}

/**
 * Every descendant of `root` (children, grandchildren...), leaving out the
 * subtrees under `exclude`.
 * @param {number} root
 * @param {readonly number[]} [exclude]
 */
export function descendants(root, exclude = []) {
  const map = parents();
  const skip = new Set(exclude);
  /** @type {number[]} */
  const found = [];
  let frontier = [root];
  while (frontier.length > 0) {
    /** @type {number[]} */
    const next = [];
    for (const [pid, ppid] of map) if (frontier.includes(ppid) && !skip.has(pid)) next.push(pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** @param {number} pid */
export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * CPU used by a changing set of processes (a browser starts and ends helpers):
 * sampled every `everyMs`, each process's last reading kept, so one that exits
 * during the window still counts up to its last sample.
 * @param {() => readonly number[]} pidsNow
 * @param {number} everyMs
 */
export function cpuTracker(pidsNow, everyMs = 500) {
  /** @type {Map<number, { first: number; last: number; cmd: string }>} */
  const seen = new Map();
  const sample = () => {
    for (const pid of pidsNow()) {
      try {
        const ms = cpuMs(pid);
        const entry = seen.get(pid);
        if (entry === undefined) seen.set(pid, { first: ms, last: ms, cmd: commandLine(pid) });
        else entry.last = ms;
      } catch {
        // Exited: its last sample stands.
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    /** Stops sampling; CPU ms per process used since the first sample, with its command line. */
    stop() {
      sample();
      clearInterval(timer);
      return [...seen].map(([pid, e]) => ({ pid, cpuMs: e.last - e.first, cmd: e.cmd }));
    },
  };
}
