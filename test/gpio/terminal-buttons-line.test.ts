// The simulated buttons' typed lines (src/gpio/terminal-buttons.ts, SHOWCLOCK_GPIO=sim):
// read as the one regular expression read them, and in linear time (issue 26: its
// `\s*(h|hold)?\s*$` made a digit and 64 KB of spaces not ending the line a 1.6 s block).
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandFor, type ButtonSpec } from '../../src/gpio/button-actions.js';
import { MemoryGpio } from '../../src/gpio/memory-gpio.js';
import { attachTerminalButtons, parseButtonLine } from '../../src/gpio/terminal-buttons.js';
import { FakeClock } from '../helpers/test-app.js';
import { bestMs } from '../helpers/best-time.js';

/** The line reading as it was, for comparison (quadratic: small lines only). */
function reference(line: string): { bcm: number; hold: boolean } | null {
  const match = /^\s*(?:(\d{1,2})\s*(h|hold)?|(?:h|hold)\s*(\d{1,2}))\s*$/i.exec(line);
  return match === null ? null : { bcm: Number(match[1] ?? match[3]), hold: match[2] !== undefined || match[3] !== undefined };
}


describe('parseButtonLine', () => {
  it.each([
    ['17', { bcm: 17, hold: false }],
    ['  5  ', { bcm: 5, hold: false }],
    ['17h', { bcm: 17, hold: true }],
    ['17 HOLD\t', { bcm: 17, hold: true }],
    ['h 27', { bcm: 27, hold: true }],
    ['Hold27', { bcm: 27, hold: true }],
    ['\u00a017 h\u3000', { bcm: 17, hold: true }],
    ['', null],
    ['171', null],
    ['17 x', null],
    ['h', null],
    ['17 h h', null],
  ])('%j', (line, expected) => {
    expect(parseButtonLine(line)).toEqual(expected);
    expect(reference(line)).toEqual(expected);
  });

  it('reads every line as the regular expression on the whole line did', () => {
    const piece = fc.constantFrom(' ', '\t', '\u00a0', '\ufeff', '1', '7', '0', 'h', 'H', 'o', 'l', 'd', 'hold', 'x', '\r');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')), (line) => {
        expect(parseButtonLine(line)).toEqual(reference(line));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['a digit, 1 MB of spaces, then something else', `1${' '.repeat(1 << 20)}x`],
    ['h, 1 MB of spaces, then something else', `h${' '.repeat(1 << 20)}x`],
    ['1 MB of spaces around a digit and a letter', `${' '.repeat(1 << 19)}1 x${' '.repeat(1 << 19)}`],
  ])('reads %s in under 50 ms', (_name, line) => {
    expect(parseButtonLine(line)).toBeNull();
    expect(bestMs(() => parseButtonLine(line))).toBeLessThan(50);
  });
});

describe('attachTerminalButtons', () => {
  it('presses the button typed, and answers a long line of spaces with the help at once', () => {
    const clock = new FakeClock();
    const gpio = new MemoryGpio();
    const edges: boolean[] = [];
    gpio.openInput(17, (high) => void edges.push(high));
    const written: string[] = [];
    const input = new PassThrough();
    const button: ButtonSpec = { bcm: 17, debounceMs: 20, short: { action: 'toggle', command: commandFor('toggle', undefined) }, long: null };
    const attached = attachTerminalButtons({ input, output: { write: (text) => void written.push(text) }, gpio, buttons: [button], clock, scheduler: clock.scheduler });
    return new Promise<void>((resolve) => {
      input.write(`1${' '.repeat(1 << 16)}x\n17\n`, () => {
        setImmediate(() => {
          expect(edges).toEqual([false]);
          clock.advance(1000);
          expect(edges).toEqual([false, true]);
          // The help at start and once for the line that is no button.
          expect(written.filter((text) => text.startsWith('Simulated buttons'))).toHaveLength(2);
          attached.close();
          resolve();
        });
      });
    });
  });
});
