// The room's screen rules, with time as plain numbers: on at boot, on when a timer starts
// while the screen is not on, standby once a blackout is held N minutes (and when to look
// again until then), back on when that blackout is lifted.
import { describe, expect, it } from 'vitest';
import { bootScreen, stepScreen, type ScreenFacts, type ScreenRules } from '../../src/domain/screen-rules.js';
import { reportScreen } from '../../src/domain/screen.js';
import { createRoom } from '../../src/domain/room.js';

const MINUTE = 60_000;
const ALL: ScreenRules = { onAtBoot: true, onAtStart: true, standbyAfterBlackoutMs: 10 * MINUTE };
const NONE: ScreenRules = { onAtBoot: false, onAtStart: false, standbyAfterBlackoutMs: null };
const idle: ScreenFacts = { running: false, blackout: false, power: 'standby' };

describe('screen rules', () => {
  it('asks the screen on at boot, unless told not to or the room is blacked out', () => {
    expect(bootScreen(idle, ALL, 0).requests).toEqual([{ request: 'on', because: 'boot' }]);
    expect(bootScreen(idle, NONE, 0).requests).toEqual([]);
    const dark = bootScreen({ ...idle, blackout: true }, ALL, 1_000);
    expect(dark.requests).toEqual([]);
    // A blackout the box restarts into counts from the start.
    expect(dark.wakeAtMs).toBe(1_000 + 10 * MINUTE);
  });

  it('asks it on when a timer starts and the screen is not on; not again while it runs, nor when the screen is on', () => {
    const boot = bootScreen(idle, ALL, 0);
    const started = stepScreen(boot.watch, { ...idle, running: true }, ALL, 5_000);
    expect(started.requests).toEqual([{ request: 'on', because: 'timer-start' }]);
    expect(stepScreen(started.watch, { ...idle, running: true }, ALL, 6_000).requests).toEqual([]);
    expect(stepScreen(boot.watch, { ...idle, running: true, power: 'on' }, ALL, 5_000).requests).toEqual([]);
    expect(stepScreen(boot.watch, { ...idle, running: true, power: 'to-on' }, ALL, 5_000).requests).toEqual([]);
    // Unknown or unavailable: asked all the same (the adapter says why it could not).
    expect(stepScreen(boot.watch, { ...idle, running: true, power: 'unknown' }, ALL, 5_000).requests).toHaveLength(1);
    expect(stepScreen(boot.watch, { ...idle, running: true }, NONE, 5_000).requests).toEqual([]);
    // A start under a blackout leaves the screen dark: the blackout says so.
    expect(stepScreen(boot.watch, { ...idle, running: true, blackout: true }, ALL, 5_000).requests).toEqual([]);
  });

  it('puts the screen to standby once a blackout is held for the minutes set, and wakes to look then', () => {
    const boot = bootScreen({ ...idle, power: 'on' }, ALL, 0);
    const dark = stepScreen(boot.watch, { ...idle, power: 'on', blackout: true }, ALL, 60_000);
    expect(dark.requests).toEqual([]);
    expect(dark.wakeAtMs).toBe(60_000 + 10 * MINUTE);
    const early = stepScreen(dark.watch, { ...idle, power: 'on', blackout: true }, ALL, 60_000 + 10 * MINUTE - 1);
    expect(early.requests).toEqual([]);
    expect(early.wakeAtMs).toBe(60_000 + 10 * MINUTE);
    const due = stepScreen(early.watch, { ...idle, power: 'on', blackout: true }, ALL, 60_000 + 10 * MINUTE);
    expect(due.requests).toEqual([{ request: 'standby', because: 'blackout-held' }]);
    expect(due.wakeAtMs).toBeNull();
    // Once: further looks under the same blackout ask nothing.
    expect(stepScreen(due.watch, { ...idle, blackout: true }, ALL, 60_000 + 20 * MINUTE).requests).toEqual([]);
    // Lifted: the screen comes back.
    expect(stepScreen(due.watch, idle, ALL, 60_000 + 30 * MINUTE).requests).toEqual([{ request: 'on', because: 'blackout-lifted' }]);
  });

  it('forgets a blackout lifted before its time: the next one counts from its own start', () => {
    const boot = bootScreen({ ...idle, power: 'on' }, ALL, 0);
    const dark = stepScreen(boot.watch, { ...idle, blackout: true }, ALL, 0);
    const lifted = stepScreen(dark.watch, idle, ALL, 9 * MINUTE);
    expect(lifted.requests).toEqual([]);
    expect(lifted.wakeAtMs).toBeNull();
    const again = stepScreen(lifted.watch, { ...idle, blackout: true }, ALL, 12 * MINUTE);
    expect(again.wakeAtMs).toBe(22 * MINUTE);
    expect(stepScreen(again.watch, { ...idle, blackout: true }, ALL, 15 * MINUTE).requests).toEqual([]);
  });

  it('never puts the screen to standby when no minutes are set', () => {
    const boot = bootScreen(idle, NONE, 0);
    const dark = stepScreen(boot.watch, { ...idle, blackout: true }, NONE, 0);
    expect(dark.wakeAtMs).toBeNull();
    expect(stepScreen(dark.watch, { ...idle, blackout: true }, NONE, 24 * 60 * MINUTE).requests).toEqual([]);
  });
});

describe('screen reports', () => {
  it('change the room only when the screen says something new', () => {
    const room = createRoom('t1');
    expect(room.screen).toBeNull();
    const on = reportScreen(room, { power: 'on', problem: null });
    expect(on.screen).toEqual({ power: 'on', problem: null });
    expect(reportScreen(on, { power: 'on', problem: null })).toBe(on);
    expect(reportScreen(on, { power: 'unavailable', problem: 'no cec-ctl' }).screen).toEqual({ power: 'unavailable', problem: 'no cec-ctl' });
  });
});
