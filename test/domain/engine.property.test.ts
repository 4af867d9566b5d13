// Property-based test of the engine: random command sequences (every Command type,
// ids that exist and ids that do not, values in and out of range) with random
// non-negative time steps, checking the room's invariants after every step.
// node:assert rather than expect inside the property: it is called ~20 times per
// step over thousands of steps, and expect's bookkeeping would dominate the run time.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { applyCommand, nextDueMonoMs, settle } from '../../src/domain/engine.js';
import { REMAINING_MAX_MS } from '../../src/domain/limits.js';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import { combinedTally } from '../../src/domain/tally.js';
import { APPEARANCES, MESSAGE_COLORS, TALLY_SOURCES, ZERO_BEHAVIORS, type Command, type Room, type TimerFields } from '../../src/domain/types.js';
import { at } from './now.js';

const WALL_BASE_MS = 1_700_000_000_000;

// A small pool so that commands hit existing timers often; '' and 'ghost' are never valid.
const idArb = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('t1', 't2', 't3', 't4', 't5') }, { weight: 1, arbitrary: fc.constantFrom('ghost', '') });

/** Mostly valid values, so that rooms grow and run; sometimes out-of-range ones. */
const mostly = <T,>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: invalid });

// Short durations, so that zero instants (stop, auto-advance) come up often.
const durationArb = mostly(
  fc.oneof(fc.integer({ min: 1_000, max: 120_000 }), fc.constantFrom(1_000, 86_400_000)),
  fc.constantFrom(999, 86_400_001, 0, -5_000, 1_000.5, Number.NaN),
);
const warnAtArb = mostly(fc.integer({ min: 0, max: 120_000 }), fc.constantFrom(-1, 86_400_001, 0.5));
const textArb = mostly(fc.string({ maxLength: 6 }), fc.constantFrom('', '  ', 'l'.repeat(201), 'm'.repeat(501), ` ${'m'.repeat(500)} `));
const msArb = mostly(
  fc.oneof(fc.integer({ min: -120_000, max: 120_000 }), fc.integer({ min: -3_600_000, max: 3_600_000 }), fc.constantFrom(0, 3_600_000, -3_600_000)),
  fc.constantFrom(3_600_001, -3_600_001, 1.5, Number.NaN),
);

const fieldsArb: fc.Arbitrary<TimerFields> = fc.record(
  {
    label: textArb,
    speaker: textArb,
    duration: durationArb,
    warnAt: warnAtArb,
    appearance: fc.constantFrom(...APPEARANCES),
  },
  { requiredKeys: [] },
);

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.constantFrom<Command>({ type: 'start' }, { type: 'pause' }, { type: 'toggle' }, { type: 'reset' }, { type: 'next' }, { type: 'previous' }),
  fc.constantFrom<Command>({ type: 'start' }, { type: 'toggle' }),
  fc.constantFrom<Command>({ type: 'message.clear' }, { type: 'blackout.toggle' }, { type: 'onair.toggle' }),
  msArb.map((ms): Command => ({ type: 'adjust', ms })),
  fc
    .record({ text: textArb, flash: fc.boolean(), color: fc.constantFrom(...MESSAGE_COLORS), bold: fc.boolean() })
    .map((message): Command => ({ type: 'message.set', message })),
  fc.boolean().map((on): Command => ({ type: 'blackout.set', on })),
  fc.boolean().map((on): Command => ({ type: 'onair.set', on })),
  fc.tuple(fc.constantFrom(...TALLY_SOURCES), fc.boolean()).map(([source, on]): Command => ({ type: 'tally.set', source, on })),
  fc
    .record({ zeroBehavior: fc.constantFrom(...ZERO_BEHAVIORS), autoAdvance: fc.boolean() }, { requiredKeys: [] })
    .map((settings): Command => ({ type: 'settings.set', ...settings })),
  fc.constantFrom<Command>({ type: 'settings.set', zeroBehavior: 'stop' }, { type: 'settings.set', autoAdvance: true }),
  fc.tuple(idArb, fieldsArb).map(([id, fields]): Command => ({ type: 'timer.create', id, fields })),
  fc.tuple(idArb, fieldsArb).map(([id, fields]): Command => ({ type: 'timer.create', id, fields })),
  idArb.map((id): Command => ({ type: 'timer.select', id })),
  fc.tuple(idArb, fieldsArb).map(([id, fields]): Command => ({ type: 'timer.update', id, fields })),
  idArb.map((id): Command => ({ type: 'timer.delete', id })),
  fc
    .tuple(idArb, fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant(1.5)))
    .map(([id, to]): Command => ({ type: 'timer.move', id, to })),
);

