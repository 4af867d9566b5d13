// A button's configured action as a command of the command layer: the same
// commands the HTTP `/{cmd}` names give, so a button and a GET can never differ.
import type { ButtonAction, ButtonConfig } from '../config/gpio-config.js';
import { DEBOUNCE_MS_DEFAULT, HOLD_MS_DEFAULT } from '../config/gpio-config.js';
import { FLASH_COUNT_DEFAULT } from '../domain/limits.js';
import type { Command } from '../domain/types.js';

export interface ButtonPress {
  readonly action: ButtonAction;
  readonly command: Command;
}

export interface ButtonSpec {
  readonly bcm: number;
  readonly debounceMs: number;
  /** On release before the long press (or on press when there is no long press). */
  readonly short: ButtonPress | null;
  /** After `holdMs` held down. */
  readonly long: (ButtonPress & { readonly holdMs: number }) | null;
}

export function commandFor(action: ButtonAction, ms: number | undefined): Command {
  switch (action) {
    case 'toggle':
    case 'start':
    case 'pause':
    case 'reset':
    case 'next':
    case 'previous':
      return { type: action };
    case 'adjust':
      // The config schema requires ms with adjust; 0 would be refused by it too.
      if (ms === undefined) throw new Error('adjust needs ms');
      return { type: 'adjust', ms };
    case 'toggle_blackout':
      return { type: 'blackout.toggle' };
    case 'toggle_onair':
      return { type: 'onair.toggle' };
    case 'clear_message':
      return { type: 'message.clear' };
    case 'flash':
      return { type: 'flash', count: FLASH_COUNT_DEFAULT };
    case 'aux_toggle':
      return { type: 'aux.toggle' };
    case 'aux_reset':
      return { type: 'aux.reset' };
    default: {
      const unknown: never = action;
      throw new Error(`unknown button action ${String(unknown)}`);
    }
  }
}

export function buttonSpec(config: ButtonConfig): ButtonSpec {
  return {
    bcm: config.pin,
    debounceMs: config.debounceMs ?? DEBOUNCE_MS_DEFAULT,
    short: config.action === undefined ? null : { action: config.action, command: commandFor(config.action, config.ms) },
    long:
      config.hold === undefined
        ? null
        : { action: config.hold, command: commandFor(config.hold, config.holdAdjustMs), holdMs: config.holdMs ?? HOLD_MS_DEFAULT },
  };
}

/** "toggle", "adjust +60000", "reset (hold)": for log lines and the start-up summary. */
export function describePress(press: ButtonPress): string {
  return press.command.type === 'adjust' ? `${press.action} ${press.command.ms > 0 ? '+' : ''}${press.command.ms}` : press.action;
}
