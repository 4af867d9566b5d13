// The data directory watched like the card it is, every few seconds (config
// storageCheckSeconds): a directory that disappeared (a card reseated, a careless
// `rm -rf`) is made again and the keys and the room are written back from memory
// at once, so a restart never makes new keys because a file went missing while
// running; a keys.json that is gone is written back the same way; room.json must
// still be what the service wrote (else it is written again); and a card quiet
// for that long gets a small write, so one that fails at rest shows in /healthz.
// What cannot be fixed is reported in the store's health until it is.
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, Scheduler } from '../app/clock.js';
import type { Logger } from '../log/logger.js';
import type { RoomStore } from './room-store.js';

export interface StorageWatchDeps {
  readonly dataDir: string;
  /** The name of the keys file in the data directory. */
  readonly keysFile: string;
  /** Writes the keys in use to keys.json; throws when it cannot. */
  readonly saveKeys: () => void;
  readonly store: Pick<RoomStore, 'check' | 'rewrite' | 'setOutsideProblem'>;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly intervalMs: number;
  /** The directory was made again: a watcher on the old one sees nothing any more. */
  readonly onRecreated?: () => void;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

export class StorageWatch {
  readonly #deps: StorageWatchDeps;
  #timer: { cancel(): void } | null = null;
  #running: Promise<void> | null = null;
  #closed = true;

  constructor(deps: StorageWatchDeps) {
    this.#deps = deps;
  }

  start(): void {
    this.#closed = false;
    this.#arm();
  }

  close(): void {
    this.#closed = true;
    this.#timer?.cancel();
    this.#timer = null;
  }

  /** One look now (also what the timer runs); a look already running is waited for, not doubled. */
  checkNow(): Promise<void> {
    this.#running ??= this.#look().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  #arm(): void {
    if (this.#closed) return;
    const { clock, scheduler, intervalMs } = this.#deps;
    this.#timer = scheduler.schedule(clock.monoMs() + intervalMs, () => {
      this.#timer = null;
      void this.checkNow().finally(() => this.#arm());
    });
  }

  async #look(): Promise<void> {
    const { dataDir, logger, store } = this.#deps;
    const dir = await this.#directory();
    if (dir.kind === 'problem') {
      store.setOutsideProblem(dir.problem);
      return;
    }
    const keysProblem = await this.#keys(dir.kind === 'recreated');
    if (dir.kind === 'recreated') {
      logger.error(
        { dataDir },
        `the data directory ${dataDir} disappeared while running (a card removed, or deleted): made it again and wrote the keys and the room back from memory; uploaded logos are lost`,
      );
      await store.rewrite().catch(() => {
        // Logged by the store, which also retries.
      });
      this.#deps.onRecreated?.();
    } else {
      await store.check(this.#deps.intervalMs);
    }
    store.setOutsideProblem(keysProblem);
  }

  async #directory(): Promise<{ kind: 'there' | 'recreated' } | { kind: 'problem'; problem: string }> {
    const { dataDir } = this.#deps;
    try {
      if ((await stat(dataDir)).isDirectory()) return { kind: 'there' };
      return { kind: 'problem', problem: `the data directory ${dataDir} is no longer a directory` };
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') return { kind: 'problem', problem: `the data directory ${dataDir} cannot be reached (${codeOf(error)})` };
    }
    try {
      await mkdir(dataDir, { recursive: true, mode: 0o755 });
      return { kind: 'recreated' };
    } catch (error) {
      return { kind: 'problem', problem: `the data directory ${dataDir} disappeared and cannot be made again (${codeOf(error)}): put the card back, or make the directory for the service user` };
    }
  }

  /** Writes the keys in use back when keys.json is gone; returns the problem when that fails. */
  async #keys(mustWrite: boolean): Promise<string | null> {
    const { dataDir, keysFile, logger } = this.#deps;
    const file = join(dataDir, keysFile);
    if (!mustWrite) {
      try {
        await stat(file);
        return null;
      } catch (error) {
        if (codeOf(error) !== 'ENOENT') return null;
      }
    }
    try {
      this.#deps.saveKeys();
      if (!mustWrite) logger.warn({ file }, `${file} disappeared while running: wrote the keys in use back, so links and button panels keep working after a restart`);
      return null;
    } catch (error) {
      return `${file} is missing and the keys in use cannot be written back (${error instanceof Error ? error.message : String(error)}): a restart would make new keys`;
    }
  }
}
