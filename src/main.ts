// Composition: read config, build the logger, restore the room, start the
// service and the adapters, listen; on SIGTERM/SIGINT stop in reverse order.
import { serve, type ServerType } from '@hono/node-server';
import { ConfigError, EXIT_CONFIG, EXIT_DATA_DIR, loadConfig, oscConfigured, type Config } from './config/config.js';
import { mqttConfigured } from './config/mqtt-config.js';
import { tallyConfigured } from './config/tally-config.js';
import { screenConfigured } from './config/screen-config.js';
import { ScreenRulesRunner } from './app/screen-rules-runner.js';
import type { ScreenControl } from './domain/screen.js';
import { systemClock, timeoutScheduler } from './app/clock.js';
import { RoomService } from './app/room-service.js';
import { logTimeNotice } from './app/time-notice-log.js';
import { Shutdown } from './app/shutdown.js';
import { exitAfterHangup } from './app/exit-after-hangup.js';
import { newTimerIdFor, randomTimerId } from './app/timer-ids.js';
import { roomUrls, venueUrl } from './app/urls.js';
import { createApp } from './http/app.js';
import { FixedWindowLimiter } from './app/rate-limit.js';
import { KEYS_FILE, loadOrCreateKeys, writeKeys, type FixedKeys, type RoomKeys } from './keys/key-file.js';
import { KeyWatcher } from './keys/key-watcher.js';
import { startGpio } from './gpio/gpio-adapter.js';
import { createLogger, type Logger } from './log/logger.js';
import { DataDirError } from './store/data-dir.js';
import { openRoom } from './store/open-room.js';
import { PushHub } from './push/push-hub.js';
import { storageEvent } from './push/sse-format.js';
import { LogoFiles } from './store/logo-files.js';
import { RoomStore } from './store/room-store.js';
import { StorageWatch } from './store/storage-watch.js';
import { removeServing, writeServing } from './store/serving-file.js';
import { notifyReady } from './systemd/notify-ready.js';
import { startWatchdog } from './systemd/watchdog.js';
import { runCommand } from './systemd/run-command.js';
import { ClockWatch, readClockSync } from './systemd/time-sync.js';
import { boxClock } from './systemd/clock-setter.js';
import type { VenueWatch } from './venue/venue-overview.js';
import { venueTag } from './config/venue-config.js';
import type { ApiVersion } from './commands/operations.js';

/** Every API version the box serves, oldest first (TXT `versions=`, `api=` the last); a Record so a new ApiVersion must be added here. */
const SERVED_API_VERSIONS: readonly ApiVersion[] = Object.keys({ v0: true, v1: true } satisfies Record<ApiVersion, true>) as ApiVersion[];

/** After the store is flushed, how long answers still being sent get before their connections are cut. */
const ANSWER_DRAIN_MS = 1_000;

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
    const urls = roomUrls(config.host, port, keys, config.publicUrl);
    const venue = config.venue.key === undefined ? '' : `  Venue:        ${venueUrl(config.host, port, config.venue.key, config.publicUrl)}\n`;
    process.stdout.write(`\nShowclock is running.\n  Control room: ${urls.control}\n  Viewers:      ${urls.viewer}\n  Audience:     ${urls.audience}\n  API base:     ${urls.api}\n${venue}\n`);
  } else {
    // Where the key command is depends on how the box was put there: install.sh makes `showclock`.
    logger.info({ port }, 'listening; to print the control-room URL, run `sudo showclock key` on an installed box, or `npm run key` where it was cloned');
  }
}

/** 127.0.0.0/8, ::1, localhost: an address no other machine reaches. */
function isLoopbackHost(host: string): boolean {
  return /^127\./.test(host) || host === '::1' || host === '[::1]' || host.toLowerCase() === 'localhost';
}

function fixedKeys(config: Config): FixedKeys {
  return { apiKey: config.apiKey, viewerKey: config.viewerKey, audienceKey: config.audienceKey };
}

