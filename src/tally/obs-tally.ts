// OBS as a tally source: obs-websocket v5 (built into OBS 28 and later) through
// the `obs-websocket-js` client. On each connection it reads whether OBS streams
// and records (GetStreamStatus, GetRecordStatus), then follows StreamStateChanged
// and RecordStateChanged; streaming, recording or either (config `on`) is reported
// to the room as `tally.set` (source `obs`, command source `tally`).
//
// An OBS that is not there (not started yet, another machine rebooting) is tried
// again in the background, 1 s after a loss and then up to every 10 s, with one
// log line per outage rather than one per try; nothing here ever waits in a
// command's way. While OBS is away its last report stands: a lost connection
// does not say the stream stopped. The password is never logged, nor the address
// beyond its host and port.
import { EventSubscription, OBSWebSocket } from 'obs-websocket-js/json';
import type { ObsTallyOn } from '../config/tally-config.js';
import type { Logger } from '../log/logger.js';
import type { TallyTarget } from './tsl-tally.js';

export const OBS_RETRY_FIRST_MS = 1_000;
export const OBS_RETRY_MAX_MS = 10_000;
/** A WebSocket that opens but never says Hello (not OBS, or OBS hung) is given up after this. */
export const OBS_CONNECT_TIMEOUT_MS = 10_000;
/** obs-websocket's close code for a wrong password. */
const AUTHENTICATION_FAILED = 4009;

export interface ObsTallyOptions {
  readonly url: string;
  readonly password: string | undefined;
  readonly on: ObsTallyOn;
  readonly target: TallyTarget;
  readonly logger: Logger;
  /** For tests: a shorter wait between tries. */
  readonly retryFirstMs?: number;
  readonly retryMaxMs?: number;
  readonly connectTimeoutMs?: number;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'number' && code > 0 ? `${error.message || 'closed'} (code ${code})` : error.message || String(error);
  }
  return String(error);
}

export class ObsTally {
  readonly #opts: ObsTallyOptions;
  /** `host:port`, what the log names. */
  readonly #where: string;
  #obs: OBSWebSocket | null = null;
  #retry: NodeJS.Timeout | null = null;
  #retryMs: number;
  #closed = false;
  /** An outage is logged once, when it begins. */
  #down = false;
  #streaming = false;
  #recording = false;
  #lastReported: boolean | null = null;

  constructor(opts: ObsTallyOptions) {
    this.#opts = opts;
    const url = new URL(opts.url);
    this.#where = `${url.protocol}//${url.host}`;
    this.#retryMs = opts.retryFirstMs ?? OBS_RETRY_FIRST_MS;
  }

  /** Connects in the background; never throws. */
  start(): void {
    this.#connect();
  }

  close(): void {
    this.#closed = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
    const obs = this.#obs;
    this.#obs = null;
    obs?.removeAllListeners();
    // A connection being made, or made: either ends here; nothing waits for it.
    obs?.disconnect().catch(() => {});
  }

  #connect(): void {
    if (this.#closed) return;
    const obs = new OBSWebSocket();
    this.#obs = obs;
    obs.on('StreamStateChanged', (event) => {
      this.#streaming = event.outputActive;
      this.#report();
    });
    obs.on('RecordStateChanged', (event) => {
      this.#recording = event.outputActive;
      this.#report();
    });
    obs.on('ConnectionClosed', (error) => this.#lost(obs, error));
    const timeoutMs = this.#opts.connectTimeoutMs ?? OBS_CONNECT_TIMEOUT_MS;
    const giveUp = setTimeout(() => this.#lost(obs, new Error(`no answer within ${timeoutMs / 1_000} s`)), timeoutMs);
    giveUp.unref();
    // Only what is needed: output events, not the scene and input traffic.
    obs
      .connect(this.#opts.url, this.#opts.password, { eventSubscriptions: EventSubscription.Outputs })
      .then(async () => {
        const [stream, record] = await Promise.all([obs.call('GetStreamStatus'), obs.call('GetRecordStatus')]);
        clearTimeout(giveUp);
        if (this.#obs !== obs) return;
        this.#streaming = stream.outputActive;
        this.#recording = record.outputActive;
        this.#retryMs = this.#opts.retryFirstMs ?? OBS_RETRY_FIRST_MS;
        this.#down = false;
        this.#opts.logger.info({ obs: this.#where, streaming: this.#streaming, recording: this.#recording }, `OBS tally connected to ${this.#where}`);
        this.#report();
      })
      .catch((error: unknown) => {
        clearTimeout(giveUp);
        this.#lost(obs, error);
      });
  }

  /** The connection failed or ended: one line per outage, then tries again later. */
  #lost(obs: OBSWebSocket, error: unknown): void {
    if (this.#closed || this.#obs !== obs) return;
    this.#obs = null;
    obs.removeAllListeners();
    obs.disconnect().catch(() => {});
    if (!this.#down) {
      this.#down = true;
      const code = (error as { code?: unknown } | null)?.code;
      const why =
        code === AUTHENTICATION_FAILED
          ? 'OBS refused the password: check tally.obs.password (OBS: Tools > WebSocket Server Settings)'
          : `cannot reach OBS at ${this.#where} (${errorText(error)})`;
      this.#opts.logger.warn({ obs: this.#where }, `OBS tally: ${why}; the last report stands, trying again in the background`);
    }
    const waitMs = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, this.#opts.retryMaxMs ?? OBS_RETRY_MAX_MS);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#connect();
    }, waitMs);
    this.#retry.unref();
  }

  #report(): void {
    const on = this.#opts.on === 'stream' ? this.#streaming : this.#opts.on === 'record' ? this.#recording : this.#streaming || this.#recording;
    const { outcome } = this.#opts.target.dispatch({ type: 'tally.set', source: 'obs', on }, 'tally');
    if (outcome.ok && on !== this.#lastReported) {
      this.#lastReported = on;
      this.#opts.logger.info({ source: 'obs', on, streaming: this.#streaming, recording: this.#recording }, `tally: OBS says ${on ? 'on air' : 'off air'}`);
    }
  }
}
