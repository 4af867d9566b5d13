// BCM numbers to sysfs numbers. Since kernel 6.6 the header's GPIO chip no
// longer starts at 0: 512 + BCM on a Pi 0-4, 571 + BCM on a Pi 5 (where an
// unrelated chip sits at 512). The chip is found by its label under
// /sys/class/gpio; older kernels have it at 0; the config can force a number.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SYSFS_GPIO_ROOT = '/sys/class/gpio';

/** The header's GPIO controller, by board. The Pi 5 header is on the RP1 chip. */
const HEADER_CHIP_LABELS: readonly { readonly label: string; readonly board: string }[] = [
  { label: 'pinctrl-rp1', board: 'Raspberry Pi 5' },
  { label: 'pinctrl-bcm2711', board: 'Raspberry Pi 4 / 400 / CM4' },
  { label: 'pinctrl-bcm2835', board: 'Raspberry Pi 0-3' },
];

export interface GpioChip {
  readonly name: string;
  readonly label: string;
  readonly base: number;
}

export interface OffsetResolution {
  /** sysfs number = offset + BCM. */
  readonly offset: number;
  readonly source: 'config' | 'chip' | 'fallback';
  readonly chip: GpioChip | null;
  /** One sentence for the start-up log. */
  readonly note: string;
}

/** The gpiochipN entries that have a readable label and base; anything else is skipped. */
export function listGpioChips(root: string = SYSFS_GPIO_ROOT): GpioChip[] {
  let names: string[];
  try {
    names = readdirSync(root).filter((name) => /^gpiochip\d+$/.test(name));
  } catch {
    return [];
  }
  const chips: GpioChip[] = [];
  for (const name of names.sort()) {
    try {
      const label = readFileSync(join(root, name, 'label'), 'utf8').trim();
      const base = Number(readFileSync(join(root, name, 'base'), 'utf8').trim());
      if (Number.isInteger(base) && base >= 0) chips.push({ name, label, base });
    } catch {
      // A chip that vanished or cannot be read is not ours to guess about.
    }
  }
  return chips;
}

export function resolveSysfsOffset(opts: { root?: string; override?: number } = {}): OffsetResolution {
  const root = opts.root ?? SYSFS_GPIO_ROOT;
  if (opts.override !== undefined) {
    return { offset: opts.override, source: 'config', chip: null, note: `sysfs offset ${opts.override} from gpio.sysfsOffset in the config file` };
  }
  const chips = listGpioChips(root);
  for (const known of HEADER_CHIP_LABELS) {
    const chip = chips.find((c) => c.label === known.label);
    if (chip !== undefined) {
      return {
        offset: chip.base,
        source: 'chip',
        chip,
        note: `header GPIO chip ${chip.label} (${known.board}) at sysfs ${chip.base}: BCM 17 is gpio${chip.base + 17}`,
      };
    }
  }
  const seen = chips.length === 0 ? `no GPIO chips in ${root}` : `no Raspberry Pi header chip among ${chips.map((c) => `${c.name} "${c.label}"`).join(', ')}`;
  return {
    offset: 0,
    source: 'fallback',
    chip: null,
    note: `${seen}; using BCM numbers as sysfs numbers (set gpio.sysfsOffset in the config file if that is wrong)`,
  };
}
