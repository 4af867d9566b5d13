// The Questions panel: the audience's questions as the pushed snapshots bring them
// (`questions`, for the API key only), with the count of new ones in the heading
// and in a badge in the header, a filter by state, and per question the
// moderation buttons (approve, hide, show on the screens with or without the
// name, take off, answered, delete), each one v1 request through the console's
// command path, its error shown under its own row of buttons. Rows are kept per
// question id and patched, so a "with name" choice or a pending "Delete?" survives the next
// snapshot. Whatever the audience typed is set as text, never as markup.
import type { Snapshot } from '../../domain/snapshot.js';
import type { Question, QuestionState } from '../../domain/types.js';
import { byId, make, setPressed, setText } from './elements.js';
import { TwoPress } from './two-press.js';
import {
  ACTION_WORDS,
  filterCount,
  filterWords,
  listedQuestions,
  newQuestionsText,
  QUESTION_ACTIONS,
  QUESTION_FILTERS,
  questionActions,
  questionCounts,
  questionRequest,
  receivedText,
  STATE_WORDS,
  type QuestionAction,
  type QuestionFilter,
} from './question-list.js';
import type { RoomCommands } from './room-commands.js';

/** A received time is worked out again at most this often (it gains its date after a day). */
const TIME_TEXT_KEPT_MS = 3_600_000;

interface QuestionRow {
  readonly li: HTMLLIElement;
  readonly text: HTMLParagraphElement;
  readonly state: HTMLSpanElement;
  readonly name: HTMLSpanElement;
  readonly time: HTMLSpanElement;
  readonly buttons: ReadonlyMap<QuestionAction, HTMLButtonElement>;
  /**
   * The moderator's choice for "Show on screen": a switch (aria-pressed), not a checkbox,
   * since Space is the console's start/pause everywhere and Enter does not tick a box.
   */
  readonly withName: HTMLButtonElement;
  /** What the received time was worked out for (zone, format, hour of the server's now). */
  timeKey: string;
  /** Its delete button: two presses, made with the row's buttons. */
  removal: TwoPress | null;
}

