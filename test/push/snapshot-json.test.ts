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

  it('leaves out what JSON leaves out, and writes non-finite numbers as null', () => {
    const odd = { seq: 1, gone: undefined, fn: () => 1, remaining: Number.NaN, endAt: Infinity, message: null, timers: [{ id: 'a', x: undefined }] };
    expect(snapshotJson(odd)).toBe(JSON.stringify(odd));
  });
});
