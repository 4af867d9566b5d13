// The port between the lamp and button bindings and the hardware. Two
// implementations: onoff on sysfs (onoff-gpio.ts) and in memory (memory-gpio.ts,
// for `SHOWCLOCK_GPIO=sim` and the tests). Pins are BCM numbers here; levels are
// physical (true = high, 3.3 V). activeLow and "pressed = low" are the bindings'
// business, so both implementations stay dumb.

export interface OutputLine {
  write(high: boolean): void;
  /** Leaves the pin (unexport); the last level written stays on the pin. */
  release(): void;
}

export interface InputLine {
  read(): boolean;
  release(): void;
}

export interface GpioPort {
  /** The pin becomes an output already at `initialHigh`, so a lamp never flickers at start. */
  openOutput(bcm: number, initialHigh: boolean): OutputLine;
  /** `onEdge` gets the level after every change the hardware reports, bounces included. */
  openInput(bcm: number, onEdge: (high: boolean) => void): InputLine;
}

/** A pin that could not be opened; the message says what to do about it. */
export class GpioPinError extends Error {
  override readonly name = 'GpioPinError';
  constructor(
    readonly bcm: number,
    message: string,
  ) {
    super(message);
  }
}
