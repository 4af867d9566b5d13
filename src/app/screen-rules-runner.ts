// The room's screen rules at work (src/domain/screen-rules.ts decides): looks at the room
// after every change, and at the instants the rules name (a blackout's standby falling
// due), and hands what they ask to the screen (src/cec through ScreenControl). Requests go
// out in the background: a room change never waits for the bus.
import type { Scheduler } from './clock.js';
import type { RoomChange } from './room-service.js';
import type { ScreenControl } from '../domain/screen.js';
import { bootScreen, stepScreen, type ScreenAsk, type ScreenFacts, type ScreenRules, type ScreenWatch } from '../domain/screen-rules.js';
import type { Room } from '../domain/types.js';

export interface ScreenRulesDeps {
  readonly room: { readonly room: Room; subscribe(listener: (change: RoomChange) => void): () => void };
  readonly screen: ScreenControl;
  readonly rules: ScreenRules;
  readonly scheduler: Scheduler;
  readonly monoMs: () => number;
  /** What a rule asked and how the screen took it, for the log. */
  readonly onRequest: (ask: ScreenAsk, answer: { ok: true } | { ok: false; error: string }) => void;
}

export function screenFacts(room: Room): ScreenFacts {
  return { running: room.transport.running, blackout: room.blackout, power: room.screen?.power ?? 'unavailable' };
}

export class ScreenRulesRunner {
  readonly #deps: ScreenRulesDeps;
  #watch: ScreenWatch | null = null;
  #wake: { cancel(): void } | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(deps: ScreenRulesDeps) {
    this.#deps = deps;
  }

  start(): void {
    const step = bootScreen(screenFacts(this.#deps.room.room), this.#deps.rules, this.#deps.monoMs());
    this.#apply(step.watch, step.requests, step.wakeAtMs);
    this.#unsubscribe = this.#deps.room.subscribe((change) => this.#look(change.room));
  }

  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#wake?.cancel();
    this.#wake = null;
    this.#watch = null;
  }

  #look(room: Room): void {
    if (this.#watch === null) return;
    const step = stepScreen(this.#watch, screenFacts(room), this.#deps.rules, this.#deps.monoMs());
    this.#apply(step.watch, step.requests, step.wakeAtMs);
  }

  #apply(watch: ScreenWatch, requests: readonly ScreenAsk[], wakeAtMs: number | null): void {
    this.#watch = watch;
    this.#wake?.cancel();
    this.#wake = wakeAtMs === null ? null : this.#deps.scheduler.schedule(wakeAtMs, () => this.#look(this.#deps.room.room));
    for (const ask of requests) {
      // The screen adapter never rejects; one request at a time goes on the bus, in order.
      void this.#deps.screen.request(ask.request).then((answer) => this.#deps.onRequest(ask, answer.ok ? { ok: true } : { ok: false, error: answer.error }));
    }
  }
}
