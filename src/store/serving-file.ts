// `serving.json` in the data directory: where the running box serves (its process,
// host and port), written once it listens and removed when it stops, so that
// `npm run key`, run in another shell without the box's PORT, prints the links of
// the box as it runs rather than of the config's default. Not a secret (no key),
// and not worth an fsync: after a power cut the process it names is gone, and a
// reader checks that it still runs.
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Serving {
  readonly pid: number;
  readonly host: string;
  readonly port: number;
}

export const SERVING_FILE = 'serving.json';

export function writeServing(dataDir: string, serving: Serving): void {
  const target = path.join(dataDir, SERVING_FILE);
  const temp = `${target}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(serving)}\n`);
  renameSync(temp, target);
}

/** Removes the file if it still names this process (a newer box may have written its own). */
export function removeServing(dataDir: string, pid: number): void {
  if (readServing(dataDir)?.pid !== pid) return;
  try {
    unlinkSync(path.join(dataDir, SERVING_FILE));
  } catch {
    // Gone already.
  }
}

export function readServing(dataDir: string): Serving | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(dataDir, SERVING_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, host, port } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || typeof host !== 'string' || !Number.isSafeInteger(port)) return null;
  return { pid: pid as number, host, port: port as number };
}

/** The box that wrote the file, if it still runs: the process is there and is a Showclock service (not a pid reused since). */
export function runningBox(dataDir: string): Serving | null {
  const serving = readServing(dataDir);
  if (serving === null) return null;
  try {
    const commandLine = readFileSync(`/proc/${serving.pid}/cmdline`, 'utf8');
    return commandLine.includes('showclock') ? serving : null;
  } catch {
    // No /proc (not Linux): whether the process lives is what can be told.
    try {
      process.kill(serving.pid, 0);
      return serving;
    } catch {
      return null;
    }
  }
}