function listenFailure(error: unknown, config: Config): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${config.port} on ${config.host} is already in use (is another Showclock running?): stop it, or set PORT to a free port`;
    case 'EACCES':
      return `no permission to listen on port ${config.port}: ports below 1024 need CAP_NET_BIND_SERVICE (the install script grants it for port 80), or use a port above 1023`;
    case 'EADDRNOTAVAIL':
      return `HOST ${config.host} is not an address of this machine: use 0.0.0.0 to listen on all of them`;
    default:
      return `cannot listen on ${config.host}:${config.port} (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

async function serveRoom(): Promise<void> {
  const config = readConfig();
  let keys: RoomKeys = { apiKey: '', viewerKey: '', audienceKey: '' };
  // The venue key and the listed rooms' viewer keys are secrets too (they open other rooms' streams).
  const venueSecrets = [config.venue.key ?? '', ...config.venue.rooms.map((room) => room.viewerKey)];
  const logger = createLogger({ level: config.logLevel, secrets: () => [keys.apiKey, keys.viewerKey, keys.audienceKey, ...venueSecrets] });
  try {
    keys = loadOrCreateKeys(config.dataDir, fixedKeys(config), (level, message, detail) => logger[level](detail, message));
  } catch (error) {
    // A data directory or keys file that cannot be used: one line, no stack, and an exit code systemd does not repeat.
    if (!(error instanceof DataDirError)) throw error;
    logger.error({ path: error.path }, error.message);
    if (process.stderr.isTTY) process.stderr.write(`showclock: ${error.message}\n`);
    process.exit(EXIT_DATA_DIR);
  }

  // Stop order: the room is made durable first (setDurableRoom below), then the
  // closers run in reverse order of `shutdown.add`: adapters (push streams, GPIO)
  // add theirs as they start, so they stop after the HTTP server stops accepting.
  const shutdown = new Shutdown({ logger, exit: exitAfterHangup });
  // From the first moment, so no stretch of a running service goes unwatched (systemd arms
  // WatchdogSec= once start-up is complete, READY=1; pings before that are ignored).
  const watchdog = startWatchdog(logger);
  if (watchdog !== null) shutdown.add('watchdog', () => watchdog.close());
  // Listen for signals from the start: one that arrives while the service is still
  // starting runs the closers registered so far instead of killing the process mid-write.
  // SIGHUP: the terminal that ran `npm start` was closed.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void shutdown.run(signal));
  // Started by `npm start`'s wrapper (scripts/start.mjs) over an IPC channel: when
  // the wrapper dies, however it dies, the channel closes and the service stops in order.
  if (process.connected) {
    process.on('disconnect', () => void shutdown.run('wrapper gone'));
  }
  let server: ServerType | null = null;
  let serverClosed: Promise<void> = Promise.resolve();
  shutdown.add('answers in flight', async () => {
    await Promise.race([serverClosed, new Promise((resolve) => setTimeout(resolve, ANSWER_DRAIN_MS).unref())]);
    if (server !== null && 'closeAllConnections' in server) server.closeAllConnections();
  });

  const scheduler = timeoutScheduler(systemClock);
  const store = new RoomStore({ dataDir: config.dataDir, clock: systemClock, scheduler, logger });
  // Uploaded logos live beside the room file, and follow it (removed once a saved room no longer names them).
  const logos = new LogoFiles({ dataDir: config.dataDir, saved: store, logger });
  const initialRoom = await openRoom(store, { clock: systemClock, logger, newTimerId: randomTimerId, logos });

  const roomService = new RoomService({
    initialRoom,
    clock: systemClock,
    scheduler,
    onListenerError: (error) => logger.error({ err: error }, 'a listener of room changes failed'),
    onTimeNotice: (notice) => logTimeNotice(logger, notice),
    persistence: store,
  });
  roomService.start();
  // The first step of any stop: no more changes, the waiting saves finish, the room is written.
  shutdown.setDurableRoom({
    persist: async () => {
      await roomService.stopAccepting();
      await store.close();
    },
    persistSync: () => {
      void roomService.stopAccepting();
      store.closeSync();
    },
  });

  // Lamps light from the restored room at once; never rejects (a missing GPIO is logged, not fatal).
  const gpio = await startGpio({ mode: config.gpioMode, config: config.gpio, room: roomService, clock: systemClock, scheduler, logger });
  shutdown.add('GPIO (lamps to their safe state)', () => gpio.close());

  // Push streams (consoles, viewers, kiosk): ended at shutdown, so the HTTP server can close.
  const pushHub = new PushHub({ source: roomService, onError: (error) => logger.error({ err: error }, 'pushing a change to the streams failed') });
  pushHub.start();
  shutdown.add('push streams', () => pushHub.close());
  // Consoles show a banner while the room is not being saved.
  if (!store.health().saving) pushHub.setNotice(storageEvent(store.health()));
  store.onHealthChange((health) => pushHub.setNotice(storageEvent(health)));

  const keyWatcher = new KeyWatcher({
    dataDir: config.dataDir,
    fixed: fixedKeys(config),
    current: () => keys,
    onChange: (next, rotated) => {
      keys = next;
      // Streams opened with a key that is no longer valid end now, not at their next heartbeat.
      pushHub.revalidate();
      logger.info(rotated, 'keys.json changed: rotated keys are in use now; old links and button panels with the old key get 401');
    },
    onProblem: (message, detail) => logger.warn(detail, message),
  });
  keyWatcher.start();
  shutdown.add('key watcher', () => keyWatcher.close());

  // The card, watched: a vanished directory or keys.json written back, room.json checked, a quiet card written to.
  const storageWatch = new StorageWatch({
    dataDir: config.dataDir,
    keysFile: KEYS_FILE,
    saveKeys: () => writeKeys(config.dataDir, keys),
    store,
    clock: systemClock,
    scheduler,
    logger,
    intervalMs: config.storageCheckSeconds * 1_000,
    onRecreated: () => {
      keyWatcher.close();
      keyWatcher.start();
    },
  });
  storageWatch.start();
  shutdown.add('storage watch', () => storageWatch.close());

  const limiter = new FixedWindowLimiter({ limit: config.rateLimit, nowMs: systemClock.monoMs });
  // Is the wall clock synchronised (chrony, timesyncd, or nothing)? Asked now and every 30 s in the
  // background, through timedatectl and chronyc (each killed after 2 s); requests read the last answer.
  // Setting it by hand goes through `timedatectl set-time` (polkit rule from install.sh).
  const run = runCommand();
  const clockWatch = new ClockWatch({ read: () => readClockSync(run), wallMs: systemClock.wallMs, monoMs: systemClock.monoMs, scheduler, logger });
  clockWatch.start();
  shutdown.add('clock watch', () => clockWatch.close());
  const clock = boxClock({
    run,
    current: () => clockWatch.current(),
    refresh: () => clockWatch.refresh(),
    ntpEnabled: () => clockWatch.ntpEnabled,
    markSetByHand: (atWallMs) => clockWatch.markSetByHand(atWallMs),
    wallMs: systemClock.wallMs,
    monoMs: systemClock.monoMs,
    logger,
  });
  // The screen over HDMI-CEC (off unless screen.cec.device is set): cec-ctl registers the box
  // as a playback device, asks the TV its power every pollSeconds, and carries out on /
  // standby / active for /api/v1/{key}/screen/* and for the room's rules (on at boot, on at a
  // timer start, standby after a blackout held). Never rejects or waits for the bus: no
  // cec-ctl or no device is a logged note and `screen.power: unavailable`.
  let screen: ScreenControl | undefined;
  if (screenConfigured(config.screen) && config.screen.cec.device !== undefined) {
    const { startCec, CEC_COMMAND_TIMEOUT_MS } = await import('./cec/cec-adapter.js');
    const cec = startCec({
      device: config.screen.cec.device,
      osdName: config.screen.cec.osdName,
      pollMs: config.screen.cec.pollSeconds * 1_000,
      run: runCommand(process.env, CEC_COMMAND_TIMEOUT_MS),
      report: (report) => void roomService.dispatch({ type: 'screen.report', report }, 'cec'),
      scheduler,
      monoMs: systemClock.monoMs,
      logger,
    });
    shutdown.add('screen (HDMI-CEC polling)', () => cec.close());
    const minutes = config.screen.standbyAfterBlackoutMinutes;
    const rules = new ScreenRulesRunner({
      room: roomService,
      screen: cec,
      rules: { onAtBoot: config.screen.onAtBoot, onAtStart: config.screen.onAtStart, standbyAfterBlackoutMs: minutes === null ? null : minutes * 60_000 },
      scheduler,
      monoMs: systemClock.monoMs,
      onRequest: (ask, answer) =>
        answer.ok
          ? logger.info({ component: 'screen', request: ask.request, because: ask.because }, 'screen: a room rule asked it and the screen acknowledged')
          : logger.warn({ component: 'screen', request: ask.request, because: ask.because }, `screen: a room rule asked it, not done: ${answer.error}`),
    });
    rules.start();
    shutdown.add('screen rules', () => rules.close());
    screen = cec;
  }
  // The venue overview's watching (src/venue), started below once the port is known; /venue answers 503 until then.
  let venueWatch: VenueWatch | null = null;
  const app = createApp({
    service: roomService,
    keys: () => keys,
    limiter,
    logger,
    newTimerId: newTimerIdFor(() => roomService.room),
    isShuttingDown: () => shutdown.stopping,
    storage: () => store.health(),
    viewer: { hub: pushHub },
    venue: { key: () => config.venue.key, name: () => config.venue.name, overview: () => venueWatch },
    logos,
    links: config,
    clock,
    ...(screen === undefined ? {} : { screen }),
  });

  let listening: ServerType;
  try {
    listening = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
    });
  } catch (error) {
    const reason = listenFailure(error, config);
    logger.error({ code: (error as NodeJS.ErrnoException).code }, reason);
    if (process.stderr.isTTY) process.stderr.write(`showclock: ${reason}\n`);
    // Lamps back to their safe state and the room written, then exit 1 so systemd tries again.
    await shutdown.run('listen failed', 1);
    return;
  }
  server = listening;
  shutdown.add('HTTP server (stop accepting)', () => {
    serverClosed = new Promise((resolve) => listening.close(() => resolve()));
    // Keep-alive connections would hold close() open: end idle ones now.
    if ('closeIdleConnections' in listening) listening.closeIdleConnections();
  });
  // OSC and plain-text UDP (off unless configured): the same dispatch and the same
  // quota as HTTP. Never rejects: a UDP port that cannot be had is logged and left off.
  // Its code (and osc-min) is loaded only on a box that has it configured: the
  // modules of a bundle not imported are not set up, which an idle box's memory shows (BENCHMARKS.md).
  if (oscConfigured(config.osc)) {
    const { startOsc } = await import('./osc/osc-adapter.js');
    const osc = await startOsc({
      config: config.osc,
      service: roomService,
      apiKey: () => keys.apiKey,
      limiter,
      monoMs: systemClock.monoMs,
      scheduler,
      logger,
    });
    shutdown.add('OSC (ports and feedback)', () => osc.close());
  }
  // Tally in (off unless configured): a TSL UMD port, UDP and TCP, and OBS over its
  // WebSocket, reporting to the same dispatch; the engine decides what a report does to
  // ON AIR. Never rejects: a port that cannot be had is logged and TSL stays off; an OBS
  // that cannot be reached is tried again in the background and never delays a command.
  // Loaded only where configured, as OSC.
  if (tallyConfigured(config.tally)) {
    const { startTally } = await import('./tally/tally-adapter.js');
    const tally = await startTally({ config: config.tally, service: roomService, monoMs: systemClock.monoMs, logger });
    shutdown.add('tally (TSL port, OBS connection)', () => tally.close());
  }
  // MQTT (off unless mqtt.url is set): state published retained on change, commands
  // from {base}/{room}/set/... through the same dispatch with HTTP's checks, Home
  // Assistant discovery. Connects in the background: a broker that is down never
  // delays a command. The client (dist/showclock-mqtt.cjs) is loaded only here.
  if (mqttConfigured(config.mqtt)) {
    const [{ startMqtt }, { mqttCommandHandler }] = await Promise.all([import('./mqtt/mqtt-adapter.js'), import('./mqtt/mqtt-commands.js')]);
    const mqttLimiter = new FixedWindowLimiter({ limit: config.rateLimit, nowMs: systemClock.monoMs });
    const mqttLink = startMqtt({
      config: config.mqtt,
      service: roomService,
      command: mqttCommandHandler({
        service: roomService,
        limiter: mqttLimiter,
        onAccepted: (command) => logger.info({ source: 'mqtt', command }, 'command'),
      }),
      monoMs: systemClock.monoMs,
      logger,
    });
    shutdown.add('MQTT (offline published, connection closed)', () => mqttLink.close());
  }
  const address = listening.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  // The venue overview (only with venue.key: the overview is opened with it, and found boxes
  // are watched with it; listed rooms are only ever shown on it). Each other room's viewer
  // stream is read in the background; a room that does not answer never delays anything here.
  // The mDNS browser's events go to venueWatch.found(box) / venueWatch.gone(id).
  if (config.venue.key !== undefined) {
    const { startVenue } = await import('./venue/venue-overview.js');
    venueWatch = startVenue({ config: config.venue, room: roomService, port, logger });
    if (venueWatch !== null) {
      const started = venueWatch;
      shutdown.add('venue overview (watched rooms, overview streams)', () => started.close());
    }
  } else if (config.venue.rooms.length > 0) {
    logger.warn({ rooms: config.venue.rooms.length }, 'venue.rooms is set but venue.key is not: the rooms are shown only on the venue overview, which needs venue.key');
  }
  logger.info({ host: config.host, port, gpio: config.gpioMode }, 'showclock started');
  // For `npm run key` in another shell: the links of the box as it runs (serving-file.ts).
  try {
    writeServing(config.dataDir, { pid: process.pid, host: config.host, port });
    shutdown.add('serving.json', () => removeServing(config.dataDir, process.pid));
  } catch (error) {
    logger.warn({ err: error }, 'could not note the port in the data directory: `npm run key` prints the configured port');
  }
  notifyReady(logger, `listening on port ${port}`);
  announce(config, keys, port, logger);
  // Found on the network (venue.advertise, on by default): `_showclock._tcp` and
  // `_http._tcp` under the room's name, from dist/showclock-mdns.cjs, loaded only here.
  // Started once the port is known and the box is ready; never delays or fails the
  // start (a network without multicast is one warning). Registered last, so at a stop it
  // closes first: the goodbye packets go out while the box still answers, and other
  // boxes see it gone at once. With a venue key, the same module's browser reports the
  // venue's other boxes to the overview (found, updated, gone), whether or not this box
  // advertises itself.
  // A box that listens on loopback only (HOST=127.0.0.1: a try-out, the benchmarks, the build's
  // warm-up run) cannot be reached by what would find it: not advertised, not loaded.
  const overview = venueWatch;
  if ((config.venue.advertise || overview !== null) && isLoopbackHost(config.host)) {
    logger.info({ host: config.host }, 'not on the network (mDNS): the box listens on loopback only');
  } else if (config.venue.advertise || overview !== null) {
    const { startMdns, browseBoxes } = await import('./mdns/mdns-adapter.js');
    const mdns = config.venue.advertise
      ? startMdns({
          room: { name: config.venue.name, port, apiVersions: SERVED_API_VERSIONS, venueTag: config.venue.key === undefined ? null : venueTag(config.venue.key) },
          logger,
        })
      : null;
    if (overview !== null) {
      const browser = browseBoxes({
        // found() with an id it knows is an update (a new address, a new name).
        onFound: (box) => overview.found(box),
        onUpdated: (box) => overview.found(box),
        onGone: (box) => overview.gone(box.id),
        logger,
        ownNames: () => mdns?.ownNames() ?? [],
      });
      shutdown.add('mDNS browser', () => browser.close());
    }
    if (mdns !== null) shutdown.add('mDNS (goodbye packets)', () => mdns.close());
  }

}

async function main(): Promise<void> {
  // `npm start`'s wrapper holds an IPC channel to this process: it must not keep a short command (key, config) alive.
  process.channel?.unref();
  const [subcommand, ...rest] = process.argv.slice(2);
  switch (subcommand) {
    case undefined:
    case 'serve':
      return serveRoom();
    // The short commands' code loads only for them.
    case 'config':
      return (await import('./cli/config-command.js')).runConfigCommand(readConfig(), rest);
    case 'key':
      return (await import('./cli/key-command.js')).runKeyCommand(readConfig(), rest);
    default:
      fail(`unknown command "${subcommand}"; use "serve" (default), "key [--rotate-api] [--rotate-viewer]" or "config [name]"`, 64);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`showclock: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
