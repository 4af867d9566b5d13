// The live preview: what the screens show, drawn from the latest snapshot at the
// server's time (the display's own faceAt and server-clock estimate), never the
// device's clock. Like the display it redraws only when something visible
// changes (faceAt says when), not in an animation loop.
import type { Snapshot } from '../../domain/snapshot.js';
import { faceAt, formatSeconds, type Face } from '../display/face.js';
import type { ServerClock } from '../display/server-clock.js';
import { byId, setText } from './elements.js';

function lengthClass(text: string): string {
  return `pv-time len-${Math.min(8, Math.max(4, text.length))}`;
}

export class Preview {
  readonly #clock: ServerClock;
  readonly #box = byId('preview', HTMLDivElement);
  readonly #screen = byId('pv-screen', HTMLDivElement);
  readonly #time = byId('pv-time', HTMLDivElement);
  readonly #label = byId('pv-label', HTMLDivElement);
  readonly #speaker = byId('pv-speaker', HTMLDivElement);
  readonly #bar = byId('pv-bar', HTMLDivElement);
  readonly #fill = byId('pv-fill', HTMLDivElement);
  readonly #message = byId('pv-msg', HTMLDivElement);
  readonly #onAir = byId('pv-onair', HTMLDivElement);
  readonly #black = byId('pv-black', HTMLDivElement);
  readonly #state = byId('pv-state', HTMLSpanElement);
  readonly #next = byId('pv-next', HTMLSpanElement);
  #snapshot: Snapshot | null = null;
  #pending: ReturnType<typeof setTimeout> | null = null;
  #widthPx = 0;

  constructor(clock: ServerClock) {
    this.#clock = clock;
    window.addEventListener('resize', () => this.#fit());
    this.#fit();
  }

  show(snapshot: Snapshot): void {
    this.#snapshot = snapshot;
    this.#clock.hint(snapshot.serverNow);
    this.#describe(snapshot);
    this.redraw();
  }

  redraw(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    const snapshot = this.#snapshot;
    const nowMs = this.#clock.now();
    if (snapshot === null || nowMs === null) return;
    const at = faceAt(snapshot, nowMs);
    const nextChangeAt = at.nextChangeAt;
    this.#render(at.face);
    // A timer that fires a hair early redraws nothing and lands here again.
    if (nextChangeAt !== null) this.#pending = setTimeout(() => this.redraw(), Math.max(0, Math.ceil(nextChangeAt - nowMs)));
  }

  #render(face: Face): void {
    this.#black.hidden = !face.blackout;
    setText(this.#time, face.time);
    const timeClass = lengthClass(face.time);
    if (this.#time.className !== timeClass) this.#time.className = timeClass;
    const screenClass = `pv-screen pv-${face.tone}${face.danger ? ' pv-danger' : ''}${face.inverted ? ' pv-inverted' : ''}`;
    if (this.#screen.className !== screenClass) this.#screen.className = screenClass;
    setText(this.#label, face.label);
    setText(this.#speaker, face.speaker);
    this.#bar.hidden = face.progress === null;
    if (face.progress !== null) this.#fill.style.transform = `scaleX(${face.progress})`;
    this.#onAir.hidden = !face.onAir;
    const message = face.message;
    this.#message.hidden = message === null;
    if (message !== null) {
      setText(this.#message, message.text);
      const messageClass = `pv-msg color-${message.color}${message.bold ? ' bold' : ''}${message.lit ? '' : ' dark'}`;
      if (this.#message.className !== messageClass) this.#message.className = messageClass;
    }
  }

  /** The words under the preview: where the show is in the running order, and what comes next. */
  #describe(snapshot: Snapshot): void {
    const index = snapshot.timers.findIndex((t) => t.id === snapshot.activeTimerId);
    const transport = snapshot.running ? 'Running' : 'Paused';
    setText(this.#state, `${transport} · timer ${index + 1} of ${snapshot.timers.length}`);
    const next = snapshot.timers[index + 1];
    setText(
      this.#next,
      next === undefined
        ? 'Last timer'
        : `Next: ${next.label === '' ? next.id : next.label} (${formatSeconds(Math.ceil(next.duration / 1000))})`,
    );
  }

  /** 1em in the preview is 1% of its width, as 1vw is on the display. */
  #fit(): void {
    const widthPx = this.#box.clientWidth;
    if (widthPx === this.#widthPx || widthPx === 0) return;
    this.#widthPx = widthPx;
    this.#box.style.fontSize = `${widthPx / 100}px`;
  }
}
