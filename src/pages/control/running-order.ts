// The running order: select, inline edit, add, delete, reorder. Rows are kept
// per timer id and patched from each snapshot, so a field the operator is
// typing in (or whose change is on its way) is never overwritten by an event
// from another console, and a row being edited is never moved under the cursor.
// Each row also shows its planned and actual/projected start (renderSchedule), as
// the clock goes on, and the order its running time.
import type { Schedule } from '../../domain/schedule.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { APPEARANCES, type Appearance, type Timer } from '../../domain/types.js';
import { DURATION_HINT, formatDurationText, parseDurationText } from '../../domain/duration-text.js';
import { instantText, parseInstantText } from './time-of-day-text.js';
import { byId, make, setPressed, setText } from './elements.js';
import { TwoPress } from './two-press.js';
import type { RoomCommands } from './room-commands.js';
import { RowDrag } from './row-drag.js';
import { orderTotalOf, startCellsOf, type StartKind } from './schedule-text.js';

type TextField = 'label' | 'speaker' | 'duration' | 'warnAt' | 'dangerAt' | 'scheduledAt' | 'endsAt';
const TEXT_FIELDS: readonly TextField[] = ['label', 'speaker', 'duration', 'warnAt', 'dangerAt', 'scheduledAt', 'endsAt'];

const APPEARANCE_WORDS: Readonly<Record<Appearance, string>> = { countdown: 'Countdown', countup: 'Count up', clock: 'Clock' };
const FIELD_WORDS: Readonly<Record<TextField | 'appearance' | 'tagId', string>> = {
  label: 'Label',
  speaker: 'Speaker',
  duration: 'Duration',
  warnAt: 'Warn at',
  dangerAt: 'Red at',
  scheduledAt: 'Starts at',
  endsAt: 'Ends at',
  appearance: 'Shows',
  tagId: 'Tag',
};

/** How a start is drawn: projected ones apart (grey, italic, marked) from what happened. */
const START_CLASS: Readonly<Record<StartKind, string>> = { actual: 'start-actual', projected: 'start-projected', none: 'start-none' };
const START_TITLE: Readonly<Record<StartKind, string>> = { actual: 'Actual start', projected: 'Projected start, as things stand now', none: 'Not started' };

interface Row {
  readonly tr: HTMLTableRowElement;
  readonly position: HTMLElement;
  readonly idText: HTMLElement;
  readonly inputs: Readonly<Record<TextField, HTMLInputElement>>;
  readonly appearance: HTMLSelectElement;
  readonly tag: HTMLSelectElement;
  /** The room's tags the tag list was built from (ids, names, colours), to rebuild it only when they change. */
  tagsShown: string;
  readonly select: HTMLButtonElement;
  /** Select and start in one click: one command (`/timer/{id}/start`), never select-then-start. */
  readonly start: HTMLButtonElement;
  readonly up: HTMLButtonElement;
  readonly down: HTMLButtonElement;
  readonly remove: HTMLButtonElement;
  /** Its delete button: two presses. */
  readonly removal: TwoPress;
  /** Its planned start, and its actual or projected start (the cell's class says which). */
  readonly plannedStart: HTMLElement;
  readonly startedAt: HTMLElement;
}

/** A field as the console shows it; times of day in the room's zone and format, from the snapshot. */
function fieldText(timer: Timer, field: TextField, shown: Snapshot | null): string {
  switch (field) {
    case 'label':
      return timer.label;
    case 'speaker':
      return timer.speaker;
    case 'duration':
      return formatDurationText(timer.duration);
    case 'warnAt':
      return formatDurationText(timer.warnAt);
    case 'dangerAt':
      return formatDurationText(timer.dangerAt);
    case 'scheduledAt':
    case 'endsAt':
      return shown === null ? '' : instantText(timer[field], shown.serverNow, shown.settings);
    default: {
      const unknown: never = field;
      throw new Error(`unknown field ${String(unknown)}`);
    }
  }
}

