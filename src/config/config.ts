// Configuration: the JSON file named by SHOWCLOCK_CONFIG, then environment
// variables on top. Validated with zod at start; any problem is a ConfigError
// naming each bad field by its path, and main exits with 78 (EX_CONFIG). A data
// directory or keys file that cannot be used exits with 73 (EXIT_DATA_DIR).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from '../schema/zod.js';
import { gpioConfigSchema, type GpioConfig } from './gpio-config.js';
import { stripJsonComments } from './json-comments.js';
import { checkPublicUrl } from './public-url.js';
import { mqttConfigSchema, MqttConfigProblem, resolveMqttConfig, type MqttConfig } from './mqtt-config.js';
import { indicesSchema, obsUrlProblem, tallyConfigSchema, type TallyConfig } from './tally-config.js';
import { KioskConfigProblem, kioskConfigSchema, resolveKioskConfig, type KioskConfig } from './kiosk-config.js';
import { resolveScreenConfig, screenConfigSchema, ScreenConfigProblem, type ScreenConfig } from './screen-config.js';
import { resolveVenueConfig, venueConfigSchema, VenueConfigProblem, type VenueConfig } from './venue-config.js';

export const GPIO_MODES = ['auto', 'onoff', 'sim', 'off'] as const;
export type GpioMode = (typeof GPIO_MODES)[number];

export const EXIT_CONFIG = 78;
/**
 * A data directory or keys.json the service cannot use at start (EX_CANTCREAT).
 * Like EXIT_CONFIG it is in the unit's RestartPreventExitStatus: restarting
 * every second cannot fix a permission or a path, a person has to.
 */
export const EXIT_DATA_DIR = 73;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Feedback targets beyond this are a mistake (a list pasted twice), not a rack. */
export const OSC_FEEDBACK_MAX = 32;

// The config file's schemas are made for each read and dropped after it (a box
// reads its config once, at start; see gpioConfigSchema). The environment's
// numbers each make only their own.
const portSchema = () =>
  z.number({ error: 'expected a number' }).check(z.int('expected a whole number'), z.gte(0, 'expected 0 to 65535'), z.lte(65535, 'expected 0 to 65535'));
const rateLimitSchema = () => z.number({ error: 'expected a number' }).check(z.int('expected a whole number'), z.gte(1, 'expected at least 1'));
const storageCheckSchema = () =>
  z.number({ error: 'expected a number' }).check(z.int('expected a whole number'), z.gte(1, 'expected 1 to 3600 seconds'), z.lte(3600, 'expected 1 to 3600 seconds'));

/** `publicUrl`: an http(s) address with no path (public-url.ts); the problem named as for any field. */
const publicUrlSchema = () =>
  z.string({ error: 'expected a string' }).check(
    z.superRefine((raw, ctx) => {
      const checked = checkPublicUrl(raw);
      if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.problem, input: raw });
    }),
  );

