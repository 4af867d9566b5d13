// Room settings: what happens at zero, auto-advance, the room's time zone and
// clock format, the show's planned start and its reset. Shown from the snapshot;
// each press sends the value asked for, not a toggle.
import type { Snapshot } from '../../domain/snapshot.js';
import type { ClockFormat, ZeroBehavior } from '../../domain/types.js';
import { byId, setPressed } from './elements.js';
import type { RoomCommands } from './room-commands.js';
import { instantText, parseInstantText } from './time-of-day-text.js';
import { TwoPress } from './two-press.js';

const ZERO_WORDS: Readonly<Record<ZeroBehavior, string>> = { continue: 'continue into overrun', stop: 'stop at zero', hide: 'hide the time' };

export class SettingsPanel {
  readonly #commands: RoomCommands;
  readonly #zeroButtons: HTMLButtonElement[] = [];
  readonly #autoAdvance = byId('auto-advance', HTMLButtonElement);
  readonly #timeZone = byId('time-zone', HTMLInputElement);
  readonly #clockFormatButtons: HTMLButtonElement[] = [];
  readonly #chimeZero = byId('chime-zero', HTMLButtonElement);
  readonly #chimeWarning = byId('chime-warning', HTMLButtonElement);
  readonly #chimeVolume = byId('chime-volume', HTMLInputElement);
  readonly #plannedStart = byId('planned-start', HTMLInputElement);
  readonly #plannedStartClear = byId('planned-start-clear', HTMLButtonElement);
  readonly #showReset = byId('show-reset', HTMLButtonElement);
  readonly #showResetPress = new TwoPress(this.#showReset, { ask: 'Reset the show? Press again', idle: 'Reset show' });
  /** The server's time as this page estimates it: a typed time of day is read against it. */
  readonly #now: () => number | null;
  /** The planned start's change is on its way: a snapshot from before it must not flash the old value back. */
  #plannedStartPending = false;

  constructor(commands: RoomCommands, now: () => number | null) {
    this.#commands = commands;
    this.#now = now;
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
    const setZone = () => {
      const timeZone = this.#timeZone.value.trim();
      if (timeZone.length > 0) void this.#commands.run(`Time zone ${timeZone}`, '/settings', { timeZone });
    };
    byId('time-zone-set', HTMLButtonElement).addEventListener('click', setZone);
    this.#timeZone.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') setZone();
    });
    this.#chimeZero.addEventListener('click', () => {
      const shown = this.#commands.shown;
      if (shown === null) return;
      const chimeAtZero = !shown.settings.chimeAtZero;
      void this.#commands.run(chimeAtZero ? 'Chime at zero on' : 'Chime at zero off', '/settings', { chimeAtZero });
    });
    this.#chimeWarning.addEventListener('click', () => {
      const shown = this.#commands.shown;
      if (shown === null) return;
      const chimeAtWarning = !shown.settings.chimeAtWarning;
      void this.#commands.run(chimeAtWarning ? 'Chime at warning on' : 'Chime at warning off', '/settings', { chimeAtWarning });
    });
    // Sent when the slider is let go, not at every step of a drag.
    this.#chimeVolume.addEventListener('change', () => {
      const chimeVolume = Number(this.#chimeVolume.value);
      void this.#commands.run(`Chime volume ${chimeVolume} %`, '/settings', { chimeVolume });
    });
    byId('chime-test', HTMLButtonElement).addEventListener('click', () => void this.#commands.run('Test chime on every display', '/chime'));
    const formats = document.querySelectorAll<HTMLButtonElement>('button[data-clock-format]');
    for (let i = 0; i < formats.length; i += 1) {
      const button = formats[i] as HTMLButtonElement;
      const clockFormat = button.getAttribute('data-clock-format') as ClockFormat;
      this.#clockFormatButtons.push(button);
      button.addEventListener('click', () => void this.#commands.run(`Clock ${clockFormat}`, '/settings', { clockFormat }));
    }
    byId('planned-start-set', HTMLButtonElement).addEventListener('click', () => void this.#setPlannedStart(this.#plannedStart.value));
    this.#plannedStart.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') void this.#setPlannedStart(this.#plannedStart.value);
      if (event.key === 'Escape') {
        this.#showPlannedStart();
        this.#plannedStart.blur();
      }
    });
    this.#plannedStartClear.addEventListener('click', () => void this.#setPlannedStart(''));
    // Two presses: the actual times of a show are gone once reset, mid-show that cannot be undone.
    this.#showReset.addEventListener('click', () => {
      if (this.#showResetPress.press()) void this.#commands.run('Reset the show', '/show_reset');
    });
  }

  render(snapshot: Snapshot): void {
    for (const button of this.#zeroButtons) setPressed(button, button.getAttribute('data-zero') === snapshot.zeroBehavior);
    setPressed(this.#autoAdvance, snapshot.autoAdvance);
    for (const button of this.#clockFormatButtons) setPressed(button, button.getAttribute('data-clock-format') === snapshot.settings.clockFormat);
    setPressed(this.#chimeZero, snapshot.settings.chimeAtZero);
    setPressed(this.#chimeWarning, snapshot.settings.chimeAtWarning);
    if (document.activeElement !== this.#chimeVolume) this.#chimeVolume.value = String(snapshot.settings.chimeVolume);
    // Never overwrite what someone is typing.
    if (document.activeElement !== this.#timeZone) this.#timeZone.value = snapshot.settings.timeZone;
    if (document.activeElement !== this.#plannedStart && !this.#plannedStartPending) this.#showPlannedStart();
    this.#plannedStartClear.disabled = snapshot.settings.plannedStart === null;
  }

  #showPlannedStart(): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    const text = instantText(shown.settings.plannedStart, this.#now() ?? shown.serverNow, shown.settings);
    if (this.#plannedStart.value !== text) this.#plannedStart.value = text;
  }

  /** '' clears it; a time of day without a date is the nearest one (a show's start is often set once it has begun). */
  async #setPlannedStart(text: string): Promise<void> {
    const shown = this.#commands.shown;
    if (shown === null) return;
    const plannedStart = parseInstantText(text, this.#now() ?? shown.serverNow, shown.settings.timeZone, 'nearest');
    if (plannedStart === undefined) {
      this.#commands.failed('Planned start of the show', `"${text}" is not a time of day: write 19:30, 7:30 pm or 2026-11-24 09:00, or nothing for none`);
      return;
    }
    const sent = this.#plannedStart.value;
    this.#plannedStartPending = true;
    await this.#commands.run(plannedStart === null ? 'Clear the planned start' : 'Planned start of the show', '/settings', { plannedStart });
    this.#plannedStartPending = false;
    // Taken or refused, the room's value shows now, unless the operator has typed another meanwhile.
    if (this.#plannedStart.value === sent) this.#showPlannedStart();
  }
}
