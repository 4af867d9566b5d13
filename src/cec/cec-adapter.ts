// The screen adapter (issue 33, README "Screen (HDMI-CEC)"): owns the box's CEC device
// for the life of the service, through v4l-utils' cec-ctl (command lines and output in
// cec-ctl.ts). It registers the box on the bus as a playback device, asks the TV its
// power every pollMs and after every command, and reports what the TV answered to the
// room as `screen.report` (through the one dispatch, source `cec`). It carries out
// on / standby / active for the API and the room's rules (src/app/screen-rules-runner.ts);
// it decides nothing of its own. Every cec-ctl run has a deadline, one at a time (the bus
// takes one message at a time and the TV answers slowly); nothing here throws into the
// service or keeps it waiting: no cec-ctl, no device, no TV is a logged note and a
// report of `unavailable`, and the timer, HTTP and the buttons run on.
import type { Scheduler } from '../app/clock.js';
import type { ScreenAnswer, ScreenControl, ScreenRequest } from '../domain/screen.js';
import type { ScreenPower, ScreenReport } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import {
  activeSourceArgs,
  CEC_CTL,
  imageViewOnArgs,
  NO_PHYSICAL_ADDRESS,
  parseRegister,
  parseTransmit,
  physicalAddressOf,
  powerArgs,
  registerArgs,
  standbyArgs,
  type Transmitted,
} from './cec-ctl.js';

/** What running a program gives back (src/systemd/run-command.ts makes one with a deadline; main.ts passes it in). */
export type CecRunResult =
  | { readonly ok: true; readonly stdout: string }
  | { readonly ok: false; readonly missing: boolean; readonly timedOut: boolean; readonly reason: string };
export type CecRun = (file: string, args: readonly string[]) => Promise<CecRunResult>;

/**
 * The deadline of one cec-ctl run: claiming a logical address polls the bus address by
 * address, and a reply is waited for 1 s (cec-ctl's default); a run past this is killed.
 */
export const CEC_COMMAND_TIMEOUT_MS = 5_000;

/** How long a TV takes to leave a transition (to-on, to-standby) is its own: asked again this soon while it is in one. */
export const TRANSITION_POLL_MS = 2_000;
/**
 * After an acknowledged on or standby, the TV is asked this often until it says it got there,
 * for at most SETTLE_MS: a TV (cec-follower among them) may still answer "on" just after taking
 * Standby, before it says "to-standby", and the console would show the old power for a whole poll.
 */
export const SETTLE_MS = 20_000;

export interface CecDeps {
  /** `/dev/cec0`. */
  readonly device: string;
  /** What the TV lists the box as (at most 14 characters, CEC's limit). */
  readonly osdName: string;
  /** How often the TV is asked its power. */
  readonly pollMs: number;
  /** Runs cec-ctl, killed after its deadline; never rejects. */
  readonly run: CecRun;
  /** Each change of what the screen said goes here (main.ts: the room's dispatch). */
  readonly report: (report: ScreenReport) => void;
  readonly scheduler: Scheduler;
  readonly monoMs: () => number;
  readonly logger: Logger;
}

type Step<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: 502 | 503 | 504; readonly error: string; readonly power: ScreenPower };

function failedRun(result: CecRunResult & { ok: false }, device: string): Step<never> {
  if (result.missing) return { ok: false, status: 503, error: 'cec-ctl is not installed on this box: install v4l-utils (sudo apt install v4l-utils)', power: 'unavailable' };
  if (result.timedOut) return { ok: false, status: 504, error: `cec-ctl did not finish in time on ${device}: ${result.reason}`, power: 'unknown' };
  // `Failed to open /dev/cec0: No such file or directory`, a permission refused, ...
  return { ok: false, status: 503, error: `cec-ctl could not use ${device}: ${result.reason}`, power: 'unavailable' };
}

