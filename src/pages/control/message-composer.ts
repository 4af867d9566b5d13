// The message composer: a draft (text, colour, bold, flash) that is the
// operator's own until they press Show, next to what the screens show now.
// The box counts the draft as the room will (line breaks as spaces, trimmed, code
// points) against MESSAGE_MAX_CHARS as it is typed; a draft over it is kept whole
// and refused with the reason, never cut: a cut message reaches the stage mid-word.
import { charCount, MESSAGE_MAX_CHARS } from '../../domain/limits.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { MessageColor } from '../../domain/types.js';
import { byId, setPressed, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';

/**
 * The draft as it goes out: the screens run a message on as one paragraph, so a
 * pasted line break would only vanish there; it becomes a space here, where it is seen.
 */
export function messageText(draft: string): string {
  return draft.replace(/[ \t]*[\r\n\u2028\u2029]+[ \t]*/g, ' ').trim();
}

export class MessageComposer {
  readonly #commands: RoomCommands;
  readonly #text = byId('msg-text', HTMLTextAreaElement);
  readonly #count = byId('msg-count', HTMLElement);
  readonly #reason = byId('msg-limit-reason', HTMLElement);
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
    // Enter shows the message, as in the one-line field before; Shift+Enter adds no line
    // either (the screens would not show it). Not while an input method composes a word.
    this.#text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) {
        event.preventDefault();
        if (!event.shiftKey) this.show();
      }
    });
    this.#text.addEventListener('input', () => this.#recount());
    this.#recount();
  }

  show(): void {
    const over = this.#over();
    if (over > 0) {
      // Refused here with the reason beside the box; the draft stays as typed.
      this.#recount();
      this.#text.focus();
      return;
    }
    void this.#commands.run('Show message', '/message/set', { ...this.draft() });
  }

  /** The message as composed now, for Show and for saving as a preset. */
  draft(): { readonly text: string; readonly color: MessageColor; readonly bold: boolean; readonly flash: boolean } {
    return {
      text: messageText(this.#text.value),
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

  /** Characters over the room's limit (0 when it fits). */
  #over(): number {
    return Math.max(0, charCount(messageText(this.#text.value)) - MESSAGE_MAX_CHARS);
  }

  /** The counter, and the reason Show is refused while the draft is too long. */
  #recount(): void {
    const count = charCount(messageText(this.#text.value));
    const over = this.#over();
    setText(this.#count, `${count} / ${MESSAGE_MAX_CHARS}`);
    const className = over > 0 ? 'msg-count over' : 'msg-count';
    if (this.#count.className !== className) this.#count.className = className;
    setText(
      this.#reason,
      over > 0 ? `Not shown: ${over} ${over === 1 ? 'character' : 'characters'} too long. The screens take at most ${MESSAGE_MAX_CHARS}; shorten it to show it whole.` : '',
    );
    this.#reason.hidden = over === 0;
    this.#text.setAttribute('aria-invalid', over > 0 ? 'true' : 'false');
  }

  #pickColor(color: MessageColor): void {
    this.#color = color;
    for (const button of this.#colors) setPressed(button, button.getAttribute('data-color') === color);
  }
}
