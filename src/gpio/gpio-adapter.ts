// The GPIO adapter: owns the lamps and buttons on the Pi's header for the life
// of the service. It picks the hardware by mode (SHOWCLOCK_GPIO):
//   auto   onoff when /sys/class/gpio/export is usable, else off with one line saying why
//   onoff  onoff, or off with an error when it cannot be had
//   sim    the same bindings on an in-memory GPIO: lamp changes in the log, buttons from the terminal
//   off    nothing
// A missing or broken GPIO never stops the service: every failure is logged
// and the service runs on without the part that failed.
import type { Clock, Scheduler } from '../app/clock.js';
import type { GpioConfig } from '../config/gpio-config.js';
import type { GpioMode } from '../config/config.js';
import type { Logger } from '../log/logger.js';
import { buttonSpec, describePress, type ButtonSpec } from './button-actions.js';
import { ButtonBinding, type CommandSink } from './button-binding.js';
import { errorText } from './error-text.js';
import type { GpioPort } from './gpio-port.js';
import { LampBindings, type LampSpec, type RoomFeed } from './lamp-bindings.js';
import { MemoryGpio } from './memory-gpio.js';
import { exportProblem, loadOnoff, OnoffGpio } from './onoff-gpio.js';
import { resolveSysfsOffset, SYSFS_GPIO_ROOT } from './sysfs-offset.js';

export interface GpioAdapter {
  /** What actually runs: `auto` resolves to onoff or off. */
  readonly mode: 'onoff' | 'sim' | 'off';
  /** Lamps to their safe state, every pin released. Safe to call twice. */
  close(): void;
}

interface TerminalIo {
  readonly input: NodeJS.ReadableStream;
  readonly output: { write(text: string): unknown };
}

export interface GpioDeps {
  readonly mode: GpioMode;
  readonly config: GpioConfig;
  readonly room: RoomFeed & CommandSink;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** For tests: where the chips and `export` are looked for. onoff itself always uses /sys/class/gpio. */
  readonly sysfsRoot?: string;
  readonly loadOnoff?: typeof loadOnoff;
  /** Where sim takes button presses from; by default stdin when it is a terminal. */
  readonly terminal?: TerminalIo | null;
}

const OFF: GpioAdapter = { mode: 'off', close: () => {} };

export function lampSpecs(config: GpioConfig): LampSpec[] {
  const specs: LampSpec[] = [];
  if (config.lamp !== undefined) {
    const { pin, activeLow, safeState, follows, flash } = config.lamp;
    specs.push({ bcm: pin, signal: follows ?? 'onAir', activeLow: activeLow ?? false, safeOn: safeState === 'on', alsoFlash: flash ?? false });
  }
  for (const { pin, activeLow, safeState, follows, flash } of config.lamps ?? []) {
    specs.push({ bcm: pin, signal: follows, activeLow: activeLow ?? false, safeOn: safeState === 'on', alsoFlash: flash ?? false });
  }
  return specs;
}

function defaultTerminal(): TerminalIo | null {
  return process.stdin.isTTY ? { input: process.stdin, output: process.stdout } : null;
}

/** Starts the lamps and buttons; never rejects. */
export async function startGpio(deps: GpioDeps): Promise<GpioAdapter> {
  const logger = deps.logger.child({ component: 'gpio' });
  try {
    return await start(deps, logger);
  } catch (error) {
    logger.error({ reason: errorText(error) }, `GPIO off: starting it failed (${errorText(error)})`);
    return OFF;
  }
}

async function start(deps: GpioDeps, logger: Logger): Promise<GpioAdapter> {
  const { mode, config } = deps;
  const lamps = lampSpecs(config);
  const buttons = (config.buttons ?? []).map(buttonSpec);
  if (mode === 'off') {
    logger.info({ mode }, 'GPIO off (SHOWCLOCK_GPIO=off)');
    return OFF;
  }
  if (lamps.length === 0 && buttons.length === 0) {
    logger.info({ mode }, 'GPIO: no lamp or button in the gpio section of the config file; nothing to drive');
    return OFF;
  }

  let port: GpioPort;
  let memory: MemoryGpio | null = null;
  if (mode === 'sim') {
    memory = new MemoryGpio();
    port = memory;
  } else {
    const root = deps.sysfsRoot ?? SYSFS_GPIO_ROOT;
    // auto: no GPIO here is normal (a laptop); asked for onoff: it is a fault worth an error.
    const report = mode === 'auto' ? logger.info.bind(logger) : logger.error.bind(logger);
    const problem = exportProblem(root);
    if (problem !== null) {
      report({ mode }, `GPIO off: ${problem}. SHOWCLOCK_GPIO=sim tries the lamps and buttons without a Pi`);
      return OFF;
    }
    let Gpio;
    try {
      Gpio = await (deps.loadOnoff ?? loadOnoff)();
    } catch (error) {
      report({ mode }, `GPIO off: ${errorText(error)}`);
      return OFF;
    }
    const offset = resolveSysfsOffset({ root, override: config.sysfsOffset });
    logger.info({ offset: offset.offset, source: offset.source, chip: offset.chip?.label }, offset.note);
    port = new OnoffGpio({ Gpio, offset, logger });
  }

  const lampBindings = new LampBindings({ port, lamps, feed: deps.room, clock: deps.clock, scheduler: deps.scheduler, logger });
  lampBindings.start();
  const buttonBindings: ButtonBinding[] = [];
  for (const spec of buttons) {
    const binding = new ButtonBinding({ port, spec, sink: deps.room, clock: deps.clock, scheduler: deps.scheduler, logger });
    try {
      binding.start();
      buttonBindings.push(binding);
    } catch (error) {
      binding.close();
      logger.error({ pin: spec.bcm, reason: errorText(error) }, `button BCM ${spec.bcm} is left out: ${errorText(error)}`);
    }
  }
  const running: 'onoff' | 'sim' = memory === null ? 'onoff' : 'sim';
  logger.info(
    {
      mode: running,
      lamps: lampBindings.openPins.map((l) => `BCM ${l.bcm} ${l.signal}${l.activeLow ? ' (active low)' : ''}`),
      buttons: buttonBindings.map((b) => `BCM ${b.spec.bcm} ${describeButton(b.spec)}`),
    },
    `GPIO ready (${running}): ${lampBindings.openPins.length} of ${lamps.length} lamps, ${buttonBindings.length} of ${buttons.length} buttons`,
  );

  let terminal: { close(): void } | null = null;
  if (memory !== null && buttonBindings.length > 0) {
    const io = deps.terminal === undefined ? defaultTerminal() : deps.terminal;
    if (io === null) {
      logger.info('GPIO sim: stdin is not a terminal, so buttons cannot be pressed from it');
    } else {
      // Loaded only here: it brings node:readline, which a box with real buttons never needs.
      const { attachTerminalButtons } = await import('./terminal-buttons.js');
      terminal = attachTerminalButtons({ ...io, gpio: memory, buttons: buttonBindings.map((b) => b.spec), clock: deps.clock, scheduler: deps.scheduler });
    }
  }

  let closed = false;
  return {
    mode: running,
    close: () => {
      if (closed) return;
      closed = true;
      terminal?.close();
      for (const binding of buttonBindings) binding.close();
      lampBindings.close();
      logger.info('GPIO released: lamps in their safe state');
    },
  };
}

function describeButton(spec: ButtonSpec): string {
  const parts: string[] = [];
  if (spec.short !== null) parts.push(describePress(spec.short));
  if (spec.long !== null) parts.push(`hold ${spec.long.holdMs} ms: ${describePress(spec.long)}`);
  return parts.join(', ');
}
