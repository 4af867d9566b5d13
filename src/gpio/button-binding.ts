// One physical button: debounce, short and long press, stuck detection, and
// exactly one command per press through the same dispatch as HTTP (source
// `gpio`, never rate-limited). Wiring is button to GND with a pull-up, so a
// pressed button reads low.
//
// Debounce waits until the level has been still for debounceMs, then reads it:
// contact bounce and interference on a long cable both settle inside that time,
// and a level that came back to where it was is no press at all.
import type { Clock, Scheduler } from '../app/clock.js';
import type { CommandSource, DispatchResult } from '../app/room-service.js';
import type { Command } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import { describePress, type ButtonPress, type ButtonSpec } from './button-actions.js';
import type { GpioPort, InputLine } from './gpio-port.js';
import { errorText } from './error-text.js';

/** Held longer than any long press can last (at most 10 s): the button is stuck or shorted. */
export const STUCK_AFTER_MS = 15_000;

/** The part of the room service buttons need. */
export interface CommandSink {
  dispatch(command: Command, source: CommandSource): DispatchResult;
}

type Handle = { cancel(): void } | null;

export class ButtonBinding {
  readonly #deps: { port: GpioPort; spec: ButtonSpec; sink: CommandSink; clock: Clock; scheduler: Scheduler; logger: Logger };
  #line: InputLine | null = null;
  /** The debounced state. */
  #pressed = false;
  /** Held at start or stuck: nothing happens until the button is let go. */
  #ignoreUntilRelease = false;
  #stuck = false;
  #longFired = false;
  #debounce: Handle = null;
  #hold: Handle = null;
  #stuckTimer: Handle = null;
  #closed = false;

  constructor(deps: { port: GpioPort; spec: ButtonSpec; sink: CommandSink; clock: Clock; scheduler: Scheduler; logger: Logger }) {
    this.#deps = deps;
  }

  get spec(): ButtonSpec {
    return this.#deps.spec;
  }

  /** Opens the pin; throws GpioPinError when it cannot (the adapter logs and leaves the button out). */
  start(): void {
    const { port, spec, logger } = this.#deps;
    this.#line = port.openInput(spec.bcm, (high) => this.#edge(high));
    if (!this.#line.read()) {
      // Pressed already: a finger, a stuck switch, or an input with no pull-up. Never a command.
      this.#pressed = true;
      this.#ignoreUntilRelease = true;
      this.#stuck = true;
      logger.warn(
        { pin: spec.bcm },
        `button BCM ${spec.bcm} reads pressed at start (held, stuck, or no pull-up: see the wiring in the README); it acts again once released`,
      );
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const handle of [this.#debounce, this.#hold, this.#stuckTimer]) handle?.cancel();
    this.#debounce = this.#hold = this.#stuckTimer = null;
    try {
      this.#line?.release();
    } catch (error) {
      this.#deps.logger.warn({ pin: this.#deps.spec.bcm, reason: errorText(error) }, `button BCM ${this.#deps.spec.bcm} could not be released`);
    }
    this.#line = null;
  }

  #after(ms: number, run: () => void): { cancel(): void } {
    const { clock, scheduler } = this.#deps;
    return scheduler.schedule(clock.monoMs() + ms, run);
  }

  #edge(high: boolean): void {
    if (this.#closed) return;
    this.#debounce?.cancel();
    this.#debounce = null;
    const { debounceMs } = this.#deps.spec;
    if (debounceMs === 0) {
      this.#settle(high);
      return;
    }
    this.#debounce = this.#after(debounceMs, () => {
      this.#debounce = null;
      this.#settle(this.#read(high));
    });
  }

  #read(fallback: boolean): boolean {
    try {
      return this.#line?.read() ?? fallback;
    } catch {
      return fallback;
    }
  }

  #settle(high: boolean): void {
    const pressed = !high;
    if (pressed === this.#pressed) return;
    this.#pressed = pressed;
    if (pressed) this.#press();
    else this.#release();
  }

  #press(): void {
    const { spec } = this.#deps;
    this.#longFired = false;
    if (spec.long !== null) {
      const long = spec.long;
      this.#hold = this.#after(long.holdMs, () => {
        this.#hold = null;
        if (!this.#pressed || this.#ignoreUntilRelease) return;
        this.#longFired = true;
        this.#fire(long, 'long');
      });
    } else if (spec.short !== null) {
      // No long press to tell apart: act at once.
      this.#fire(spec.short, 'short');
    }
    this.#stuckTimer = this.#after(STUCK_AFTER_MS, () => {
      this.#stuckTimer = null;
      this.#ignoreUntilRelease = true;
      this.#stuck = true;
      this.#deps.logger.warn(
        { pin: spec.bcm, heldMs: STUCK_AFTER_MS },
        `button BCM ${spec.bcm} has been down for ${STUCK_AFTER_MS / 1000} s: stuck or shorted? It does nothing more until it is released`,
      );
    });
  }

  #release(): void {
    const { spec, logger } = this.#deps;
    this.#hold?.cancel();
    this.#stuckTimer?.cancel();
    this.#hold = this.#stuckTimer = null;
    if (this.#ignoreUntilRelease) {
      this.#ignoreUntilRelease = false;
      if (this.#stuck) logger.info({ pin: spec.bcm }, `button BCM ${spec.bcm} is released and works again`);
      this.#stuck = false;
      return;
    }
    if (spec.long === null || this.#longFired) return;
    if (spec.short !== null) {
      this.#fire(spec.short, 'short');
    } else {
      // Said in the log, so whoever brushed it knows why nothing happened.
      logger.info({ pin: spec.bcm }, `button BCM ${spec.bcm}: a short press does nothing; hold it ${spec.long.holdMs} ms to ${describePress(spec.long)}`);
    }
  }

  #fire(press: ButtonPress, kind: 'short' | 'long'): void {
    const { spec, sink, logger } = this.#deps;
    const fields = { pin: spec.bcm, action: press.action, press: kind };
    try {
      const result = sink.dispatch(press.command, 'gpio');
      // Rejects only when the change did not happen (the service is stopping, or it had to be saved first and could not be).
      result.durable.catch((error: unknown) => logger.error({ ...fields, reason: errorText(error) }, `button BCM ${spec.bcm}: ${describePress(press)} did not happen: ${errorText(error)}`));
      if (result.outcome.ok) {
        logger.info({ ...fields, seq: result.room.seq }, `button BCM ${spec.bcm}: ${describePress(press)}`);
      } else {
        logger.warn({ ...fields, error: result.outcome.error.message }, `button BCM ${spec.bcm}: ${describePress(press)} refused: ${result.outcome.error.message}`);
      }
    } catch (error) {
      // A hardware callback must never throw: onoff would take the process down with it.
      logger.error({ ...fields, reason: errorText(error) }, `button BCM ${spec.bcm}: ${describePress(press)} failed`);
    }
  }
}