function configFileSchema() {
  const port = portSchema();
  const rateLimit = rateLimitSchema();
  const host = z.string({ error: 'expected a string' }).check(z.minLength(1, 'expected a host name or address'));

  /**
   * The `osc` section (src/osc): OSC and plain-text commands over UDP, off unless a
   * port is given, and feedback to surfaces. Port 0 (any free port) is for tests.
   */
  const OscConfigSchema = z
    .strictObject({
      port: z.optional(port),
      host: z.optional(host),
      textPort: z.optional(port),
      reply: z.optional(z.boolean({ error: 'expected true or false' })),
      feedback: z.optional(
        z
          .array(
            z.strictObject({
              host,
              port: port.check(z.gte(1, 'expected a port 1 to 65535 to send to')),
            }),
            { error: 'expected a list of { "host": ..., "port": ... }' },
          )
          .check(z.maxLength(OSC_FEEDBACK_MAX, `expected at most ${OSC_FEEDBACK_MAX} targets`)),
      ),
    })
    .check(
      z.refine((osc) => osc.port === undefined || osc.port === 0 || osc.port !== osc.textPort, {
        error: 'must differ from osc.port: OSC and plain text each need a port of their own',
        path: ['textPort'],
      }),
    );

  /** The config file. Unknown keys are errors: a misspelt key must not be silently ignored. */
  const ConfigFileSchema = z.strictObject({
    port: z.optional(port),
    host: z.optional(host),
    dataDir: z.optional(z.string({ error: 'expected a string' }).check(z.minLength(1, 'expected a directory path'))),
    rateLimit: z.optional(rateLimit),
    storageCheckSeconds: z.optional(storageCheckSchema()),
    logLevel: z.optional(z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` })),
    gpio: z.optional(gpioConfigSchema()),
    osc: z.optional(OscConfigSchema),
    tally: z.optional(tallyConfigSchema(port, host)),
    mqtt: z.optional(mqttConfigSchema()),
    venue: z.optional(venueConfigSchema()),
    screen: z.optional(screenConfigSchema()),
    publicUrl: z.optional(publicUrlSchema()),
    kiosk: z.optional(kioskConfigSchema()),
  });

  return ConfigFileSchema;
}

export type ConfigFile = z.infer<ReturnType<typeof configFileSchema>>;

export interface OscFeedbackTarget {
  readonly host: string;
  readonly port: number;
}

export interface OscConfig {
  /** OSC over UDP; undefined: off. */
  readonly port: number | undefined;
  readonly host: string;
  /** Plain-text lines over UDP; undefined: off. */
  readonly textPort: number | undefined;
  /** Answer refused input to its sender (`/showclock/error <message>`). */
  readonly reply: boolean;
  readonly feedback: readonly OscFeedbackTarget[];
}

/** Whether any part of OSC (input, plain text, feedback) is on: otherwise the service does not load it. */
export function oscConfigured(osc: OscConfig): boolean {
  return osc.port !== undefined || osc.textPort !== undefined || osc.feedback.length > 0;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly rateLimit: number;
  /** How often the data directory, keys.json and room.json are checked, and a quiet card is written to (storage-watch.ts). */
  readonly storageCheckSeconds: number;
  readonly logLevel: string;
  readonly gpioMode: GpioMode;
  readonly gpio: GpioConfig;
  readonly osc: OscConfig;
  /** Tally in (src/tally): TSL off unless a port is given, OBS unless an address is. */
  readonly tally: TallyConfig;
  /** MQTT (src/mqtt): off unless `mqtt.url` is given. */
  readonly mqtt: MqttConfig;
  /** This room on the network (mDNS), the venue key and the overview's listed rooms (src/venue). */
  readonly venue: VenueConfig;
  /** The screen over HDMI-CEC (src/cec): off unless `screen.cec.device` is given. */
  readonly screen: ScreenConfig;
  /** The HDMI kiosk's sound (read by the kiosk launcher, not by the service). */
  readonly kiosk: KioskConfig;
  /** Set when the environment fixes a key; otherwise keys come from the data directory. */
  readonly apiKey: string | undefined;
  readonly viewerKey: string | undefined;
  readonly audienceKey: string | undefined;
  readonly configPath: string | undefined;
  /** The origin every link the box gives out starts with (`http://showclock.local:8080`); undefined: the box's own address (app/urls.ts). */
  readonly publicUrl: string | undefined;
}

export const DEFAULTS = { port: 8080, host: '0.0.0.0', dataDir: './data', rateLimit: 100, storageCheckSeconds: 10, logLevel: 'info', gpioMode: 'auto' } as const;

const ARTICLE_AN = new Set(['object', 'array', 'integer', 'int']);

function joinPath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : String(part))).join('.').replace(/\.\[/g, '[');
}

/**
 * One entry per problem, each naming the field by its path in the file:
 * `gpio.lamp.pin: expected a number`, `prot: unknown key`. Zod's own wording
 * ("Invalid input: ...") is replaced with what the file should hold.
 */
export function describeConfigIssues(error: z.core.$ZodError): string[] {
  const problems: string[] = [];
  for (const issue of error.issues) {
    const at = joinPath(issue.path);
    const prefix = at === '' ? '' : `${at}: `;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(`${prefix === '' ? '' : `${at}.`}${key}: unknown key (misspelt, or not a setting of this version)`);
    } else if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
      const expected = String(issue.expected);
      problems.push(`${prefix}expected ${ARTICLE_AN.has(expected) ? 'an' : 'a'} ${expected}`);
    } else {
      problems.push(`${prefix}${issue.message}`);
    }
  }
  return problems;
}

