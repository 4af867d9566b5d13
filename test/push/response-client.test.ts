// Push streams written straight to a Node response (ResponseClient), on a fake
// response: backpressure, the bounded backlog, stall detection and both ways of
// ending, driven through the hub as the HTTP server drives it.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { PushHub, type Repeater } from '../../src/push/push-hub.js';
import type { ResponseSink } from '../../src/push/response-client.js';
import { FakeClock } from '../helpers/test-app.js';

/** A Node response stand-in: a socket buffer of `capacity` bytes that a test drains by hand. */
class FakeResponse extends EventEmitter implements ResponseSink {
  readonly written: string[] = [];
  writableLength = 0;
  destroyed = false;
  ended = false;
  writes = 0;
  readonly #decoder = new TextDecoder();

  constructor(readonly capacity = Number.POSITIVE_INFINITY) {
    super();
  }

  write(chunk: Uint8Array): boolean {
    this.writes += 1;
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

function setup(opts: { maxBacklog?: number; stallLimitMs?: number; maxClients?: number } = {}) {
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
    hub.openOn(a);
    hub.openOn(b);
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
    const client = hub.openOn(slow);
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
    hub.openOn(dead, { abortConnection: () => (cut += 1) });
    hub.openOn(moving);
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
    hub.openOn(gone);
    hub.openOn(rotated, { stillAllowed: () => allowed });
    hub.openOn(last);
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
    expect(hub.canOpen).toBe(false);
    expect(hub.openOn(new FakeResponse())).toBeNull();
  });

  it('count against the same limit as web streams, and a response already closed is not kept', () => {
    const { hub } = setup({ maxClients: 2 });
    const closed = new FakeResponse();
    closed.destroyed = true;
    expect(hub.openOn(closed)?.ended).toBe(true);
    expect(hub.clientCount).toBe(0);
    hub.openOn(new FakeResponse());
    hub.open();
    expect(hub.canOpen).toBe(false);
    expect(hub.openOn(new FakeResponse())).toBeNull();
    expect(hub.open()).toBeNull();
  });
});
