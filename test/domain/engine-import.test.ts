// timer.import (issue 26): timers appended as timer.create would, all of them or
// none, in one change (seq + 1); a refusal names the 0-based row it came from.
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { MAX_TIMERS } from '../../src/domain/limits.js';
import { createRoom } from '../../src/domain/room.js';
import type { TimerFields } from '../../src/domain/types.js';
import { at } from './now.js';

const rows = (fields: readonly TimerFields[]) => fields.map((f, i) => ({ id: `i${i + 1}`, fields: f }));

describe('timer.import', () => {
  it('appends every timer in order with the defaults of timer.create, as one change', () => {
    const room = createRoom('first');
    const applied = applyCommand(room, { type: 'timer.import', timers: rows([{ label: 'Doors', duration: 300_000 }, {}, { label: 'Close', dangerAt: 10_000 }]) }, at(0));
    expect(applied.outcome.ok).toBe(true);
    expect(applied.room.seq).toBe(room.seq + 1);
    expect(applied.room.timers.map((t) => [t.id, t.label, t.duration, t.dangerAt])).toEqual([
      ['first', 'Timer 1', 600_000, 0],
      ['i1', 'Doors', 300_000, 0],
      ['i2', 'Timer 3', 600_000, 0],
      ['i3', 'Close', 600_000, 10_000],
    ]);
    expect(applied.room.activeTimerId).toBe('first');
  });

  it.each([
    ['a label over 200 characters', [{}, { label: 'x'.repeat(201) }], 1, /^label: /],
    ['a duration over 24 hours', [{}, {}, { duration: 999_999_999 }], 2, /^duration: /],
    ['a control character', [{ label: 'Bell\u0007' }], 0, /^label: /],
    ['a tag the room does not have', [{}, { tagId: 'nowhere' }], 1, /tag/],
  ])('%s: nothing changes, and the error names row %#', (_name, fields, row, message) => {
    const room = createRoom('first');
    const applied = applyCommand(room, { type: 'timer.import', timers: rows(fields) }, at(0));
    expect(applied.room).toBe(room);
    expect(applied.outcome).toMatchObject({ ok: false, error: { kind: 'invalid', row, message: expect.stringMatching(message) } });
  });

  it('past the 100-timer limit: refused whole, naming the first row that does not fit', () => {
    const room = createRoom('first');
    const applied = applyCommand(room, { type: 'timer.import', timers: rows(Array.from({ length: MAX_TIMERS }, () => ({}))) }, at(0));
    expect(applied.room).toBe(room);
    expect(applied.outcome).toMatchObject({ ok: false, error: { row: MAX_TIMERS - 1, message: expect.stringMatching(/running order is full/) } });
  });

  it('an empty list is refused', () => {
    const room = createRoom('first');
    expect(applyCommand(room, { type: 'timer.import', timers: [] }, at(0)).outcome).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });
});