export class CecScreen implements ScreenControl {
  readonly #deps: CecDeps;
  readonly #logger: Logger;
  /** Every cec-ctl run waits for the one before it. */
  #queue: Promise<unknown> = Promise.resolve();
  #physicalAddress: string | null = null;
  #registered = false;
  #last: ScreenReport = { power: 'unknown', problem: null };
  /** The last problem logged, so a box without a screen logs it once, not at every poll. */
  #loggedProblem: string | null = null;
  #poll: { cancel(): void } | null = null;
  /** The power an acknowledged request asked for, until the TV reports it or the time is up (monotonic ms). */
  #settling: { readonly power: ScreenPower; readonly untilMs: number } | null = null;
  #closed = true;

  constructor(deps: CecDeps) {
    this.#deps = deps;
    this.#logger = deps.logger.child({ component: 'screen' });
  }

  /** Registers on the bus and asks the TV its power, in the background; polls from then on. */
  start(): void {
    this.#closed = false;
    this.#deps.report(this.#last);
    void this.#enqueue(() => this.#pollNow());
  }

  close(): void {
    this.#closed = true;
    this.#poll?.cancel();
    this.#poll = null;
  }

  /** What the screen last said. */
  get last(): ScreenReport {
    return this.#last;
  }

  request(what: ScreenRequest): Promise<ScreenAnswer> {
    return this.#enqueue(() => this.#carryOut(what));
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(job);
    // A job never rejects (each catches its own), but the queue must survive one that would.
    this.#queue = next.catch((error: unknown) => this.#logger.error({ err: error }, 'screen: a CEC job failed'));
    return next;
  }

  async #carryOut(what: ScreenRequest): Promise<ScreenAnswer> {
    if (this.#closed) return { ok: false, status: 503, error: 'the service is stopping: the screen is no longer controlled' };
    const sent = await this.#send(what);
    if (!sent.ok) {
      // Not asked its power on top: a TV that did not take the message would not answer that
      // either, and a hung cec-ctl would hold the queue a second deadline. The next poll asks.
      this.#note(sent.power, sent.error);
      return { ok: false, status: sent.status, error: sent.error };
    }
    this.#logger.info({ request: what }, 'screen: acknowledged');
    this.#settling = what === 'active' ? null : { power: what, untilMs: this.#deps.monoMs() + SETTLE_MS };
    await this.#askPower();
    this.#armPoll();
    return { ok: true, report: this.#last };
  }

  async #send(what: ScreenRequest): Promise<Step<unknown>> {
    switch (what) {
      case 'on': {
        const on = await this.#transmit(imageViewOnArgs(this.#deps.device), 'Image View On');
        if (!on.ok) return on;
        // A TV woken by Image View On may show its last input: the box says it is the source.
        return this.#activeSource();
      }
      case 'standby':
        return this.#transmit(standbyArgs(this.#deps.device), 'Standby');
      case 'active':
        return this.#activeSource();
      default: {
        const unknown: never = what;
        throw new Error(`unhandled screen request ${String(unknown)}`);
      }
    }
  }

