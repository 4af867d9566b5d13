// An in-memory GPIO: the same port as onoff, with no hardware behind it. It is
// what `SHOWCLOCK_GPIO=sim` runs the real bindings against (lamp changes go to
// the log, button presses come from the terminal), and what the tests drive.
import { GpioPinError, type GpioPort, type InputLine, type OutputLine } from './gpio-port.js';

interface Pin {
  readonly direction: 'in' | 'out';
  high: boolean;
  onEdge?: (high: boolean) => void;
}

export class MemoryGpio implements GpioPort {
  readonly #pins = new Map<number, Pin>();
  readonly #onOutput: (bcm: number, high: boolean) => void;
  readonly #brokenPins: ReadonlySet<number>;
  readonly #pendingLevel = new Map<number, boolean>();

  constructor(opts: { onOutput?: (bcm: number, high: boolean) => void; brokenPins?: Iterable<number> } = {}) {
    this.#onOutput = opts.onOutput ?? (() => {});
    this.#brokenPins = new Set(opts.brokenPins ?? []);
  }

  openOutput(bcm: number, initialHigh: boolean): OutputLine {
    this.#claim(bcm);
    const pin: Pin = { direction: 'out', high: initialHigh };
    this.#pins.set(bcm, pin);
    this.#onOutput(bcm, initialHigh);
    return {
      write: (high) => {
        if (this.#pins.get(bcm) !== pin) throw new Error(`BCM ${bcm} was released`);
        if (pin.high === high) return;
        pin.high = high;
        this.#onOutput(bcm, high);
      },
      release: () => {
        if (this.#pins.get(bcm) === pin) this.#pins.delete(bcm);
      },
    };
  }

  openInput(bcm: number, onEdge: (high: boolean) => void): InputLine {
    this.#claim(bcm);
    // Buttons are wired to GND with a pull-up: an idle input reads high.
    const pin: Pin = { direction: 'in', high: this.#pendingLevel.get(bcm) ?? true, onEdge };
    this.#pins.set(bcm, pin);
    return {
      read: () => pin.high,
      release: () => {
        if (this.#pins.get(bcm) === pin) this.#pins.delete(bcm);
      },
    };
  }

  /** Drives an input like a button or a bouncing contact would; an edge is reported only on a change. */
  setInput(bcm: number, high: boolean): void {
    const pin = this.#pins.get(bcm);
    if (pin === undefined) {
      // Not open yet: the level is what openInput will find (a button held down at start).
      this.#pendingLevel.set(bcm, high);
      return;
    }
    if (pin.direction !== 'in') throw new Error(`BCM ${bcm} is an output`);
    if (pin.high === high) return;
    pin.high = high;
    pin.onEdge?.(high);
  }

  /** The level of an output, or undefined when the pin is not an open output. */
  outputLevel(bcm: number): boolean | undefined {
    const pin = this.#pins.get(bcm);
    return pin?.direction === 'out' ? pin.high : undefined;
  }

  isOpen(bcm: number): boolean {
    return this.#pins.has(bcm);
  }

  #claim(bcm: number): void {
    if (this.#brokenPins.has(bcm)) throw new GpioPinError(bcm, `BCM ${bcm}: cannot be opened (simulated failure)`);
    if (this.#pins.has(bcm)) throw new GpioPinError(bcm, `BCM ${bcm}: is already open`);
  }
}
