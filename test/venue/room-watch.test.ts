// One watched room (src/venue/room-watch.ts) against a fake box on fake timers:
// live, lost on silence within 3-4 s, lost when the stream ends, retried and back,
// a refused key as its own status, the clock offset from the quickest round trip,
// and a box that sends without end is cut off.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { snapshotDelta } from '../../src/domain/snapshot-delta.js';
import { MAX_EVENT_BYTES, RoomWatch } from '../../src/venue/room-watch.js';
import { fakeRemote, stateEventText, viewerSnapshot, type FakeRemote } from './fake-remote.js';

const KEY = 'ViewerKeyOfHallA_0123456789';

function watchOf(remote: FakeRemote): { watch: RoomWatch; changes: () => number } {
  let changes = 0;
  const watch = new RoomWatch({ origin: 'http://10.0.0.12:8080', key: KEY, io: remote.io, onChange: () => (changes += 1) });
  return { watch, changes: () => changes };
}

/** Lets the fake fetch and stream promises run, moving the fake clock by `ms`. */
const pass = (ms: number): Promise<void> => vi.advanceTimersByTimeAsync(ms).then(() => undefined);

/** Starts the watch and has the box send its first snapshot: the watch is live. */
async function startLive(watch: RoomWatch, remote: FakeRemote): Promise<void> {
  watch.start();
  await pass(0);
  remote.streams[0]?.send(stateEventText(viewerSnapshot()));
  await pass(0);
}

