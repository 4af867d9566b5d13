// The banner that says the box's clock is not synchronised (issue 33): read from
// GET /api/v1/{key}/clock at start and every 30 s (two requests a minute of the
// key's quota), shown while the box says `synced: false`. It says how far this
// device's clock is from the box's, and offers to set the box's clock to this
// device's time in one confirmed step (a second press within a few seconds).
// While it shows, the running order's Starts at / Ends at times are marked:
// they are times of day on the box's clock. Running timers are not in question.
import type { ClockSync } from '../../domain/clock-sync.js';
import { NOT_SYNCED_WARNING } from '../../domain/clock-sync.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { ApiClient } from './api-client.js';
import { byId, setText } from './elements.js';
import type { Notices } from './notices.js';
import { TwoPress } from './two-press.js';

/** How often the console asks the box about its clock. */
export const CLOCK_POLL_MS = 30_000;
/** Below this, this device and the box agree for a show's purposes: no offset is worth setting. */
const AGREE_MS = 1_000;

/** "3 min 12 s", "1 h 4 min", "0.4 s": a distance between two clocks for a person. */
export function distanceText(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 10_000) return `${(Math.round(abs / 100) / 10).toString()} s`;
  const totalS = Math.round(abs / 1_000);
  const days = Math.floor(totalS / 86_400);
  const hours = Math.floor((totalS % 86_400) / 3_600);
  const minutes = Math.floor((totalS % 3_600) / 60);
  const seconds = totalS % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return minutes > 0 ? `${minutes} min ${seconds} s` : `${seconds} s`;
}

/** What the console says of this device's clock against the box's (`deviceMinusBoxMs`). */
export function offsetText(deviceMinusBoxMs: number): string {
  if (Math.abs(deviceMinusBoxMs) < AGREE_MS) return 'This device\'s clock and the box\'s agree (within a second).';
  return `This device's clock is ${distanceText(deviceMinusBoxMs)} ${deviceMinusBoxMs > 0 ? 'ahead of' : 'behind'} the box.`;
}

export class ClockBanner {
  readonly #box = byId('clock-banner', HTMLDivElement);
  readonly #text = byId('clock-banner-text', HTMLSpanElement);
  readonly #offset = byId('clock-offset', HTMLSpanElement);
  readonly #button = byId('clock-set', HTMLButtonElement);
  readonly #confirm: TwoPress;
  readonly #api: ApiClient;
  readonly #boxNow: () => number | null;
  readonly #notices: Notices;
  readonly #onSet: () => void;
  #clock: ClockSync | null = null;
  #snapshot: Snapshot | null = null;
  #busy = false;

  /** `boxNow`: the box's time as this page estimates it (null before any estimate); `onSet`: after the box's clock was set. */
  constructor(api: ApiClient, boxNow: () => number | null, notices: Notices, onSet: () => void) {
    this.#api = api;
    this.#boxNow = boxNow;
    this.#notices = notices;
    this.#onSet = onSet;
    this.#confirm = new TwoPress(this.#button, {
      ask: () => `Confirm: set the box's clock to ${new Date().toLocaleTimeString()} (this device)`,
      idle: 'Set the box\'s clock from this device',
    });
    this.#button.addEventListener('click', () => {
      if (this.#confirm.press()) void this.#set();
    });
  }

  start(): void {
    void this.poll();
    setInterval(() => void this.poll(), CLOCK_POLL_MS);
  }

  async poll(): Promise<void> {
    const result = await this.#api.clock();
    // A failed read leaves the banner as it was: the push channel's link line says when the box is away.
    if (result.ok) this.#show(result.value);
  }

  /** The running order's times are marked from each snapshot while the clock is in doubt. */
  render(snapshot: Snapshot): void {
    this.#snapshot = snapshot;
    this.#mark();
  }

  /** Every second or so: the offset as this device's clock moves against the box's. */
  follow(): void {
    if (this.#box.hidden) return;
    const boxNow = this.#boxNow();
    setText(this.#offset, boxNow === null ? '' : offsetText(Date.now() - boxNow));
  }

  #show(clock: ClockSync): void {
    this.#clock = clock;
    const unsynced = clock.synced === false;
    document.body.classList.toggle('clock-unsynced', unsynced);
    this.#box.hidden = !unsynced;
    if (unsynced) {
      const byHand = clock.setByHandAt === undefined ? '' : ` It was set by hand at ${new Date(clock.setByHandAt).toLocaleTimeString()}.`;
      setText(this.#text, `${NOT_SYNCED_WARNING}.${byHand} Running timers are not affected.`);
    }
    this.follow();
    this.#mark();
  }

  #mark(): void {
    const doubt = this.#clock?.synced === false;
    const snapshot = this.#snapshot;
    if (snapshot === null) return;
    for (const timer of snapshot.timers) {
      const row = document.querySelector(`#order tr[data-id="${CSS.escape(timer.id)}"]`);
      if (row === null) continue;
      for (const field of ['scheduledAt', 'endsAt'] as const) {
        const input = row.querySelector(`input.f-${field}`);
        if (!(input instanceof HTMLInputElement)) continue;
        const marked = doubt && timer[field] !== null;
        if (input.classList.contains('clock-doubt') === marked) continue;
        input.classList.toggle('clock-doubt', marked);
        if (marked) input.title = 'The box\'s clock is not synchronised: this time of day may be wrong';
        else input.removeAttribute('title');
      }
    }
  }

  async #set(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.#button.disabled = true;
    // This device's time as the request leaves; the box adds what the request took on its side.
    const result = await this.#api.setClock(Date.now());
    this.#button.disabled = false;
    this.#busy = false;
    if (!result.ok) {
      this.#notices.error('Setting the box\'s clock', result.error);
      return;
    }
    this.#show(result.value);
    this.#onSet();
  }
}
