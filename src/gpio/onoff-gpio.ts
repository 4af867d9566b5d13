// The GPIO port on real hardware: onoff over /sys/class/gpio. onoff loads its
// native epoll addon when imported, so it is imported here, lazily, and only
// when GPIO is wanted: the service runs where the addon is missing, and the
// bundle keeps onoff external (scripts/build.mjs).
//
// A pin's failure comes back as a GpioPinError whose message says what to do;
// a bare "EINVAL: invalid argument, write" never reaches a person.
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log/logger.js';
import { errorText } from './error-text.js';
import { GpioPinError, type GpioPort, type InputLine, type OutputLine } from './gpio-port.js';
import { SYSFS_GPIO_ROOT, type OffsetResolution } from './sysfs-offset.js';

type OnoffGpioClass = (typeof import('onoff'))['Gpio'];

/** Imports onoff; rejects with a sentence a person can act on. */
export async function loadOnoff(): Promise<OnoffGpioClass> {
  try {
    const onoff = await import('onoff');
    return onoff.Gpio;
  } catch (error) {
    throw new Error(
      `onoff cannot be loaded (${errorText(error).split('\n')[0] ?? ''}); on the Pi, run install.sh again: it installs onoff and builds its native addon there`,
      { cause: error },
    );
  }
}

/** Whether this process may export pins: null when it may, else why not. */
export function exportProblem(root: string = SYSFS_GPIO_ROOT): string | null {
  const file = join(root, 'export');
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${file} does not exist (not a Raspberry Pi, or a kernel without sysfs GPIO)`;
    if (code === 'EACCES' || code === 'EPERM') return `${file} is not writable by this user (${code}): add the user to the gpio group`;
    return `${file} cannot be opened (${code ?? errorText(error)})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why a pin failed, in words; the errno is kept in brackets for whoever searches for it. */
export function pinProblem(bcm: number, offset: OffsetResolution, error: unknown): string {
  const sysfs = offset.offset + bcm;
  const where = `BCM ${bcm} (sysfs gpio${sysfs})`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const offsetHint = `the sysfs offset ${offset.offset} may be wrong for this board (${offset.note}); set gpio.sysfsOffset in the config file`;
  switch (code) {
    case 'EINVAL':
      return `${where}: the kernel does not know this GPIO number (EINVAL): ${offsetHint}`;
    case 'ENOENT':
      return `${where}: the pin did not appear under /sys/class/gpio after it was exported (ENOENT): ${offsetHint}`;
    case 'EBUSY':
      return `${where}: the pin is in use (EBUSY) by a kernel driver or another program, for example an overlay in /boot/firmware/config.txt (w1-gpio, spi, i2c, a fan or LED trigger); free it or pick another pin`;
    case 'EACCES':
    case 'EPERM':
      return `${where}: permission denied (${code}): the service user must be in the gpio group (install.sh sets this up)`;
    default:
      return `${where}: ${errorText(error)}`;
  }
}

type OnoffPin = InstanceType<OnoffGpioClass>;

export class OnoffGpio implements GpioPort {
  readonly #Gpio: OnoffGpioClass;
  readonly #offset: OffsetResolution;
  readonly #logger: Logger;

  constructor(deps: { Gpio: OnoffGpioClass; offset: OffsetResolution; logger: Logger }) {
    this.#Gpio = deps.Gpio;
    this.#offset = deps.offset;
    this.#logger = deps.logger;
  }

  openOutput(bcm: number, initialHigh: boolean): OutputLine {
    // 'high'/'low' make it an output already at that level; activeLow false resets
    // an inversion left by an earlier program (the bindings invert, not the kernel).
    const pin = this.#open(bcm, () => new this.#Gpio(this.#offset.offset + bcm, initialHigh ? 'high' : 'low', undefined, { activeLow: false }));
    return {
      write: (high) => pin.writeSync(high ? 1 : 0),
      release: () => pin.unexport(),
    };
  }

  openInput(bcm: number, onEdge: (high: boolean) => void): InputLine {
    const pin = this.#open(bcm, () => new this.#Gpio(this.#offset.offset + bcm, 'in', 'both', { activeLow: false }));
    let reportedError = false;
    try {
      pin.watch((error, value) => {
        if (error) {
          if (!reportedError) this.#logger.error({ pin: bcm, reason: errorText(error) }, `button BCM ${bcm}: reading the pin failed`);
          reportedError = true;
          return;
        }
        onEdge(value === 1);
      });
    } catch (error) {
      try {
        pin.unexport();
      } catch {
        // Already failing; the first error is the one worth reporting.
      }
      throw new GpioPinError(bcm, `BCM ${bcm} (sysfs gpio${this.#offset.offset + bcm}): cannot be watched for presses (${errorText(error)})`);
    }
    return {
      read: () => pin.readSync() === 1,
      release: () => pin.unexport(),
    };
  }

  #open(bcm: number, create: () => OnoffPin): OnoffPin {
    try {
      return create();
    } catch (error) {
      throw new GpioPinError(bcm, pinProblem(bcm, this.#offset, error));
    }
  }
}
