// The BCM -> sysfs offset, read from fake /sys/class/gpio trees laid out like
// the real boards' (labels and bases as the kernels publish them).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSysfsOffset } from '../../src/gpio/sysfs-offset.js';

const top = mkdtempSync(path.join(tmpdir(), 'showclock-sysfs-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function tree(name: string, chips: Record<string, { label?: string; base?: string }>): string {
  const root = path.join(top, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'export'), '');
  for (const [chip, files] of Object.entries(chips)) {
    mkdirSync(path.join(root, chip));
    if (files.label !== undefined) writeFileSync(path.join(root, chip, 'label'), `${files.label}\n`);
    if (files.base !== undefined) writeFileSync(path.join(root, chip, 'base'), `${files.base}\n`);
  }
  return root;
}

describe('resolveSysfsOffset', () => {
  it('finds the Pi 4 header chip at 512 on kernel 6.6+, next to the firmware expander', () => {
    const root = tree('pi4-6.6', {
      gpiochip512: { label: 'pinctrl-bcm2711', base: '512' },
      gpiochip570: { label: 'raspberrypi-exp-gpio', base: '570' },
    });
    const found = resolveSysfsOffset({ root });
    expect(found).toMatchObject({ offset: 512, source: 'chip', chip: { name: 'gpiochip512', label: 'pinctrl-bcm2711' } });
    expect(found.note).toContain('gpio529');
  });

  it('finds the Pi 5 header on the RP1 chip at 571, not the unrelated chip at 512', () => {
    const root = tree('pi5-6.6', {
      gpiochip512: { label: 'gpio-brcmstb@107d508500', base: '512' },
      gpiochip544: { label: 'gpio-brcmstb@107d517c00', base: '544' },
      gpiochip571: { label: 'pinctrl-rp1', base: '571' },
    });
    expect(resolveSysfsOffset({ root })).toMatchObject({ offset: 571, source: 'chip', chip: { label: 'pinctrl-rp1' } });
  });

  it('finds a Pi 0-3 (bcm2835) and an older kernel that numbers from 0', () => {
    expect(resolveSysfsOffset({ root: tree('pi3-6.6', { gpiochip512: { label: 'pinctrl-bcm2835', base: '512' } }) }).offset).toBe(512);
    const old = tree('pi4-6.1', { gpiochip0: { label: 'pinctrl-bcm2711', base: '0' }, gpiochip504: { label: 'raspberrypi-exp-gpio', base: '504' } });
    expect(resolveSysfsOffset({ root: old })).toMatchObject({ offset: 0, source: 'chip' });
  });

  it('falls back to 0 and says why when no Pi chip is there', () => {
    const other = tree('not-a-pi', { gpiochip0: { label: 'INT34C5:00', base: '0' }, gpiochip300: { label: 'cros-ec-gpio', base: '300' } });
    const found = resolveSysfsOffset({ root: other });
    expect(found).toMatchObject({ offset: 0, source: 'fallback', chip: null });
    expect(found.note).toContain('cros-ec-gpio');
    expect(found.note).toContain('gpio.sysfsOffset');
    const missing = resolveSysfsOffset({ root: path.join(top, 'no-such-dir') });
    expect(missing).toMatchObject({ offset: 0, source: 'fallback' });
    expect(missing.note).toContain('no GPIO chips');
  });

  it('skips a chip it cannot read', () => {
    const root = tree('half-read', {
      gpiochip0: { label: 'pinctrl-rp1' },
      gpiochip512: { label: 'pinctrl-bcm2711', base: 'x' },
      gpiochip600: { label: 'pinctrl-bcm2835', base: '600' },
    });
    expect(resolveSysfsOffset({ root })).toMatchObject({ offset: 600, chip: { label: 'pinctrl-bcm2835' } });
  });

  it('lets the config override what the tree says', () => {
    const root = tree('pi5-override', { gpiochip571: { label: 'pinctrl-rp1', base: '571' } });
    expect(resolveSysfsOffset({ root, override: 399 })).toMatchObject({ offset: 399, source: 'config' });
  });
});