  async #activeSource(): Promise<Step<unknown>> {
    const registered = await this.#ensureRegistered();
    if (!registered.ok) return registered;
    const address = this.#physicalAddress;
    if (address === null || address === NO_PHYSICAL_ADDRESS) return this.#noAddress();
    return this.#transmit(activeSourceArgs(this.#deps.device, address), 'Active Source');
  }

  #noAddress(): Step<never> {
    return {
      ok: false,
      status: 503,
      error: `${this.#deps.device} has no HDMI physical address: is the cable in, and the screen on its mains? (cec-ctl -x says ${NO_PHYSICAL_ADDRESS})`,
      power: 'unavailable',
    };
  }

  /** Claims a logical address once; again after cec-ctl found the adapter unconfigured (a replugged cable, another program's --clear). */
  async #ensureRegistered(): Promise<Step<null>> {
    if (this.#registered) return { ok: true, value: null };
    const result = await this.#deps.run(CEC_CTL, registerArgs(this.#deps.device, this.#deps.osdName));
    if (!result.ok) return failedRun(result, this.#deps.device);
    const { physicalAddress, logicalAddress } = parseRegister(result.stdout);
    this.#physicalAddress = physicalAddress;
    if (physicalAddress === NO_PHYSICAL_ADDRESS) return this.#noAddress();
    if (logicalAddress === null) {
      return { ok: false, status: 503, error: `no logical address could be claimed on ${this.#deps.device} as a playback device (every playback address taken?)`, power: 'unavailable' };
    }
    this.#registered = true;
    this.#logger.info({ device: this.#deps.device, physicalAddress, logicalAddress }, 'screen: registered on the HDMI-CEC bus as a playback device');
    return { ok: true, value: null };
  }

  /** One message; registers first when needed, and once more when cec-ctl found the adapter unconfigured. */
  async #transmit(args: string[], name: string, firstTry = true): Promise<Step<Transmitted & { kind: 'acked' }>> {
    const registered = await this.#ensureRegistered();
    if (!registered.ok) return registered;
    const result = await this.#deps.run(CEC_CTL, args);
    if (!result.ok) return failedRun(result, this.#deps.device);
    const address = physicalAddressOf(result.stdout);
    if (address !== null) this.#physicalAddress = address;
    const sent = parseTransmit(result.stdout);
    switch (sent.kind) {
      case 'acked':
        return { ok: true, value: sent };
      case 'not-sent':
        this.#registered = false;
        if (firstTry) return this.#transmit(args, name, false);
        return { ok: false, status: 503, error: `cec-ctl sent no ${name} on ${this.#deps.device}: the adapter is not registered on the bus`, power: 'unavailable' };
      case 'nacked':
        return { ok: false, status: 502, error: `the screen did not acknowledge ${name} (${sent.status}): is it connected, on its mains, with CEC switched on in its menu?`, power: 'unknown' };
      case 'no-reply':
        return { ok: false, status: 502, error: `the screen took ${name} but did not answer (${sent.status})`, power: 'unknown' };
      case 'refused':
        return { ok: false, status: 502, error: `the screen refused ${name} (${sent.status}): it does not support it over CEC`, power: 'unknown' };
      default: {
        const unknown: never = sent;
        throw new Error(`unhandled transmit ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Asks the TV its power and reports what it said (or why it said nothing). */
  async #askPower(): Promise<void> {
    const asked = await this.#transmit(powerArgs(this.#deps.device), 'Give Device Power Status');
    if (!asked.ok) {
      this.#note(asked.power, asked.error);
      return;
    }
    this.#note(asked.value.power ?? 'unknown', null);
  }

  async #pollNow(): Promise<void> {
    if (this.#closed) return;
    await this.#askPower();
    this.#armPoll();
  }

  #armPoll(): void {
    if (this.#closed) return;
    this.#poll?.cancel();
    if (this.#settling !== null && (this.#last.power === this.#settling.power || this.#deps.monoMs() >= this.#settling.untilMs)) this.#settling = null;
    const inTransition = this.#last.power === 'to-on' || this.#last.power === 'to-standby' || this.#settling !== null;
    const waitMs = inTransition ? Math.min(TRANSITION_POLL_MS, this.#deps.pollMs) : this.#deps.pollMs;
    this.#poll = this.#deps.scheduler.schedule(this.#deps.monoMs() + waitMs, () => {
      this.#poll = null;
      void this.#enqueue(() => this.#pollNow());
    });
  }

  #note(power: ScreenPower, problem: string | null): void {
    if (problem !== null && problem !== this.#loggedProblem) this.#logger.warn({ device: this.#deps.device, power }, `screen: ${problem}`);
    if (problem === null && this.#loggedProblem !== null) this.#logger.info({ device: this.#deps.device, power }, 'screen: answering again');
    this.#loggedProblem = problem;
    const next: ScreenReport = { power, problem };
    if (next.power === this.#last.power && next.problem === this.#last.problem) return;
    this.#last = next;
    if (!this.#closed) this.#deps.report(next);
  }
}

/** Starts the adapter; never rejects, never waits for the bus. */
export function startCec(deps: CecDeps): CecScreen {
  const screen = new CecScreen(deps);
  screen.start();
  return screen;
}
