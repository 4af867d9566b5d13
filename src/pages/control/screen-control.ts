// The screen over HDMI-CEC (issue 33, README "Screen (HDMI-CEC)"), under the transport's
// switches: what the screen last answered (on, standby, turning on, ..., or why the box
// cannot reach it), and Switch on / Standby / Make active. Each press is answered once the screen
// acknowledged (or with why not, as any refused command is); the power shown is the
// screen's answer, pushed, never a guess from the press. Hidden on a box with no screen.
import type { Snapshot } from '../../domain/snapshot.js';
import type { ScreenPower, ScreenReport } from '../../domain/types.js';
import { byId, setText } from './elements.js';
import type { RoomCommands } from './room-commands.js';

export function screenPowerWords(power: ScreenPower): string {
  switch (power) {
    case 'on':
      return 'Screen: on';
    case 'standby':
      return 'Screen: standby';
    case 'to-on':
      return 'Screen: turning on';
    case 'to-standby':
      return 'Screen: going to standby';
    case 'unknown':
      return 'Screen: not answering';
    case 'unavailable':
      return 'Screen: unavailable';
  }
}

export class ScreenControl {
  readonly #commands: RoomCommands;
  readonly #box = byId('screen-control', HTMLElement);
  readonly #power = byId('screen-power', HTMLElement);

  constructor(commands: RoomCommands) {
    this.#commands = commands;
    byId('screen-on', HTMLButtonElement).addEventListener('click', () => void this.#commands.run('Screen: on', '/screen/on'));
    byId('screen-standby', HTMLButtonElement).addEventListener('click', () => void this.#commands.run('Screen to standby', '/screen/standby'));
    byId('screen-active', HTMLButtonElement).addEventListener('click', () => void this.#commands.run('Make the box the screen\'s source', '/screen/active'));
  }

  render(snapshot: Snapshot): void {
    const screen: ScreenReport | null = snapshot.screen;
    if (screen === null) {
      this.#box.hidden = true;
      return;
    }
    setText(this.#power, screenPowerWords(screen.power));
    const title = screen.problem ?? 'What the screen answered over HDMI-CEC when last asked';
    if (this.#power.title !== title) this.#power.title = title;
    const className = `screen-power ${screen.power}`;
    if (this.#power.className !== className) this.#power.className = className;
    this.#box.hidden = false;
  }
}
