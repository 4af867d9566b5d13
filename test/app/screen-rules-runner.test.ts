// The room's screen rules at work: the runner reads the room after each change and at the
// instants the rules name, and asks the screen (a recording ScreenControl here): on at boot,
// on when the timer starts, standby after a blackout held the minutes set, on again when it
// is lifted. Time is the test clock's.
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenRulesRunner } from '../../src/app/screen-rules-runner.js';
import type { ScreenControl, ScreenRequest } from '../../src/domain/screen.js';
import type { ScreenAsk, ScreenRules } from '../../src/domain/screen-rules.js';
import { createTestApp } from '../helpers/test-app.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp(rules: ScreenRules) {
  const t = createTestApp();
  const asked: ScreenRequest[] = [];
  const logged: { ask: ScreenAsk; ok: boolean }[] = [];
  const screen: ScreenControl = {
    request: async (what) => {
      asked.push(what);
      return { ok: true, report: { power: what === 'standby' ? 'standby' : 'on', problem: null } };
    },
  };
  const runner = new ScreenRulesRunner({
    room: t.service,
    screen,
    rules,
    scheduler: t.clock.scheduler,
    monoMs: t.clock.monoMs,
    onRequest: (ask, answer) => logged.push({ ask, ok: answer.ok }),
  });
  cleanups.push(() => runner.close());
  return { t, asked, logged, runner };
}

describe('the screen rules runner', () => {
  it('asks the screen on at boot and when the timer starts (while the screen does not say on)', async () => {
    const { t, asked, logged, runner } = setUp({ onAtBoot: true, onAtStart: true, standbyAfterBlackoutMs: null });
    runner.start();
    expect(asked).toEqual(['on']);
    t.service.dispatch({ type: 'screen.report', report: { power: 'standby', problem: null } }, 'cec');
    t.service.dispatch({ type: 'start' }, 'http-v1');
    expect(asked).toEqual(['on', 'on']);
    // Running on: nothing more; paused and started again while the screen says on: nothing.
    t.service.dispatch({ type: 'screen.report', report: { power: 'on', problem: null } }, 'cec');
    t.service.dispatch({ type: 'pause' }, 'http-v1');
    t.service.dispatch({ type: 'start' }, 'http-v1');
    expect(asked).toEqual(['on', 'on']);
    await Promise.resolve();
    expect(logged.map((entry) => entry.ask.because)).toEqual(['boot', 'timer-start']);
  });

  it('puts the screen to standby once a blackout is held ten minutes, and brings it back when lifted', () => {
    const { t, asked, runner } = setUp({ onAtBoot: false, onAtStart: false, standbyAfterBlackoutMs: 10 * 60_000 });
    runner.start();
    t.service.dispatch({ type: 'blackout.set', on: true }, 'console');
    t.clock.advance(10 * 60_000 - 1);
    expect(asked).toEqual([]);
    t.clock.advance(1);
    expect(asked).toEqual(['standby']);
    t.clock.advance(60 * 60_000);
    expect(asked).toEqual(['standby']);
    t.service.dispatch({ type: 'blackout.set', on: false }, 'console');
    expect(asked).toEqual(['standby', 'on']);
  });

  it('lets a blackout lifted in time pass without a word to the screen; closed, it asks nothing', () => {
    const { t, asked, runner } = setUp({ onAtBoot: false, onAtStart: true, standbyAfterBlackoutMs: 10 * 60_000 });
    runner.start();
    t.service.dispatch({ type: 'blackout.set', on: true }, 'console');
    t.clock.advance(5 * 60_000);
    t.service.dispatch({ type: 'blackout.set', on: false }, 'console');
    t.clock.advance(60 * 60_000);
    expect(asked).toEqual([]);
    runner.close();
    t.service.dispatch({ type: 'start' }, 'http-v1');
    expect(asked).toEqual([]);
  });
});