/** How time moves before a command: by a random amount, or to around the next zero instant. */
type TimeStep = { readonly kind: 'by'; readonly ms: number } | { readonly kind: 'toDue'; readonly offsetMs: number };

const timeStepArb: fc.Arbitrary<TimeStep> = fc.oneof(
  fc.constant<TimeStep>({ kind: 'by', ms: 0 }),
  fc.integer({ min: 0, max: 5_000 }).map((ms): TimeStep => ({ kind: 'by', ms })),
  fc.integer({ min: 0, max: 300_000 }).map((ms): TimeStep => ({ kind: 'by', ms })),
  fc.integer({ min: 0, max: 3_000_000 }).map((ms): TimeStep => ({ kind: 'by', ms })),
  // weighted up: zero instants are where the interesting transitions are
  { weight: 4, arbitrary: fc.constantFrom(-1, 0, 1).map((offsetMs): TimeStep => ({ kind: 'toDue', offsetMs })) },
);

const stepArb = fc.record({ time: timeStepArb, command: commandArb, wallJitterMs: fc.integer({ min: -3_600_000, max: 3_600_000 }) });

function advance(room: Room, nowMonoMs: number, step: TimeStep): number {
  if (step.kind === 'by') return nowMonoMs + step.ms;
  const due = nextDueMonoMs(room, at(0));
  return due === null ? nowMonoMs : Math.max(nowMonoMs, due + step.offsetMs);
}

function withoutSeq(room: Room): Omit<Room, 'seq'> {
  const { seq: _seq, ...rest } = room;
  return rest;
}

const indexOf = (room: Room, id: string): number => room.timers.findIndex((t) => t.id === id);

/**
 * Walks the zero events due by `nowMonoMs` one instant at a time and checks that
 * each is one well-formed automatic change worth exactly one seq step when it is
 * applied at its own instant. Returns the number of events; settle() applies
 * them all in one go as one change.
 */
function zeroEventsBy(room: Room, nowMonoMs: number): number {
  let current = room;
  let events = 0;
  for (;;) {
    const due = nextDueMonoMs(current, at(0));
    if (due === null || due > nowMonoMs) break;
    if (!current.transport.running) throw new Error('a paused room reported a due instant');
    const next = settle(current, at(due));
    assert.equal(next.seq, current.seq + 1);
    const from = indexOf(current, current.activeTimerId);
    const to = indexOf(next, next.activeTimerId);
    if (next.transport.running) {
      // auto-advance: the following timer, its end exactly its duration after the previous end
      assert.equal(current.settings.autoAdvance, true);
      assert.equal(to, from + 1);
      assert.equal(next.transport.endMonoMs, current.transport.endMonoMs + (next.timers[to]?.duration ?? Number.NaN));
    } else {
      // stop at zero, on a timer with nowhere to advance to
      assert.equal(current.settings.zeroBehavior, 'stop');
      assert.equal(current.settings.autoAdvance && from < current.timers.length - 1, false);
      assert.equal(next.transport.remainingMs, 0);
      assert.equal(to, from);
    }
    // The timer that was on ended at the zero instant (if it had run); the next one, advanced to, started then.
    const ended = next.actuals.find((a) => a.timerId === current.activeTimerId);
    if (ended !== undefined) assert.equal(ended.endedAt, at(due).wallMs);
    if (next.transport.running) assert.equal(next.actuals.find((a) => a.timerId === next.activeTimerId)?.endedAt, null);
    // The timer advanced to runs, so it has started (READY no more).
    if (next.transport.running) assert.equal(next.started, true);
    assert.deepEqual(
      { ...withoutSeq(next), activeTimerId: '', transport: null, actuals: null, started: null },
      { ...withoutSeq(current), activeTimerId: '', transport: null, actuals: null, started: null },
    );
    current = next;
    events += 1;
  }
  // settle() applies the same events in one go, as one change.
  assert.deepEqual(withoutSeq(current), withoutSeq(settle(room, at(nowMonoMs))));
  return events;
}

