// What the TSL packets say of this room: each of its display indices' last tally,
// and from them one report, on while any of them is on air (program, preview or
// either, as configured). Every packet that speaks of the room's displays is
// reported to the room (source `tsl`, command source `tally`); the engine keeps
// the last report and a repeat changes nothing there (no seq step, no push), so
// only a change reaches the log, once.
import type { CommandSource, DispatchResult } from '../app/room-service.js';
import type { Command } from '../domain/types.js';
import type { TslTallyOn } from '../config/tally-config.js';
import type { Logger } from '../log/logger.js';
import { TSL5_BROADCAST_INDEX, type DisplayTally } from './tsl-packet.js';

/** The part of the room service tally needs. */
export interface TallyTarget {
  dispatch(command: Command, source: CommandSource): DispatchResult;
}

export class TslTally {
  readonly #indices: ReadonlySet<number>;
  readonly #on: TslTallyOn;
  readonly #target: TallyTarget;
  readonly #logger: Logger;
  /** Each of the room's indices heard from: on air or not. */
  readonly #heard = new Map<number, boolean>();
  #lastReported: boolean | null = null;

  constructor(opts: { indices: readonly number[]; on: TslTallyOn; target: TallyTarget; logger: Logger }) {
    this.#indices = new Set(opts.indices);
    this.#on = opts.on;
    this.#target = opts.target;
    this.#logger = opts.logger;
  }

  #onAir(display: DisplayTally): boolean {
    switch (this.#on) {
      case 'program':
        return display.program;
      case 'preview':
        return display.preview;
      case 'both':
        return display.program || display.preview;
      default: {
        const unknown: never = this.#on;
        throw new Error(`unhandled tally meaning ${String(unknown)}`);
      }
    }
  }

  /** The displays of one packet; false when none of them is this room's (the caller logs that, throttled). */
  take(displays: readonly DisplayTally[], version: string): boolean {
    let ours = false;
    for (const display of displays) {
      const onAir = this.#onAir(display);
      if (display.index === TSL5_BROADCAST_INDEX && version === '5.0') {
        for (const index of this.#indices) this.#heard.set(index, onAir);
        ours = true;
      } else if (this.#indices.has(display.index)) {
        this.#heard.set(display.index, onAir);
        ours = true;
      }
    }
    if (!ours) return false;
    let on = false;
    for (const onAir of this.#heard.values()) on ||= onAir;
    const { outcome } = this.#target.dispatch({ type: 'tally.set', source: 'tsl', on }, 'tally');
    if (outcome.ok && on !== this.#lastReported) {
      this.#lastReported = on;
      this.#logger.info({ source: 'tsl', on, version }, `tally: TSL says ${on ? 'on air' : 'off air'}`);
    }
    return true;
  }
}
