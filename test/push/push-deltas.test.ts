// A change costs what changed (issue 26, finding 2): after a stream's first whole
// snapshot, each change is a delta, and a client that applies them has exactly
// the box's snapshot after every change (a property over any commands); a start
// in a room of 100 timers is under 1 KB; an audience flood of 300 maximum-size
// questions costs each console stream one question per question (under 2 KB),
// linear, and the console rebuilt from its stream equals GET /state.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { publicSnapshot, type PublicSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import { applyDelta, snapshotDelta } from '../../src/domain/snapshot-delta.js';
import { scheduleOf } from '../../src/domain/schedule.js';
import type { Command } from '../../src/domain/types.js';
import { PushHub, type Repeater } from '../../src/push/push-hub.js';
import { AUDIENCE_KEY, createTestApp, CLIENT_HEADER, FakeClock, roomWithTimers } from '../helpers/test-app.js';
import { readStream, rebuild } from './sse-reader.js';

const idleRepeater: Repeater = { every: () => ({ cancel: () => {} }) };
const settleIo = () => new Promise((resolve) => setTimeout(resolve, 0));
const message = (text: string): Command => ({ type: 'message.set', message: { text, flash: false, color: 'white', bold: false } });

/**
 * A console's snapshot as it rebuilds it from its stream, with the schedule the
 * stream leaves out derived at the snapshot's own serverNow: it must be GET /state exactly.
 */
function withSchedule(snapshot: Snapshot | undefined): Snapshot | undefined {
  return snapshot === undefined ? undefined : { ...snapshot, schedule: scheduleOf(snapshot, snapshot.serverNow) };
}

function wired(room = createRoom('t1')) {
  const clock = new FakeClock();
  const service = new RoomService({ initialRoom: room, clock, scheduler: clock.scheduler });
  service.start();
  const hub = new PushHub({ source: service, repeater: idleRepeater, sendQueues: () => Promise.resolve(null) });
  hub.start();
  return { clock, service, hub };
}

function open(hub: PushHub, kind: 'control' | 'viewer') {
  const client = hub.open({ kind });
  if (client === null) throw new Error('the hub refused the stream');
  return readStream(client.stream);
}

/** Every kind of change the room knows, with ids that may or may not exist (a refusal changes nothing and pushes nothing). */
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constantFrom<Command>({ type: 'start' }, { type: 'pause' }, { type: 'toggle' }, { type: 'reset' }, { type: 'next' }, { type: 'previous' }, { type: 'message.clear' }),
  fc.integer({ min: -120_000, max: 120_000 }).map((ms): Command => ({ type: 'adjust', ms })),
  fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() === t && t.trim().length > 0).map(message),
  fc.boolean().map((on): Command => ({ type: 'blackout.set', on })),
  fc.boolean().map((on): Command => ({ type: 'onair.set', on })),
  fc.integer({ min: 1, max: 3 }).map((count): Command => ({ type: 'flash', count })),
  fc.constantFrom('a', 'b', 'c', 'd').map((id): Command => ({ type: 'timer.create', id, fields: { label: `Timer ${id}` } })),
  fc.record({ id: fc.constantFrom('t1', 'a', 'b', 'c'), label: fc.constantFrom('One', 'Two', 'Three') }).map(({ id, label }): Command => ({ type: 'timer.update', id, fields: { label } })),
  fc.constantFrom('a', 'b', 'c', 'd').map((id): Command => ({ type: 'timer.delete', id })),
  fc.record({ id: fc.constantFrom('t1', 'a', 'b', 'c'), to: fc.integer({ min: 0, max: 3 }) }).map(({ id, to }): Command => ({ type: 'timer.move', id, to })),
  fc.constantFrom('t1', 'a', 'b').map((id): Command => ({ type: 'timer.select', id })),
  fc.constantFrom('q1', 'q2', 'q3').map((id): Command => ({ type: 'question.submit', id, text: `Question ${id}?`, name: 'Ada' })),
  fc.constantFrom('q1', 'q2', 'q3').map((id): Command => ({ type: 'question.approve', id })),
  fc.record({ id: fc.constantFrom('q1', 'q2'), withName: fc.boolean() }).map(({ id, withName }): Command => ({ type: 'question.show', id, withName })),
  fc.constantFrom('q1', 'q2', 'q3').map((id): Command => ({ type: 'question.delete', id })),
  fc.constantFrom<Command>({ type: 'question.unshow' }),
  fc.constantFrom('g1', 'g2').map((id): Command => ({ type: 'tag.create', id, name: `Tag ${id}`, colour: '#0a84ff' })),
  fc.constantFrom('g1', 'g2').map((id): Command => ({ type: 'tag.delete', id })),
  fc.integer({ min: 50, max: 150 }).map((timeSize): Command => ({ type: 'display.set', display: { timeSize } })),
  fc.boolean().map((autoAdvance): Command => ({ type: 'settings.set', autoAdvance })),
  fc.integer({ min: 0, max: 100 }).map((chimeVolume): Command => ({ type: 'settings.set', chimeVolume })),
);

