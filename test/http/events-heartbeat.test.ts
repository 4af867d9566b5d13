// /events?heartbeat=N: a push stream with a heartbeat of its own, for a client
// that must see a dead link within seconds (the Companion module asks for 1 s).
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';
import { heartbeatSeconds } from '../../src/api/event-routes.js';

describe('/events?heartbeat', () => {
  it('opens the stream for whole seconds from 1 to 15', async () => {
    const t = createTestApp();
    for (const n of ['1', '15']) {
      const res = await t.get('v1', `/events?heartbeat=${n}`);
      expect(res.status, n).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await res.body?.cancel();
    }
  });

  it('is 400 with what to write otherwise, and opens nothing', async () => {
    const t = createTestApp();
    for (const bad of ['0', '16', '1.5', 'fast', '', '-1']) {
      const res = await t.get('v1', `/events?heartbeat=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(`heartbeat must be whole seconds from 1 to 15 (the default is 15), not "${bad}"`);
    }
  });

  it('reads N as a number of seconds, none when absent', () => {
    expect(heartbeatSeconds(undefined)).toBeUndefined();
    expect(heartbeatSeconds('07')).toBe(7);
  });
});
