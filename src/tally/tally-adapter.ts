// The tally adapter (issue 32, README "Tally in"): owns the TSL UMD port and the
// OBS connection for the life of the service, each off unless configured
// (`tally.tsl.port`, `tally.obs.url`). What the mixer or OBS says goes to the room
// as `tally.set` (source `tsl` or `obs`) through the one dispatch, command source
// `tally`; the engine decides what it does to ON AIR (src/domain/tally.ts). A port
// that cannot be had is logged once and TSL stays off; an OBS that cannot be
// reached is tried again in the background: the timer, HTTP, OSC and the buttons
// run on, as with a missing GPIO.
import { unrefScheduler, type Scheduler } from '../app/clock.js';
import type { TallyConfig } from '../config/tally-config.js';
import type { Logger } from '../log/logger.js';
import { ObsTally } from './obs-tally.js';
import { RefusedLog } from './refused-log.js';
import { BindError, TslInput } from './tsl-input.js';
import { TslTally, type TallyTarget } from './tsl-tally.js';

export interface TallyAdapter {
  /** The bound TSL port (UDP and TCP; port 0 in the config picks a free one), null while off. */
  readonly tslPort: number | null;
  /** Port closed, connections ended, OBS let go. Safe to call twice. */
  close(): void;
}

export interface TallyDeps {
  readonly config: TallyConfig;
  readonly service: TallyTarget;
  readonly monoMs: () => number;
  readonly logger: Logger;
  /** For tests: when the refused-input summaries are written. By default timers that never hold the process open. */
  readonly scheduler?: Scheduler;
  /** For tests: the first wait before OBS is tried again. */
  readonly obsRetryFirstMs?: number;
}


function bindProblem(error: unknown, host: string, port: number): string {
  const transport = error instanceof BindError ? error.transport : 'UDP/TCP';
  const code = error instanceof BindError ? error.code : (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return `TSL tally off: ${transport} port ${port} on ${host} is already in use (another tally receiver, or another Showclock?); choose another tally.tsl.port`;
    case 'EACCES':
      return `TSL tally off: no permission for ${transport} port ${port}: use a port above 1023 (8900 is usual)`;
    case 'EADDRNOTAVAIL':
      return `TSL tally off: tally.tsl.host ${host} is not an address of this machine; use 0.0.0.0 for all of them`;
    default:
      return `TSL tally off: cannot listen on ${transport} ${host}:${port} (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

/** Starts what the config asks for; never rejects. */
export async function startTally(deps: TallyDeps): Promise<TallyAdapter> {
  const logger = deps.logger.child({ component: 'tally' });
  const closers: (() => void)[] = [];
  const tslPort = await startTsl(deps, logger, closers);
  const { obs } = deps.config;
  if (obs.url !== undefined) {
    const tally = new ObsTally({
      url: obs.url,
      password: obs.password,
      on: obs.on,
      target: deps.service,
      logger,
      ...(deps.obsRetryFirstMs === undefined ? {} : { retryFirstMs: deps.obsRetryFirstMs }),
    });
    tally.start();
    closers.push(() => tally.close());
  }
  let closed = false;
  return {
    tslPort,
    close() {
      if (closed) return;
      closed = true;
      for (const close of closers.reverse()) close();
    },
  };
}

async function startTsl(deps: TallyDeps, logger: Logger, closers: (() => void)[]): Promise<number | null> {
  const { tsl } = deps.config;
  if (tsl.port === undefined) return null;
  const refused = new RefusedLog({ logger, nowMs: deps.monoMs, scheduler: deps.scheduler ?? unrefScheduler(deps.monoMs) });
  const tally = new TslTally({ indices: tsl.indices, on: tsl.on, target: deps.service, logger });
  const input = new TslInput({ host: tsl.host, port: tsl.port, tally, refused, logger, indices: tsl.indices });
  let port: number;
  try {
    port = await input.start();
  } catch (error) {
    logger.error({ host: tsl.host, port: tsl.port, code: error instanceof BindError ? error.code : undefined }, bindProblem(error, tsl.host, tsl.port));
    return null;
  }
  logger.info({ host: tsl.host, port, indices: tsl.indices, on: tsl.on }, `TSL tally listening on UDP and TCP ${tsl.host}:${port} for display ${tsl.indices.join(', ')} (${tsl.on})`);
  closers.push(() => input.close());
  return port;
}
