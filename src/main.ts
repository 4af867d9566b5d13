// Composition: read config, build the logger, restore the room, start the
// service and the adapters, listen; on SIGTERM/SIGINT stop in reverse order.
import { serve, type ServerType } from '@hono/node-server';
import { runKeyCommand } from './cli/key-command.js';
import { ConfigError, EXIT_CONFIG, loadConfig, type Config } from './config/config.js';
import { systemClock, timeoutScheduler } from './app/clock.js';
import { RoomService } from './app/room-service.js';
import { newTimerIdFor, randomTimerId } from './app/timer-ids.js';
import { roomUrls } from './app/urls.js';
import { createRoom } from './domain/room.js';
import { createApp } from './http/app.js';
import { FixedWindowLimiter } from './http/rate-limit.js';
import { loadOrCreateKeys, type RoomKeys } from './keys/key-file.js';
import { createLogger, type Logger } from './log/logger.js';

const SHUTDOWN_LIMIT_MS = 5_000;

function fail(message: string, code: number): never {
  process.stderr.write(`showclock: ${message}\n`);
  process.exit(code);
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, EXIT_CONFIG);
    throw error;
  }
}

function announce(config: Config, keys: RoomKeys, port: number, logger: Logger): void {
  if (process.stdout.isTTY) {
    const urls = roomUrls(config.host, port, keys);
    process.stdout.write(`\nShowclock is running.\n  Control room: ${urls.control}\n  Viewers:      ${urls.viewer}\n  API base:     ${urls.api}\n\n`);
  } else {
    logger.info({ port }, 'listening; run `npm run key` (or `node dist/showclock.mjs key`) on the box to print the control-room URL');
  }
}

async function serveRoom(): Promise<void> {
  const config = readConfig();
  let keys: RoomKeys = { apiKey: '', viewerKey: '' };
  const logger = createLogger({ level: config.logLevel, secrets: () => [keys.apiKey, keys.viewerKey] });
  keys = loadOrCreateKeys(config.dataDir, { apiKey: config.apiKey, viewerKey: config.viewerKey }, (reason) =>
    logger.error({ file: 'keys.json', reason }, 'the keys file was damaged; new keys were made'),
  );

  const roomService = new RoomService({
    initialRoom: createRoom(randomTimerId()),
    clock: systemClock,
    scheduler: timeoutScheduler(systemClock),
    onListenerError: (error) => logger.error({ err: error }, 'a listener of room changes failed'),
  });
  roomService.start();

  let shuttingDown = false;
  const limiter = new FixedWindowLimiter({ limit: config.rateLimit, nowMs: systemClock.monoMs });
  const app = createApp({
    service: roomService,
    keys: () => keys,
    limiter,
    logger,
    newTimerId: newTimerIdFor(() => roomService.room),
    isShuttingDown: () => shuttingDown,
  });

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  logger.info({ host: config.host, port, gpio: config.gpioMode }, 'showclock started');
  announce(config, keys, port, logger);

  const shutdown = (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 5 s; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    force.unref();
    roomService.close();
    server.close(() => {
      logger.info('stopped');
      process.exit(0);
    });
    // Keep-alive connections would hold close() open: end idle ones now.
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

async function main(): Promise<void> {
  const [subcommand, ...rest] = process.argv.slice(2);
  switch (subcommand) {
    case undefined:
    case 'serve':
      return serveRoom();
    case 'key':
      return runKeyCommand(readConfig(), rest);
    default:
      fail(`unknown command "${subcommand}"; use "serve" (default) or "key [--rotate-api] [--rotate-viewer]"`, 64);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`showclock: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
