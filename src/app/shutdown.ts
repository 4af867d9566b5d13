// The orderly stop on SIGTERM/SIGINT: every adapter registers a closer as it
// starts, and they run in reverse order (the HTTP server stops accepting first,
// the state store flushes near the end). A closer that fails is logged and the
// rest still run. Past the time limit, or on a second signal, the process exits
// at once: systemd must never find a stop that hangs.
import type { Logger } from '../log/logger.js';

export const SHUTDOWN_LIMIT_MS = 5_000;

export interface Closer {
  readonly name: string;
  close(): void | Promise<void>;
}

export interface ShutdownDeps {
  readonly logger: Logger;
  readonly exit: (code: number) => void;
  readonly limitMs?: number;
}

export class Shutdown {
  readonly #deps: ShutdownDeps;
  readonly #closers: Closer[] = [];
  #stopping = false;

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

  /**
   * Runs every closer, newest first, then exits with `exitCode` (1 if one failed
   * or time ran out). A start that fails part-way stops this way too, with 1.
   */
  async run(signal: string, exitCode = 0): Promise<void> {
    const { logger, exit } = this.#deps;
    if (this.#stopping) {
      logger.warn({ signal }, 'second signal: exiting now without waiting for the orderly stop');
      exit(1);
      return;
    }
    this.#stopping = true;
    const limitMs = this.#deps.limitMs ?? SHUTDOWN_LIMIT_MS;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ limitMs }, `shutdown took longer than ${limitMs} ms; exiting now`);
      exit(1);
    }, limitMs);
    force.unref();
    let failed = false;
    for (const closer of [...this.#closers].reverse()) {
      try {
        await closer.close();
      } catch (error) {
        failed = true;
        logger.error({ closer: closer.name, err: { message: error instanceof Error ? error.message : String(error) } }, `stopping ${closer.name} failed`);
      }
    }
    clearTimeout(force);
    logger.info({ failed }, failed ? 'stopped, with errors (see above)' : 'stopped');
    exit(failed ? 1 : exitCode);
  }
}