export class QuestionsPanel {
  readonly #commands: RoomCommands;
  readonly #list = byId('question-list', HTMLUListElement);
  readonly #empty = byId('questions-empty', HTMLParagraphElement);
  readonly #newCount = byId('questions-new', HTMLSpanElement);
  readonly #badge = byId('questions-badge', HTMLAnchorElement);
  readonly #current = byId('questions-current', HTMLSpanElement);
  readonly #unshow = byId('questions-unshow', HTMLButtonElement);
  readonly #screensOff = byId('questions-screens-off', HTMLSpanElement);
  readonly #clear = byId('questions-clear', HTMLButtonElement);
  readonly #filterButtons = new Map<QuestionFilter, HTMLButtonElement>();
  readonly #rows = new Map<string, QuestionRow>();
  #filter: QuestionFilter = 'all';
  readonly #clearing = new TwoPress(this.#clear, { ask: () => (this.#answered === 1 ? 'Delete 1 answered?' : `Delete ${this.#answered} answered?`), idle: 'Clear answered' });
  #answered = 0;

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    // The filter buttons are made here, from the room's list of states, so none is left out.
    const filters = byId('questions-filters', HTMLDivElement);
    for (const filter of QUESTION_FILTERS) {
      const button = make('button', { text: filterWords(filter), attrs: { type: 'button', 'data-q-filter': filter, 'aria-pressed': filter === this.#filter ? 'true' : 'false' } });
      button.addEventListener('click', () => {
        this.#filter = filter;
        this.#filterButtons.forEach((b, f) => setPressed(b, f === filter));
        const shown = this.#commands.shown;
        if (shown !== null) this.render(shown);
      });
      this.#filterButtons.set(filter, button);
      filters.appendChild(document.createTextNode(' '));
      filters.appendChild(button);
    }
    this.#unshow.addEventListener('click', () => void this.#run('unshow', ''));
    this.#clear.addEventListener('click', () => this.#clearAnswered());
  }

  render(snapshot: Snapshot): void {
    // A box from before questions sends none: the panel stays empty.
    const questions = snapshot.questions ?? [];
    const counts = questionCounts(questions);
    const newText = newQuestionsText(counts.new);
    setText(this.#newCount, counts.new > 0 ? `${counts.new} new` : '');
    this.#newCount.hidden = counts.new === 0;
    setText(this.#badge, newText);
    this.#badge.hidden = counts.new === 0;
    this.#filterButtons.forEach((button, filter) => setText(button, `${filterWords(filter)} (${filterCount(filter, counts, questions.length)})`));
    this.#renderCurrent(snapshot);
    this.#answered = counts.answered;
    if (!this.#clearing.asking) setText(this.#clear, 'Clear answered');
    this.#clear.disabled = counts.answered === 0;

    const listed = listedQuestions(questions, this.#filter);
    const keep = new Set<string>();
    for (let i = 0; i < questions.length; i += 1) keep.add((questions[i] as Question).id);
    // In the list's order, moving only the rows that are out of place.
    let cursor: ChildNode | null = this.#list.firstChild;
    for (const question of listed) {
      const row = this.#rows.get(question.id) ?? this.#createRow(question.id);
      this.#patch(row, question, snapshot);
      if (row.li === cursor) cursor = cursor.nextSibling;
      else this.#list.insertBefore(row.li, cursor);
    }
    // Past the last listed row: those filtered out, or deleted.
    while (cursor !== null) {
      const next: ChildNode | null = cursor.nextSibling;
      this.#list.removeChild(cursor);
      cursor = next;
    }
    this.#rows.forEach((row, id) => {
      if (keep.has(id)) return;
      row.removal?.reset();
      this.#rows.delete(id);
    });
    setText(this.#empty, questions.length === 0 ? 'No questions yet. People send them from the audience link (under Links and keys).' : `None ${filterWords(this.#filter).toLowerCase()}.`);
    this.#empty.hidden = listed.length > 0;
  }

  /** The line at the top: the question on the screens, and whether the screens show questions at all. */
  #renderCurrent(snapshot: Snapshot): void {
    const shown = snapshot.shownQuestion;
    setText(this.#current, shown === null ? 'none' : shown.name === null ? shown.text : `${shown.text} (${shown.name})`);
    this.#current.className = shown === null ? 'msg-none' : 'msg-live';
    this.#unshow.hidden = shown === null;
    this.#screensOff.hidden = shown === null || snapshot.display.showQuestion;
  }

  #createRow(id: string): QuestionRow {
    const text = make('p', { className: 'q-text' });
    const state = make('span', { className: 'q-state' });
    const name = make('span', { className: 'q-name' });
    const time = make('span', { className: 'q-time' });
    const meta = make('div', { className: 'q-meta' }, [state, name, time]);
    const actions = make('div', { className: 'row q-actions' });
    const withName = make('button', { className: 'q-with-name', text: 'with name', attrs: { type: 'button', 'data-q-with-name': '', 'aria-pressed': 'false' } });
    withName.addEventListener('click', () => setPressed(withName, withName.getAttribute('aria-pressed') !== 'true'));
    const buttons = new Map<QuestionAction, HTMLButtonElement>();
    for (const action of QUESTION_ACTIONS) {
      const button = make('button', { text: ACTION_WORDS[action], attrs: { type: 'button', 'data-q-action': action } });
      if (action === 'show') button.className = 'q-show';
      if (action === 'delete') button.className = 'delete';
      actions.appendChild(button);
      // The name's choice sits right after the button it is for.
      if (action === 'show') actions.appendChild(withName);
      buttons.set(action, button);
    }
    const li = make('li', { className: 'question-item', attrs: { 'data-question': id } }, [text, meta, actions]);
    const row: QuestionRow = { li, text, state, name, time, buttons, withName, timeKey: '', removal: null };
    buttons.forEach((button, action) => {
      button.addEventListener('click', () => {
        if (action === 'delete') this.#delete(row, id);
        else void this.#run(action, id, withName.getAttribute('aria-pressed') === 'true');
      });
    });
    this.#rows.set(id, row);
    return row;
  }

  #patch(row: QuestionRow, question: Question, snapshot: Snapshot): void {
    // textContent only: the audience's markup stays the characters it is.
    setText(row.text, question.text);
    setText(row.state, STATE_WORDS[question.state]);
    setText(row.name, question.name === '' ? 'no name' : question.name);
    row.name.className = question.name === '' ? 'q-name q-none' : 'q-name';
    const timeKey = `${snapshot.settings.timeZone} ${snapshot.settings.clockFormat} ${Math.floor(snapshot.serverNow / TIME_TEXT_KEPT_MS)}`;
    if (row.timeKey !== timeKey) {
      row.timeKey = timeKey;
      setText(row.time, `received ${receivedText(question.receivedAt, snapshot.serverNow, snapshot.settings)}`);
    }
    const stateClass = `question-item state-${question.state}`;
    if (row.li.className !== stateClass) row.li.className = stateClass;
    const offered = questionActions(question.state);
    row.buttons.forEach((button, action) => {
      button.hidden = offered.indexOf(action) < 0;
    });
    // Without a name there is nothing to show with it.
    row.withName.hidden = offered.indexOf('show') < 0 || question.name === '';
    if (question.name === '') setPressed(row.withName, false);
    this.#labelButtons(row, question.state);
  }

  /** Each button says which question it acts on, for screen readers: the rows look alike. */
  #labelButtons(row: QuestionRow, state: QuestionState): void {
    const about = row.text.textContent ?? '';
    const short = about.length > 60 ? `${about.slice(0, 60)}…` : about;
    row.buttons.forEach((button, action) => {
      const label = `${ACTION_WORDS[action]}: ${short} (${STATE_WORDS[state].toLowerCase()})`;
      if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
    });
    const nameLabel = `Show the name with it: ${short}`;
    if (row.withName.getAttribute('aria-label') !== nameLabel) row.withName.setAttribute('aria-label', nameLabel);
  }

  async #run(action: QuestionAction, id: string, withName = false): Promise<boolean> {
    const request = questionRequest(action, id, withName);
    return this.#commands.run(request.what, request.path, request.body);
  }

  /** Two presses, as a tag's delete: a question deleted by a slip is gone for good. */
  #delete(row: QuestionRow, id: string): void {
    const button = row.buttons.get('delete');
    if (button === undefined) return;
    row.removal ??= new TwoPress(button, { ask: 'Delete?', idle: ACTION_WORDS.delete });
    if (row.removal.press()) void this.#run('delete', id);
  }

  #clearAnswered(): void {
    if (this.#clearing.press()) void this.#commands.run('Clear answered questions', '/questions/clear_answered');
  }
}