function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`config file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new ConfigError(`config file ${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const result = configFileSchema().safeParse(json);
  if (!result.success) {
    const problems = describeConfigIssues(result.error);
    // One line per problem: messages may hold a ';' of their own.
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    throw new ConfigError(`config file ${file}: ${count}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return result.data;
}

function envNumber(env: NodeJS.ProcessEnv, name: string, schema: () => z.ZodMiniNumber): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`environment ${name}: expected a whole number, got ${JSON.stringify(raw)}`);
  const result = schema().safeParse(Number(raw.trim()));
  if (!result.success) throw new ConfigError(`environment ${name}: ${describeConfigIssues(result.error).join('; ')}`);
  return result.data;
}

function envKey(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  // Keys travel in URL paths: keep them to URL-safe characters and long enough to resist guessing.
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(raw)) {
    throw new ConfigError(`environment ${name}: expected 16 to 128 characters from A-Z a-z 0-9 _ - (the key goes in URLs)`);
  }
  return raw;
}

function envPublicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SHOWCLOCK_PUBLIC_URL;
  if (raw === undefined || raw === '') return undefined;
  const checked = checkPublicUrl(raw);
  if (!checked.ok) throw new ConfigError(`environment SHOWCLOCK_PUBLIC_URL: ${checked.problem}`);
  return checked.origin;
}

/** The file's publicUrl, already checked by its schema, as the origin links start with. */
function publicOrigin(raw: string): string {
  const checked = checkPublicUrl(raw);
  if (!checked.ok) throw new ConfigError(`publicUrl: ${checked.problem}`);
  return checked.origin;
}

/** SHOWCLOCK_TALLY_TSL_INDICES: `1` or `1,2`, checked as the file's `tally.tsl.indices`. */
function envIndices(env: NodeJS.ProcessEnv): number[] | undefined {
  const raw = env.SHOWCLOCK_TALLY_TSL_INDICES;
  if (raw === undefined || raw.trim() === '') return undefined;
  const parts = raw.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^\d+$/.test(part))) {
    throw new ConfigError(`environment SHOWCLOCK_TALLY_TSL_INDICES: expected whole numbers separated by commas (1 or 1,2), got ${JSON.stringify(raw)}`);
  }
  const result = indicesSchema().safeParse(parts.map(Number));
  if (!result.success) throw new ConfigError(`environment SHOWCLOCK_TALLY_TSL_INDICES: ${describeConfigIssues(result.error).join('; ')}`);
  return result.data;
}

/**
 * The tally section with the environment on top, and what only the whole can tell:
 * a port needs indices (nothing else says which displays are this room's), and it
 * may not be a port the box already uses for something else.
 */
function tallyConfig(env: NodeJS.ProcessEnv, file: ConfigFile, taken: { readonly http: number; readonly osc: OscConfig }): TallyConfig {
  const fileTsl = file.tally?.tsl;
  const port = envNumber(env, 'SHOWCLOCK_TALLY_TSL_PORT', portSchema) ?? fileTsl?.port;
  const indices = envIndices(env) ?? fileTsl?.indices;
  if (port !== undefined && indices === undefined) {
    throw new ConfigError(
      'tally.tsl.indices: required with tally.tsl.port: which display index (TSL 5.0) or address (TSL 3.1) is this room, such as [1] (or SHOWCLOCK_TALLY_TSL_INDICES=1)',
    );
  }
  if (port !== undefined && port !== 0) {
    if (port === taken.http) throw new ConfigError(`tally.tsl.port: ${port} is the HTTP port; TSL needs a port of its own (8900 is usual)`);
    if (port === taken.osc.port || port === taken.osc.textPort) throw new ConfigError(`tally.tsl.port: ${port} is an OSC port; TSL needs a port of its own (8900 is usual)`);
  }
  const fileObs = file.tally?.obs;
  const envUrl = env.SHOWCLOCK_TALLY_OBS_URL === undefined || env.SHOWCLOCK_TALLY_OBS_URL === '' ? undefined : env.SHOWCLOCK_TALLY_OBS_URL;
  const urlProblem = envUrl === undefined ? null : obsUrlProblem(envUrl);
  if (urlProblem !== null) throw new ConfigError(`environment SHOWCLOCK_TALLY_OBS_URL: ${urlProblem}`);
  const envPassword = env.SHOWCLOCK_TALLY_OBS_PASSWORD === undefined || env.SHOWCLOCK_TALLY_OBS_PASSWORD === '' ? undefined : env.SHOWCLOCK_TALLY_OBS_PASSWORD;
  return {
    tsl: { port, host: fileTsl?.host ?? DEFAULTS.host, indices: indices ?? [], on: fileTsl?.on ?? 'program' },
    obs: { url: envUrl ?? fileObs?.url, password: envPassword ?? fileObs?.password, on: fileObs?.on ?? 'stream' },
  };
}

/**
 * A section resolved by its own module, whose problem (an error of `problemClass`) becomes a
 * ConfigError with the same words: the sections' modules know nothing of ConfigError.
 */
function section<T>(problemClass: abstract new (message: string) => Error, resolveSection: () => T): T {
  try {
    return resolveSection();
  } catch (error) {
    if (error instanceof problemClass) throw new ConfigError(error.message);
    throw error;
  }
}

/** Resolves the configuration; throws ConfigError with every problem named. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): Config {
  const configPath = env.SHOWCLOCK_CONFIG === undefined || env.SHOWCLOCK_CONFIG === '' ? undefined : resolve(cwd, env.SHOWCLOCK_CONFIG);
  const file: ConfigFile = configPath === undefined ? {} : readConfigFile(configPath);
  const gpioModeRaw = env.SHOWCLOCK_GPIO;
  if (gpioModeRaw !== undefined && gpioModeRaw !== '' && !(GPIO_MODES as readonly string[]).includes(gpioModeRaw)) {
    throw new ConfigError(`environment SHOWCLOCK_GPIO: expected one of ${GPIO_MODES.join(', ')}, got ${JSON.stringify(gpioModeRaw)}`);
  }
  const logLevelRaw = env.LOG_LEVEL;
  // pino throws on an unknown level: catch it here, where the message can name the variable.
  if (logLevelRaw !== undefined && logLevelRaw !== '' && !(LOG_LEVELS as readonly string[]).includes(logLevelRaw)) {
    throw new ConfigError(`environment LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevelRaw)}`);
  }
  const apiKey = envKey(env, 'SHOWCLOCK_API_KEY');
  const viewerKey = envKey(env, 'SHOWCLOCK_VIEWER_KEY');
  if (apiKey !== undefined && apiKey === viewerKey) {
    throw new ConfigError('environment SHOWCLOCK_VIEWER_KEY: must differ from SHOWCLOCK_API_KEY (the viewer key only watches)');
  }
  const audienceKey = envKey(env, 'SHOWCLOCK_AUDIENCE_KEY');
  if (audienceKey !== undefined && (audienceKey === apiKey || audienceKey === viewerKey)) {
    throw new ConfigError('environment SHOWCLOCK_AUDIENCE_KEY: must differ from SHOWCLOCK_API_KEY and SHOWCLOCK_VIEWER_KEY (the audience key only asks questions)');
  }
  const httpPort = envNumber(env, 'PORT', portSchema) ?? file.port ?? DEFAULTS.port;
  const osc: OscConfig = {
    port: envNumber(env, 'SHOWCLOCK_OSC_PORT', portSchema) ?? file.osc?.port,
    host: file.osc?.host ?? DEFAULTS.host,
    textPort: file.osc?.textPort,
    reply: file.osc?.reply ?? false,
    feedback: file.osc?.feedback ?? [],
  };
  return {
    port: httpPort,
    host: (env.HOST === undefined || env.HOST === '' ? undefined : env.HOST) ?? file.host ?? DEFAULTS.host,
    dataDir: resolve(cwd, (env.SHOWCLOCK_DATA_DIR === undefined || env.SHOWCLOCK_DATA_DIR === '' ? undefined : env.SHOWCLOCK_DATA_DIR) ?? file.dataDir ?? DEFAULTS.dataDir),
    rateLimit: envNumber(env, 'SHOWCLOCK_RATE_LIMIT', rateLimitSchema) ?? file.rateLimit ?? DEFAULTS.rateLimit,
    storageCheckSeconds: envNumber(env, 'SHOWCLOCK_STORAGE_CHECK_SECONDS', storageCheckSchema) ?? file.storageCheckSeconds ?? DEFAULTS.storageCheckSeconds,
    logLevel: (env.LOG_LEVEL === undefined || env.LOG_LEVEL === '' ? undefined : env.LOG_LEVEL) ?? file.logLevel ?? DEFAULTS.logLevel,
    gpioMode: (gpioModeRaw === undefined || gpioModeRaw === '' ? DEFAULTS.gpioMode : gpioModeRaw) as GpioMode,
    gpio: file.gpio ?? {},
    osc,
    tally: tallyConfig(env, file, { http: httpPort, osc }),
    mqtt: section(MqttConfigProblem, () => resolveMqttConfig(env, file.mqtt)),
    venue: section(VenueConfigProblem, () => resolveVenueConfig(env, file.venue, [apiKey, viewerKey, audienceKey])),
    screen: section(ScreenConfigProblem, () => resolveScreenConfig(env, file.screen)),
    kiosk: section(KioskConfigProblem, () => resolveKioskConfig(env, file.kiosk)),
    apiKey,
    viewerKey,
    audienceKey,
    configPath,
    publicUrl: envPublicUrl(env) ?? (file.publicUrl === undefined ? undefined : publicOrigin(file.publicUrl)),
  };
}
