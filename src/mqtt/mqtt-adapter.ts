// The MQTT adapter (issue 32, README "MQTT (Home Assistant)"): off unless
// `mqtt.url` is set. It publishes the room's state retained under
// `{base}/{room}/` on every change (and when the phase changes by time alone:
// a threshold or 0:00 reached), availability with a last will, and Home
// Assistant discovery configs; it takes commands on `{base}/{room}/set/+`
// through the one dispatch (source `mqtt`, see mqtt-commands.ts).
//
// A broker that is down never delays a command: the room's listener only marks
// the state as changed, and nothing is queued for the broker while it is away
// (MQTT.js's offline queue is off); once it is back, everything is published
// afresh, so the retained state is current even on a broker that restarted with
// nothing kept. Reconnects back off from 1 s to 10 s; one warning per outage.
import { readFileSync } from 'node:fs';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { unrefScheduler, type Scheduler } from '../app/clock.js';
import type { RoomListener } from '../app/room-service.js';
import type { MqttConfig } from '../config/mqtt-config.js';
import type { Snapshot } from '../domain/snapshot.js';
import { LineThrottle } from '../log/line-throttle.js';
import type { Logger } from '../log/logger.js';
import { discoveryConfigs, nextPhaseChangeAt, stateTopics } from './mqtt-topics.js';
// The service's version for Home Assistant's device (sw_version). Read from package.json at
// build time (esbuild inlines the JSON into dist/showclock-mqtt.cjs; vitest and tsx read the
// file), so it cannot drift from the release. Imported here, not from a module in src/app:
// this side file may hold only the few modules of src that scripts/build.mjs lists (it
// checks), and package.json is not in src.
import packageJson from '../../package.json' with { type: 'json' };

/** The version of the service this adapter was built with (package.json "version"). */
export const SERVICE_VERSION: string = packageJson.version;

/** Refusals logged per command name a minute; the rest counted in one line (as OSC's bad input). */
export const REFUSED_WINDOW_MS = 60_000;

export interface MqttSource {
  subscribe(listener: RoomListener): () => void;
  snapshot(): Snapshot;
}

export type MqttCommandHandler = (name: string, payload: string, refuse: (error: string) => void) => void;

export interface MqttDeps {
  readonly config: MqttConfig;
  readonly service: MqttSource;
  /** mqtt-commands.ts's handler, made by main.ts: the shared vocabulary stays out of the side file. */
  readonly command: MqttCommandHandler;
  readonly monoMs: () => number;
  readonly logger: Logger;
  /** sw_version of the Home Assistant device; the service's own version (SERVICE_VERSION) unless a test says otherwise. */
  readonly version?: string;
  readonly scheduler?: Scheduler;
  /** For tests: the first and the longest wait between connection attempts. */
  readonly reconnectFirstMs?: number;
  readonly reconnectMaxMs?: number;
}

export interface MqttAdapter {
  /** Connected to the broker now. */
  readonly connected: boolean;
  /** Publishes `offline` (retained), then disconnects; resolves within a second whatever the broker does. Safe to call twice. */
  close(): Promise<void>;
}

/** Node's codes for a certificate chain that does not end at a CA this box trusts. */
const UNTRUSTED_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * Why the broker could not be had, in words that say what to change. TLS is where
 * a venue gets it wrong (a private CA the box does not know, a certificate made for
 * another name), and Node's own words ("unable to get local issuer certificate")
 * name neither the cause nor the setting; other problems keep Node's or MQTT.js's words.
 */
export function brokerProblem(error: Error, config: Pick<MqttConfig, 'caFile' | 'url'>, duringConnect: boolean): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  // A plain listener (Mosquitto's 1883) drops a TLS hello at once: reset before any answer.
  if (duringConnect && code === 'ECONNRESET' && config.url?.startsWith('mqtts:') === true) {
    return `the broker closed the connection during the TLS handshake (${error.message}): is the port in mqtt.url the broker's TLS port (usually 8883), not its plain one (1883)? A broker that wants client certificates does the same`;
  }
  if (UNTRUSTED_CODES.has(code)) {
    return config.caFile === undefined
      ? `the broker's TLS certificate is not trusted (${error.message}): it is not signed by a CA the system trusts; set mqtt.caFile (SHOWCLOCK_MQTT_CA_FILE) to the PEM file of the CA that signed it`
      : `the broker's TLS certificate is not trusted (${error.message}): it is not signed by the CA in mqtt.caFile (${config.caFile}); give mqtt.caFile the CA that signed the broker's certificate`;
  }
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the broker's TLS certificate is for another host name (${error.message}): write the broker in mqtt.url by a name or address its certificate lists, or give the broker a certificate for this one`;
    case 'CERT_HAS_EXPIRED':
      return `the broker's TLS certificate has expired (${error.message}): renew it on the broker, and check this box's clock`;
    case 'CERT_NOT_YET_VALID':
      return `the broker's TLS certificate is not valid yet (${error.message}): check this box's clock (timedatectl)`;
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return `TLS failed (${error.message}): is the port in mqtt.url the broker's TLS port (usually 8883), not its plain one (1883)?`;
    default:
      return error.message;
  }
}

