// Room settings: what happens at zero, and auto-advance. Shown from the
// snapshot; each press sends the value asked for, not a toggle.
import type { Snapshot } from '../../domain/snapshot.js';
import type { ZeroBehavior } from '../../domain/types.js';
import { byId, setPressed } from './elements.js';
import type { RoomCommands } from './room-commands.js';

const ZERO_WORDS: Readonly<Record<ZeroBehavior, string>> = { continue: 'continue into overrun', stop: 'stop at zero', hide: 'hide the time' };

export class SettingsPanel {
  readonly #commands: RoomCommands;
  readonly #zeroButtons: HTMLButtonElement[] = [];
  readonly #autoAdvance = byId('auto-advance', HTMLButtonElement);

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    const buttons = document.querySelectorAll<HTMLButtonElement>('button[data-zero]');
    for (let i = 0; i < buttons.length; i += 1) {
      const button = buttons[i] as HTMLButtonElement;
      const zeroBehavior = button.getAttribute('data-zero') as ZeroBehavior;
      this.#zeroButtons.push(button);
      button.addEventListener('click', () => void this.#commands.run(`At zero: ${ZERO_WORDS[zeroBehavior]}`, '/settings', { zeroBehavior }));
    }
    this.#autoAdvance.addEventListener('click', () => {
      const shown = this.#commands.shown;
      if (shown === null) return;
      const autoAdvance = !shown.autoAdvance;
      void this.#commands.run(autoAdvance ? 'Auto-advance on' : 'Auto-advance off', '/settings', { autoAdvance });
    });
  }

  render(snapshot: Snapshot): void {
    for (const button of this.#zeroButtons) setPressed(button, button.getAttribute('data-zero') === snapshot.zeroBehavior);
    setPressed(this.#autoAdvance, snapshot.autoAdvance);
  }
}
