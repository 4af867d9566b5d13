// Lamps follow the room: set from the room at start (a restored ON AIR lights
// the lamp again after a reboot), rewritten synchronously inside every room
// change (well within 20 ms), and woken by one timeout for the instants when
// `warning` or `overrun` change by time alone. On close each goes to its safe
// state and is released.
import type { LampSignal } from '../config/gpio-config.js';
import type { Clock, Scheduler } from '../app/clock.js';
import type { RoomListener } from '../app/room-service.js';
import type { Room } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { GpioPort, OutputLine } from './gpio-port.js';
import { errorText } from './error-text.js';
import { flashLit, nextSignalChangeMonoMs, signalOn } from './lamp-signals.js';

export interface LampSpec {
  readonly bcm: number;
  readonly signal: LampSignal;
  /** The relay switches on a low pin. */
  readonly activeLow: boolean;
  /** Lit after an orderly shutdown; off unless configured. */
  readonly safeOn: boolean;
  /** Switched over in the lit halves of a screen flash (an ON AIR lamp that flashes with the screens). */
  readonly alsoFlash?: boolean;
}

/** What the lamp shows: its signal, switched over during a flash's lit halves when it also flashes. */
function lampOn(spec: LampSpec, room: Room, nowMonoMs: number): boolean {
  const on = signalOn(spec.signal, room, nowMonoMs);
  return spec.alsoFlash === true && flashLit(room, nowMonoMs) ? !on : on;
}

/** The part of the room service lamps need. */
export interface RoomFeed {
  readonly room: Room;
  subscribe(listener: RoomListener): () => void;
}

interface OpenLamp {
  readonly spec: LampSpec;
  readonly line: OutputLine;
  on: boolean;
  failing: boolean;
}

const levelFor = (spec: LampSpec, on: boolean): boolean => on !== spec.activeLow;

export class LampBindings {
  readonly #deps: { port: GpioPort; lamps: readonly LampSpec[]; feed: RoomFeed; clock: Clock; scheduler: Scheduler; logger: Logger };
  readonly #open: OpenLamp[] = [];
  #unsubscribe: (() => void) | null = null;
  #pending: { cancel(): void } | null = null;
  #pendingAtMonoMs: number | null = null;
  #closed = false;

  constructor(deps: { port: GpioPort; lamps: readonly LampSpec[]; feed: RoomFeed; clock: Clock; scheduler: Scheduler; logger: Logger }) {
    this.#deps = deps;
  }

  /** Opens every lamp already at its state; a lamp that cannot be opened is logged and left out. */
  start(): void {
    const { port, lamps, feed, clock, logger } = this.#deps;
    const room = feed.room;
    const nowMonoMs = clock.monoMs();
    for (const spec of lamps) {
      const on = lampOn(spec, room, nowMonoMs);
      try {
        const line = port.openOutput(spec.bcm, levelFor(spec, on));
        this.#open.push({ spec, line, on, failing: false });
        logger.info({ pin: spec.bcm, follows: spec.signal, on }, `lamp BCM ${spec.bcm} (${spec.signal}) ${on ? 'on' : 'off'}`);
      } catch (error) {
        logger.error({ pin: spec.bcm, follows: spec.signal, reason: errorText(error) }, `lamp BCM ${spec.bcm} is left out: ${errorText(error)}`);
      }
    }
    if (this.#open.length === 0) return;
    this.#unsubscribe = feed.subscribe((change) => this.#follow(change.room));
    this.#arm(room, nowMonoMs);
  }

  /** Lamps that were opened, for the start-up summary. */
  get openPins(): readonly LampSpec[] {
    return this.#open.map((lamp) => lamp.spec);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#pending?.cancel();
    this.#pending = null;
    for (const lamp of this.#open) {
      try {
        lamp.line.write(levelFor(lamp.spec, lamp.spec.safeOn));
      } catch (error) {
        this.#deps.logger.error({ pin: lamp.spec.bcm, reason: errorText(error) }, `lamp BCM ${lamp.spec.bcm} could not be put in its safe state`);
      }
      try {
        lamp.line.release();
      } catch (error) {
        this.#deps.logger.warn({ pin: lamp.spec.bcm, reason: errorText(error) }, `lamp BCM ${lamp.spec.bcm} could not be released`);
      }
    }
    this.#open.length = 0;
  }

  #follow(room: Room): void {
    if (this.#closed) return;
    const nowMonoMs = this.#deps.clock.monoMs();
    for (const lamp of this.#open) this.#set(lamp, lampOn(lamp.spec, room, nowMonoMs));
    this.#arm(room, nowMonoMs);
  }

  #set(lamp: OpenLamp, on: boolean): void {
    // A lamp that failed is written again at every change, so it recovers by itself.
    if (lamp.on === on && !lamp.failing) return;
    const { logger } = this.#deps;
    try {
      lamp.line.write(levelFor(lamp.spec, on));
      if (lamp.failing) logger.info({ pin: lamp.spec.bcm }, `lamp BCM ${lamp.spec.bcm} works again`);
      if (lamp.on !== on) logger.info({ pin: lamp.spec.bcm, follows: lamp.spec.signal, on }, `lamp BCM ${lamp.spec.bcm} (${lamp.spec.signal}) ${on ? 'on' : 'off'}`);
      lamp.on = on;
      lamp.failing = false;
    } catch (error) {
      // Logged once per failure, not at every change: the log must stay readable during a show.
      if (!lamp.failing) logger.error({ pin: lamp.spec.bcm, reason: errorText(error) }, `lamp BCM ${lamp.spec.bcm} could not be switched`);
      lamp.failing = true;
    }
  }

  #arm(room: Room, nowMonoMs: number): void {
    const atMonoMs = nextSignalChangeMonoMs(
      this.#open.flatMap((lamp): LampSignal[] => (lamp.spec.alsoFlash === true ? [lamp.spec.signal, 'flash'] : [lamp.spec.signal])),
      room,
      nowMonoMs,
    );
    if (atMonoMs === this.#pendingAtMonoMs) return;
    this.#pending?.cancel();
    this.#pending = null;
    this.#pendingAtMonoMs = atMonoMs;
    if (atMonoMs === null) return;
    this.#pending = this.#deps.scheduler.schedule(atMonoMs, () => {
      this.#pending = null;
      this.#pendingAtMonoMs = null;
      this.#follow(this.#deps.feed.room);
    });
  }
}