describe('RoomWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-27T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the viewer stream with a 1 s heartbeat and is live at its first snapshot', async () => {
    const remote = fakeRemote();
    const { watch } = watchOf(remote);
    watch.start();
    expect(watch.state.status).toBe('connecting');
    await pass(0);
    expect(remote.streams[0]?.url).toBe(`http://10.0.0.12:8080/view/${KEY}/events?heartbeat=1`);
    const first = viewerSnapshot({ onAir: true });
    remote.streams[0]?.send(stateEventText(first));
    await pass(0);
    expect(watch.state.status).toBe('live');
    expect(watch.state.snapshot?.onAir).toBe(true);
    // A change as a patch of the snapshot held, as the box's hub makes it.
    const delta = snapshotDelta(first, { ...first, seq: 2, activeLabel: 'Panel' });
    remote.streams[0]?.send(`id: 2\nevent: patch\ndata: ${JSON.stringify(delta)}\n\n`);
    await pass(0);
    expect(watch.state.snapshot?.activeLabel).toBe('Panel');
    // The name comes from the box's own time answer.
    await pass(1_000);
    expect(watch.state.name).toBe('Hall A');
    watch.close();
  });

  it('is lost 3 s after the last byte (heartbeats keep it live), says since when, and is back after a retry', async () => {
    const remote = fakeRemote();
    const { watch } = watchOf(remote);
    await startLive(watch, remote);
    for (let i = 0; i < 10; i += 1) {
      await pass(1_000);
      remote.streams[0]?.send(': heartbeat\n\n');
    }
    expect(watch.state.status).toBe('live');
    const lastByteAt = Date.now();
    await pass(2_900);
    expect(watch.state.status).toBe('live');
    await pass(100);
    expect(watch.state.status).toBe('lost');
    expect(watch.state.since - lastByteAt).toBeGreaterThanOrEqual(3_000);
    expect(watch.state.since - lastByteAt).toBeLessThan(4_000);
    expect(watch.state.message).toBe('not answering: nothing for 3 s');
    expect(remote.streams[0]?.aborted).toBe(true);
    // The snapshot is kept, for the tile to show greyed.
    expect(watch.state.snapshot).not.toBeNull();
    // Retried after 1 s + up to 2 s of jitter (random 0.5: 2 s).
    await pass(1_999);
    expect(remote.streams).toHaveLength(1);
    await pass(1);
    expect(remote.streams).toHaveLength(2);
    expect(watch.state.status).toBe('lost');
    remote.streams[1]?.send(stateEventText(viewerSnapshot({ seq: 9 })));
    await pass(0);
    expect(watch.state.status).toBe('live');
    expect(watch.state.snapshot?.seq).toBe(9);
    watch.close();
  });

  it('is lost at once when the stream ends, and keeps trying while the box is down', async () => {
    const remote = fakeRemote();
    const { watch } = watchOf(remote);
    await startLive(watch, remote);
    remote.down = true;
    remote.streams[0]?.close();
    await pass(0);
    expect(watch.state.status).toBe('lost');
    expect(watch.state.message).toBe('not answering: the stream ended');
    const since = watch.state.since;
    await pass(2_000);
    expect(watch.state.message).toBe('not answering: connection refused');
    // Still lost since the first moment: retrying changes nothing about since when.
    expect(watch.state.since).toBe(since);
    const tries = remote.requests.length;
    await pass(6_000);
    expect(remote.requests.length - tries).toBe(3);
    remote.down = false;
    await pass(2_000);
    remote.streams.at(-1)?.send(stateEventText(viewerSnapshot()));
    await pass(0);
    expect(watch.state.status).toBe('live');
    watch.close();
  });

  it('a refused key (401) is its own status, saying what to fix, and never quotes the key', async () => {
    const remote = fakeRemote();
    remote.status = 401;
    const { watch } = watchOf(remote);
    watch.start();
    await pass(0);
    expect(watch.state.status).toBe('refused');
    expect(watch.state.message).toMatch(/venue\.key.*SHOWCLOCK_VENUE_KEY/);
    expect(watch.state.message).not.toContain(KEY);
    // Asked again, less often.
    await pass(9_000);
    expect(remote.requests).toHaveLength(1);
    remote.status = 200;
    await pass(1_000);
    remote.streams[0]?.send(stateEventText(viewerSnapshot()));
    await pass(0);
    expect(watch.state.status).toBe('live');
    watch.close();
  });

  it('measures the clock offset NTP-style, keeping the quickest round trip', async () => {
    const remote = fakeRemote();
    remote.offsetMs = 5_000;
    // Slow and lopsided round trips give wrong offsets; the 2 ms one is exact.
    remote.delays = [
      [80, 10],
      [1, 1],
      [5, 60],
      [30, 30],
      [40, 2],
    ];
    const { watch } = watchOf(remote);
    watch.start();
    await pass(0);
    expect(watch.state.offsetMs).toBeNull();
    remote.streams[0]?.send(stateEventText(viewerSnapshot()));
    await pass(0);
    // Five samples 40 ms apart, each under 100 ms.
    for (let i = 0; i < 20 && remote.requests.filter((url) => url.endsWith('/time')).length < 5; i += 1) await pass(100);
    await pass(200);
    expect(remote.requests.filter((url) => url.endsWith('/time'))).toHaveLength(5);
    expect(watch.state.offsetMs).toBe(5_000);
    watch.close();
  });

  it('cuts off a box that sends an event without end, and one that answers with something else', async () => {
    const remote = fakeRemote();
    const { watch } = watchOf(remote);
    watch.start();
    await pass(0);
    const piece = `data: ${'x'.repeat(64 * 1024)}\n`;
    for (let sent = 0; sent <= MAX_EVENT_BYTES; sent += piece.length) remote.streams[0]?.send(piece);
    await pass(0);
    expect(watch.state.status).toBe('lost');
    expect(watch.state.message).toBe(`not answering: sent an event of more than ${MAX_EVENT_BYTES} bytes`);
    watch.close();

    const other = fakeRemote();
    const html = new RoomWatch({
      origin: 'http://10.0.0.13:8080',
      key: KEY,
      io: { ...other.io, fetch: async () => new Response('<html>', { headers: { 'Content-Type': 'text/html' } }) },
      onChange: () => {},
    });
    html.start();
    await pass(0);
    expect(html.state.message).toBe('not answering: answered something other than a Showclock stream');
    html.close();
  });

  it('a box that never answers the request is lost after 3 s', async () => {
    const remote = fakeRemote();
    const watch = new RoomWatch({
      origin: 'http://10.0.0.14:8080',
      key: KEY,
      io: {
        ...remote.io,
        fetch: (_url, init) =>
          new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })))),
      },
      onChange: () => {},
    });
    watch.start();
    await pass(3_000);
    expect(watch.state.status).toBe('lost');
    expect(watch.state.message).toBe('not answering: nothing for 3 s');
    watch.close();
  });
});
