// The `screen` section: off unless a CEC device is given, the room's rules on by default
// once it is (standby after a blackout only when asked for), every bad value named by its
// path, and the install script's commented example valid once uncommented.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { screenConfigured } from '../../src/config/screen-config.js';
import { installScriptExample, useConfigDir } from './config-dir.js';

const configs = useConfigDir('showclock-screen-config-');

describe('screen config', () => {
  it('is off without a device', () => {
    const { screen } = loadConfig({}, configs.path());
    expect(screenConfigured(screen)).toBe(false);
    expect(screen).toEqual({ cec: { device: undefined, osdName: 'Showclock', pollSeconds: 30 }, onAtBoot: true, onAtStart: true, standbyAfterBlackoutMinutes: null });
  });

  it('reads the file, and SHOWCLOCK_SCREEN_CEC_DEVICE on top', () => {
    const { screen } = configs.load({
      screen: { cec: { device: '/dev/cec0', osdName: 'Stage clock', pollSeconds: 10 }, onAtBoot: false, onAtStart: false, standbyAfterBlackoutMinutes: 10 },
    });
    expect(screen).toEqual({ cec: { device: '/dev/cec0', osdName: 'Stage clock', pollSeconds: 10 }, onAtBoot: false, onAtStart: false, standbyAfterBlackoutMinutes: 10 });
    expect(screenConfigured(screen)).toBe(true);
    expect(configs.load({ screen: { cec: { device: '/dev/cec0' } } }, { SHOWCLOCK_SCREEN_CEC_DEVICE: '/dev/cec1' }).screen.cec.device).toBe('/dev/cec1');
  });

  it('names the field of every bad value', () => {
    expect(configs.problem({ screen: { cec: { device: 'cec0' } } })).toContain('screen.cec.device: expected a CEC device path such as /dev/cec0');
    expect(configs.problem({ screen: { cec: { device: '/dev/../etc/passwd' } } })).toContain('screen.cec.device: expected a CEC device path');
    expect(configs.problem({ screen: { cec: { osdName: 'A name far too long for a TV' } } })).toContain('screen.cec.osdName: expected 1 to 14 characters');
    expect(configs.problem({ screen: { cec: { osdName: 'Uhr (groß)' } } })).toContain('screen.cec.osdName: expected plain ASCII');
    expect(configs.problem({ screen: { cec: { pollSeconds: 1 } } })).toContain('screen.cec.pollSeconds: expected 5 to 3600 seconds');
    expect(configs.problem({ screen: { standbyAfterBlackoutMinutes: 0 } })).toContain('screen.standbyAfterBlackoutMinutes: expected 1 to 1440 minutes');
    expect(configs.problem({ screen: { standbyAfterBlackoutMinutes: 2.5 } })).toContain('screen.standbyAfterBlackoutMinutes: expected a whole number');
    expect(configs.problem({ screen: { onAtBoot: 'yes' } })).toContain('screen.onAtBoot: expected true or false');
    expect(configs.problem({ screen: { device: '/dev/cec0' } })).toContain('screen.device: unknown key');
    expect(configs.problem({}, { SHOWCLOCK_SCREEN_CEC_DEVICE: 'hdmi' })).toContain('environment SHOWCLOCK_SCREEN_CEC_DEVICE: expected a CEC device path');
  });
});

describe('the install script', () => {
  it('has a commented screen example that is valid once uncommented', () => {
    const { screen } = configs.load(JSON.parse(installScriptExample('screen')));
    expect(screen).toEqual({ cec: { device: '/dev/cec0', osdName: 'Showclock', pollSeconds: 30 }, onAtBoot: true, onAtStart: true, standbyAfterBlackoutMinutes: 10 });
  });
});
