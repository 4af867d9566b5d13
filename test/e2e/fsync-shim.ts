// A slow or failing SD card, made with an LD_PRELOAD shim: the service's fsync()
// and fdatasync() (Node's fs.fsync runs glibc's fsync on libuv's thread pool, so
// the shim sees every one) either sleep before the real call ("slow") or, on a
// directory only, fail with EIO ("dir-eio"; regular files pass through). The
// fault is on only while the file named by $SHIM_CONTROL exists (checked with
// access() on every call), so a service can start healthy and the fault be
// switched on and off mid-test. Compiled by the test with `cc`; Linux and glibc only.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How long each fsync/fdatasync sleeps with the slow shim on. */
export const SLOW_FSYNC_MS = 1_200;

const SHIM_SOURCE = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Nonzero (errno set) when this call must fail; sleeps first when built with SLOW_MS. */
static int fault(int fd) {
  int saved = errno;
  const char *control = getenv("SHIM_CONTROL");
  if (control == NULL || access(control, F_OK) != 0) { errno = saved; return 0; }
#ifdef SLOW_MS
  (void)fd;
  struct timespec left = { SLOW_MS / 1000, (SLOW_MS % 1000) * 1000000L };
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
  errno = saved;
  return 0;
#else
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) { errno = EIO; return -1; }
  errno = saved;
  return 0;
#endif
}

int fsync(int fd) {
  static int (*real)(int);
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  return fault(fd) != 0 ? -1 : real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  return fault(fd) != 0 ? -1 : real(fd);
}
`;

export type ShimKind = 'slow' | 'dir-eio';

/** Why the shims cannot be used here, or null. */
export function shimUnavailable(): string | null {
  if (process.platform !== 'linux') return 'the LD_PRELOAD fsync shim needs Linux and glibc';
  const cc = spawnSync('cc', ['--version'], { encoding: 'utf8' });
  if (cc.error !== undefined) return `cc is not available to build the fsync shim (${cc.error.message})`;
  if (cc.status !== 0) return `cc --version failed: ${cc.stderr.trim()}`;
  return null;
}

/** Compiles both shims into `dir`; returns the path of each .so. */
export function buildShims(dir: string): Record<ShimKind, string> {
  const source = path.join(dir, 'fsync-shim.c');
  writeFileSync(source, SHIM_SOURCE);
  const build = (out: string, defines: readonly string[]): string => {
    const target = path.join(dir, out);
    const cc = spawnSync('cc', ['-shared', '-fPIC', '-O2', ...defines, '-o', target, source, '-ldl'], { encoding: 'utf8' });
    if (cc.status !== 0) throw new Error(`cc failed to build ${out}: ${cc.stderr}${cc.error?.message ?? ''}`);
    return target;
  };
  return { slow: build('fsync-slow.so', [`-DSLOW_MS=${SLOW_FSYNC_MS}`]), 'dir-eio': build('fsync-dir-eio.so', []) };
}

/** The shim's run-time switch: the fault is on while `file` exists. */
export class FaultSwitch {
  constructor(readonly file: string) {}

  on(): void {
    writeFileSync(this.file, 'on\n');
  }

  off(): void {
    rmSync(this.file, { force: true });
  }
}

/** What the shim needs in the service's environment. */
export function shimEnv(shim: string, control: FaultSwitch): Record<string, string> {
  return { LD_PRELOAD: shim, SHIM_CONTROL: control.file };
}

export interface TimerOnDisk {
  readonly id: string;
  readonly label: string;
  readonly duration: number;
}

export interface RoomFile {
  readonly schemaVersion: number;
  readonly seqReservedTo: number;
  readonly room: {
    readonly seq: number;
    readonly timers: readonly TimerOnDisk[];
    readonly message: { readonly text: string } | null;
    readonly questions?: readonly { readonly id: string; readonly text: string }[];
  };
}

export type RoomFileRead = { readonly ok: true; readonly file: RoomFile } | { readonly ok: false; readonly problem: string };

/** room.json as it is on disk now: parsed, or why not. */
export function readRoomFile(dataDir: string): RoomFileRead {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, 'room.json'), 'utf8');
  } catch (error) {
    return { ok: false, problem: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  try {
    return { ok: true, file: JSON.parse(text) as RoomFile };
  } catch (error) {
    return { ok: false, problem: `is not JSON (${error instanceof Error ? error.message : String(error)}): ${JSON.stringify(text.slice(0, 200))}` };
  }
}

export interface DiskRead {
  /** When the read started, on performance.now()'s clock. */
  readonly startedAt: number;
  readonly read: RoomFileRead;
}

/** Reads room.json every `intervalMs` until stopped; every read, stamped with when it began. */
export function watchRoomFile(dataDir: string, intervalMs = 50): { readonly reads: DiskRead[]; stop(): void } {
  const reads: DiskRead[] = [];
  const look = (): void => {
    const startedAt = performance.now();
    reads.push({ startedAt, read: readRoomFile(dataDir) });
  };
  look();
  const timer = setInterval(look, intervalMs);
  return { reads, stop: () => clearInterval(timer) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded generator (mulberry32), so a failing round can be run again with the same choices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
