// Transport (start/pause, reset, previous, next), adjust, blackout and ON AIR (with the tally beside it).
// Switches send the state the operator asked for (`start`, `blackout` with
// on=0/1), decided from what the console shows, never a blind toggle: when
// another console acted a moment earlier, a second press does not undo it.
import { faceAt } from '../../client/face.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { byId, setPressed, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';
import { TallyIndicator } from './tally-indicator.js';
import { ScreenControl } from './screen-control.js';

function adjustLabel(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const abs = Math.abs(ms);
  return abs >= 60_000 ? `${sign}${abs / 60_000} min` : `${sign}${abs / 1000} s`;
}

export class TransportPanel {
  readonly #commands: RoomCommands;
  readonly #startPause = byId('start-pause', HTMLButtonElement);
  readonly #startPauseText = byId('start-pause-text', HTMLSpanElement);
  readonly #blackout = byId('blackout', HTMLButtonElement);
  readonly #onAir = byId('onair', HTMLButtonElement);
  /** Beside ON AIR: what the tally says, and when ON AIR was set against it by hand. */
  readonly #tally = new TallyIndicator(this.#onAir);
  /** The screen over HDMI-CEC, under the switches; hidden without one. */
  readonly #screen: ScreenControl;
  readonly #previous = byId('previous', HTMLButtonElement);
  readonly #next = byId('next', HTMLButtonElement);
  readonly #header = byId('top', HTMLElement);
  readonly #showState = byId('show-state', HTMLElement);
  /** The time left in the band: on a phone the preview has scrolled away, and the band is what stays. */
  readonly #time = byId('band-time', HTMLElement);

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    this.#screen = new ScreenControl(commands);
    this.#startPause.addEventListener('click', () => this.startPause());
    byId('reset', HTMLButtonElement).addEventListener('click', () => this.reset());
    this.#previous.addEventListener('click', () => this.previous());
    this.#next.addEventListener('click', () => this.next());
    this.#blackout.addEventListener('click', () => this.blackout());
    // A flash is a moment, not a switch: nothing to show as pressed.
    byId('flash-screens', HTMLButtonElement).addEventListener('click', () => void this.#commands.run('Flash screens', '/flash', { count: 3 }));
    this.#onAir.addEventListener('click', () => this.onAir());
    const adjusters = document.querySelectorAll<HTMLButtonElement>('button[data-adjust-ms]');
    for (let i = 0; i < adjusters.length; i += 1) {
      const button = adjusters[i] as HTMLButtonElement;
      const ms = Number(button.getAttribute('data-adjust-ms'));
      button.addEventListener('click', () => void this.#commands.run(`Adjust ${adjustLabel(ms)}`, '/adjust', { ms }));
    }
  }

  startPause(): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    void (shown.running ? this.#commands.run('Pause', '/pause') : this.#commands.run('Start', '/start'));
  }

  reset(): void {
    void this.#commands.run('Reset', '/reset');
  }

  previous(): void {
    void this.#commands.run('Previous', '/previous');
  }

  next(): void {
    void this.#commands.run('Next', '/next');
  }

  blackout(): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    void this.#commands.run(shown.blackout ? 'Blackout off' : 'Blackout on', '/blackout', { on: shown.blackout ? '0' : '1' });
  }

  onAir(): void {
    const shown = this.#commands.shown;
    if (shown === null) return;
    void this.#commands.run(shown.onAir ? 'ON AIR off' : 'ON AIR on', '/onair', { on: shown.onAir ? '0' : '1' });
  }

  /** The active timer's time as the screens show it now (faceAt, at the server's time), in the band's colours. */
  follow(snapshot: Snapshot, nowMs: number): void {
    const face = faceAt(snapshot, nowMs).face;
    // Hidden at zero on the screens: the band still says something is there.
    setText(this.#time, face.time === '' ? '–' : face.time);
    const tone = face.tone === 'over' || face.danger ? ' over' : face.tone === 'warn' ? ' warn' : '';
    const className = `band-time${snapshot.running ? ' running' : ''}${tone}`;
    if (this.#time.className !== className) this.#time.className = className;
  }

  render(snapshot: Snapshot): void {
    setText(this.#startPauseText, snapshot.running ? 'Pause' : 'Start');
    this.#startPause.className = snapshot.running ? 'big running' : 'big';
    setPressed(this.#blackout, snapshot.blackout);
    setPressed(this.#onAir, snapshot.onAir);
    this.#tally.render(snapshot);
    this.#screen.render(snapshot);
    // The whole header band changes, in words and colour: a 2 px outline on one
    // button is missed by a guest operator glancing up mid-show.
    const words = [snapshot.blackout ? 'BLACKOUT' : '', snapshot.onAir ? 'ON AIR' : ''].filter((w) => w !== '');
    setText(this.#showState, words.join(' · '));
    const state = snapshot.blackout ? 'state-blackout' : snapshot.onAir ? 'state-onair' : '';
    if (this.#header.className !== state) this.#header.className = state;
    const index = snapshot.timers.findIndex((t) => t.id === snapshot.activeTimerId);
    this.#previous.disabled = index <= 0;
    this.#next.disabled = index < 0 || index >= snapshot.timers.length - 1;
  }
}
