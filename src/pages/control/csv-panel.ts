// Import and export of the running order as CSV, through the box's own endpoints
// (GET /timers.csv, POST /timers/import), which curl and scripts use too. An import
// only ever adds to the end (replacing would delete the operator's show on a
// mistaken file). The file is read here first, with the box's own reader, to say
// how many timers it holds before anything is sent; the box checks it again and
// adds all rows as one change, or none, naming the first bad line. A file may also
// give the show's planned start (its first row's plannedStart): the preview says
// so, in the room's time zone, before the operator presses import, since it
// replaces the room's own.
// Page code: no destructuring (esbuild targets old browsers).
import { MAX_TIMERS } from '../../domain/limits.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { byId, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';
import { parseRunningOrderCsv } from '../../domain/running-order-csv.js';
import { instantText } from './time-of-day-text.js';

/** A file read and checked, waiting for the operator's press. */
interface Pending {
  readonly text: string;
  readonly rows: number;
  /** The planned start as the preview showed it, '' when the file gives none. */
  readonly plannedStart: string;
}

/** "09:30" in the room's zone and clock format, with the date when it is not within a day of the box's now. */
function startText(ms: number, shown: Snapshot): string {
  return instantText(ms, shown.serverNow, shown.settings);
}

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
  #pending: Pending | null = null;

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
    const given = parsed.plannedStart;
    const plannedStart = given === undefined ? '' : startText(given, shown);
    const current = shown.settings.plannedStart;
    // Said before the press: the file's planned start replaces the room's.
    const replacing = given === undefined ? '' : current === null ? ' (the room has none yet)' : current === given ? ' (as now)' : ` (now ${startText(current, shown)})`;
    const startNote = plannedStart === '' ? '' : ` The file sets the show's planned start to ${plannedStart}${replacing}.`;
    this.#hold({ text, rows: parsed.rows.length, plannedStart });
    this.#say(`${parsed.rows.length} timers read.${startNote} Press “Add ${parsed.rows.length} timers to the end” to import them.`);
  }

  async #import(): Promise<void> {
    const pending = this.#pending;
    this.#hold(null);
    this.#file.value = '';
    if (pending === null) return;
    const imported = await this.#commands.api.importCsv(pending.text);
    // The box adds every row or none: its refusal names the line and field to fix.
    const startNote = pending.plannedStart === '' ? '' : ` and set the show's planned start to ${pending.plannedStart}`;
    this.#say(
      imported.ok
        ? `Imported ${imported.value} timers at the end of the running order${startNote}.`
        : `Import refused, nothing added: ${imported.error.replace(/^nothing was imported: /, '')}.`,
    );
  }

  #export(): void {
    const link = document.createElement('a');
    link.href = this.#commands.api.csvUrl;
    link.download = 'running-order.csv';
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  #hold(pending: Pending | null): void {
    this.#pending = pending;
    const rows = pending === null ? 0 : pending.rows;
    this.#confirm.hidden = rows === 0;
    setText(this.#confirm, `Add ${rows} timers to the end`);
  }

  #say(text: string): void {
    setText(this.#status, text);
  }
}