export class RunningOrder {
  readonly #commands: RoomCommands;
  readonly #body = byId('order', HTMLTableSectionElement);
  readonly #total = byId('order-total', HTMLElement);
  readonly #table = byId('order-table', HTMLTableElement);
  /** Starts at / Ends at shown although no timer has one: the operator asked for them, to fill one in. */
  readonly #timesButton = byId('order-times', HTMLButtonElement);
  #timesWanted = false;
  readonly #rows = new Map<string, Row>();
  /** Fields whose change is on its way: a snapshot from before it must not flash the old value back. */
  readonly #pending = new Set<HTMLElement>();
  readonly #refresh: () => void;
  #focusWhenShown: string | null = null;
  readonly #drag = new RowDrag(
    () => (this.#commands.shown === null ? [] : this.#commands.shown.timers.map((t) => t.id)),
    (id, to) => void this.#commands.run(`Move "${this.#name(id)}"`, `/timer/${encodeURIComponent(id)}/move`, { to }),
    // Rows under the sticky transport are out of sight: a drag scrolls before it gets there.
    // On a phone only its band is pinned (and the transport itself has no box).
    () => {
      let bottom = 0;
      for (const id of ['transport', 'transport-band']) {
        const node = document.getElementById(id);
        if (node !== null && getComputedStyle(node).position === 'sticky') bottom = Math.max(bottom, node.getBoundingClientRect().bottom);
      }
      return bottom;
    },
  );

  constructor(commands: RoomCommands, refresh: () => void) {
    this.#commands = commands;
    this.#refresh = refresh;
    byId('add-timer', HTMLButtonElement).addEventListener('click', () => void this.#add());
    this.#timesButton.addEventListener('click', () => {
      this.#timesWanted = !this.#timesWanted;
      if (this.#commands.shown !== null) this.#showTimes(this.#commands.shown);
    });
  }

