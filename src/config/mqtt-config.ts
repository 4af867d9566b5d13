// The `mqtt` section of the config file (issue 32, README "MQTT (Home Assistant)"):
// a broker to publish the room's state to and take commands from, off unless
// `mqtt.url` is given. Checked at start like every section: a mistake stops the
// service with the field's path, not a Home Assistant that never sees the box.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as z from '../schema/zod.js';
import { checkedString, envText } from './field-checks.js';

/** A topic level: what MQTT allows in one level less the wildcards, kept to what a person types. */
const TOPIC_LEVEL = /^[A-Za-z0-9_-]{1,64}$/;
/** A base topic: one or more levels, such as `showclock` or `venue/showclock`. */
const BASE_TOPIC = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64}){0,7}$/;

export interface MqttConfig {
  /** `mqtt://host:1883` or `mqtts://host:8883`; undefined: off. */
  readonly url: string | undefined;
  readonly username: string | undefined;
  /** Never logged; `showclock config` prints `(set)`. */
  readonly password: string | undefined;
  readonly baseTopic: string;
  /** The room's topic level: `{baseTopic}/{room}/...`; also the device id in Home Assistant. */
  readonly room: string;
  /** A PEM file with the CA that signed an mqtts:// broker's certificate (a private CA); undefined: the system's CAs. */
  readonly caFile: string | undefined;
  /** Home Assistant's discovery prefix; `homeassistant` unless HA was told otherwise. */
  readonly discoveryPrefix: string;
  /** Publish Home Assistant discovery configs. */
  readonly discovery: boolean;
}

export function mqttConfigured(mqtt: MqttConfig): boolean {
  return mqtt.url !== undefined;
}

/** The host name as a topic level: `Stage-A.local` → `stage-a`; `showclock` when nothing is left. */
export function hostSlug(name: string = hostname()): string {
  const slug = (name.split('.')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return slug === '' ? 'showclock' : slug;
}

export function mqttUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'expected a broker address such as mqtt://192.168.1.10:1883 or mqtts://broker.example:8883';
  }
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') return `expected mqtt:// or mqtts:// (TLS), got ${url.protocol}//`;
  if (url.hostname === '') return 'expected a host, such as mqtt://192.168.1.10:1883';
  if (url.username !== '' || url.password !== '') return 'give the user name and password as mqtt.username and mqtt.password, not in the address (an address is logged)';
  if (url.pathname !== '' && url.pathname !== '/') return 'expected no path: the topics are mqtt.baseTopic and mqtt.room';
  return null;
}

export const topicLevelProblem = (raw: string): string | null =>
  TOPIC_LEVEL.test(raw) ? null : 'expected 1 to 64 characters from A-Z a-z 0-9 _ - (one topic level: no /, + or #)';
export const baseTopicProblem = (raw: string): string | null =>
  BASE_TOPIC.test(raw) ? null : 'expected topic levels of A-Z a-z 0-9 _ - separated by /, such as showclock or venue/showclock (no +, # or leading /)';

export function mqttConfigSchema() {
  return z.strictObject({
    url: z.optional(checkedString(mqttUrlProblem)),
    username: z.optional(z.string({ error: 'expected a string' }).check(z.minLength(1, 'expected a user name'))),
    password: z.optional(z.string({ error: 'expected a string' })),
    baseTopic: z.optional(checkedString(baseTopicProblem)),
    room: z.optional(checkedString(topicLevelProblem)),
    caFile: z.optional(z.string({ error: 'expected a string' }).check(z.minLength(1, 'expected the path of a PEM file'))),
    discoveryPrefix: z.optional(checkedString(baseTopicProblem)),
    discovery: z.optional(z.boolean({ error: 'expected true or false' })),
  });
}

export type MqttFile = z.infer<ReturnType<typeof mqttConfigSchema>>;

/** Thrown with the field's name in front; config.ts turns it into its ConfigError. */
export class MqttConfigProblem extends Error {}

function envChecked(env: NodeJS.ProcessEnv, name: string, problem: (raw: string) => string | null): string | undefined {
  const raw = envText(env, name);
  if (raw === undefined) return undefined;
  const found = problem(raw);
  if (found !== null) throw new MqttConfigProblem(`environment ${name}: ${found}`);
  return raw;
}

/** The section with the environment on top (SHOWCLOCK_MQTT_*), and what only the whole can tell. */
export function resolveMqttConfig(env: NodeJS.ProcessEnv, file: MqttFile | undefined): MqttConfig {
  const url = envChecked(env, 'SHOWCLOCK_MQTT_URL', mqttUrlProblem) ?? file?.url;
  const caFile = envText(env, 'SHOWCLOCK_MQTT_CA_FILE') ?? file?.caFile;
  const config: MqttConfig = {
    url,
    username: envText(env, 'SHOWCLOCK_MQTT_USERNAME') ?? file?.username,
    password: envText(env, 'SHOWCLOCK_MQTT_PASSWORD') ?? file?.password,
    baseTopic: envChecked(env, 'SHOWCLOCK_MQTT_BASE_TOPIC', baseTopicProblem) ?? file?.baseTopic ?? 'showclock',
    room: envChecked(env, 'SHOWCLOCK_MQTT_ROOM', topicLevelProblem) ?? file?.room ?? hostSlug(),
    caFile,
    discoveryPrefix: file?.discoveryPrefix ?? 'homeassistant',
    discovery: file?.discovery ?? true,
  };
  if (config.password !== undefined && config.username === undefined) {
    throw new MqttConfigProblem('mqtt.password: given without mqtt.username (or SHOWCLOCK_MQTT_USERNAME); a broker checks the two together');
  }
  if (caFile !== undefined) {
    if (url === undefined || !url.startsWith('mqtts:')) throw new MqttConfigProblem('mqtt.caFile: only for an mqtts:// broker (TLS); mqtt.url is not one');
    let text: string;
    try {
      text = readFileSync(caFile, 'utf8');
    } catch (error) {
      throw new MqttConfigProblem(`mqtt.caFile: ${caFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    // Node takes a file without a PEM certificate silently and then trusts nothing: every
    // connection would fail as "not trusted", far from the cause. Said here, at the start.
    if (!text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new MqttConfigProblem(`mqtt.caFile: ${caFile} holds no certificate in PEM form (-----BEGIN CERTIFICATE-----); give the CA's certificate, not its key or a DER file (openssl x509 -inform der -in ca.der -out ca.pem)`);
    }
  }
  return config;
}
