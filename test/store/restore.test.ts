// Restoring the saved room with the clock moved: forward (the time the box was
// off is applied, zero behaviour and auto-advance included) and backward (the
// wall clock cannot be trusted: paused at the remaining time of the last save).
import { describe, expect, it } from 'vitest';
import { createRoom, newTimer, remainingAt } from '../../src/domain/room.js';
import type { Room, Settings } from '../../src/domain/types.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, serializeDocument, toDocument, type ClockReading } from '../../src/store/room-document.js';

const SAVED_AT: ClockReading = { monoMs: 7_200_000, wallMs: Date.UTC(2025, 5, 1, 19, 30, 0) };
/** A new process: its monotonic clock starts near zero, unrelated to the old one. */
const bootMono = 1_500;

function show(settings: Partial<Settings> = {}): Room {
  const timers = [
    newTimer('intro', { label: 'Intro', duration: 60_000 }, 1),
    newTimer('talk', { label: 'Talk', duration: 30_000 }, 2),
    newTimer('qa', { label: 'Q&A', duration: 120_000 }, 3),
  ];
  const room = createRoom('unused');
  return { ...room, seq: 40, timers, activeTimerId: 'intro', settings: { ...room.settings, ...settings }, transport: { running: false, remainingMs: 60_000 } };
}

/** The room running on `intro` with `leftMs` to go at the save; saved through the real file format. */
function savedRunning(room: Room, leftMs: number, reservedTo = room.seq) {
  const running: Room = { ...room, transport: { running: true, endMonoMs: SAVED_AT.monoMs + leftMs } };
  const read = parseDocument(serializeDocument(toDocument(running, SAVED_AT, reservedTo)));
  if (read.kind !== 'ok') throw new Error(`saved document did not parse: ${JSON.stringify(read)}`);
  return read.document;
}

const after = (ms: number): ClockReading => ({ monoMs: bootMono, wallMs: SAVED_AT.wallMs + ms });

describe('restoreRoom, clock moved forward', () => {
  it('keeps the end instant in wall-clock time across the save', () => {
    const document = savedRunning(show(), 45_000);
    expect(document.room.transport).toEqual({ running: true, endWallMs: SAVED_AT.wallMs + 45_000 });
    expect(document.savedAtWallMs).toBe(SAVED_AT.wallMs);
  });

  it('continues a running timer with remaining = saved end - now', () => {
    const restored = restoreRoom(savedRunning(show(), 45_000), after(20_000));
    expect(restored.warning).toBeNull();
    expect(restored.downMs).toBe(20_000);
    expect(restored.room.transport.running).toBe(true);
    expect(remainingAt(restored.room, bootMono)).toBe(25_000);
    expect(restored.room.activeTimerId).toBe('intro');
    expect(restored.room.seq).toBe(40);
  });

  it('under `continue`, a timer that ended while the box was off is in overrun', () => {
    const restored = restoreRoom(savedRunning(show({ zeroBehavior: 'continue' }), 45_000), after(60_000));
    expect(restored.room.transport.running).toBe(true);
    expect(remainingAt(restored.room, bootMono)).toBe(-15_000);
    expect(restored.room.seq).toBe(40);
  });

  it('under `stop`, it is paused at 0 and seq moves on once', () => {
    const restored = restoreRoom(savedRunning(show({ zeroBehavior: 'stop' }), 45_000), after(60_000));
    expect(restored.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(restored.room.activeTimerId).toBe('intro');
    expect(restored.room.seq).toBe(41);
  });

  it('auto-advance walks the running order as if the box had never stopped, without drift', () => {
    // intro ends at +45 s, talk (30 s) at +75 s, so at +100 s Q&A (120 s) has run 25 s.
    const restored = restoreRoom(savedRunning(show({ autoAdvance: true }), 45_000), after(100_000));
    expect(restored.room.activeTimerId).toBe('qa');
    expect(restored.room.transport.running).toBe(true);
    expect(remainingAt(restored.room, bootMono)).toBe(95_000);
    // Both advances, applied together at restore, are one change.
    expect(restored.room.seq).toBe(41);
  });

  it('auto-advance past the last timer then applies the zero behaviour of the last one', () => {
    const stopped = restoreRoom(savedRunning(show({ autoAdvance: true, zeroBehavior: 'stop' }), 45_000), after(600_000));
    expect(stopped.room.activeTimerId).toBe('qa');
    expect(stopped.room.transport).toEqual({ running: false, remainingMs: 0 });
    expect(stopped.room.seq).toBe(41);

    const overrun = restoreRoom(savedRunning(show({ autoAdvance: true, zeroBehavior: 'hide' }), 45_000), after(600_000));
    expect(overrun.room.activeTimerId).toBe('qa');
    expect(remainingAt(overrun.room, bootMono)).toBe(45_000 + 30_000 + 120_000 - 600_000);
  });

  it('a paused timer comes back paused at the same remaining time, however long the box was off', () => {
    const room: Room = { ...show(), transport: { running: false, remainingMs: 12_345 } };
    const document = toDocument(room, SAVED_AT, room.seq + 100);
    const restored = restoreRoom(document, after(3 * 86_400_000));
    expect(restored.room.transport).toEqual({ running: false, remainingMs: 12_345 });
    expect(restored.warning).toBeNull();
  });

  it('resumes seq above everything reserved before a crash, and at the saved seq after a clean stop', () => {
    expect(restoreRoom(savedRunning(show(), 45_000, 140), after(1_000)).room.seq).toBe(140);
    expect(restoreRoom(savedRunning(show(), 45_000, 40), after(1_000)).room.seq).toBe(40);
  });

  it('keeps the running order, message, switches and settings as saved', () => {
    const room: Room = {
      ...show({ zeroBehavior: 'hide', autoAdvance: true }),
      message: { text: 'Wrap up', flash: true, color: 'red', bold: true },
      blackout: true,
      onAir: true,
    };
    const restored = restoreRoom(toDocument(room, SAVED_AT, room.seq), after(5_000));
    expect(restored.room).toEqual(room);
  });
});

describe('restoreRoom, clock moved backward', () => {
  it('restores paused at the remaining time of the last save, with a warning that says why', () => {
    const restored = restoreRoom(savedRunning(show({ autoAdvance: true }), 45_000), { monoMs: bootMono, wallMs: SAVED_AT.wallMs - 3_600_000 });
    expect(restored.room.transport).toEqual({ running: false, remainingMs: 45_000 });
    expect(restored.room.activeTimerId).toBe('intro');
    // Running -> paused is a change: seq moves on.
    expect(restored.room.seq).toBe(41);
    expect(restored.downMs).toBeNull();
    expect(restored.warning).toMatch(/earlier than the last save/);
    expect(restored.warning).toMatch(/paused at 45000 ms/);
  });

  it('an overrun at the last save stays an overrun, paused', () => {
    const restored = restoreRoom(savedRunning(show(), -8_000), { monoMs: bootMono, wallMs: 0 });
    expect(restored.room.transport).toEqual({ running: false, remainingMs: -8_000 });
  });

  it('a paused room needs no warning', () => {
    const room = show();
    const restored = restoreRoom(toDocument(room, SAVED_AT, room.seq), { monoMs: bootMono, wallMs: SAVED_AT.wallMs - 60_000 });
    expect(restored.warning).toBeNull();
    expect(restored.room).toEqual(room);
  });
});