  /**
   * The Starts at and Ends at columns: two empty columns at every desk size took the room
   * the labels need, so they show only when a timer has one or the operator asks for them.
   */
  #showTimes(snapshot: Snapshot): void {
    const used = snapshot.timers.some((t) => t.scheduledAt !== null || t.endsAt !== null);
    // Once shown they stay: a column must not vanish under the operator who just emptied its last field.
    if (used) this.#timesWanted = true;
    const shown = this.#timesWanted;
    setPressed(this.#timesButton, shown);
    this.#timesButton.disabled = used;
    if (this.#table.classList.contains('no-times') === shown) this.#table.classList.toggle('no-times', !shown);
  }

  render(snapshot: Snapshot): void {
    this.#showTimes(snapshot);
    const seen = new Set<string>();
    const ordered: Row[] = [];
    snapshot.timers.forEach((timer, index) => {
      seen.add(timer.id);
      const row = this.#rows.get(timer.id) ?? this.#createRow(timer.id);
      this.#patchRow(row, timer, index, snapshot);
      ordered.push(row);
    });
    this.#rows.forEach((row, id) => {
      if (seen.has(id)) return;
      row.removal.reset();
      if (row.tr.parentNode !== null) row.tr.parentNode.removeChild(row.tr);
      this.#rows.delete(id);
    });
    this.#place(ordered);
    if (this.#focusWhenShown !== null) {
      const fresh = this.#rows.get(this.#focusWhenShown);
      if (fresh !== undefined) {
        this.#focusWhenShown = null;
        fresh.inputs.label.focus();
        fresh.inputs.label.select();
      }
    }
  }

  /** Puts rows in order without moving the one holding the focus (moving it would end the edit). */
  #place(ordered: readonly Row[]): void {
    const focused = document.activeElement;
    const found = ordered.findIndex((row) => focused !== null && row.tr.contains(focused));
    const anchorIndex = found < 0 ? 0 : found;
    const anchor = ordered[anchorIndex];
    if (anchor === undefined) return;
    if (anchor.tr.parentNode !== this.#body) this.#body.appendChild(anchor.tr);
    // Each row goes right before its successor (walking up from the anchor) or right
    // after its predecessor (walking down); rows already in place are not touched.
    for (let i = anchorIndex - 1; i >= 0; i -= 1) {
      const tr = (ordered[i] as Row).tr;
      const successor = (ordered[i + 1] as Row).tr;
      if (tr.nextSibling !== successor) this.#body.insertBefore(tr, successor);
    }
    for (let i = anchorIndex + 1; i < ordered.length; i += 1) {
      const tr = (ordered[i] as Row).tr;
      const predecessor = (ordered[i - 1] as Row).tr;
      if (predecessor.nextSibling !== tr) this.#body.insertBefore(tr, predecessor.nextSibling);
    }
  }

  #createRow(id: string): Row {
    const input = (field: TextField, maxLength: number) => {
      const node = make('input', { className: `f-${field}`, attrs: { type: 'text', spellcheck: 'false', autocomplete: 'off' } });
      if (maxLength > 0) node.maxLength = maxLength;
      return node;
    };
    const inputs: Record<TextField, HTMLInputElement> = {
      label: input('label', 200),
      speaker: input('speaker', 200),
      duration: input('duration', 0),
      warnAt: input('warnAt', 0),
      dangerAt: input('dangerAt', 0),
      scheduledAt: input('scheduledAt', 0),
      endsAt: input('endsAt', 0),
    };
    const appearance = make('select', { className: 'f-appearance' });
    for (const value of APPEARANCES) appearance.appendChild(make('option', { text: APPEARANCE_WORDS[value], attrs: { value } }));
    const tag = make('select', { className: 'f-tag' });
    const position = make('span', { className: 'pos' });
    const idText = make('span', { className: 'tid' });
    const select = make('button', { className: 'select', text: 'Select', attrs: { type: 'button' } });
    const start = make('button', { className: 'start', text: '▶', attrs: { type: 'button', title: 'Select and start' } });
    const up = make('button', { className: 'up', text: '↑', attrs: { type: 'button', title: 'Move up' } });
    const down = make('button', { className: 'down', text: '↓', attrs: { type: 'button', title: 'Move down' } });
    const remove = make('button', { className: 'delete', text: '✕', attrs: { type: 'button', title: 'Delete (press twice)' } });
    const handle = make('td', { className: 'c-pos' }, [position, idText]);
    const plannedStart = make('span', { className: 'planned-start' });
    // Its class (and title) come with the first schedule drawn.
    const startedAt = make('span');
    const tr = make('tr', { attrs: { 'data-id': id } }, [
      handle,
      make('td', {}, [inputs.label]),
      make('td', {}, [inputs.speaker]),
      make('td', {}, [inputs.duration]),
      make('td', {}, [inputs.warnAt]),
      make('td', {}, [inputs.dangerAt]),
      make('td', {}, [inputs.scheduledAt]),
      make('td', {}, [inputs.endsAt]),
      make('td', { className: 'c-planned' }, [plannedStart]),
      make('td', { className: 'c-start' }, [startedAt]),
      make('td', {}, [appearance]),
      make('td', {}, [tag]),
      make('td', { className: 'c-actions' }, [start, select, up, down, remove]),
    ]);
    const row: Row = { tr, position, idText, inputs, appearance, tag, tagsShown: '', select, start, up, down, remove, removal: new TwoPress(remove, { ask: 'Delete?', idle: '✕' }), plannedStart, startedAt };
    setText(idText, id);

    for (const field of TEXT_FIELDS) {
      const node = inputs[field];
      node.addEventListener('change', () => void this.#commitText(id, field, node));
      node.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') node.blur();
        if (event.key === 'Escape') {
          const timer = this.#timer(id);
          if (timer !== undefined) node.value = fieldText(timer, field, this.#commands.shown);
          node.blur();
        }
      });
      // Snapshots skip a focused field; once left without a change (which fires
      // before blur), it shows the room's value again at once.
      node.addEventListener('blur', () => {
        const timer = this.#timer(id);
        if (timer !== undefined && !this.#pending.has(node)) node.value = fieldText(timer, field, this.#commands.shown);
      });
    }
    appearance.addEventListener('change', () => void this.#commit(id, 'appearance', appearance, { appearance: appearance.value }));
    // The empty option is "no tag": an empty tagId clears it.
    tag.addEventListener('change', () => void this.#commit(id, 'tagId', tag, { tagId: tag.value }));
    select.addEventListener('click', () => void this.#commands.run(`Select "${this.#name(id)}"`, `/timer/${encodeURIComponent(id)}/select`));
    start.addEventListener('click', () => void this.#commands.run(`Start "${this.#name(id)}"`, `/timer/${encodeURIComponent(id)}/start`));
    up.addEventListener('click', () => this.#move(id, -1));
    down.addEventListener('click', () => this.#move(id, 1));
    remove.addEventListener('click', () => this.#delete(row, id));
    this.#drag.attach(tr, handle, id);
    this.#rows.set(id, row);
    return row;
  }

  #patchRow(row: Row, timer: Timer, index: number, snapshot: Snapshot): void {
    const active = timer.id === snapshot.activeTimerId;
    const className = active ? 'active' : '';
    if (row.tr.className !== className) row.tr.className = className;
    setText(row.position, active ? `▶ ${index + 1}` : String(index + 1));
    for (const field of TEXT_FIELDS) {
      const node = row.inputs[field];
      node.setAttribute('aria-label', `${FIELD_WORDS[field]} of timer ${index + 1}`);
      if (document.activeElement === node || this.#pending.has(node)) continue;
      const text = fieldText(timer, field, snapshot);
      if (node.value !== text) node.value = text;
    }
    row.appearance.setAttribute('aria-label', `${FIELD_WORDS.appearance} (timer ${index + 1})`);
    if (!this.#pending.has(row.appearance) && row.appearance.value !== timer.appearance) row.appearance.value = timer.appearance;
    this.#patchTag(row, timer, index, snapshot);
    row.select.setAttribute('aria-label', `Select timer ${index + 1}`);
    row.start.setAttribute('aria-label', `Select and start timer ${index + 1}`);
    row.remove.setAttribute('aria-label', `Delete timer ${index + 1}`);
    // Already running: nothing to start (the box would leave it running anyway).
    row.start.disabled = active && snapshot.running;
    row.up.disabled = index === 0;
    row.down.disabled = index === snapshot.timers.length - 1;
    row.remove.disabled = snapshot.timers.length === 1;
  }

  /**
   * The planned and actual/projected starts of every row, and the order's running
   * time: at each snapshot and as the clock goes on (`schedule` is at the server's time).
   */
  renderSchedule(schedule: Schedule, snapshot: Snapshot): void {
    for (const timed of schedule.timers) {
      const row = this.#rows.get(timed.id);
      if (row === undefined) continue;
      const cells = startCellsOf(timed, snapshot.settings);
      setText(row.plannedStart, cells.planned);
      setText(row.startedAt, cells.start);
      const className = START_CLASS[cells.kind];
      if (row.startedAt.className !== className) {
        row.startedAt.className = className;
        row.startedAt.setAttribute('title', START_TITLE[cells.kind]);
      }
    }
    setText(this.#total, orderTotalOf(schedule, snapshot.settings));
  }

  /** The tag list (rebuilt only when the room's tags change) and this timer's tag, its colour as the select's edge. */
  #patchTag(row: Row, timer: Timer, index: number, snapshot: Snapshot): void {
    const tags = snapshot.tags;
    const signature = tags.map((t) => `${t.id} ${t.colour} ${t.name}`).join('\n');
    if (row.tagsShown !== signature) {
      row.tagsShown = signature;
      while (row.tag.firstChild !== null) row.tag.removeChild(row.tag.firstChild);
      row.tag.appendChild(make('option', { text: '—', attrs: { value: '' } }));
      for (const t of tags) row.tag.appendChild(make('option', { text: t.name, attrs: { value: t.id } }));
    }
    row.tag.setAttribute('aria-label', `${FIELD_WORDS.tagId} of timer ${index + 1}`);
    row.tag.disabled = tags.length === 0;
    if (this.#pending.has(row.tag)) return;
    const value = timer.tagId ?? '';
    if (row.tag.value !== value) row.tag.value = value;
    const colour = tags.find((t) => t.id === timer.tagId)?.colour ?? '';
    if (row.tag.getAttribute('data-colour') !== colour) {
      row.tag.setAttribute('data-colour', colour);
      row.tag.style.borderLeft = colour === '' ? '' : `6px solid ${colour}`;
    }
  }

  #timer(id: string): Timer | undefined {
    return this.#commands.shown?.timers.find((t) => t.id === id);
  }

  #name(id: string): string {
    const timer = this.#timer(id);
    return timer === undefined || timer.label === '' ? id : timer.label;
  }

  async #commitText(id: string, field: TextField, node: HTMLInputElement): Promise<void> {
    const timer = this.#timer(id);
    if (timer === undefined) return;
    const shown = this.#commands.shown;
    if (node.value === fieldText(timer, field, shown)) return;
    if (field === 'scheduledAt' || field === 'endsAt') {
      if (shown === null) return;
      const at = parseInstantText(node.value, shown.serverNow, shown.settings.timeZone);
      if (at === undefined) {
        this.#commands.failed(`${FIELD_WORDS[field]} of "${this.#name(id)}"`, `"${node.value}" is not a time of day: write 19:30, 7:30 pm or 2026-11-24 09:00, or nothing for none`);
        node.value = fieldText(timer, field, shown);
        return;
      }
      await this.#commit(id, field, node, { [field]: at });
    } else if (field === 'duration' || field === 'warnAt' || field === 'dangerAt') {
      const ms = parseDurationText(node.value);
      if (ms === null) {
        this.#commands.failed(`${FIELD_WORDS[field]} of "${this.#name(id)}"`, `"${node.value}" is not a duration: ${DURATION_HINT}`);
        node.value = fieldText(timer, field, shown);
        return;
      }
      await this.#commit(id, field, node, { [field]: ms });
    } else {
      await this.#commit(id, field, node, { [field]: node.value });
    }
  }

  async #commit(id: string, field: TextField | 'appearance' | 'tagId', node: HTMLInputElement | HTMLSelectElement, body: Record<string, string | number | null>): Promise<void> {
    this.#pending.add(node);
    await this.#commands.run(`${FIELD_WORDS[field]} of "${this.#name(id)}"`, `/timer/${encodeURIComponent(id)}/update`, body);
    this.#pending.delete(node);
    // Whether it was taken or refused, show the room's value now (unless the operator is back in the field).
    const shown = this.#commands.shown;
    const row = this.#rows.get(id);
    const timer = this.#timer(id);
    if (shown !== null && row !== undefined && timer !== undefined) this.#patchRow(row, timer, shown.timers.indexOf(timer), shown);
  }

  #move(id: string, by: -1 | 1): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    const index = shown.timers.findIndex((t) => t.id === id);
    if (index < 0) return;
    void this.#commands.run(`Move "${this.#name(id)}"`, `/timer/${encodeURIComponent(id)}/move`, { to: index + by });
  }

  #delete(row: Row, id: string): void {
    // Two presses: a stray click must not take a speaker's timer out mid-show.
    if (row.removal.press()) void this.#commands.run(`Delete "${this.#name(id)}"`, `/timer/${encodeURIComponent(id)}/delete`);
  }

  async #add(): Promise<void> {
    const created = await this.#commands.api.createTimer();
    if (!created.ok) {
      this.#commands.failed('Add timer', created.error);
      return;
    }
    this.#focusWhenShown = created.value.id;
    // The answer holds the timer, not the state: the push channel brings the row
    // (often before this answer, hence the render), or a read when it is down.
    const shown = this.#commands.shown;
    if (shown !== null) this.render(shown);
    if (this.#focusWhenShown !== null) this.#refresh();
  }
}
