// Buttons for `SHOWCLOCK_GPIO=sim`: type a button's BCM number and Enter to
// press it, with `h` to hold it past its long press. The press goes into the
// in-memory GPIO as levels, so the real debounce and hold logic handles it.
import { createInterface } from 'node:readline';
import type { Clock, Scheduler } from '../app/clock.js';
import { describePress, type ButtonSpec } from './button-actions.js';
import type { MemoryGpio } from './memory-gpio.js';

/** Time a simulated finger stays down beyond what the button needs to see a press. */
const FINGER_MARGIN_MS = 60;

export function buttonHelp(buttons: readonly ButtonSpec[]): string {
  const lines = buttons.map((b) => {
    const parts = [b.short === null ? null : describePress(b.short), b.long === null ? null : `hold: ${describePress(b.long)}`].filter((p) => p !== null);
    return `  ${b.bcm}${b.long === null ? '' : ` / ${b.bcm}h`}  ${parts.join(', ')}`;
  });
  return `Simulated buttons: type a BCM number and Enter to press it, add h to hold it.\n${lines.join('\n')}\n`;
}

/**
 * A typed line as a press: `17`, `17h`, `17 hold`, `h 17` (any case, spaces around);
 * null when it is none. Trimmed first, then matched without white space at its ends:
 * `^\s*...\s*(h|hold)?\s*$` on the whole line was quadratic on a digit and a long run of
 * spaces not ending the line (issue 26: 64 KB of spaces held the event loop 1.6 s).
 */
export function parseButtonLine(line: string): { readonly bcm: number; readonly hold: boolean } | null {
  const match = /^(?:(\d{1,2})\s*(h|hold)?|(?:h|hold)\s*(\d{1,2}))$/i.exec(line.trim());
  if (match === null) return null;
  return { bcm: Number(match[1] ?? match[3]), hold: match[2] !== undefined || match[3] !== undefined };
}

export function attachTerminalButtons(deps: {
  input: NodeJS.ReadableStream;
  output: { write(text: string): unknown };
  gpio: MemoryGpio;
  buttons: readonly ButtonSpec[];
  clock: Clock;
  scheduler: Scheduler;
}): { close(): void } {
  const { input, output, gpio, buttons, clock, scheduler } = deps;
  const releases = new Set<{ cancel(): void }>();
  const lines = createInterface({ input, terminal: false });
  output.write(buttonHelp(buttons));

  lines.on('line', (line) => {
    const press = parseButtonLine(line);
    const button = press === null ? undefined : buttons.find((b) => b.bcm === press.bcm);
    if (press === null || button === undefined) {
      if (line.trim() !== '') output.write(buttonHelp(buttons));
      return;
    }
    const { bcm, hold } = press;
    if (hold && button.long === null) {
      output.write(`BCM ${bcm} has no long press; pressing it briefly\n`);
    }
    const downMs = button.debounceMs + FINGER_MARGIN_MS + (hold && button.long !== null ? button.long.holdMs : 0);
    gpio.setInput(bcm, false);
    const release = scheduler.schedule(clock.monoMs() + downMs, () => {
      releases.delete(release);
      gpio.setInput(bcm, true);
    });
    releases.add(release);
  });

  return {
    close: () => {
      lines.close();
      for (const release of releases) release.cancel();
      releases.clear();
    },
  };
}
