// snapshotJson: the text JSON.stringify gives for a snapshot, with the room's own
// parts kept between snapshots by identity (a room never changes in place).
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { createRoom } from '../../src/domain/room.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import { snapshotJson } from '../../src/domain/snapshot-json.js';

const WALL = 1_700_000_000_000;
const now = (monoMs: number) => ({ monoMs, wallMs: WALL + monoMs });

describe('snapshotJson', () => {
  it('is JSON.stringify of the snapshot, byte for byte, through changes of the room', () => {
    let room = createRoom('t1');
    const texts: string[] = [];
    const commands = [
      { type: 'timer.create', id: 't2', fields: { label: 'Keynote "2" \u2028 🎤', speaker: 'Ada\nLovelace' } },
      { type: 'start' },
      { type: 'message.set', message: { text: 'Wrap up </script>', flash: true, color: 'red', bold: true } },
      { type: 'adjust', ms: -1500 },
      { type: 'blackout.set', on: true },
    ] as const;
    for (const [i, command] of commands.entries()) {
      const applied = applyCommand(room, command as never, now(i * 1000));
      if (!applied.outcome.ok) throw new Error(`${command.type} refused`);
      room = applied.room;
      for (const at of [i * 1000, i * 1000 + 333.4]) {
        const snapshot = toSnapshot(room, at, WALL + at);
        const text = snapshotJson(snapshot);
        expect(text).toBe(JSON.stringify(snapshot));
        texts.push(text);
      }
    }
    // Each change shows in the text (a replaced object is serialised again, not taken from before).
    expect(texts.at(-1)).toContain('"blackout":true');
    expect(texts.at(-1)).toContain('Wrap up </script>');
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('keeps the schedule as one object (and one text) while a running show holds it, and makes it afresh when it moves', () => {
    let room = applyCommand(createRoom('t1'), { type: 'settings.set', plannedStart: WALL }, now(0)).room;
    room = applyCommand(room, { type: 'start' }, now(1_000)).room;
    // Running: nothing in the schedule moves with the clock, so the same object, and the text JSON.stringify gives.
    const a = toSnapshot(room, 2_000, WALL + 2_000);
    const b = toSnapshot(room, 3_000, WALL + 3_000);
    expect(b.schedule).toBe(a.schedule);
    expect(snapshotJson(b)).toBe(JSON.stringify(b));
    // Paused: the end moves with the clock; each snapshot has its own schedule, and its text says so.
    room = applyCommand(room, { type: 'pause' }, now(4_000)).room;
    const c = toSnapshot(room, 5_000, WALL + 5_000);
    const d = toSnapshot(room, 6_000, WALL + 6_000);
    expect(d.schedule).not.toBe(c.schedule);
    expect(d.schedule?.offset).toBe((c.schedule?.offset ?? 0) + 1_000);
    expect(snapshotJson(c)).toBe(JSON.stringify(c));
    expect(snapshotJson(d)).toBe(JSON.stringify(d));
  });

  it('leaves out what JSON leaves out, and writes non-finite numbers as null', () => {
    const odd = { seq: 1, gone: undefined, fn: () => 1, remaining: Number.NaN, endAt: Infinity, message: null, timers: [{ id: 'a', x: undefined }] };
    expect(snapshotJson(odd)).toBe(JSON.stringify(odd));
  });
});
