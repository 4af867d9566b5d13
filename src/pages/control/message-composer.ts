// The message composer: a draft (text, colour, bold, flash) that is the
// operator's own until they press Show, next to what the screens show now.
import type { Snapshot } from '../../domain/snapshot.js';
import type { MessageColor } from '../../domain/types.js';
import { byId, setPressed, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';

export class MessageComposer {
  readonly #commands: RoomCommands;
  readonly #text = byId('msg-text', HTMLInputElement);
  readonly #bold = byId('msg-bold', HTMLButtonElement);
  readonly #flash = byId('msg-flash', HTMLButtonElement);
  readonly #current = byId('msg-current', HTMLSpanElement);
  readonly #clear = byId('msg-clear', HTMLButtonElement);
  readonly #colors: HTMLButtonElement[] = [];
  #color: MessageColor = 'white';

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    const colorButtons = document.querySelectorAll<HTMLButtonElement>('button[data-color]');
    for (let i = 0; i < colorButtons.length; i += 1) {
      const button = colorButtons[i] as HTMLButtonElement;
      this.#colors.push(button);
      button.addEventListener('click', () => this.#pickColor(button.getAttribute('data-color') as MessageColor));
    }
    this.#pickColor('white');
    for (const toggle of [this.#bold, this.#flash]) {
      toggle.addEventListener('click', () => setPressed(toggle, toggle.getAttribute('aria-pressed') !== 'true'));
    }
    byId('msg-show', HTMLButtonElement).addEventListener('click', () => this.show());
    this.#clear.addEventListener('click', () => void this.#commands.run('Clear message', '/message/clear'));
    this.#text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.show();
      }
    });
  }

  show(): void {
    void this.#commands.run('Show message', '/message/set', { ...this.draft() });
  }

  /** The message as composed now, for Show and for saving as a preset. */
  draft(): { readonly text: string; readonly color: MessageColor; readonly bold: boolean; readonly flash: boolean } {
    return {
      text: this.#text.value,
      color: this.#color,
      bold: this.#bold.getAttribute('aria-pressed') === 'true',
      flash: this.#flash.getAttribute('aria-pressed') === 'true',
    };
  }

  render(snapshot: Snapshot): void {
    const message = snapshot.message;
    if (message === null) {
      setText(this.#current, 'none');
      this.#current.className = 'msg-none';
    } else {
      const style = [message.color, message.bold ? 'bold' : '', message.flash ? 'flashing' : ''].filter((s) => s !== '').join(', ');
      setText(this.#current, `“${message.text}” (${style})`);
      this.#current.className = 'msg-live';
    }
    this.#clear.disabled = message === null;
  }

  #pickColor(color: MessageColor): void {
    this.#color = color;
    for (const button of this.#colors) setPressed(button, button.getAttribute('data-color') === color);
  }
}
