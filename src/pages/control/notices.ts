// The operator is told, in words, when something they asked for did not happen.
// The last problem stays on screen until dismissed or replaced, long enough to
// be read in the middle of a show, and is announced to screen readers.
import { byId, setText } from './elements.js';

const SHOWN_MS = 15_000;

export class Notices {
  readonly #box = byId('notice', HTMLDivElement);
  readonly #text = byId('notice-text', HTMLSpanElement);
  #hideTimer: ReturnType<typeof setTimeout> | null = null;

  constructor() {
    byId('notice-close', HTMLButtonElement).addEventListener('click', () => this.clear());
  }

  /** `what` names the action ("Next"), `error` is the API's message. */
  error(what: string, error: string): void {
    setText(this.#text, `${what}: ${error}`);
    this.#box.hidden = false;
    if (this.#hideTimer !== null) clearTimeout(this.#hideTimer);
    this.#hideTimer = setTimeout(() => this.clear(), SHOWN_MS);
  }

  clear(): void {
    this.#box.hidden = true;
    if (this.#hideTimer !== null) clearTimeout(this.#hideTimer);
    this.#hideTimer = null;
  }
}
