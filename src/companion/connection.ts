// The module's link to one Showclock box: it checks the box's API version, holds
// one push stream (`/events`: one request of the key's quota per connection,
// never polling) with a heartbeat every second, so a link that goes silent is
// shown as lost within seconds, re-reads `/state` after a reconnect, retries
// forever with backoff (link-state.ts), sends the presses one at a time, each
// once, in time or never (press-timing.ts), and publishes variables and
// feedbacks at each change and each server second boundary.
//
// It needs only a small part of Companion's InstanceBase (ModuleHost), so the
// same code runs in Companion and in the tests, against the real service.
import type { CompanionVariableValues, InstanceStatus, LogLevel } from '@companion-module/base';
import type { Snapshot } from '../domain/snapshot.js';
import { createSseParser } from '../client/sse-parser.js';
import { streamSnapshots } from '../client/stream-snapshots.js';
import type { ActionRunner } from './actions.js';
import { answerOf, apiUrl, errorText, isSnapshot, networkReason, send, snapshotIn, type ApiAnswer, type Fetch, type Target } from './api-client.js';
import { feedbackSignatures, FEEDBACK_IDS, type FeedbackId, type FeedbackSource } from './feedbacks.js';
import { connectionWord, DEFAULT_BACKOFF, linkAfter, retryDelayMs, statusOf, type Backoff, type LinkState, type Outcome } from './link-state.js';
import { planPress, PRESS_DEADLINE_MS, PRESS_GIVE_UP_MS } from './press-timing.js';
import { RoomClock, REAL_TIMERS, type Timers } from './room-clock.js';
import type { RoomView } from './room-view.js';
import { STATE_READ, toApiCall, type ApiCall, type ModuleAction } from './requests.js';
import { changedValues, variableValues, type VariableValues } from './variables.js';
import { judgeOpenApi, OPENAPI_PATH } from './version-check.js';

/** The part of InstanceBase the connection uses. */
export interface ModuleHost {
  updateStatus(status: InstanceStatus, message?: string | null): void;
  log(level: LogLevel, message: string): void;
  setVariableValues(values: CompanionVariableValues): void;
  checkFeedbacks(...feedbackTypes: string[]): void;
  /**
   * The running order (timer ids, labels, order) or the room's tags changed, or
   * the room was forgotten (empty lists): the actions' dropdowns follow them.
   */
  roomListsChanged?(lists: RoomLists): void;
}

/** What the actions' dropdowns offer: the running order and the tags, as the last snapshot has them. */
export interface RoomLists {
  readonly timers: Snapshot['timers'];
  readonly tags: Snapshot['tags'];
}

export type Setup = { readonly ok: true; readonly target: Target } | { readonly ok: false; readonly problem: string };

export interface ConnectionOptions {
  readonly fetch?: Fetch;
  readonly perfNow?: () => number;
  readonly timers?: Timers;
  readonly random?: () => number;
  readonly backoff?: Backoff;
  /** No byte on the stream for this long: the link is dead. By default LINK_SILENCE_MS, or LEGACY_SILENCE_MS on a box without its own heartbeat. */
  readonly silenceMs?: number;
  /** The version check, the stream's opening and the re-read of the state give up after this long. */
  readonly connectTimeoutMs?: number;
}

/** The heartbeat the module asks of its stream (`/events?heartbeat=1`). */
export const STREAM_HEARTBEAT_SECONDS = 1;
/** Three heartbeats missed: the link is dead (a box busy for 2 s is not). Within 5 s of the link freezing, as the issue asks. */
export const LINK_SILENCE_MS = 3_000;
/** A box older than its own heartbeat beats every 15 s: silence is then judged as before. */
export const LEGACY_SILENCE_MS = 40_000;
export const CONNECT_TIMEOUT_MS = 3_000;

/** Presses waiting beyond this are dropped at once: each waits at most PRESS_DEADLINE_MS anyway. */
const MAX_QUEUED = 10;

export class ShowclockConnection implements ActionRunner, FeedbackSource {
  readonly #host: ModuleHost;
  readonly #fetch: Fetch;
  readonly #perfNow: () => number;
  readonly #timers: Timers;
  readonly #random: () => number;
  readonly #backoff: Backoff;
  readonly #silenceMs: number | undefined;
  readonly #connectTimeoutMs: number;
  readonly #room: RoomClock;