describe('the push channel sends deltas a client rebuilds exactly', () => {
  it('property: after any commands and any time, the console rebuilt from its stream is GET /state, and a screen rebuilt from its stream is what screens were last sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(command, fc.integer({ min: 0, max: 700_000 })), { minLength: 1, maxLength: 25 }), async (steps) => {
        const { clock, service, hub } = wired();
        const console_ = open(hub, 'control');
        const screen = open(hub, 'viewer');
        /** The snapshot as it was when each seq was made (a stream sends nothing while time alone passes). */
        const made = new Map<number, Snapshot>([[service.room.seq, service.snapshot()]]);
        const shown = new Map<number, PublicSnapshot>([[service.room.seq, publicSnapshot(service.snapshot())]]);
        await settleIo();
        for (const step of steps) {
          if (typeof step === 'number') clock.advance(step);
          else await service.dispatch(step, 'http-v1').durable.catch(() => {});
          await settleIo();
          const now = service.snapshot();
          if (!made.has(now.seq)) {
            made.set(now.seq, now);
            shown.set(now.seq, publicSnapshot(now));
          }
          expect(withSchedule(rebuild(console_.events).at(-1))).toEqual(made.get(now.seq));
          const onScreen = rebuild<PublicSnapshot>(screen.events).at(-1);
          expect(onScreen).toEqual(shown.get(onScreen?.seq ?? -1));
        }
        // Every event after the first is a delta (the stream never had to be sent whole again).
        expect(console_.events.slice(1).every((event) => event.event === 'patch')).toBe(true);
        await console_.cancel();
        await screen.cancel();
        hub.close();
      }),
      { numRuns: 60 },
    );
  });

  it('snapshotDelta and applyDelta: a delta applies only to the snapshot it was made from', () => {
    const { service } = wired();
    const before = service.snapshot();
    service.dispatch({ type: 'start' }, 'http-v1');
    const after = service.snapshot();
    const delta = snapshotDelta(before, after);
    expect(applyDelta(before, delta)).toEqual(after);
    expect(applyDelta(after, delta)).toBeNull();
  });

  it('a start in a room of 100 timers is one event under 1 KB (the whole snapshot is over 10 times that)', async () => {
    const { service, hub } = wired(roomWithTimers(100));
    const reader = open(hub, 'control');
    await reader.waitForEvents(1);
    service.dispatch({ type: 'start' }, 'http-v1');
    await settleIo();
    const [whole, start] = await reader.waitForEvents(2);
    expect(start?.event).toBe('patch');
    const bytes = Buffer.byteLength(start?.data ?? '');
    expect(bytes).toBeLessThan(1_024);
    expect(Buffer.byteLength(whole?.data ?? '')).toBeGreaterThan(10 * bytes);
    expect(withSchedule(rebuild(reader.events).at(-1))).toEqual(service.snapshot());
  });

  it('a timer moved, one deleted, one added: each delta names only what it must (the order only for the move)', async () => {
    const { service } = wired(roomWithTimers(5));
    const at = () => service.snapshot();
    let before = at();
    await service.dispatch({ type: 'timer.move', id: 't5', to: 0 }, 'http-v1').durable;
    expect(snapshotDelta(before, at()).timers).toEqual({ order: ['t5', 't1', 't2', 't3', 't4'] });
    before = at();
    await service.dispatch({ type: 'timer.delete', id: 't3' }, 'http-v1').durable;
    expect(snapshotDelta(before, at()).timers).toEqual({ remove: ['t3'] });
    before = at();
    await service.dispatch({ type: 'timer.create', id: 'n1', fields: { label: 'New' } }, 'http-v1').durable;
    expect(snapshotDelta(before, at()).timers).toEqual({ put: [expect.objectContaining({ id: 'n1', label: 'New' })] });
  });
});

describe('an audience flood reaches a console stream one question at a time', () => {
  it('300 questions of the maximum size from 60 addresses: each event under 2 KB, bytes linear, the console rebuilt equals GET /state', async () => {
    const t = createTestApp();
    const hub = new PushHub({ source: t.service, repeater: idleRepeater, sendQueues: () => Promise.resolve(null) });
    hub.start();
    const reader = open(hub, 'control');
    await reader.waitForEvents(1);
    const text = '😀'.repeat(280);
    const name = '🎤'.repeat(60);
    const sizes: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const address = `10.0.${Math.floor(i / 5)}.1`;
      const response = await t.request(`/ask/${AUDIENCE_KEY}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [CLIENT_HEADER]: address },
        body: JSON.stringify({ text, name }),
      });
      expect(response.status, `question ${i + 1}`).toBe(201);
      await settleIo();
      const events = await reader.waitForEvents(i + 2);
      sizes.push(Buffer.byteLength(events[i + 1]?.data ?? ''));
    }
    // Linear: the 300th question costs what the first did, and every one is one question's worth.
    expect(Math.max(...sizes)).toBeLessThan(2_048);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(64);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(300 * 2_048);
    const state = (await (await t.get('v1', '/state')).json()) as { state: Snapshot };
    const rebuilt = rebuild(reader.events).at(-1);
    expect(rebuilt?.questions).toHaveLength(300);
    expect({ ...withSchedule(rebuilt), serverNow: 0 }).toEqual({ ...state.state, serverNow: 0 });
    hub.close();
  });
});
