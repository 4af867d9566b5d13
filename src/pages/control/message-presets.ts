// Message presets: messages a show says again and again ("5 minutes", "Wrap up",
// "Mic please"), saved once and shown with one click. For now they are kept in
// this browser's localStorage (per device, not in the room): another console or
// a reset browser does not see them. A storage that refuses (private mode, full)
// keeps the list for this page only, and the operator is told once.
import { charCount, MESSAGE_MAX_CHARS } from '../../domain/limits.js';
import type { MessageColor } from '../../domain/types.js';
import { byId, make, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';

export interface Preset {
  readonly text: string;
  readonly color: MessageColor;
  readonly bold: boolean;
  readonly flash: boolean;
}

const STORAGE_KEY = 'showclock.messagePresets.v1';
const MAX_PRESETS = 30;
const COLORS: readonly MessageColor[] = ['white', 'green', 'red'];

function isPreset(value: unknown): value is Preset {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.text === 'string' &&
    v.text.trim().length > 0 &&
    v.text.length <= 500 &&
    COLORS.includes(v.color as MessageColor) &&
    typeof v.bold === 'boolean' &&
    typeof v.flash === 'boolean'
  );
}

/** The saved presets; anything unreadable (hand-edited, older format) is left out, not fatal. */
export function parsePresets(stored: string | null): Preset[] {
  if (stored === null) return [];
  let data: unknown;
  try {
    data = JSON.parse(stored);
  } catch {
    return [];
  }
  return Array.isArray(data) ? data.filter(isPreset).slice(0, MAX_PRESETS) : [];
}

function samePreset(a: Preset, b: Preset): boolean {
  return a.text === b.text && a.color === b.color && a.bold === b.bold && a.flash === b.flash;
}

export class MessagePresets {
  readonly #commands: RoomCommands;
  readonly #draft: () => Preset;
  readonly #list = byId('msg-presets', HTMLUListElement);
  #presets: Preset[];

  /** `draft` is the composer's message as set now (text, colour, bold, flash). */
  constructor(commands: RoomCommands, draft: () => Preset) {
    this.#commands = commands;
    this.#draft = draft;
    this.#presets = parsePresets(this.#read());
    byId('preset-save', HTMLButtonElement).addEventListener('click', () => this.#save());
    this.#draw();
  }

  #save(): void {
    const draft = this.#draft();
    const text = draft.text.trim();
    if (text.length === 0) {
      this.#commands.failed('Save preset', 'type the message first, then save it as a preset');
      return;
    }
    // A preset the room would refuse at every click is not kept: the box says by how much it is over.
    if (charCount(text) > MESSAGE_MAX_CHARS) {
      this.#commands.failed('Save preset', `the message is over ${MESSAGE_MAX_CHARS} characters: shorten it first`);
      return;
    }
    const preset: Preset = { text, color: draft.color, bold: draft.bold, flash: draft.flash };
    if (this.#presets.some((p) => samePreset(p, preset))) return;
    if (this.#presets.length >= MAX_PRESETS) {
      this.#commands.failed('Save preset', `at most ${MAX_PRESETS} presets: delete one first`);
      return;
    }
    this.#presets = this.#presets.concat([preset]);
    this.#store();
    this.#draw();
  }

  #remove(index: number): void {
    this.#presets = this.#presets.filter((_, i) => i !== index);
    this.#store();
    this.#draw();
  }

  #show(preset: Preset): void {
    void this.#commands.run(`Show preset "${preset.text}"`, '/message/set', {
      text: preset.text,
      color: preset.color,
      bold: preset.bold,
      flash: preset.flash,
    });
  }

  #draw(): void {
    while (this.#list.firstChild !== null) this.#list.removeChild(this.#list.firstChild);
    this.#presets.forEach((preset, index) => {
      const style = [preset.color === 'white' ? '' : preset.color, preset.bold ? 'bold' : '', preset.flash ? 'flash' : ''].filter((s) => s !== '').join(', ');
      const show = make('button', {
        className: `preset color-${preset.color}${preset.bold ? ' bold' : ''}`,
        attrs: { type: 'button', title: 'Show on every screen now' },
      });
      setText(show, style === '' ? preset.text : `${preset.text} (${style})`);
      show.addEventListener('click', () => this.#show(preset));
      const remove = make('button', { className: 'preset-delete', text: '✕', attrs: { type: 'button', 'aria-label': `Delete preset "${preset.text}"` } });
      remove.addEventListener('click', () => this.#remove(index));
      this.#list.appendChild(make('li', {}, [show, remove]));
    });
  }

  #read(): string | null {
    try {
      return window.localStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  }

  #store(): void {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(this.#presets));
    } catch {
      this.#commands.failed('Save preset', 'this browser refuses to store it: it is kept only until the page is reloaded');
    }
  }
}
