// Push streams written straight to a Node response (ResponseClient), on a fake
// response: backpressure, the bounded backlog, stall detection and both ways of
// ending, driven through the hub as the HTTP server drives it.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { PushHub, type PushHubOptions, type Repeater } from '../../src/push/push-hub.js';
import type { ResponseSink } from '../../src/push/response-client.js';
import { connectionKey, type StreamSocket } from '../../src/push/tcp-send-queues.js';
import { FakeClock } from '../helpers/test-app.js';

/** A Node response stand-in: a socket buffer of `capacity` bytes that a test drains by hand. */
class FakeResponse extends EventEmitter implements ResponseSink {
  readonly written: string[] = [];
  writableLength = 0;
  destroyed = false;
  ended = false;
  writes = 0;
  /** Every byte written, as the socket's bytesWritten counts them. */
  bytes = 0;
  socket: StreamSocket | null = null;
  readonly #decoder = new TextDecoder();

  constructor(readonly capacity = Number.POSITIVE_INFINITY) {
    super();
  }

  write(chunk: Uint8Array): boolean {
    this.writes += 1;
    this.bytes += chunk.byteLength;
    this.written.push(this.#decoder.decode(chunk));
    this.writableLength += chunk.byteLength;
    if (this.capacity === Number.POSITIVE_INFINITY) this.writableLength = 0;
    return this.writableLength < this.capacity;
  }

  /** The reader takes everything buffered. */
  drain(): void {
    this.writableLength = 0;
    this.emit('drain');
  }

  end(): void {
    this.ended = true;
    this.emit('close');
  }

  /** The client went away. */
  hangUp(): void {
    this.destroyed = true;
    this.emit('close');
  }

  ids(): number[] {
    return this.written.flatMap((text) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
  }
}

function manualRepeater(): { repeater: Repeater; tick(): void } {
  let run: (() => void) | null = null;
  return {
    repeater: {
      every(_ms, r) {
        run = r;
        return { cancel: () => (run = null) };
      },
    },
    tick: () => run?.(),
  };
}

/** Gives a fake response a socket the kernel's tables can name; returns that name. */
function onSocket(res: FakeResponse, remotePort: number): string {
  res.socket = {
    localPort: 8080,
    remoteAddress: '::ffff:10.0.0.7',
    remotePort,
    get bytesWritten() {
      return res.bytes;
    },
    get writableLength() {
      return res.writableLength;
    },
  };
  const key = connectionKey(res.socket);
  if (key === null) throw new Error('no key');
  return key;
}

const V = { kind: 'viewer' } as const;

function setup(opts: Partial<Omit<PushHubOptions, 'source'>> = {}) {
  const clock = new FakeClock();
  const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
  service.start();
  const beat = manualRepeater();
  const hub = new PushHub({ source: service, repeater: beat.repeater, nowMs: clock.monoMs, ...opts });
  hub.start();
  return { clock, service, hub, beat };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function adjust(service: RoomService, times: number): void {
  for (let i = 0; i < times; i++) service.dispatch({ type: 'adjust', ms: i % 2 === 0 ? 1000 : -1000 }, 'http-v1');
}

describe('push streams written to a Node response', () => {
  it('start with the snapshot and carry each change as one write of the shared bytes', async () => {
    const { hub, service } = setup();
    const a = new FakeResponse();
    const b = new FakeResponse();
    hub.openOn(a, V);
    hub.openOn(b, V);
    expect(a.ids()).toEqual([service.room.seq]);
    expect(a.written[0]).toMatch(/^id: \d+\nevent: state\ndata: \{.*\}\n\n$/);
    adjust(service, 1);
    await settle();
    expect(a.ids()).toEqual([1, 2]);
    expect(b.written).toEqual(a.written);
    expect(a.writes).toBe(2);
    expect(hub.serializedCount).toBe(1);
  });

  it('hold what a full socket cannot take in a bounded backlog, coalesced to the latest state, and send it on drain', async () => {
    const { hub, service } = setup({ maxBacklog: 4 });
    const slow = new FakeResponse(1);
    const client = hub.openOn(slow, V);
    if (client === null) throw new Error('refused');
    // The first write filled the socket: everything after waits in the backlog.
    for (let i = 0; i < 20; i++) {
      adjust(service, 1);
      await settle();
    }
    expect(slow.writes).toBe(1);
    expect(client.backlogLength).toBeLessThanOrEqual(5);
    expect(client.coalescedCount).toBeGreaterThan(0);
    slow.drain();
    // One write per drain: the socket fills again at once.
    while (client.backlogLength > 0) slow.drain();
    const ids = slow.ids();
    expect(ids.at(-1)).toBe(service.room.seq);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(ids.length).toBeLessThan(21);
  });

  it('cut a reader that takes nothing for longer than the stall limit, and leave a slow but moving one', async () => {
    const { hub, service, clock, beat } = setup({ stallLimitMs: 60_000 });
    const dead = new FakeResponse(1);
    const moving = new FakeResponse(1);
    let cut = 0;
    hub.openOn(dead, { ...V, abortConnection: () => (cut += 1) });
    hub.openOn(moving, V);
    adjust(service, 1);
    await settle();
    clock.advance(30_000);
    moving.drain();
    beat.tick();
    clock.advance(31_000);
    moving.drain();
    beat.tick();
    expect(cut).toBe(1);
    expect(dead.ended).toBe(true);
    expect(moving.ended).toBe(false);
    expect(hub.clientCount).toBe(1);
  });

  it('are dropped when the client hangs up, and ended (not cut) when the key is rotated or the hub closes', () => {
    const { hub } = setup();
    const gone = new FakeResponse();
    let allowed = true;
    const rotated = new FakeResponse();
    const last = new FakeResponse();
    hub.openOn(gone, V);
    hub.openOn(rotated, { ...V, stillAllowed: () => allowed });
    hub.openOn(last, V);
    expect(hub.clientCount).toBe(3);
    gone.hangUp();
    expect(hub.clientCount).toBe(2);
    allowed = false;
    hub.revalidate();
    expect(rotated.ended).toBe(true);
    expect(hub.clientCount).toBe(1);
    hub.close();
    expect(last.ended).toBe(true);
    expect(hub.clientCount).toBe(0);
    expect(hub.refusal('viewer')).toBe('closed');
    expect(hub.openOn(new FakeResponse(), V)).toBeNull();
  });

  it('count against the same budget as web streams, and a response already closed is not kept', () => {
    const { hub } = setup({ budgets: { viewer: 2 } });
    const closed = new FakeResponse();
    closed.destroyed = true;
    expect(hub.openOn(closed, V)?.ended).toBe(true);
    expect(hub.clientCount).toBe(0);
    expect(hub.openOf('viewer')).toBe(0);
    hub.openOn(new FakeResponse(), V);
    hub.open(V);
    expect(hub.refusal('viewer')).toBe('viewer');
    expect(hub.openOn(new FakeResponse(), V)).toBeNull();
    expect(hub.open(V)).toBeNull();
    expect(hub.openOn(new FakeResponse(), { kind: 'kiosk' })).not.toBeNull();
  });

  it('cut a peer that acknowledges nothing while the kernel takes every write (a pulled cable) within a minute; a slow one that acknowledges a little stays', async () => {
    const dead = new FakeResponse();
    const slow = new FakeResponse();
    const deadKey = onSocket(dead, 50_001);
    const slowKey = onSocket(slow, 50_002);
    let slowAcked = 0;
    // Node's buffer stays empty for both (the kernel took every byte); the kernel still holds
    // all of the dead peer's bytes, and a little less of the slow one's at each look.
    const sendQueues = async () => {
      slowAcked += 1;
      return new Map([
        [deadKey, dead.bytes],
        [slowKey, slow.bytes - slowAcked],
      ]);
    };
    const { hub, clock, beat } = setup({ stallLimitMs: 30_000, sendQueues });
    let cut = 0;
    hub.openOn(dead, { ...V, abortConnection: () => (cut += 1) });
    hub.openOn(slow, V);
    const ticks: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(15_000);
      beat.tick();
      await settle();
      ticks.push(dead.ended);
    }
    // First look at 15 s; nothing acknowledged since, and dropped at the tick past 30 s more.
    expect(ticks).toEqual([false, false, false, true]);
    expect(cut).toBe(1);
    expect(slow.ended).toBe(false);
    expect(hub.clientCount).toBe(1);
  });

  it('keep a peer that acknowledges everything, and stop asking the kernel where it has no table', async () => {
    const live = new FakeResponse();
    const liveKey = onSocket(live, 50_003);
    let asked = 0;
    let table = true;
    const sendQueues = async () => {
      asked += 1;
      return table ? new Map([[liveKey, 0]]) : null;
    };
    const { hub, clock, beat } = setup({ stallLimitMs: 30_000, sendQueues });
    hub.openOn(live, V);
    for (let i = 0; i < 6; i++) {
      clock.advance(15_000);
      beat.tick();
      await settle();
    }
    expect(live.ended).toBe(false);
    expect(asked).toBe(6);
    table = false;
    beat.tick();
    await settle();
    beat.tick();
    await settle();
    expect(asked).toBe(7);
    expect(hub.clientCount).toBe(1);
  });

  it('report a table that cannot be read, and leave the stall check to Node’s buffer until it can be read again', async () => {
    const dead = new FakeResponse();
    const deadKey = onSocket(dead, 50_004);
    let failing = false;
    const sendQueues = async () => {
      if (failing) throw Object.assign(new Error('too many open files'), { code: 'EMFILE' });
      return new Map([[deadKey, dead.bytes]]);
    };
    const errors: unknown[] = [];
    const { hub, clock, beat } = setup({ stallLimitMs: 30_000, sendQueues, onError: (error) => errors.push(error) });
    hub.openOn(dead, V);
    clock.advance(15_000);
    beat.tick();
    await settle();
    failing = true;
    for (let i = 0; i < 6; i++) {
      clock.advance(15_000);
      beat.tick();
      await settle();
    }
    // What the kernel said before the failures is not held against the stream.
    expect(dead.ended).toBe(false);
    expect(errors).toHaveLength(6);
  });
});