  #target: Target | null = null;
  /** Bumped by every configure/destroy: a loop or answer of an older generation changes nothing. */
  #generation = 0;
  #stream: AbortController | null = null;
  #wake: (() => void) | null = null;
  #link: LinkState = { kind: 'not-configured', problem: 'Enter the host, port and API key' };
  #serverVersion = '';
  /** The box offers a heartbeat of its own (see version-check.ts). */
  #ownHeartbeat = false;
  /** No command before this instant (this machine's monotonic ms): the box's rate-limit window. */
  #blockedUntil = 0;
  #blockTimer: unknown = null;
  #queue: Promise<void> = Promise.resolve();
  #queued = 0;
  #published: Partial<VariableValues> = {};
  #signatures: Partial<Record<FeedbackId, string>> = {};
  #lastStatus = '';
  /** The lists the dropdowns were last given, as ids and names, and the arrays they were read from. */
  #lists = '';
  #listsSeen: RoomLists | null = null;

  constructor(host: ModuleHost, opts: ConnectionOptions = {}) {
    this.#host = host;
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#perfNow = opts.perfNow ?? (() => performance.now());
    this.#timers = opts.timers ?? REAL_TIMERS;
    this.#random = opts.random ?? Math.random;
    this.#backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.#silenceMs = opts.silenceMs;
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#room = new RoomClock((state, view) => this.#publish(state, view), { perfNow: this.#perfNow, timers: this.#timers });
  }

  // ---- what actions and feedbacks read ----

  snapshot(): Snapshot | null {
    return this.#room.state;
  }

  view(): RoomView | null {
    return this.#room.view();
  }

  isConnected(): boolean {
    return this.#link.kind === 'connected';
  }

  link(): LinkState {
    return this.#link;
  }

  // ---- lifecycle ----

  /** Connects to the box `setup` names, dropping any earlier one; a problem with the settings is shown, and nothing is tried. */
  configure(setup: Setup): void {
    // Companion also calls this when only the connection's label changed: a live stream to the same box is kept.
    // Not connected, saving the same settings tries again at once, as users expect of "Save".
    const same = setup.ok && this.#target !== null && this.#target.origin === setup.target.origin && this.#target.apiKey === setup.target.apiKey;
    if (same && this.isConnected()) return;
    this.#stop();
    this.#room.clear();
    this.#serverVersion = '';
    if (!setup.ok) {
      this.#setLink({ kind: 'not-configured', problem: setup.problem });
      return;
    }
    this.#target = setup.target;
    // The loop handles every failure of the box itself; this is for a bug of ours, which must not kill the module.
    this.#loop(this.#generation, setup.target).catch((error: unknown) => {
      this.#host.log('error', `Showclock connection stopped by an internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    });
  }

  destroy(): void {
    this.#stop();
    this.#room.stop();
  }

  #stop(): void {
    this.#generation += 1;
    this.#target = null;
    this.#stream?.abort();
    this.#stream = null;
    this.#wake?.();
    this.#wake = null;
    if (this.#blockTimer !== null) this.#timers.clear(this.#blockTimer);
    this.#blockTimer = null;
    this.#blockedUntil = 0;
  }

  // ---- staying connected ----

