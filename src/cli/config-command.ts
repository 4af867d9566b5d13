// `showclock config [name]`: checks the configuration (config file + environment)
// and prints what the service would run with, or one setting of it. A bad file
// exits 78 with every problem named, before anything else happens, so it also
// checks a config file after editing it. The kiosk launcher asks it for the port.
// Keys are never printed: they are not configuration; nor are the OBS and MQTT passwords.
import type { Config } from '../config/config.js';

export function runConfigCommand(config: Config, args: readonly string[]): void {
  const settings: Record<string, unknown> = {
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    rateLimit: config.rateLimit,
    logLevel: config.logLevel,
    gpioMode: config.gpioMode,
    gpio: config.gpio,
    osc: config.osc,
    // The OBS password is a secret like the keys: said to be set, never printed.
    tally: { ...config.tally, obs: { ...config.tally.obs, password: config.tally.obs.password === undefined ? null : '(set)' } },
    mqtt: { ...config.mqtt, password: config.mqtt.password === undefined ? null : '(set)' },
    // The venue key opens every room's overview, a listed room's link holds its viewer key: neither is printed.
    venue: { ...config.venue, key: config.venue.key === undefined ? null : '(set)', rooms: config.venue.rooms.map((room) => `${room.origin}/view/(set)`) },
    kiosk: config.kiosk,
    screen: config.screen,
    configPath: config.configPath ?? null,
  };
  if (args.length === 0) {
    process.stdout.write(`${JSON.stringify(settings, null, 2)}\n`);
    return;
  }
  const [name, ...extra] = args;
  // One setting, or one field of a section (`kiosk.audio`: the kiosk launcher reads it).
  const value = name === undefined || extra.length > 0 ? undefined : settingAt(settings, name.split('.'));
  if (value === undefined) {
    process.stderr.write(`showclock config: give no name, or one of ${Object.keys(settings).join(', ')} (a field of a section as kiosk.audio)\n`);
    process.exit(64);
  }
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}

function settingAt(settings: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let at: unknown = settings;
  for (const part of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}
