// The orderly stop on SIGTERM/SIGINT/SIGHUP. Its first step makes the room
// durable (no more changes are accepted, the changes waiting for their save
// finish, the room is written), before anything that may wait; then every
// adapter's closer runs, in reverse order of registration. A closer that fails
// is logged and the rest still run. The same stop often arrives twice (a
// terminal signals the whole process group, and `npm start`'s wrapper forwards
// it too): a repeat within REPEAT_MS is that same stop. A later signal, or the
// time limit, exits at once, but writes the room synchronously first: systemd
// must never find a stop that hangs, and no stop path loses a change.
import type { Logger } from '../log/logger.js';

export const SHUTDOWN_LIMIT_MS = 5_000;
/** Signals this soon after the first are the same stop delivered again, not a request to hurry. */
export const REPEAT_MS = 1_000;

export interface Closer {
  readonly name: string;
  close(): void | Promise<void>;
}

/** How the room is made durable at a stop; see RoomService.stopAccepting and RoomStore.close. */
export interface DurableRoom {
  /** The orderly way: the first step of every stop. */
  persist(): Promise<void>;
  /** The forced way, just before the process exits: synchronous, never throws. */
  persistSync(): void;
}

export interface ShutdownDeps {
  readonly logger: Logger;
  readonly exit: (code: number) => void;
  readonly limitMs?: number;
  /** Monotonic milliseconds, to tell a repeated signal from a later one. */
  readonly nowMs?: () => number;
}

export class Shutdown {
  readonly #deps: ShutdownDeps;
  readonly #closers: Closer[] = [];
  #durable: DurableRoom | null = null;
  #stopping = false;
  #firstSignalAtMs = 0;
  #exited = false;

  constructor(deps: ShutdownDeps) {
    this.#deps = deps;
  }

  /** True from the first signal on: /healthz answers 503. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Registers a closer; closers run in reverse order of registration. */
  add(name: string, close: () => void | Promise<void>): void {
    this.#closers.push({ name, close });
  }

  /** What makes the room durable, once the room exists; a stop before that has nothing to write. */
  setDurableRoom(durable: DurableRoom): void {
    this.#durable = durable;
  }

  /**
   * Makes the room durable, runs every closer, newest first, then exits with
   * `exitCode` (1 if a step failed or time ran out). A start that fails part-way
   * stops this way too, with 1.
   */
  async run(signal: string, exitCode = 0): Promise<void> {
    const { logger } = this.#deps;
    const nowMs = this.#deps.nowMs ?? (() => performance.now());
    if (this.#stopping) {
      if (nowMs() - this.#firstSignalAtMs < REPEAT_MS) {
        logger.info({ signal }, 'the same stop again (a terminal and a wrapper both pass it on): already stopping');
        return;
      }
      logger.warn({ signal }, 'another stop signal: writing the room and exiting now, without waiting for the rest of the orderly stop');
      this.#forceExit(1);
      return;
    }
    this.#stopping = true;
    this.#firstSignalAtMs = nowMs();
    const limitMs = this.#deps.limitMs ?? SHUTDOWN_LIMIT_MS;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ limitMs }, `shutdown took longer than ${limitMs} ms; writing the room and exiting now`);
      this.#forceExit(1);
    }, limitMs);
    force.unref();
    let failed = false;
    const steps: Closer[] = [];
    const durable = this.#durable;
    if (durable !== null) steps.push({ name: 'the room (last write)', close: () => durable.persist() });
    steps.push(...[...this.#closers].reverse());
    for (const step of steps) {
      try {
        await step.close();
      } catch (error) {
        failed = true;
        logger.error({ closer: step.name, err: { message: error instanceof Error ? error.message : String(error) } }, `stopping ${step.name} failed`);
      }
    }
    clearTimeout(force);
    if (this.#exited) return;
    logger.info({ failed }, failed ? 'stopped, with errors (see above)' : 'stopped');
    this.#exit(failed ? 1 : exitCode);
  }

  #forceExit(code: number): void {
    if (this.#exited) return;
    this.#durable?.persistSync();
    this.#exit(code);
  }

  #exit(code: number): void {
    this.#exited = true;
    this.#deps.exit(code);
  }
}
