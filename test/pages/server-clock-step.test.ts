// The pages' estimate of the box's clock follows a step of the box's wall clock
// (set by hand from the console, or NTP: issue 33) at the next round trip, even
// when the sample it had was quicker: a sample that contradicts it beyond both
// bounds means the clock stepped. Within the bounds, the quicker one is kept.
import { describe, expect, it } from 'vitest';
import { createServerClock, snapshotSaysStep, SNAPSHOT_STEP_MS } from '../../src/client/server-clock.js';

describe('server clock and a step of the box\'s clock', () => {
  function setup() {
    const box = { perf: 0, rtt: 2, ahead: 1_700_000_000_000 };
    const clock = createServerClock('/time', {
      samples: 1,
      perfNow: () => box.perf,
      fetchTime: async () => {
        const at = box.perf + box.rtt / 2 + box.ahead;
        box.perf += box.rtt;
        return at;
      },
    });
    return { box, clock };
  }

  it('a step of 3 min 12 s back is followed at the next sync, though the new round trip is slower', async () => {
    const { box, clock } = setup();
    await clock.sync();
    box.perf += 1_000;
    box.ahead -= 192_000;
    box.rtt = 30;
    expect(await clock.sync()).toBe(true);
    expect(clock.now()).toBeCloseTo(box.perf + box.ahead, 6);
    expect(clock.bestRoundTripMs()).toBe(30);
  });

  it('a slower sample within the bounds (no step) does not replace the quick one', async () => {
    const { box, clock } = setup();
    await clock.sync();
    box.perf += 1_000;
    box.rtt = 60;
    box.ahead += 400; // a busy moment's disagreement: within the margin of a second
    expect(await clock.sync()).toBe(false);
    expect(clock.bestRoundTripMs()).toBe(2);
  });

  it('a snapshot stamped far from the estimate says the clock stepped (the page then measures at once); one near it does not', async () => {
    const { box, clock } = setup();
    expect(snapshotSaysStep(clock, box.ahead)).toBe(false); // no estimate yet
    await clock.sync();
    const now = clock.now()!;
    expect(snapshotSaysStep(clock, now + 150)).toBe(false);
    expect(snapshotSaysStep(clock, now - SNAPSHOT_STEP_MS - 1)).toBe(true);
    expect(snapshotSaysStep(clock, now - 192_000)).toBe(true);
  });

  it('stepped(): the snapshot\'s serverNow stands at once, and the next round trip is taken whatever its delay', async () => {
    const { box, clock } = setup();
    await clock.sync();
    box.ahead -= 192_000;
    clock.stepped(box.perf + box.ahead);
    expect(clock.now()).toBeCloseTo(box.perf + box.ahead, 6);
    box.rtt = 80;
    expect(await clock.sync()).toBe(true);
    expect(clock.bestRoundTripMs()).toBe(80);
  });
});
