// The aux timer: the second timer beside the running order (a changeover, a
// walk-in), with its own start/pause, reset, ±1 minute, duration, countdown or
// count-up, and label, through the v1 aux commands. Its time is drawn from the
// snapshot at the server's time (the clock estimate), never the device's clock.
// Start/pause sends the state asked for, decided from what is shown (as the main
// transport does), so a second console pressing at once does not undo it.
// Page code: no destructuring (esbuild targets old browsers).
import { auxDisplayState } from '../../client/aux-display.js';
import { faceAt, type DisplayState, type Face } from '../../client/face.js';
import { DURATION_HINT, formatDurationText, parseDurationText } from '../../domain/duration-text.js';
import type { AuxSnapshot, Snapshot } from '../../domain/snapshot.js';
import { AUX_APPEARANCES, type AuxAppearance } from '../../domain/types.js';
import { byId, setPressed, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';

/** The v1 aux commands, each one path: the console's only knowledge of their names. */
export const AUX_PATHS = {
  start: '/aux_start',
  pause: '/aux_pause',
  reset: '/aux_reset',
  adjust: '/aux_adjust',
  /** Duration, appearance, label: any of them (a new duration resets it, paused). */
  set: '/aux',
} as const;

const APPEARANCE_WORDS: Readonly<Record<AuxAppearance, string>> = { countdown: 'countdown', countup: 'count up' };

/**
 * The aux timer's face at `nowMs` (server time): drawn by the display's own code for
 * it (aux-display.ts, face.ts), so the console and every screen flip on the same second.
 */
export function auxFaceAt(state: DisplayState & { readonly aux: AuxSnapshot }, nowMs: number): Face {
  return faceAt(auxDisplayState(state), nowMs).face;
}

function isAuxAppearance(value: string | null): value is AuxAppearance {
  return AUX_APPEARANCES.some((a) => a === value);
}

export class AuxPanel {
  readonly #commands: RoomCommands;
  readonly #time = byId('aux-time', HTMLElement);
  readonly #startPause = byId('aux-start-pause', HTMLButtonElement);
  readonly #duration = byId('aux-duration', HTMLInputElement);
  readonly #label = byId('aux-label', HTMLInputElement);
  readonly #appearanceButtons = new Map<AuxAppearance, HTMLButtonElement>();
  /** Fields whose change is on its way: a snapshot from before it must not flash the old value back. */
  readonly #pending = new Set<HTMLInputElement>();

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    this.#startPause.addEventListener('click', () => this.startPause());
    byId('aux-reset', HTMLButtonElement).addEventListener('click', () => void this.#commands.run('Reset the aux timer', AUX_PATHS.reset));
    const panel = byId('aux', HTMLElement);
    const adjusters = panel.querySelectorAll<HTMLButtonElement>('button[data-aux-adjust-ms]');
    for (let i = 0; i < adjusters.length; i += 1) {
      const button = adjusters[i] as HTMLButtonElement;
      const ms = Number(button.getAttribute('data-aux-adjust-ms'));
      const words = `${ms < 0 ? '−' : '+'}${formatDurationText(Math.abs(ms))}`;
      button.addEventListener('click', () => void this.#commands.run(`Aux timer ${words}`, AUX_PATHS.adjust, { ms }));
    }
    const appearances = panel.querySelectorAll<HTMLButtonElement>('button[data-aux-appearance]');
    for (let i = 0; i < appearances.length; i += 1) {
      const button = appearances[i] as HTMLButtonElement;
      const appearance = button.getAttribute('data-aux-appearance');
      if (!isAuxAppearance(appearance)) continue;
      this.#appearanceButtons.set(appearance, button);
      button.addEventListener('click', () => void this.#commands.run(`Aux timer as a ${APPEARANCE_WORDS[appearance]}`, AUX_PATHS.set, { appearance }));
    }
    for (const input of [this.#duration, this.#label]) {
      input.addEventListener('change', () => void this.#commit(input));
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') input.blur();
        if (event.key === 'Escape') {
          this.#showRoomValue(input);
          input.blur();
        }
      });
      // Snapshots skip a focused field; once left without a change, it shows the room's value again.
      input.addEventListener('blur', () => {
        if (!this.#pending.has(input)) this.#showRoomValue(input);
      });
    }
  }

  startPause(): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    void (shown.aux.running ? this.#commands.run('Pause the aux timer', AUX_PATHS.pause) : this.#commands.run('Start the aux timer', AUX_PATHS.start));
  }

  render(snapshot: Snapshot): void {
    const aux = snapshot.aux;
    setText(this.#startPause, aux.running ? 'Pause' : 'Start');
    this.#startPause.className = aux.running ? 'running' : '';
    this.#appearanceButtons.forEach((button, appearance) => setPressed(button, aux.appearance === appearance));
    for (const input of [this.#duration, this.#label]) {
      if (document.activeElement !== input && !this.#pending.has(input)) this.#showRoomValue(input);
    }
  }

  /** The digits at the server's time `nowMs`: called at every snapshot and as the clock goes on. */
  follow(snapshot: Snapshot, nowMs: number): void {
    const face = auxFaceAt(snapshot, nowMs);
    setText(this.#time, face.time);
    // Past its duration (a countdown in overrun, a count-up beyond it): red, as on the screens.
    const className = `aux-clock${snapshot.aux.running ? ' running' : ''}${face.tone === 'over' ? ' over' : ''}`;
    if (this.#time.className !== className) this.#time.className = className;
  }

  #roomValue(input: HTMLInputElement, aux: AuxSnapshot): string {
    return input === this.#duration ? formatDurationText(aux.duration) : aux.label;
  }

  #showRoomValue(input: HTMLInputElement): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    const value = this.#roomValue(input, shown.aux);
    if (input.value !== value) input.value = value;
  }

  async #commit(input: HTMLInputElement): Promise<void> {
    const shown = this.#commands.shown;
    if (shown === null || input.value === this.#roomValue(input, shown.aux)) return;
    let body: Record<string, string | number>;
    let what: string;
    if (input === this.#duration) {
      const ms = parseDurationText(input.value);
      if (ms === null) {
        this.#commands.failed('Duration of the aux timer', `"${input.value}" is not a duration: ${DURATION_HINT}`);
        this.#showRoomValue(input);
        return;
      }
      body = { duration: ms };
      what = `Aux timer duration ${formatDurationText(ms)}`;
    } else {
      body = { label: input.value };
      what = 'Label of the aux timer';
    }
    this.#pending.add(input);
    await this.#commands.run(what, AUX_PATHS.set, body);
    this.#pending.delete(input);
    // Taken or refused, the room's value shows now (unless the operator is back in the field).
    if (document.activeElement !== input) this.#showRoomValue(input);
  }
}
