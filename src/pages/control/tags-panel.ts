// The room's tags in the console: add one (name and colour), rename or recolour it
// in place, delete it (two presses: its timers lose it). Rows are kept per tag id
// and patched from each snapshot; a field being typed in is never overwritten.
import type { Snapshot } from '../../domain/snapshot.js';
import type { Tag } from '../../domain/types.js';
import { byId, make, setText } from './elements.js';
import { TwoPress } from './two-press.js';
import type { RoomCommands } from './room-commands.js';


interface TagRow {
  readonly li: HTMLLIElement;
  readonly name: HTMLInputElement;
  readonly colour: HTMLInputElement;
  readonly remove: HTMLButtonElement;
  /** Its delete button: two presses. */
  readonly removal: TwoPress;
}

export class TagsPanel {
  readonly #commands: RoomCommands;
  readonly #list = byId('tag-list', HTMLUListElement);
  readonly #newName = byId('tag-name', HTMLInputElement);
  readonly #newColour = byId('tag-colour', HTMLInputElement);
  readonly #rows = new Map<string, TagRow>();

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    byId('tag-add', HTMLButtonElement).addEventListener('click', () => void this.#add());
    this.#newName.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') void this.#add();
    });
  }

  render(snapshot: Snapshot): void {
    const seen = new Set<string>();
    snapshot.tags.forEach((tag) => {
      seen.add(tag.id);
      const row = this.#rows.get(tag.id) ?? this.#createRow(tag.id);
      this.#patch(row, tag);
      // Appended in the room's order; a row already last stays put.
      if (this.#list.lastChild !== row.li) this.#list.appendChild(row.li);
    });
    this.#rows.forEach((row, id) => {
      if (seen.has(id)) return;
      row.removal.reset();
      if (row.li.parentNode !== null) row.li.parentNode.removeChild(row.li);
      this.#rows.delete(id);
    });
  }

  #createRow(id: string): TagRow {
    const name = make('input', { className: 't-name', attrs: { type: 'text', maxlength: '40', spellcheck: 'false', autocomplete: 'off' } });
    const colour = make('input', { className: 't-colour', attrs: { type: 'color' } });
    const remove = make('button', { className: 'delete', text: '✕', attrs: { type: 'button', title: 'Delete the tag (press twice)' } });
    const li = make('li', { attrs: { 'data-tag': id } }, [colour, name, remove]);
    const row: TagRow = { li, name, colour, remove, removal: new TwoPress(remove, { ask: 'Delete?', idle: '✕' }) };
    name.addEventListener('change', () => void this.#update(id, { name: name.value }));
    name.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') name.blur();
    });
    colour.addEventListener('change', () => void this.#update(id, { colour: colour.value }));
    remove.addEventListener('click', () => this.#delete(row, id));
    this.#rows.set(id, row);
    return row;
  }

  #patch(row: TagRow, tag: Tag): void {
    row.name.setAttribute('aria-label', `Name of tag ${tag.name}`);
    row.colour.setAttribute('aria-label', `Colour of tag ${tag.name}`);
    row.remove.setAttribute('aria-label', `Delete tag ${tag.name}`);
    if (document.activeElement !== row.name && row.name.value !== tag.name) row.name.value = tag.name;
    if (document.activeElement !== row.colour && row.colour.value !== tag.colour) row.colour.value = tag.colour;
  }

  #tagName(id: string): string {
    return this.#commands.shown?.tags.find((t) => t.id === id)?.name ?? id;
  }

  async #update(id: string, change: { name: string } | { colour: string }): Promise<void> {
    await this.#commands.run(`Tag "${this.#tagName(id)}"`, '/tag/update', { tagId: id, ...change });
    const shown = this.#commands.shown;
    const tag = shown?.tags.find((t) => t.id === id);
    const row = this.#rows.get(id);
    // Taken or refused, the room's value shows again.
    if (tag !== undefined && row !== undefined) this.#patch(row, tag);
  }

  async #add(): Promise<void> {
    const name = this.#newName.value;
    if (await this.#commands.run('Add tag', '/tags', { name, colour: this.#newColour.value })) this.#newName.value = '';
  }

  #delete(row: TagRow, id: string): void {
    if (row.removal.press()) void this.#commands.run(`Delete tag "${this.#tagName(id)}"`, '/tag/delete', { tagId: id });
  }
}
