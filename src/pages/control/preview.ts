// The live preview: what the screens show, drawn by the display's own code
// (faceAt, createScreen, screen.css) into a box on the console, from the latest
// snapshot at the server's time (the display's server-clock estimate), never the
// device's clock. It follows the room's display settings (layout, colours, size,
// elements, logo) as every screen does. Like the display it redraws only when
// something visible changes (faceAt says when), not in an animation loop, and
// the screen writes only what differs. The schedule's elements and the aux timer
// (screen-extras.ts) show in it as the room's display settings switch them on.
import type { Snapshot } from '../../domain/snapshot.js';
import { faceAt, formatSeconds } from '../../client/face.js';
import { extrasAt } from '../../client/screen-extras.js';
import type { ScreenSize } from '../display/fit.js';
import { createScreen, type Screen } from '../display/screen.js';
import type { ServerClock } from '../../client/server-clock.js';
import { byId, setText } from './elements.js';

export class Preview {
  readonly #clock: ServerClock;
  readonly #box = byId('preview', HTMLDivElement);
  readonly #screen: Screen;
  readonly #state = byId('pv-state', HTMLSpanElement);
  readonly #next = byId('pv-coming', HTMLSpanElement);
  #snapshot: Snapshot | null = null;
  #pending: ReturnType<typeof setTimeout> | null = null;
  #size: ScreenSize = { width: 0, height: 0 };
  /** The screen's own refit, called once the box's units follow a new size. */
  #refit: () => void = () => {};

  /** `viewerKey`: the preview loads the audience link's code as a viewer does, from the viewer link. */
  constructor(clock: ServerClock, viewerKey: string) {
    this.#clock = clock;
    const box = this.#box;
    this.#screen = createScreen({
      // The display's markup with its ids prefixed (control-page-html.ts).
      part: (id) => byId(`pv-${id}`, HTMLElement),
      size: () => this.#size,
      backdrop: (colour) => {
        box.style.backgroundColor = colour;
      },
      onResize: (refit) => {
        this.#refit = refit;
      },
      askLinkUrl: `/view/${encodeURIComponent(viewerKey)}/ask-link.svg`,
    });
    // The box follows the console's layout, not only the window: watched where the browser can.
    const Observer = (window as Window & { ResizeObserver?: typeof ResizeObserver }).ResizeObserver;
    if (Observer !== undefined) new Observer(() => this.#fit()).observe(box);
    else window.addEventListener('resize', () => this.#fit());
    this.#fit();
  }

  show(snapshot: Snapshot): void {
    this.#snapshot = snapshot;
    this.#clock.hint(snapshot.serverNow);
    this.#describe(snapshot);
    // The room's look, as on every screen (the screen skips it when unchanged).
    this.#screen.setLook(snapshot.display);
    this.redraw();
  }

  /** As a screen shows a lost link: the console's own stream stands for the screens'. */
  setLink(up: boolean): void {
    this.#screen.setLink(up);
  }

  redraw(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    const snapshot = this.#snapshot;
    const nowMs = this.#clock.now();
    if (snapshot === null || nowMs === null) return;
    const at = faceAt(snapshot, nowMs);
    const display = snapshot.display;
    const extras = extrasAt(snapshot, { overUnder: display.showOverUnder, showEnd: display.showShowEnd, aux: display.showAux }, nowMs);
    const faceNext = at.nextChangeAt;
    const extrasNext = extras.nextChangeAt;
    const nextChangeAt = faceNext === null ? extrasNext : extrasNext === null ? faceNext : Math.min(faceNext, extrasNext);
    this.#screen.render(at.face);
    this.#screen.renderExtras(extras.extras);
    // A timer that fires a hair early redraws nothing and lands here again.
    if (nextChangeAt !== null) this.#pending = setTimeout(() => this.redraw(), Math.max(0, Math.ceil(nextChangeAt - nowMs)));
  }

  /** The words under the preview: where the show is in the running order, and what comes next. */
  #describe(snapshot: Snapshot): void {
    const index = snapshot.timers.findIndex((t) => t.id === snapshot.activeTimerId);
    // The same word as the screens: READY until the timer has run since it was made active.
    const transport = snapshot.running ? 'Running' : snapshot.started ? 'Paused' : 'Ready';
    setText(this.#state, `${transport} · timer ${index + 1} of ${snapshot.timers.length}`);
    const next = snapshot.timers[index + 1];
    setText(
      this.#next,
      next === undefined
        ? 'Last timer'
        : `Next: ${next.label === '' ? next.id : next.label} (${formatSeconds(Math.ceil(next.duration / 1000))})`,
    );
  }

  /** screen.css measures in hundredths of the screen: here the screen is this box. */
  #fit(): void {
    const width = this.#box.clientWidth;
    const height = this.#box.clientHeight;
    if ((width === this.#size.width && height === this.#size.height) || width === 0 || height === 0) return;
    this.#size = { width, height };
    const style = this.#box.style;
    style.setProperty('--vw', `${width / 100}px`);
    style.setProperty('--vh', `${height / 100}px`);
    style.setProperty('--vmin', `${Math.min(width, height) / 100}px`);
    this.#refit();
  }
}
