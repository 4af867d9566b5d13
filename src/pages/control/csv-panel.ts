// Import and export of the running order as CSV. An import only ever adds to the
// end (replacing would delete the operator's show on a mistaken file); the whole
// file is checked, and counted against the 100-timer limit, before the first
// timer is created, so a refused file creates nothing.
import type { Snapshot } from '../../domain/snapshot.js';
import { MAX_TIMERS } from '../../domain/limits.js';
import { byId, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';
import { formatRunningOrderCsv, parseRunningOrderCsv, type CsvTimer } from './running-order-csv.js';

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
  #pending: readonly CsvTimer[] = [];

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    this.#file.addEventListener('change', () => void this.#read());
    this.#confirm.addEventListener('click', () => void this.#import());
    byId('csv-export', HTMLButtonElement).addEventListener('click', () => this.#export());
  }

  async #read(): Promise<void> {
    this.#hold([]);
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
    this.#hold(parsed.rows);
    this.#say(`${parsed.rows.length} timers read. Press “Add ${parsed.rows.length} timers to the end” to import them.`);
  }

  async #import(): Promise<void> {
    const rows = this.#pending;
    this.#hold([]);
    this.#file.value = '';
    let added = 0;
    for (const row of rows) {
      const body: Record<string, string | number | null> = {
        label: row.label,
        speaker: row.speaker,
        duration: row.duration,
        appearance: row.appearance,
        tagId: row.tagId,
        scheduledAt: row.scheduledAt,
      };
      if (row.warnAt !== null) body.warnAt = row.warnAt;
      const created = await this.#commands.api.createTimer(body);
      if (!created.ok) {
        // Said exactly, so the operator knows which rows to fix and import again.
        this.#say(`Import stopped at data row ${added + 1}: ${created.error}. Rows 1 to ${added} were added; none after.`);
        return;
      }
      added += 1;
    }
    this.#say(`Imported ${added} timers at the end of the running order.`);
  }

  #export(): void {
    const shown: Snapshot | null = this.#commands.shown;
    if (shown === null) return;
    const link = document.createElement('a');
    link.href = 'data:text/csv;charset=utf-8,' + encodeURIComponent(formatRunningOrderCsv(shown.timers, shown.tags));
    link.download = 'running-order.csv';
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  #hold(rows: readonly CsvTimer[]): void {
    this.#pending = rows;
    this.#confirm.hidden = rows.length === 0;
    setText(this.#confirm, `Add ${rows.length} timers to the end`);
  }

  #say(text: string): void {
    setText(this.#status, text);
  }
}
