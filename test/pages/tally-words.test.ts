// The words of the console's tally indicator (src/pages/control/tally-indicator.ts):
// which sources it names, and when ON AIR counts as set by hand.
import { describe, expect, it } from 'vitest';
import { tallyWords } from '../../src/pages/control/tally-indicator.js';

describe('tallyWords', () => {
  it('names the sources that say on while the tally is on, every source heard while it is off', () => {
    expect(tallyWords({ on: true, sources: { tsl: true } }, true)).toEqual({ state: 'Tally ON', sources: 'TSL', detail: 'TSL: on air', byHand: false });
    expect(tallyWords({ on: true, sources: { tsl: false, obs: true } }, true)).toMatchObject({ sources: 'OBS', detail: 'TSL: off · OBS: on air' });
    expect(tallyWords({ on: true, sources: { tsl: true, obs: true } }, true)).toMatchObject({ sources: 'TSL + OBS' });
    expect(tallyWords({ on: false, sources: { tsl: false, obs: false } }, false)).toMatchObject({ state: 'Tally off', sources: 'TSL + OBS' });
    expect(tallyWords({ on: false, sources: { obs: false } }, false)).toMatchObject({ sources: 'OBS', detail: 'OBS: off' });
  });

  it('calls ON AIR set by hand exactly when it differs from the tally', () => {
    expect(tallyWords({ on: true, sources: { tsl: true } }, false).byHand).toBe(true);
    expect(tallyWords({ on: false, sources: { tsl: false } }, true).byHand).toBe(true);
    expect(tallyWords({ on: false, sources: { tsl: false } }, false).byHand).toBe(false);
  });
});