export function startMqtt(deps: MqttDeps): MqttAdapter {
  return new MqttLink(deps);
}

class MqttLink implements MqttAdapter {
  readonly #deps: MqttDeps;
  readonly #logger: Logger;
  readonly #root: string;
  readonly #client: MqttClient;
  readonly #scheduler: Scheduler;
  readonly #refusals: LineThrottle;
  readonly #unsubscribe: () => void;
  /** What each retained state topic last carried on this connection: a topic is sent again only when its payload changed. */
  readonly #sent = new Map<string, string>();
  #flushQueued = false;
  #phaseTimer: { cancel(): void } | null = null;
  #retryTimer: { cancel(): void } | null = null;
  #retryMs: number;
  /** Since when the broker is away and a warning was written; null while connected or before the first outage. */
  #outageSince: number | null = null;
  #everConnected = false;
  #closed = false;

  constructor(deps: MqttDeps) {
    this.#deps = deps;
    const { config } = deps;
    this.#logger = deps.logger.child({ component: 'mqtt' });
    this.#root = `${config.baseTopic}/${config.room}`;
    this.#scheduler = deps.scheduler ?? unrefScheduler(deps.monoMs);
    this.#retryMs = this.#firstRetryMs;
    this.#refusals = new LineThrottle({
      perWindow: 1,
      windowMs: REFUSED_WINDOW_MS,
      maxKeys: 64,
      nowMs: deps.monoMs,
      scheduler: this.#scheduler,
      report: (cause, suppressed) => this.#logger.warn({ cause, suppressed }, `${suppressed} more MQTT commands refused (${cause}) in the last minute, not logged one by one`),
    });
    const options: IClientOptions = {
      clientId: `showclock-${config.room}-${Math.random().toString(16).slice(2, 10)}`,
      clean: true,
      keepalive: 15,
      connectTimeout: 5_000,
      // Reconnects are this adapter's own (#scheduleRetry), with a backoff MQTT.js does not have.
      reconnectPeriod: 0,
      // Nothing waits for a broker that is away: state is published afresh on connect.
      queueQoSZero: false,
      will: { topic: `${this.#root}/availability`, payload: Buffer.from('offline'), qos: 1, retain: true },
      ...(config.username === undefined ? {} : { username: config.username }),
      ...(config.password === undefined ? {} : { password: config.password }),
      ...(config.caFile === undefined ? {} : { ca: readFileSync(config.caFile) }),
    };
    this.#client = mqtt.connect(config.url ?? '', options);
    this.#client.on('connect', () => this.#onConnect());
    this.#client.on('close', () => this.#onClose());
    // Errors arrive with a close (which retries); logged there, once per outage.
    this.#client.on('error', (error) => this.#noteProblem(error));
    this.#client.on('message', (topic, payload, packet) => this.#onMessage(topic, payload, packet.retain));
    this.#unsubscribe = deps.service.subscribe(() => this.#queueFlush());
    this.#logger.info({ url: config.url, root: this.#root }, 'MQTT: connecting to the broker in the background');
  }

  get #firstRetryMs(): number {
    return this.#deps.reconnectFirstMs ?? 1_000;
  }

  get connected(): boolean {
    return this.#client.connected;
  }

  #lastProblem = '';
  /** Between the broker's CONNACK and the connection's close: an error outside it came while connecting. */
  #up = false;
  #noteProblem(error: Error): void {
    this.#lastProblem = brokerProblem(error, this.#deps.config, !this.#up);
  }

  #onConnect(): void {
    this.#up = true;
    this.#retryMs = this.#firstRetryMs;
    if (this.#outageSince !== null) {
      this.#logger.info({ downMs: Math.round(this.#deps.monoMs() - this.#outageSince) }, 'MQTT: connected to the broker again');
    } else if (!this.#everConnected) {
      this.#logger.info({ url: this.#deps.config.url }, 'MQTT: connected to the broker');
    }
    this.#outageSince = null;
    this.#everConnected = true;
    this.#sent.clear();
    const client = this.#client;
    client.subscribe(`${this.#root}/set/+`, { qos: 1 }, (error) => {
      if (error) this.#logger.warn({ err: error.message }, 'MQTT: the broker refused the subscription to commands');
    });
    client.publish(`${this.#root}/availability`, 'online', { qos: 1, retain: true });
    if (this.#deps.config.discovery) {
      const version = this.#deps.version ?? SERVICE_VERSION;
      for (const [topic, config] of discoveryConfigs({ ...this.#deps.config, version })) {
        client.publish(topic, JSON.stringify(config), { qos: 1, retain: true });
      }
    }
    this.#flush();
  }

  #onClose(): void {
    this.#up = false;
    if (this.#closed) return;
    if (this.#outageSince === null) {
      this.#outageSince = this.#deps.monoMs();
      const reason = this.#lastProblem === '' ? 'the connection closed' : this.#lastProblem;
      this.#logger.warn(
        { url: this.#deps.config.url, reason },
        this.#everConnected
          ? `MQTT: lost the broker: ${reason}. Trying again every ${this.#firstRetryMs / 1000} s to ${this.#maxRetryMs / 1000} s; the timer runs on`
          : `MQTT: cannot reach the broker: ${reason}. Trying again in the background; the timer runs on`,
      );
    }
    this.#scheduleRetry();
  }

  get #maxRetryMs(): number {
    return this.#deps.reconnectMaxMs ?? 10_000;
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retryTimer !== null) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#maxRetryMs, this.#retryMs * 2);
    this.#retryTimer = this.#scheduler.schedule(this.#deps.monoMs() + wait, () => {
      this.#retryTimer = null;
      if (this.#closed || this.#client.connected) return;
      this.#client.reconnect();
    });
  }

  #onMessage(topic: string, payload: Buffer, retained: boolean): void {
    const prefix = `${this.#root}/set/`;
    if (!topic.startsWith(prefix)) return;
    const name = topic.slice(prefix.length);
    // An empty message is how a retained one is cleared (and the broker passes it on): never a command.
    if (payload.length === 0) return;
    const refuse = (error: string) => {
      if (this.#refusals.allow(name)) this.#logger.warn({ command: name, error: error.slice(0, 300) }, `refused MQTT command set/${name.slice(0, 64)}`);
      if (this.#client.connected) this.#client.publish(`${this.#root}/error`, JSON.stringify({ ok: false, command: name, error }), { qos: 0, retain: false });
    };
    // Handed over as retained (at a connection): it ran when it was published, or is stale; never run again.
    if (retained) {
      refuse(`a retained command is not run again at a reconnect: publish set/${name} without retain, and clear it with an empty retained message`);
      return;
    }
    try {
      this.#deps.command(name, payload.toString('utf8'), refuse);
    } catch (error) {
      this.#logger.error({ err: error instanceof Error ? error.message : String(error), command: name }, 'MQTT command failed');
    }
  }

  /** Changes of one synchronous burst are published once, as the burst's final state. */
  #queueFlush(): void {
    if (this.#flushQueued || this.#closed) return;
    this.#flushQueued = true;
    setImmediate(() => {
      this.#flushQueued = false;
      this.#flush();
    });
  }

  #flush(): void {
    if (this.#closed) return;
    const snapshot = this.#deps.service.snapshot();
    this.#armPhaseTimer(snapshot);
    if (!this.#client.connected) return;
    for (const [name, payload] of stateTopics(snapshot)) {
      if (this.#sent.get(name) === payload) continue;
      this.#sent.set(name, payload);
      this.#client.publish(`${this.#root}/${name}`, payload, { qos: 1, retain: true });
    }
  }

  #armPhaseTimer(snapshot: Snapshot): void {
    this.#phaseTimer?.cancel();
    this.#phaseTimer = null;
    const at = nextPhaseChangeAt(snapshot);
    if (at === null) return;
    // The server's wall instant as a wait on the monotonic clock; a few ms late so the threshold is passed.
    this.#phaseTimer = this.#scheduler.schedule(this.#deps.monoMs() + (at - snapshot.serverNow) + 5, () => {
      this.#phaseTimer = null;
      this.#flush();
    });
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#unsubscribe();
    this.#phaseTimer?.cancel();
    this.#retryTimer?.cancel();
    const client = this.#client;
    return new Promise<void>((resolve) => {
      let settled = false;
      // Whatever the broker does, the stop goes on within a second (the will says offline then).
      const done = setTimeout(() => {
        client.end(true);
        settle();
      }, 1_000);
      done.unref();
      function settle(): void {
        if (settled) return;
        settled = true;
        clearTimeout(done);
        resolve();
      }
      if (client.connected) client.publish(`${this.#root}/availability`, 'offline', { qos: 1, retain: true }, () => client.end(false, {}, settle));
      else client.end(true, {}, settle);
    });
  }
}
