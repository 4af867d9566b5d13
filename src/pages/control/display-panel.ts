// The Display panel: how every screen looks (layout, background, the time's
// colours and size, which elements show) and the logo, edited through the same
// v1 `/display` operation and logo routes a script would use. Shown from each
// snapshot, so a change from another console or a button panel appears here at
// once; a colour or size the operator is choosing right now (focused, or its
// change on its way) is left alone until they are done. The live preview beside
// it shows the result, as every screen does.
import type { DISPLAY_FIELD_NAMES } from '../../domain/display-settings.js';
import { DISPLAY_DEFAULTS } from '../../domain/room.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { DISPLAY_LAYOUTS, type DisplayLayout, type DisplaySettings } from '../../domain/types.js';
import { byId, make, setPressed, setText } from './elements.js';
import { TwoPress } from './two-press.js';
import type { RoomCommands } from './room-commands.js';

export type ColourField = 'background' | 'normalColour' | 'warningColour' | 'overrunColour';
/** Every element switch of the display settings (a `show*` field), taken from the room's own list. */
export type ShowField = Extract<(typeof DISPLAY_FIELD_NAMES)[number], `show${string}`>;

export const LAYOUT_WORDS: Readonly<Record<DisplayLayout, string>> = { full: 'full', minimal: 'time only', lowerThird: 'lower third' };

const COLOUR_WORDS: Readonly<Record<ColourField, string>> = {
  background: 'Background',
  normalColour: 'Colour of the time',
  warningColour: 'Warning colour',
  overrunColour: 'Red / overrun colour',
};

/**
 * A switch for each element, in this order. A Record over ShowField: a switch the room
 * gains is a compile error here until it is named, so the panel never misses one.
 */
export const SHOW_LABELS: Readonly<Record<ShowField, string>> = {
  showTitle: 'Title',
  showSpeaker: 'Speaker',
  showTag: 'Tag',
  showProgress: 'Progress bar',
  showMessage: 'Message',
  showTimeOfDay: 'Time of day',
  showNext: 'Next timer',
  showLogo: 'Logo',
  showQuestion: 'Audience question',
  showAskLink: 'Audience link',
  showOverUnder: 'Over/under',
  showShowEnd: 'Show ends at',
  showAux: 'Aux timer',
};

const SHOW_FIELDS = Object.keys(SHOW_LABELS) as ShowField[];

const COLOUR_INPUTS: Readonly<Record<ColourField, string>> = {
  background: 'display-background',
  normalColour: 'display-normal',
  warningColour: 'display-warning',
  overrunColour: 'display-overrun',
};

/** What an error about a change names: "Show the time of day: …", "Layout lower third: …". */
export function changeWords(change: DisplayChange): string {
  switch (change.field) {
    case 'layout':
      return `Layout ${LAYOUT_WORDS[change.value]}`;
    case 'colour':
      return `${COLOUR_WORDS[change.name]} ${change.value}`;
    case 'timeSize':
      return `Time size ${change.value}%`;
    case 'show':
      return `${change.value ? 'Show' : 'Hide'} the ${SHOW_LABELS[change.name].toLowerCase()}`;
    case 'defaultColours':
      return 'Default colours';
    default: {
      const unknown: never = change;
      throw new Error(`unknown display change ${JSON.stringify(unknown)}`);
    }
  }
}

/** One change the panel sends; each is one `/display` request, so one change of the room. */
export type DisplayChange =
  | { readonly field: 'layout'; readonly value: DisplayLayout }
  | { readonly field: 'colour'; readonly name: ColourField; readonly value: string }
  | { readonly field: 'timeSize'; readonly value: number }
  | { readonly field: 'show'; readonly name: ShowField; readonly value: boolean }
  | { readonly field: 'defaultColours' };

/** The `/display` body of a change: only the fields it changes (the room keeps the others). */
export function changeBody(change: DisplayChange): Record<string, string | number | boolean> {
  switch (change.field) {
    case 'layout':
      return { layout: change.value };
    case 'colour':
      return { [change.name]: change.value };
    case 'timeSize':
      return { timeSize: change.value };
    case 'show':
      return { [change.name]: change.value };
    case 'defaultColours':
      return {
        background: DISPLAY_DEFAULTS.background,
        normalColour: DISPLAY_DEFAULTS.normalColour,
        warningColour: DISPLAY_DEFAULTS.warningColour,
        overrunColour: DISPLAY_DEFAULTS.overrunColour,
      };
    default: {
      const unknown: never = change;
      throw new Error(`unknown display change ${JSON.stringify(unknown)}`);
    }
  }
}

function isLayout(value: string | null): value is DisplayLayout {
  return DISPLAY_LAYOUTS.some((layout) => layout === value);
}

