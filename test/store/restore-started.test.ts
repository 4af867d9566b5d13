// `started` (READY or PAUSED) across a restart, through the real file format: kept
// when the file has it; from the kept transport for a file written before it.
import { describe, expect, it } from 'vitest';
import { createRoom, newTimer } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, serializeDocument, toDocument, type ClockReading } from '../../src/store/room-document.js';

const SAVED_AT: ClockReading = { monoMs: 7_200_000, wallMs: Date.UTC(2025, 5, 1, 19, 30, 0) };
const AFTER: ClockReading = { monoMs: 1_500, wallMs: SAVED_AT.wallMs + 20_000 };

function paused(remainingMs: number, started: boolean): Room {
  const room = createRoom('unused');
  const timers = [newTimer('talk', { duration: 60_000 }, 1)];
  return { ...room, seq: 9, timers, activeTimerId: 'talk', transport: { running: false, remainingMs }, started };
}

/** Saved, then read back as the box reads it at start; `drop` writes the file as a box from before `started` did. */
function restored(room: Room, drop = false): Room {
  const json = JSON.parse(serializeDocument(toDocument(room, SAVED_AT, room.seq))) as { room: Record<string, unknown> };
  if (drop) delete json.room.started;
  const read = parseDocument(JSON.stringify(json));
  if (read.kind !== 'ok') throw new Error(`the document did not parse: ${JSON.stringify(read)}`);
  return restoreRoom(read.document, AFTER).room;
}

describe('started across a restart', () => {
  it('is kept as saved: a timer run and paused at its full duration (it was given time) is still PAUSED', () => {
    expect(restored(paused(60_000, true)).started).toBe(true);
    expect(restored(paused(30_000, false)).started).toBe(false);
  });

  it('comes from the transport for a file without it: time gone is PAUSED, the full duration READY', () => {
    expect(restored(paused(30_000, false), true).started).toBe(true);
    expect(restored(paused(60_000, true), true).started).toBe(false);
  });

  it('is true for a timer that was running, whatever the file says', () => {
    const running: Room = { ...paused(60_000, false), transport: { running: true, endMonoMs: SAVED_AT.monoMs + 45_000 } };
    expect(restored(running).started).toBe(true);
  });
});
