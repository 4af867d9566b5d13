// Setting the box's clock (issue 33) never moves a running countdown: the room
// counts on the monotonic clock, and a wall-clock step (the clock set by hand
// from the console, or NTP's first sync) only moves the wall-clock labels
// (serverNow, endAt) together. The zero instant stays where the monotonic clock
// puts it, either way the step goes.
import { describe, expect, it } from 'vitest';
import { createTestApp, roomWithTimers } from '../helpers/test-app.js';
import type { Snapshot } from '../../src/domain/snapshot.js';

async function state(t: ReturnType<typeof createTestApp>): Promise<Snapshot> {
  return ((await (await t.get('v1', '/state')).json()) as { state: Snapshot }).state;
}

describe('a wall-clock step and a running countdown', () => {
  for (const stepMs of [-192_000, 192_000, -86_400_000]) {
    it(`a step of ${stepMs / 1_000} s leaves the time left and the zero instant where they were`, async () => {
      const room = roomWithTimers(2);
      const t = createTestApp({ room: { ...room, settings: { ...room.settings, zeroBehavior: 'stop' } } });
      expect((await t.get('v1', '/start')).status).toBe(200);
      t.clock.advance(15_000);
      const before = await state(t);
      expect(before.remaining).toBe(45_000);

      t.clock.stepWall(stepMs);
      const after = await state(t);
      expect(after.remaining).toBe(45_000);
      expect(after.running).toBe(true);
      expect(after.serverNow - before.serverNow).toBe(stepMs);
      expect(after.endAt).toBe(after.serverNow + 45_000);
      expect(after.seq).toBe(before.seq);

      // One ms before the zero it still runs; at the zero it stops, 45 s of monotonic time on.
      t.clock.advance(44_999);
      expect((await state(t)).remaining).toBe(1);
      expect((await state(t)).running).toBe(true);
      t.clock.advance(1);
      expect(await state(t)).toMatchObject({ running: false, remaining: 0 });
    });
  }
});