export class DisplayPanel {
  readonly #commands: RoomCommands;
  readonly #layoutButtons = new Map<DisplayLayout, HTMLButtonElement>();
  readonly #showButtons = new Map<ShowField, HTMLButtonElement>();
  readonly #colours = new Map<ColourField, HTMLInputElement>();
  readonly #size = byId('display-size', HTMLInputElement);
  readonly #sizeText = byId('display-size-value', HTMLOutputElement);
  readonly #logo = byId('display-logo', HTMLImageElement);
  readonly #noLogo = byId('display-logo-none', HTMLSpanElement);
  readonly #file = byId('display-logo-file', HTMLInputElement);
  readonly #remove = byId('display-logo-remove', HTMLButtonElement);
  readonly #fileLabel = byId('display-logo-file-label', HTMLLabelElement);
  /** Inputs whose change is on its way: a snapshot from before it must not flash the old value back. */
  readonly #pending = new Set<HTMLInputElement>();
  readonly #removal = new TwoPress(this.#remove, { ask: 'Remove? Press again', idle: 'Remove logo' });

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    const panel = byId('display-panel', HTMLElement);
    const buttons = panel.querySelectorAll<HTMLButtonElement>('button[data-layout], button[data-background]');
    for (let i = 0; i < buttons.length; i += 1) {
      const button = buttons[i] as HTMLButtonElement;
      const layout = button.getAttribute('data-layout');
      const background = button.getAttribute('data-background');
      if (isLayout(layout)) {
        this.#layoutButtons.set(layout, button);
        button.addEventListener('click', () => void this.#send({ field: 'layout', value: layout }));
      } else if (background !== null) {
        button.addEventListener('click', () => void this.#send({ field: 'colour', name: 'background', value: background }));
      }
    }
    // The element switches are made here, from the room's list of them, so none is left out.
    const showRow = byId('display-show', HTMLDivElement);
    for (const field of SHOW_FIELDS) {
      const button = make('button', { text: SHOW_LABELS[field], attrs: { type: 'button', 'data-show': field, 'aria-pressed': 'false' } });
      this.#showButtons.set(field, button);
      // The value asked for, from what is shown: two consoles pressing at once both get what they see.
      button.addEventListener('click', () => {
        const shown = this.#commands.shown;
        if (shown !== null) void this.#send({ field: 'show', name: field, value: !shown.display[field] });
      });
      showRow.appendChild(document.createTextNode(' '));
      showRow.appendChild(button);
    }
    for (const name of Object.keys(COLOUR_INPUTS) as ColourField[]) {
      const input = byId(COLOUR_INPUTS[name], HTMLInputElement);
      input.setAttribute('aria-label', COLOUR_WORDS[name]);
      this.#colours.set(name, input);
      // `change`, not `input`: one request when the choice is made, not one per step of the picker.
      input.addEventListener('change', () => void this.#send({ field: 'colour', name, value: input.value }, input));
      input.addEventListener('blur', () => this.#showRoomValue(input));
    }
    byId('display-default-colours', HTMLButtonElement).addEventListener('click', () => void this.#send({ field: 'defaultColours' }));
    this.#size.addEventListener('input', () => setText(this.#sizeText, `${this.#size.value}%`));
    this.#size.addEventListener('change', () => void this.#send({ field: 'timeSize', value: Number(this.#size.value) }, this.#size));
    this.#size.addEventListener('blur', () => this.#showRoomValue(this.#size));
    this.#file.addEventListener('change', () => void this.#upload());
    this.#remove.addEventListener('click', () => this.#removeLogo());
  }

  render(snapshot: Snapshot): void {
    const display = snapshot.display;
    this.#layoutButtons.forEach((button, layout) => setPressed(button, display.layout === layout));
    this.#showButtons.forEach((button, field) => setPressed(button, display[field]));
    this.#colours.forEach((input, name) => this.#patch(input, display[name]));
    this.#patch(this.#size, String(display.timeSize));
    if (!this.#isEditing(this.#size)) setText(this.#sizeText, `${display.timeSize}%`);
    this.#renderLogo(display);
  }

  /** Writes the room's value unless the operator is choosing one right now. */
  #patch(input: HTMLInputElement, value: string): void {
    if (!this.#isEditing(input) && input.value !== value) input.value = value;
  }

  #isEditing(input: HTMLInputElement): boolean {
    return document.activeElement === input || this.#pending.has(input);
  }

  /** Once left (or once its change is answered, taken or refused), a field shows the room's value again. */
  #showRoomValue(input: HTMLInputElement): void {
    const shown = this.#commands.shown;
    if (shown === null || this.#pending.has(input)) return;
    input.value = this.#roomValue(input, shown.display);
    if (input === this.#size) setText(this.#sizeText, `${shown.display.timeSize}%`);
  }

  #roomValue(input: HTMLInputElement, display: DisplaySettings): string {
    if (input === this.#size) return String(display.timeSize);
    let value = input.value;
    this.#colours.forEach((node, name) => {
      if (node === input) value = display[name];
    });
    return value;
  }

  async #send(change: DisplayChange, input: HTMLInputElement | null = null): Promise<void> {
    if (input !== null) this.#pending.add(input);
    await this.#commands.run(changeWords(change), '/display', changeBody(change));
    if (input === null) return;
    this.#pending.delete(input);
    // Taken or refused, the room's value shows at once, though the field may still have the focus.
    const shown = this.#commands.shown;
    if (shown === null) return;
    input.value = this.#roomValue(input, shown.display);
    if (input === this.#size) setText(this.#sizeText, `${shown.display.timeSize}%`);
  }

  #renderLogo(display: DisplaySettings): void {
    const url = display.logo === null ? null : `/logo/${encodeURIComponent(display.logo)}`;
    if (url !== null && this.#logo.getAttribute('src') !== url) this.#logo.setAttribute('src', url);
    this.#logo.hidden = url === null;
    this.#noLogo.hidden = url !== null;
    this.#remove.disabled = url === null;
    setText(this.#fileLabel, url === null ? 'Upload a logo' : 'Replace the logo');
  }

  async #upload(): Promise<void> {
    const file = this.#file.files === null ? undefined : this.#file.files[0];
    if (file === undefined) return;
    this.#file.disabled = true;
    try {
      await this.#commands.send(`Logo "${file.name}"`, () => this.#commands.api.uploadLogo(file));
    } finally {
      this.#file.disabled = false;
      // Empty again: the same file can be chosen again after fixing it, and no stale name shows.
      this.#file.value = '';
    }
  }

  #removeLogo(): void {
    // Two presses: a stray tap must not take the venue's logo off every screen mid-show.
    if (this.#removal.press()) void this.#commands.run('Remove the logo', '/display/logo/delete');
  }
}
