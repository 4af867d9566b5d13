// The operator is told, in words, when something they asked for did not happen.
// The last problem stays on screen until dismissed or replaced, long enough to
// be read in the middle of a show, and is announced to screen readers.
//
// It is shown where the operator is looking: next to the control that caused it
// (under its row of buttons, or under the running-order row being edited), so
// an error made at the bottom of a long page is never announced off-screen at
// the top. Problems with no control behind them (the live stream, a state read)
// keep the notice's place under the header.
import { byId, setText } from './elements.js';

const SHOWN_MS = 15_000;

export class Notices {
  readonly #box = byId('notice', HTMLDivElement);
  readonly #text = byId('notice-text', HTMLSpanElement);
  /** Where the notice lives when no control caused it: restored for stream errors. */
  readonly #home: Node | null = this.#box.parentNode;
  readonly #homeNext: Node | null = this.#box.nextSibling;
  /** The control the operator last used; clicks, keys and changes are seen before any handler runs. */
  #lastControl: Element | null = null;
  #hideTimer: ReturnType<typeof setTimeout> | null = null;

  constructor() {
    byId('notice-close', HTMLButtonElement).addEventListener('click', () => this.clear());
    const remember = (event: Event): void => {
      if (event.target instanceof Element && !this.#box.contains(event.target)) this.#lastControl = event.target;
    };
    // pointerdown too: a touch drag (a row's handle) ends without a click.
    for (const type of ['pointerdown', 'click', 'keydown', 'change']) document.addEventListener(type, remember, true);
  }

  /** The control behind the action starting now (read before any await, while it is still the last one used). */
  get origin(): Element | null {
    return this.#lastControl;
  }

  /**
   * `what` names the action ("Next"), `error` is the API's message. `near` is the
   * control that caused it; without one (stream errors) the notice is shown at the top.
   */
  error(what: string, error: string, near: Element | null = null): void {
    setText(this.#text, `${what}: ${error}`);
    this.#place(near);
    this.#box.hidden = false;
    this.#reveal();
    if (this.#hideTimer !== null) clearTimeout(this.#hideTimer);
    this.#hideTimer = setTimeout(() => this.clear(), SHOWN_MS);
  }

  clear(): void {
    this.#box.hidden = true;
    if (this.#hideTimer !== null) clearTimeout(this.#hideTimer);
    this.#hideTimer = null;
  }

  #place(near: Element | null): void {
    const box = this.#box;
    box.className = '';
    box.style.top = '';
    box.style.left = '';
    box.style.width = '';
    const tableRow = near === null ? null : near.closest('#order tr');
    const buttonRow = near === null ? null : near.closest('#transport .row, main .row');
    if (tableRow !== null) {
      // A table row cannot hold a div and an extra row would shift the running
      // order under the cursor: the notice floats just under the row instead.
      if (box.parentNode !== document.body) document.body.appendChild(box);
      const rect = tableRow.getBoundingClientRect();
      box.className = 'beside beside-float';
      box.style.top = `${Math.round(rect.bottom + window.pageYOffset + 2)}px`;
      box.style.left = `${Math.round(rect.left + window.pageXOffset)}px`;
      box.style.width = `${Math.round(Math.min(rect.width, 640))}px`;
    } else if (buttonRow !== null && buttonRow.parentNode !== null) {
      box.className = 'beside';
      if (buttonRow.nextSibling !== box) buttonRow.parentNode.insertBefore(box, buttonRow.nextSibling);
    } else if (this.#home !== null && box.parentNode !== this.#home) {
      this.#home.insertBefore(box, this.#homeNext);
    }
  }

  /** Scrolls only when the notice is out of sight; a visible one stays put. */
  #reveal(): void {
    const rect = this.#box.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) this.#box.scrollIntoView(false);
  }
}
