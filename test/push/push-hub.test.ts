// The push hub in process: a real RoomService on a fake clock, streams read as
// an HTTP server would read them, the heartbeat ticked by hand.
import { describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { publicSnapshot, streamSnapshot } from '../../src/domain/snapshot.js';
import { BYTES_PER_TURN, PushHub, type PushHubOptions, type Repeater } from '../../src/push/push-hub.js';
import { patchEvent } from '../../src/push/sse-format.js';
import { snapshotDelta } from '../../src/domain/snapshot-delta.js';
import type { SseEvent } from '../../src/client/sse-parser.js';
import { FakeClock } from '../helpers/test-app.js';
import { readStream, rebuild, stateOf } from './sse-reader.js';

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

function mustOpen(hub: PushHub, opts: Partial<Parameters<PushHub['open']>[0]> = {}) {
  const client = hub.open({ kind: 'viewer', ...opts });
  if (client === null) throw new Error('hub refused the stream');
  return client;
}

function seqs(events: readonly SseEvent[]): number[] {
  return rebuild(events).map((snapshot) => snapshot.seq);
}

describe('push hub', () => {
  it('starts every stream with the current snapshot: id is seq, event is state, data is GET /state’s state', async () => {
    const { hub, service } = setup();
    service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    const reader = readStream(mustOpen(hub).stream);
    const [first] = await reader.waitForEvents(1);
    expect(first?.event).toBe('state');
    expect(first?.id).toBe(String(service.room.seq));
    expect(stateOf(first!)).toEqual(publicSnapshot(service.snapshot()));
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
      expect(rebuild(r.events)[1]).toMatchObject({ seq: service.room.seq, running: true });
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
    expect(rebuild(events)[20]).toEqual(publicSnapshot(service.snapshot()));
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
    expect(rebuild(reader.events).at(-1)).toEqual(publicSnapshot(service.snapshot()));
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
    expect(hub.open({ kind: 'kiosk' })).toBeNull();
    expect(hub.refusal('kiosk')).toBe('closed');
    service.dispatch({ type: 'start' }, 'http-v1');
    await settleIo();
    expect(hub.serializedCount).toBe(0);
  });

  it('refuses streams beyond the budget of their kind, and viewers beyond their address’s share; other kinds still open', async () => {
    const { hub } = setup({ budgets: { kiosk: 1, control: 2, viewer: 3, viewerPerAddress: 2 } });
    expect(mustOpen(hub, { kind: 'viewer', address: '10.0.0.1' })).not.toBeNull();
    expect(mustOpen(hub, { kind: 'viewer', address: '::FFFF:10.0.0.1' })).not.toBeNull();
    // The same IPv4 client, however a dual-stack socket spells it.
    expect(hub.refusal('viewer', '10.0.0.1')).toBe('address');
    expect(hub.open({ kind: 'viewer', address: '::ffff:10.0.0.1' })).toBeNull();
    const third = mustOpen(hub, { kind: 'viewer' });
    expect(hub.refusal('viewer', '10.0.0.2')).toBe('viewer');
    expect(hub.open({ kind: 'viewer' })).toBeNull();
    expect(hub.refusal('kiosk')).toBeNull();
    mustOpen(hub, { kind: 'kiosk' });
    expect(hub.open({ kind: 'kiosk' })).toBeNull();
    mustOpen(hub, { kind: 'control' });
    mustOpen(hub, { kind: 'control' });
    expect(hub.refusal('control')).toBe('control');
    expect([hub.openOf('kiosk'), hub.openOf('control'), hub.openOf('viewer')]).toEqual([1, 2, 3]);
    // An ended stream gives its place back.
    third.end();
    expect(hub.refusal('viewer', '10.0.0.2')).toBeNull();
    expect(hub.openOf('viewer')).toBe(2);
  });

  it('sends the notice to control streams only, now and to those that open later', async () => {
    const { hub } = setup();
    const control = readStream(mustOpen(hub, { kind: 'control' }).stream);
    const viewer = readStream(mustOpen(hub, { kind: 'viewer' }).stream);
    const kiosk = readStream(mustOpen(hub, { kind: 'kiosk' }).stream);
    hub.setNotice('event: storage\ndata: {"saving":true}\n\n');
    const later = readStream(mustOpen(hub, { kind: 'control' }).stream);
    const [, notice] = await control.waitForEvents(2);
    expect(notice?.event).toBe('storage');
    expect((await later.waitForEvents(2))[1]?.event).toBe('storage');
    await settleIo();
    expect(viewer.text()).not.toContain('storage');
    expect(kiosk.text()).not.toContain('storage');
    await Promise.all([control, viewer, kiosk, later].map((r) => r.cancel()));
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
    const events = await reader.waitForEvents(2);
    expect(rebuild(events)[1]).toMatchObject({ running: false, remainingAtPause: 0, seq: service.room.seq });
    await reader.cancel();
  });
});

describe('push hub: a large change is sent in slices', () => {
  /** 99 timers, label and speaker at full length, added in one change: its delta is about 130 KB. */
  function bigImport(service: RoomService): Promise<void> {
    const long = '時'.repeat(200);
    const timers = Array.from({ length: 99 }, (_, i) => ({ id: `t${i + 2}`, fields: { label: long, speaker: long } }));
    return service.dispatch({ type: 'timer.import', timers }, 'http-v1').durable;
  }

  it('writes at most BYTES_PER_TURN of one change per turn of the event loop, and every stream gets it', async () => {
    const { hub, service } = setup();
    const clients = Array.from({ length: 40 }, () => mustOpen(hub, { kind: 'control' }));
    const before = service.snapshot();
    await bigImport(service);
    const chunkBytes = Buffer.byteLength(patchEvent(snapshotDelta(streamSnapshot(before), streamSnapshot(service.snapshot()))));
    const perTurn = Math.floor(BYTES_PER_TURN / chunkBytes);
    expect(perTurn).toBeGreaterThan(0);
    expect(perTurn).toBeLessThan(clients.length);
    // In this turn, only the first slice.
    expect(clients.filter((c) => c.sentSeq > before.seq)).toHaveLength(perTurn);
    await expect.poll(() => clients.every((c) => c.sentSeq === before.seq + 1)).toBe(true);
  });

  it('a newer change takes over: no stream gets the older one after the newer, and all end on the newest', async () => {
    const { hub, service } = setup();
    const readers = Array.from({ length: 30 }, () => readStream(mustOpen(hub, { kind: 'control' }).stream));
    const first = service.room.seq;
    await bigImport(service);
    service.dispatch({ type: 'blackout.set', on: true }, 'http-v1');
    await expect.poll(() => readers.every((reader) => seqs(reader.events).at(-1) === first + 2)).toBe(true);
    await settleIo();
    let skipped = 0;
    for (const reader of readers) {
      const seen = seqs(reader.events);
      // Rising, without a step back, and nothing after the newest; every stream rebuilds the room exactly.
      expect(seen.at(-1)).toBe(first + 2);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
      expect(rebuild(reader.events).at(-1)).toEqual(streamSnapshot(service.snapshot()));
      if (!seen.includes(first + 1)) skipped += 1;
    }
    // The streams the older change had not reached yet got only the newer one.
    expect(skipped).toBeGreaterThan(0);
  });
});

describe('a stream with a heartbeat of its own', () => {
  /** A repeater per period, ticked by hand: the hub's 15 s tick and the 1 s one of the fast streams. */
  function repeaters() {
    const runs = new Map<number, () => void>();
    const repeater: Repeater = {
      every(ms, run) {
        runs.set(ms, run);
        return { cancel: () => void runs.delete(ms) };
      },
    };
    return { repeater, tick: (ms: number) => runs.get(ms)?.(), active: (ms: number) => runs.has(ms) };
  }

  it('gets `: heartbeat` every N seconds while the others keep the 15 s one; the 1 s tick runs only while such a stream is open', async () => {
    const clock = new FakeClock();
    const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
    service.start();
    const beats = repeaters();
    const hub = new PushHub({ source: service, repeater: beats.repeater, nowMs: clock.monoMs });
    hub.start();
    const plain = readStream(mustOpen(hub, { kind: 'control' }).stream);
    expect(beats.active(1_000)).toBe(false);
    const fast = readStream(mustOpen(hub, { kind: 'control', heartbeatSeconds: 2 }).stream);
    expect(beats.active(1_000)).toBe(true);
    beats.tick(1_000);
    await settleIo();
    expect(fast.comments).toEqual([]);
    beats.tick(1_000);
    await fast.waitForComments(1);
    beats.tick(1_000);
    beats.tick(1_000);
    await fast.waitForComments(2);
    await settleIo();
    expect(plain.comments).toEqual([]);
    beats.tick(15_000);
    await plain.waitForComments(1);
    await fast.cancel();
    await settleIo();
    expect(beats.active(1_000)).toBe(false);
    expect(beats.active(15_000)).toBe(true);
    await plain.cancel();
  });
});
