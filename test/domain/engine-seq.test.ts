// seq rules of decisions.md "Clock and time": starts at 1, +1 per change
// (commands, automatic changes, running-order edits), untouched by reads,
// no-op commands and refused commands.
import { describe, expect, it } from 'vitest';
import { applyCommand, nextDueMonoMs, settle } from '../../src/domain/engine.js';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Command } from '../../src/domain/types.js';
import { roomOf } from './room-fixtures.js';
import { at } from './now.js';

describe('seq', () => {
  it('starts at 1 for a new room with one default timer, paused at its duration', () => {
    const room = createRoom('only');
    expect(room.seq).toBe(1);
    expect(room.timers).toHaveLength(1);
    expect(room.activeTimerId).toBe('only');
    expect(room.transport).toEqual({ running: false, remainingMs: 600_000 });
  });

  it('rises by exactly 1 for each command that changes something, in order', () => {
    const script: Command[] = [
      { type: 'start' },
      { type: 'adjust', ms: 5_000 },
      { type: 'timer.create', id: 'b', fields: {} },
      { type: 'timer.update', id: 'b', fields: { label: 'B' } },
      { type: 'timer.move', id: 'b', to: 0 },
      { type: 'blackout.toggle' },
      { type: 'onair.set', on: true },
      { type: 'settings.set', autoAdvance: true },
      { type: 'message.set', message: { text: 'x', flash: false, color: 'white', bold: false } },
      { type: 'message.clear' },
      { type: 'pause' },
      { type: 'reset' },
      { type: 'previous' },
      { type: 'timer.select', id: 'a' },
      { type: 'timer.delete', id: 'b' },
    ];
    let room = createRoom('a');
    script.forEach((command, i) => {
      const applied = applyCommand(room, command, at(1_000 * i));
      expect(applied.outcome.ok, command.type).toBe(true);
      expect(applied.room.seq, command.type).toBe(room.seq + 1);
      room = applied.room;
    });
    expect(room.seq).toBe(1 + script.length);
  });

  it('is left alone by reads', () => {
    const room = applyCommand(createRoom('a'), { type: 'start' }, at(0)).room;
    const copy = structuredClone(room);
    toSnapshot(room, 10_000, 1_700_000_000_000);
    nextDueMonoMs(room, at(0));
    settle(room, at(20_000));
    expect(room).toEqual(copy);
  });

  it('is left alone by commands that change nothing', () => {
    const running = applyCommand(roomOf([60_000]), { type: 'start' }, at(0)).room;
    const noOps: Command[] = [
      { type: 'start' },
      { type: 'adjust', ms: 0 },
      { type: 'blackout.set', on: false },
      { type: 'onair.set', on: false },
      { type: 'message.clear' },
      { type: 'settings.set', zeroBehavior: 'continue' },
      { type: 'timer.move', id: 't1', to: 0 },
      { type: 'timer.update', id: 't1', fields: { appearance: 'countdown' } },
    ];
    for (const command of noOps) expect(applyCommand(running, command, at(10_000)).room, command.type).toEqual(running);
    expect(applyCommand(roomOf([60_000]), { type: 'pause' }, at(0)).room.seq).toBe(1);
  });

  it('is left alone by refused commands', () => {
    const room = roomOf([60_000]);
    const refusedCommands: Command[] = [
      { type: 'next' },
      { type: 'previous' },
      { type: 'adjust', ms: 3_600_001 },
      { type: 'timer.delete', id: 't1' },
      { type: 'timer.select', id: 'zz' },
      { type: 'settings.set' },
    ];
    for (const command of refusedCommands) {
      const applied = applyCommand(room, command, at(0));
      expect(applied.outcome.ok, command.type).toBe(false);
      expect(applied.room.seq, command.type).toBe(1);
    }
  });

  it('rises by 1 for what time did, even when a refused command is what wakes the room', () => {
    const running = applyCommand(roomOf([10_000, 10_000, 10_000], { autoAdvance: true, zeroBehavior: 'stop' }), { type: 'start' }, at(0)).room;
    const applied = applyCommand(running, { type: 'timer.select', id: 'zz' }, at(25_000));
    expect(applied.outcome.ok).toBe(false);
    // two advances at 10 s and 20 s, applied late together: one change; the third timer ends at 30 s, not yet
    expect(applied.room.activeTimerId).toBe('t3');
    expect(applied.room.seq).toBe(running.seq + 1);
  });
});
