// A button that acts only on a second press within a few seconds, for what a slip
// mid-show cannot undo (a timer, a tag or a question deleted, the logo taken off
// every screen). The first press asks in the button itself and marks it; the
// question is forgotten after CONFIRM_MS, and the button says what it does again.
import { setText } from './elements.js';

export const CONFIRM_MS = 4_000;

export class TwoPress {
  readonly #button: HTMLButtonElement;
  readonly #ask: () => string;
  readonly #idle: string;
  #pending: ReturnType<typeof setTimeout> | null = null;

  /** `ask` is what the button says while it waits for the second press; `idle` what it says otherwise. */
  constructor(button: HTMLButtonElement, words: { readonly ask: string | (() => string); readonly idle: string }) {
    this.#button = button;
    const ask = words.ask;
    this.#ask = typeof ask === 'string' ? () => ask : ask;
    this.#idle = words.idle;
  }

  /** True while the first press waits for the second. */
  get asking(): boolean {
    return this.#pending !== null;
  }

  /** The press: true when this one is the second, and the action should happen now. */
  press(): boolean {
    if (this.#pending === null) {
      setText(this.#button, this.#ask());
      this.#button.classList.add('confirm');
      this.#pending = setTimeout(() => this.reset(), CONFIRM_MS);
      return false;
    }
    this.reset();
    return true;
  }

  /** Back to the first press (also when the button's row goes away). */
  reset(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    setText(this.#button, this.#idle);
    this.#button.classList.remove('confirm');
  }
}