function checkInvariants(room: Room, nowMonoMs: number, wallMs: number): void {
  assert.ok(room.timers.length >= 1, 'the running order keeps at least one timer');
  assert.ok(indexOf(room, room.activeTimerId) >= 0, 'the active timer is in the running order');
  assert.equal(new Set(room.timers.map((t) => t.id)).size, room.timers.length, 'timer ids are unique');
  // nothing due is left unapplied after a command
  assert.deepEqual(settle(room, at(nowMonoMs)), room, 'no due zero event is left unapplied');

  const snapshot = toSnapshot(room, nowMonoMs, wallMs);
  assert.equal(snapshot.seq, room.seq);
  assert.equal(snapshot.running, room.transport.running);
  assert.equal(snapshot.running, snapshot.endAt !== null);
  assert.equal(snapshot.running, snapshot.remainingAtPause === null);
  if (room.transport.running) {
    assert.equal(snapshot.remaining, (snapshot.endAt ?? Number.NaN) - snapshot.serverNow);
    assert.equal(snapshot.remaining, room.transport.endMonoMs - nowMonoMs);
  } else {
    assert.equal(snapshot.remainingAtPause, snapshot.remaining);
  }
  assert.ok(snapshot.remaining <= REMAINING_MAX_MS, 'remaining never exceeds 24 hours');
  assert.equal(Number.isInteger(snapshot.remaining), true);
}

describe('engine properties', () => {
  it('keeps its invariants under random command sequences and time steps', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60, size: 'max' }), (steps) => {
        let room = createRoom('t1');
        let nowMonoMs = 0;
        checkInvariants(room, nowMonoMs, WALL_BASE_MS);
        for (const { time, command, wallJitterMs } of steps) {
          nowMonoMs = advance(room, nowMonoMs, time);
          const settled = settle(room, at(nowMonoMs));
          assert.equal(settled.seq - room.seq, zeroEventsBy(room, nowMonoMs) > 0 ? 1 : 0, 'the zero events due at once are one change');

          const applied = applyCommand(room, command, at(nowMonoMs));
          const after = applied.room;
          if (!applied.outcome.ok) {
            assert.deepEqual(after, settled, 'a refused command leaves the settled room');
          } else if (isDeepStrictEqual(withoutSeq(after), withoutSeq(settled))) {
            assert.equal(after.seq, settled.seq, 'a command that changes nothing leaves seq');
          } else {
            // The zero events due before it and those it causes at its own instant are part of it.
            assert.equal(after.seq - room.seq, 1, 'one command is one change');
          }
          if (command.type === 'tally.set') {
            // Tally drives ON AIR: a change of the combined tally sets it; otherwise the switch stays where it was.
            const before = combinedTally(settled.tally);
            const now = combinedTally(after.tally);
            assert.equal(after.tally[command.source], command.on);
            assert.equal(after.onAir, before === now ? settled.onAir : now === true);
          }
          if (applied.outcome.ok && command.type === 'timer.create') {
            assert.deepEqual(after.timers.at(-1), applied.outcome.timer);
          }
          assert.ok(after.seq >= room.seq, 'seq never decreases');
          checkInvariants(after, nowMonoMs, WALL_BASE_MS + nowMonoMs + wallJitterMs);
          room = after;
        }
      }),
      { numRuns: 300 },
    );
  });
});
