// Import and export of the running order as CSV, through the box's own endpoints
// (GET /timers.csv, POST /timers/import), which curl and scripts use too. An import
// only ever adds to the end (replacing would delete the operator's show on a
// mistaken file). The file is read here first, with the box's own reader, to say
// how many timers it holds before anything is sent; the box checks it again and
// adds all rows as one change, or none, naming the first bad line.
import { MAX_TIMERS } from '../../domain/limits.js';
import { byId, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';
import { parseRunningOrderCsv } from '../../domain/running-order-csv.js';

/** FileReader rather than Blob.text(), which Safari 12 and Chrome 70 (the build's targets) lack. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

export class CsvPanel {
  readonly #commands: RoomCommands;
  readonly #file = byId('csv-file', HTMLInputElement);
  readonly #confirm = byId('csv-import', HTMLButtonElement);
  readonly #status = byId('csv-status', HTMLParagraphElement);
  /** The file read and checked, waiting for the operator's press; its number of rows. */
  #pending: { readonly text: string; readonly rows: number } | null = null;

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    this.#file.addEventListener('change', () => void this.#read());
    this.#confirm.addEventListener('click', () => void this.#import());
    byId('csv-export', HTMLButtonElement).addEventListener('click', () => this.#export());
  }

  async #read(): Promise<void> {
    this.#hold(null);
    const files = this.#file.files;
    const file = files === null ? undefined : files[0];
    if (file === undefined) return;
    const shown = this.#commands.shown;
    if (shown === null) {
      this.#say('Not connected to the box yet: choose the file again in a moment.');
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch (error) {
      this.#say(`Import refused, nothing added: the file could not be read (${String(error)}).`);
      return;
    }
    const parsed = parseRunningOrderCsv(text, shown.tags);
    if (!parsed.ok) {
      this.#say(`Import refused, nothing added: ${parsed.error}.`);
      return;
    }
    const room = MAX_TIMERS - shown.timers.length;
    if (parsed.rows.length > room) {
      this.#say(`Import refused, nothing added: ${parsed.rows.length} timers, but the running order has room for ${room} more (at most ${MAX_TIMERS}).`);
      return;
    }
    this.#hold({ text, rows: parsed.rows.length });
    this.#say(`${parsed.rows.length} timers read. Press “Add ${parsed.rows.length} timers to the end” to import them.`);
  }

  async #import(): Promise<void> {
    const pending = this.#pending;
    this.#hold(null);
    this.#file.value = '';
    if (pending === null) return;
    const imported = await this.#commands.api.importCsv(pending.text);
    // The box adds every row or none: its refusal names the line and field to fix.
    this.#say(imported.ok ? `Imported ${imported.value} timers at the end of the running order.` : `Import refused, nothing added: ${imported.error.replace(/^nothing was imported: /, '')}.`);
  }

  #export(): void {
    const link = document.createElement('a');
    link.href = this.#commands.api.csvUrl;
    link.download = 'running-order.csv';
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  #hold(pending: { readonly text: string; readonly rows: number } | null): void {
    this.#pending = pending;
    const rows = pending === null ? 0 : pending.rows;
    this.#confirm.hidden = rows === 0;
    setText(this.#confirm, `Add ${rows} timers to the end`);
  }

  #say(text: string): void {
    setText(this.#status, text);
  }
}
