// The push hub in process: a real RoomService on a fake clock, streams read as
// an HTTP server would read them, the heartbeat ticked by hand.
import { describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { PushHub, type PushHubOptions, type Repeater } from '../../src/push/push-hub.js';
import type { SseEvent } from '../../src/pages/display/sse-parser.js';
import { FakeClock } from '../helpers/test-app.js';
import { readStream, stateOf } from './sse-reader.js';

function manualRepeater(): { repeater: Repeater; tick(): void; active(): boolean; periodMs(): number | null } {
  let run: (() => void) | null = null;
  let period: number | null = null;
  return {
    repeater: {
      every(ms, r) {
        run = r;
        period = ms;
        return {
          cancel: () => {
            run = null;
          },
        };
      },
    },
    tick: () => run?.(),
    active: () => run !== null,
    periodMs: () => period,
  };
}

function setup(opts: Partial<PushHubOptions> = {}) {
  const clock = new FakeClock();
  const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
  service.start();
  const beat = manualRepeater();
  const hub = new PushHub({ source: service, repeater: beat.repeater, nowMs: clock.monoMs, ...opts });
  hub.start();
  return { clock, service, hub, beat };
}

/** Lets the hub's microtask and the readers' loops run. */
const settleIo = () => new Promise((resolve) => setTimeout(resolve, 0));

function mustOpen(hub: PushHub, opts: Parameters<PushHub['open']>[0] = {}) {
  const client = hub.open(opts);
  if (client === null) throw new Error('hub refused the stream');
  return client;
}

function seqs(events: readonly SseEvent[]): number[] {
  return events.map((e) => stateOf(e).seq);
}

describe('push hub', () => {
  it('starts every stream with the current snapshot: id is seq, event is state, data is GET /state’s state', async () => {
    const { hub, service } = setup();
    service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    const reader = readStream(mustOpen(hub).stream);
    const [first] = await reader.waitForEvents(1);
    expect(first?.event).toBe('state');
    expect(first?.id).toBe(String(service.room.seq));
    expect(stateOf(first!)).toEqual(service.snapshot());
    expect(reader.text().startsWith(`id: ${service.room.seq}\nevent: state\ndata: {`)).toBe(true);
    await reader.cancel();
  });

  it('fans each change out to every stream as the same bytes, serialised once', async () => {
    const { hub, service } = setup();
    const readers = [0, 1, 2].map(() => readStream(mustOpen(hub).stream));
    service.dispatch({ type: 'start' }, 'http-v1');
    await settleIo();
    for (const r of readers) await r.waitForEvents(2);
    expect(hub.serializedCount).toBe(1);
    const shared = readers.map((r) => r.chunks[1]);
    expect(shared[0]).toBeDefined();
    expect(shared[1]).toBe(shared[0]);
    expect(shared[2]).toBe(shared[0]);
    for (const r of readers) {
      expect(stateOf(r.events[1]!)).toMatchObject({ seq: service.room.seq, running: true });
      await r.cancel();
    }
  });

  it('serialises nothing while nobody listens', async () => {
    const { hub, service } = setup();
    service.dispatch({ type: 'start' }, 'http-v1');
    service.dispatch({ type: 'pause' }, 'http-v1');
    await settleIo();
    expect(hub.serializedCount).toBe(0);
  });

  it('sends 20 commands made one after another as 20 events, in seq order', async () => {
    const { hub, service } = setup();
    const reader = readStream(mustOpen(hub).stream);
    const startSeq = service.room.seq;
    for (let i = 1; i <= 20; i += 1) {
      service.dispatch({ type: 'adjust', ms: 1000 }, 'http-v1');
      await settleIo();
    }
    const events = await reader.waitForEvents(21);
    expect(seqs(events)).toEqual(Array.from({ length: 21 }, (_, i) => startSeq + i));
    expect(stateOf(events[20]!)).toEqual(service.snapshot());
    await reader.cancel();
  });

  it('ends a synchronous burst on the final state, seq strictly rising', async () => {
    const { hub, service } = setup();
    const reader = readStream(mustOpen(hub).stream);
    await reader.waitForEvents(1);
    for (let i = 0; i < 20; i += 1) service.dispatch({ type: 'adjust', ms: 1000 }, 'http-v1');
    await settleIo();
    await reader.waitForEvents(2);
    const got = seqs(reader.events);
    for (let i = 1; i < got.length; i += 1) expect(got[i]).toBeGreaterThan(got[i - 1]!);
    expect(stateOf(reader.events.at(-1)!)).toEqual(service.snapshot());
    await reader.cancel();
  });

  it('keeps a slow reader bounded and coalesced while a fast one gets every event; the slow one still ends on the last state', async () => {
    const { hub, service } = setup({ highWaterMark: 4, maxBacklog: 8 });
    const slow = mustOpen(hub);
    const fast = readStream(mustOpen(hub).stream);
    const startSeq = service.room.seq;
    let maxHeld = 0;
    for (let i = 0; i < 200; i += 1) {
      service.dispatch({ type: i % 2 === 0 ? 'start' : 'pause' }, 'http-v1');
      await settleIo();
      maxHeld = Math.max(maxHeld, slow.backlogLength + slow.queuedLength);
    }
    const events = await fast.waitForEvents(201);
    expect(seqs(events)).toEqual(Array.from({ length: 201 }, (_, i) => startSeq + i));
    expect(maxHeld).toBeLessThanOrEqual(4 + 8 + 1);
    expect(slow.coalescedCount).toBeGreaterThan(0);

    const late = readStream(slow.stream);
    await settleIo();
    await late.waitForEvents(2);
    const got = seqs(late.events);
    for (let i = 1; i < got.length; i += 1) expect(got[i]).toBeGreaterThan(got[i - 1]!);
    expect(got.at(-1)).toBe(service.room.seq);
    expect(got.length).toBeLessThan(30);
    await late.cancel();
    await fast.cancel();
  });

  it('drops a reader that took nothing past the stall limit and cuts its connection; readers that read stay', async () => {
    const { hub, service, clock, beat } = setup({ stallLimitMs: 30_000 });
    let cut = 0;
    const stalled = mustOpen(hub, { abortConnection: () => (cut += 1) });
    const alive = readStream(mustOpen(hub).stream);
    service.dispatch({ type: 'start' }, 'http-v1');
    await settleIo();
    clock.advance(10_000);
    beat.tick();
    expect(stalled.ended).toBe(false);
    clock.advance(25_000);
    beat.tick();
    expect(stalled.ended).toBe(true);
    expect(cut).toBe(1);
    expect(hub.clientCount).toBe(1);
    await alive.waitForComments(2);
    expect(alive.comments).toEqual(['heartbeat', 'heartbeat']);
    await alive.cancel();
  });

  it('sends a heartbeat comment every 15 s and only while streams are open; cleans up on disconnect', async () => {
    const { hub, beat } = setup();
    expect(beat.active()).toBe(false);
    const a = readStream(mustOpen(hub).stream);
    const b = readStream(mustOpen(hub).stream);
    expect(beat.active()).toBe(true);
    expect(beat.periodMs()).toBe(15_000);
    beat.tick();
    await a.waitForComments(1);
    expect(a.text()).toContain('\n\n: heartbeat\n\n');
    await a.cancel();
    await settleIo();
    expect(hub.clientCount).toBe(1);
    expect(beat.active()).toBe(true);
    await b.cancel();
    await settleIo();
    expect(hub.clientCount).toBe(0);
    expect(beat.active()).toBe(false);
  });

  it('ends a stream whose key was rotated, at revalidate() and at the heartbeat', async () => {
    const { hub, beat } = setup();
    let apiKeyValid = true;
    let viewerKeyValid = true;
    const api = readStream(mustOpen(hub, { stillAllowed: () => apiKeyValid }).stream);
    const viewer = readStream(mustOpen(hub, { stillAllowed: () => viewerKeyValid }).stream);
    apiKeyValid = false;
    hub.revalidate();
    await api.ended;
    expect(hub.clientCount).toBe(1);
    viewerKeyValid = false;
    beat.tick();
    await viewer.ended;
    expect(hub.clientCount).toBe(0);
  });

  it('close() ends every stream, stops listening and refuses new streams', async () => {
    const { hub, service } = setup();
    const readers = [readStream(mustOpen(hub).stream), readStream(mustOpen(hub).stream)];
    hub.close();
    await Promise.all(readers.map((r) => r.ended));
    expect(hub.clientCount).toBe(0);
    expect(hub.open()).toBeNull();
    service.dispatch({ type: 'start' }, 'http-v1');
    await settleIo();
    expect(hub.serializedCount).toBe(0);
  });

  it('refuses streams beyond its limit', () => {
    const { hub } = setup({ maxClients: 2 });
    expect(hub.open()).not.toBeNull();
    expect(hub.open()).not.toBeNull();
    expect(hub.open()).toBeNull();
  });

  it('reports a failure while fanning out instead of throwing it, and keeps going', async () => {
    const clock = new FakeClock();
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    let failing = false;
    const source = {
      subscribe: service.subscribe.bind(service),
      snapshot: () => {
        if (failing) throw new Error('snapshot broke');
        return service.snapshot();
      },
    };
    const errors: unknown[] = [];
    const hub = new PushHub({ source, repeater: manualRepeater().repeater, onError: (error) => errors.push(error) });
    hub.start();
    const reader = readStream(mustOpen(hub).stream);
    failing = true;
    service.dispatch({ type: 'start' }, 'http-v1');
    await settleIo();
    expect(errors).toHaveLength(1);
    failing = false;
    service.dispatch({ type: 'pause' }, 'http-v1');
    await settleIo();
    const [, next] = await reader.waitForEvents(2);
    expect(stateOf(next!).seq).toBe(service.room.seq);
    await reader.cancel();
  });

  it('pushes automatic changes at zero (stop) without any request', async () => {
    const { hub, service, clock } = setup();
    service.dispatch({ type: 'settings.set', zeroBehavior: 'stop' }, 'http-v1');
    service.dispatch({ type: 'start' }, 'http-v1');
    const reader = readStream(mustOpen(hub).stream);
    await reader.waitForEvents(1);
    clock.advance(600_000);
    await settleIo();
    const [, zero] = await reader.waitForEvents(2);
    expect(stateOf(zero!)).toMatchObject({ running: false, remainingAtPause: 0, seq: service.room.seq });
    await reader.cancel();
  });
});