  async #loop(generation: number, target: Target): Promise<void> {
    this.#setLink({ kind: 'connecting' });
    let failures = 0;
    let everConnected = false;
    while (generation === this.#generation) {
      const outcome = await this.#attempt(generation, target, everConnected, () => {
        everConnected = true;
        failures = 0;
      });
      if (generation !== this.#generation) return;
      failures += 1;
      const delayMs = retryDelayMs(outcome, failures, this.#backoff, this.#random);
      if (outcome.kind === 'rate-limited') this.#block(delayMs);
      this.#logOutcome(outcome, delayMs);
      this.#setLink(linkAfter(outcome, delayMs));
      await this.#sleep(delayMs);
    }
  }

  #logOutcome(outcome: Outcome, delayMs: number): void {
    const retry = `trying again in ${Math.round(delayMs / 1000)} s`;
    switch (outcome.kind) {
      case 'lost':
        this.#host.log('warn', `Showclock push stream ended (${outcome.reason}); ${retry}`);
        return;
      case 'unreachable':
        // The same failure every few seconds says nothing new: logged once per change of reason.
        if (this.#link.kind !== 'unreachable' || this.#link.reason !== outcome.reason) this.#host.log('warn', `Showclock unreachable: ${outcome.reason}; ${retry}`);
        return;
      case 'wrong-key':
        this.#host.log('error', `Showclock refused the API key (401): ${outcome.message}. Enter the key that \`npm run key\` prints on the box; ${retry}`);
        return;
      case 'rate-limited':
        this.#host.log('warn', `Showclock rate limit (429): ${outcome.message}; ${retry}`);
        return;
      case 'too-old':
        this.#host.log('error', `Showclock is too old for this module: ${outcome.reason}; ${retry}`);
        return;
      default: {
        const unknown: never = outcome;
        throw new Error(`unhandled outcome ${JSON.stringify(unknown)}`);
      }
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.#timers.set(() => {
        this.#wake = null;
        resolve();
      }, ms);
      this.#wake = () => {
        this.#timers.clear(handle);
        resolve();
      };
    });
  }

  /** One try: the version check, then the stream until it ends. */
  async #attempt(generation: number, target: Target, reconnect: boolean, onConnected: () => void): Promise<Outcome> {
    const version = await this.#checkVersion(target);
    if (version !== null) return version;
    if (generation !== this.#generation) return { kind: 'lost', delivered: false, reason: 'stopped' };

    const controller = new AbortController();
    this.#stream = controller;
    // A frozen link answers nothing, not even the headers: given up on like any other request.
    let late = false;
    const openTimer = this.#timers.set(() => {
      late = true;
      controller.abort();
    }, this.#connectTimeoutMs);
    const path = this.#ownHeartbeat ? `/events?heartbeat=${STREAM_HEARTBEAT_SECONDS}` : '/events';
    let response: Response;
    try {
      response = await this.#fetch(apiUrl(target, path), { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
    } catch (error) {
      return { kind: 'unreachable', reason: late ? 'no answer in time' : networkReason(error) };
    } finally {
      this.#timers.clear(openTimer);
    }
    if (!response.ok || response.body === null) {
      return this.#refusal(await answerOf(response), 'the push stream');
    }
    const silenceMs = this.#silenceMs ?? (this.#ownHeartbeat ? LINK_SILENCE_MS : LEGACY_SILENCE_MS);
    return this.#read(generation, target, response.body, controller, silenceMs, reconnect, onConnected);
  }

  /** null when the box is new enough (its API version noted), otherwise why not. */
  async #checkVersion(target: Target): Promise<Outcome | null> {
    let answer: ApiAnswer;
    try {
      answer = await this.#withTimeout(this.#connectTimeoutMs, (signal) => send(this.#fetch, target.origin + OPENAPI_PATH, { method: 'GET', body: null }, signal));
    } catch (error) {
      return { kind: 'unreachable', reason: networkReason(error) };
    }
    if (answer.status === 429) return { kind: 'rate-limited', message: errorText(answer), resetSeconds: answer.resetSeconds };
    const verdict = judgeOpenApi(answer.status, answer.body);
    if (!verdict.ok) return { kind: 'too-old', reason: verdict.reason };
    this.#serverVersion = verdict.apiVersion;
    this.#ownHeartbeat = verdict.ownHeartbeat;
    return null;
  }

  /** What a refused request means for the connection. */
  #refusal(answer: ApiAnswer, what: string): Outcome {
    switch (answer.status) {
      case 401:
        return { kind: 'wrong-key', message: errorText(answer) };
      case 429:
        return { kind: 'rate-limited', message: errorText(answer), resetSeconds: answer.resetSeconds };
      case 404:
        return { kind: 'too-old', reason: `it does not offer ${what} (${errorText(answer)})` };
      default:
        return { kind: 'unreachable', reason: `${what} answered ${answer.status}: ${errorText(answer)}` };
    }
  }

  async #read(
    generation: number,
    target: Target,
    body: ReadableStream<Uint8Array>,
    controller: AbortController,
    silenceMs: number,
    reconnect: boolean,
    onConnected: () => void,
  ): Promise<Outcome> {
    let delivered = false;
    // This connection's snapshots: the first event is whole, the changes after it are deltas of it.
    const take = streamSnapshots(isSnapshot);
    const parse = createSseParser((event) => {
      if (generation !== this.#generation) return;
      const snapshot = take(event.event, event.data);
      if (snapshot === null) {
        // A change that does not fit what the module holds: a new connection starts with the whole snapshot.
        controller.abort();
        return;
      }
      if (snapshot === undefined) return;
      const first = !delivered;
      delivered = true;
      // The first snapshot of a connection is the present, whatever seq it has.
      this.#room.accept(snapshot, first);
      if (!first) return;
      onConnected();
      this.#setLink({ kind: 'connected', apiVersion: this.#serverVersion });
      this.#host.log('info', `Connected to Showclock (API ${this.#serverVersion})`);
      if (reconnect) void this.#reread(generation, target);
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let watchdog: unknown = null;
    let silent = false;
    const arm = (): void => {
      if (watchdog !== null) this.#timers.clear(watchdog);
      watchdog = this.#timers.set(() => {
        silent = true;
        controller.abort();
        // The read ends now whatever the fetch does with the abort (Node's errors the body; not every fetch does).
        reader.cancel().catch(() => {});
      }, silenceMs);
    };
    const silence = (): string => `nothing heard for ${Math.round(silenceMs / 1000)} s`;
    arm();
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return { kind: 'lost', delivered, reason: silent ? silence() : 'closed by the box' };
        arm();
        parse(decoder.decode(chunk.value, { stream: true }));
      }
    } catch (error) {
      return { kind: 'lost', delivered, reason: silent ? silence() : networkReason(error) };
    } finally {
      if (watchdog !== null) this.#timers.clear(watchdog);
      if (this.#stream === controller) this.#stream = null;
    }
  }

  /** After a reconnect: the state as of now, in case the stream's first snapshot and the present differ. */
  async #reread(generation: number, target: Target): Promise<void> {
    let answer: ApiAnswer;
    try {
      answer = await this.#request(target, STATE_READ, this.#connectTimeoutMs, null);
    } catch (error) {
      this.#host.log('warn', `Showclock did not give the state after reconnecting: ${networkReason(error)}`);
      return;
    }
    if (generation !== this.#generation) return;
    const state = snapshotIn(answer.body);
    if (answer.status === 200 && state !== null) this.#room.accept(state, false);
    else this.#host.log('warn', `Showclock did not give the state after reconnecting: ${errorText(answer)} (${answer.status})`);
  }

  // ---- commands ----

  /**
   * A press: built from the room as the operator sees it now, then sent once, in
   * time, or never (press-timing.ts). Resolves when it is done or dropped, within
   * PRESS_GIVE_UP_MS, so Companion never gives up on a press the module still holds.
   */
  run(action: ModuleAction): Promise<void> {
    const pressedAt = this.#perfNow();
    if (this.#target === null) {
      this.#host.log('error', 'Showclock: not configured; enter the host, port and API key');
      return Promise.resolve();
    }
    const built = toApiCall(action, this.#room.state, this.#room.serverNow());
    if (!built.ok) {
      this.reject(`${built.error}; nothing was sent`);
      return Promise.resolve();
    }
    const { call } = built;
    if (!this.isConnected()) {
      this.#dropped(call, `not sent, not connected (${connectionWord(this.#link)}); a press is sent only while the link is up, never kept for later`);
      return Promise.resolve();
    }
    if (this.#queued >= MAX_QUEUED) {
      this.#dropped(call, `not sent, ${MAX_QUEUED} presses are already waiting for the box`);
      return Promise.resolve();
    }
    this.#queued += 1;
    const done = this.#queue.then(() => this.#send(call, pressedAt)).finally(() => {
      this.#queued -= 1;
    });
    this.#queue = done.catch(() => {});
    return done;
  }

  reject(message: string): void {
    this.#host.log('error', `Showclock: ${message}`);
  }

  #dropped(call: ApiCall, why: string): void {
    this.#host.log('warn', `Showclock: "${call.name}" dropped: ${why}`);
  }

  async #send(call: ApiCall, pressedAt: number): Promise<void> {
    const target = this.#target;
    const serverNow = this.#room.serverNow();
    if (target === null || serverNow === null || !this.isConnected()) {
      this.#dropped(call, 'not sent, the link went down while it waited for the presses before it');
      return;
    }
    const plan = planPress(pressedAt, this.#perfNow(), serverNow);
    if (!plan.send) {
      this.#dropped(call, `not sent, it waited ${(plan.waitedMs / 1000).toFixed(1)} s behind the presses before it; a press is never sent late`);
      return;
    }
    const waitMs = this.#blockedUntil - this.#perfNow();
    if (waitMs > 0) {
      this.#dropped(call, `not sent, the rate limit is reached; the box takes commands again in ${Math.ceil(waitMs / 1000)} s`);
      return;
    }
    let answer: ApiAnswer;
    try {
      answer = await this.#request(target, call, plan.timeoutMs, plan.deadline);
    } catch (error) {
      this.#host.log(
        'error',
        `Showclock: "${call.name}" got no answer (${networkReason(error)}) and was dropped: ` +
          `the box does a press only if it arrives within ${PRESS_DEADLINE_MS / 1000} s, so it happened by then or never will`,
      );
      return;
    }
    if (answer.status >= 200 && answer.status < 300) {
      const state = snapshotIn(answer.body);
      if (state !== null) this.#room.accept(state, false);
      return;
    }
    if (answer.status === 412) {
      this.#dropped(call, `it reached the box too late, and the box did nothing (${errorText(answer)})`);
      return;
    }
    if (answer.status === 429) {
      this.#host.log('warn', `Showclock refused "${call.name}" (429): ${errorText(answer)}`);
      return;
    }
    this.#host.log('error', `Showclock refused "${call.name}" (${answer.status}): ${errorText(answer)}`);
  }

  /** One request, given up after `timeoutMs` (throws then, as when no answer came). Keeps the rate-limit window the box reports. */
  async #request(target: Target, call: ApiCall, timeoutMs: number, deadline: number | null): Promise<ApiAnswer> {
    const answer = await this.#withTimeout(timeoutMs, (signal) => send(this.#fetch, apiUrl(target, call.path), call, signal, deadline));
    // A 429, or the last request of the window: nothing more until the window ends.
    if ((answer.status === 429 || answer.remaining === 0) && answer.resetSeconds !== null) this.#block(answer.resetSeconds * 1000);
    return answer;
  }

  /** Runs `request`, aborting it after `ms` on the module's timers (a TimeoutError then, as AbortSignal.timeout gives). */
  async #withTimeout<T>(ms: number, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = this.#timers.set(() => controller.abort(new DOMException('no answer in time', 'TimeoutError')), ms);
    try {
      return await request(controller.signal);
    } finally {
      this.#timers.clear(timer);
    }
  }

  #block(ms: number): void {
    const until = this.#perfNow() + ms;
    if (until <= this.#blockedUntil) return;
    this.#blockedUntil = until;
    if (this.#blockTimer !== null) this.#timers.clear(this.#blockTimer);
    this.#blockTimer = this.#timers.set(() => {
      this.#blockTimer = null;
      this.#showStatus();
    }, ms);
    this.#showStatus();
  }

  // ---- what Companion shows ----

  #setLink(link: LinkState): void {
    this.#link = link;
    this.#showStatus();
    this.#publish(this.#room.state, this.#room.view());
  }

  #showStatus(): void {
    let { status, message } = statusOf(this.#link);
    const blockedMs = this.#blockedUntil - this.#perfNow();
    if (this.#link.kind === 'connected' && blockedMs > 0) {
      ({ status, message } = statusOf({ kind: 'rate-limited', message: 'the box takes commands again after its rate-limit window', retryInMs: blockedMs }));
    }
    const key = `${status}|${message}`;
    if (key === this.#lastStatus) return;
    this.#lastStatus = key;
    this.#host.updateStatus(status, message);
  }

  #publish(state: Snapshot | null, view: RoomView | null): void {
    const values = variableValues(state, view, this.#link, this.#serverVersion);
    const changed = changedValues(this.#published, values);
    if (Object.keys(changed).length > 0) this.#host.setVariableValues(changed);
    this.#published = values;
    const signatures = feedbackSignatures(state, view, this.isConnected());
    const stale = FEEDBACK_IDS.filter((id) => this.#signatures[id] !== signatures[id]);
    this.#signatures = signatures;
    if (stale.length > 0) this.#host.checkFeedbacks(...stale);
    const lists: RoomLists = { timers: state?.timers ?? [], tags: state?.tags ?? [] };
    // Every second tick publishes: the lists are compared only when a snapshot brought other arrays.
    if (lists.timers === this.#listsSeen?.timers && lists.tags === this.#listsSeen.tags) return;
    this.#listsSeen = lists;
    const key = JSON.stringify([lists.timers.map((t) => [t.id, t.label]), lists.tags.map((t) => [t.id, t.name])]);
    if (key !== this.#lists) {
      this.#lists = key;
      this.#host.roomListsChanged?.(lists);
    }
  }
}
