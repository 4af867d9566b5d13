// Scheduled starts across a restart: one that fell due while the box was off
// comes back running with its end at scheduledAt + duration, or, if that end has
// passed too, the room is left as it was with a warning. And a room file of
// schema version 1 (before scheduled starts) still loads.
import { describe, expect, it } from 'vitest';
import { createRoom, DISPLAY_DEFAULTS, newTimer, remainingAt } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, serializeDocument, SCHEMA_VERSION, toDocument, type ClockReading } from '../../src/store/room-document.js';

const SAVED_AT: ClockReading = { monoMs: 7_200_000, wallMs: Date.UTC(2026, 10, 23, 8, 55, 0) };
const AT = Date.UTC(2026, 10, 23, 9, 0, 0);
const bootMono = 1_500;
const wallAt = (wallMs: number): ClockReading => ({ monoMs: bootMono, wallMs });

function day(): Room {
  const room = createRoom('unused');
  const timers = [
    newTimer('doors', { label: 'Doors', duration: 600_000 }, 1),
    newTimer('keynote', { label: 'Keynote', duration: 1_200_000, scheduledAt: AT }, 2),
  ];
  return { ...room, seq: 30, timers, activeTimerId: 'doors', transport: { running: false, remainingMs: 600_000 } };
}

function saved(room: Room) {
  const read = parseDocument(serializeDocument(toDocument(room, SAVED_AT, room.seq)));
  if (read.kind !== 'ok') throw new Error(`did not parse: ${JSON.stringify(read)}`);
  return read.document;
}

describe('restoring scheduled starts', () => {
  it('one still armed after the restart stays armed', () => {
    const restored = restoreRoom(saved(day()), wallAt(AT - 1_000));
    expect(restored.scheduled).toEqual({ started: null, missed: [] });
    expect(restored.room.activeTimerId).toBe('doors');
    expect(restored.room.passedSchedules).toEqual([]);
  });

  it('missed while off and still within its duration: active and running, its end at scheduledAt + duration', () => {
    const restored = restoreRoom(saved(day()), wallAt(AT + 300_000));
    expect(restored.warning).toBeNull();
    expect(restored.scheduled.started).toEqual({ timerId: 'keynote', scheduledAt: AT });
    expect(restored.room.activeTimerId).toBe('keynote');
    expect(restored.room.transport.running).toBe(true);
    expect(remainingAt(restored.room, bootMono)).toBe(900_000);
    expect(restored.room.seq).toBe(31);
    // Fired: it is not started again by the next settle.
    expect(restored.room.passedSchedules).toEqual([{ timerId: 'keynote', scheduledAt: AT }]);
  });

  it('also over a running timer, which it replaces as a select + start would have', () => {
    const running: Room = { ...day(), transport: { running: true, endMonoMs: SAVED_AT.monoMs + 600_000 } };
    const restored = restoreRoom(saved(running), wallAt(AT + 60_000));
    expect(restored.room.activeTimerId).toBe('keynote');
    expect(remainingAt(restored.room, bootMono)).toBe(1_140_000);
  });

  it('missed and already over: the room is left as it was, with a warning naming it', () => {
    const restored = restoreRoom(saved(day()), wallAt(AT + 1_200_000));
    expect(restored.scheduled).toEqual({ started: null, missed: [{ timerId: 'keynote', scheduledAt: AT }] });
    expect(restored.warning).toMatch(/"keynote" at 2026-11-23T09:00:00.000Z/);
    expect(restored.room.activeTimerId).toBe('doors');
    expect(restored.room.transport).toEqual({ running: false, remainingMs: 600_000 });
  });

  it('keeps the passed schedules through the file, so a fired start never fires again after a restart', () => {
    const fired = restoreRoom(saved(day()), wallAt(AT + 300_000)).room;
    const again = restoreRoom(saved(fired), wallAt(AT + 400_000));
    expect(again.scheduled).toEqual({ started: null, missed: [] });
    expect(again.room.seq).toBe(fired.seq);
  });
});

describe('room file schema versions', () => {
  it('writes the current version', () => {
    expect(SCHEMA_VERSION).toBe(5);
    expect(saved(day()).schemaVersion).toBe(5);
  });

  it('reads a version 2 file: no tags, and no timer carries one', () => {
    const v2 = {
      schemaVersion: 2,
      savedAtWallMs: SAVED_AT.wallMs,
      seqReservedTo: 10_050,
      room: {
        seq: 50,
        timers: [
          { id: 'a', label: 'Intro', speaker: 'Ada', duration: 60_000, warnAt: 10_000, dangerAt: 5_000, appearance: 'countdown', tagId: null, scheduledAt: null, endsAt: null },
          // A tag id could not be set before version 3; one left by hand in the file points nowhere and is dropped.
          { id: 'b', label: 'Talk', speaker: '', duration: 120_000, warnAt: 10_000, dangerAt: 0, appearance: 'countup', tagId: 'stray', scheduledAt: null, endsAt: null },
        ],
        activeTimerId: 'b',
        transport: { running: false, remainingMs: 90_000 },
        message: { text: 'Hello', flash: false, color: 'green', bold: true },
        blackout: false,
        onAir: false,
        settings: { zeroBehavior: 'continue', autoAdvance: true, timeZone: 'Europe/Berlin', clockFormat: '12h', chimeAtZero: true, chimeAtWarning: false, chimeVolume: 40 },
        passedSchedules: [],
      },
    };
    const read = parseDocument(JSON.stringify(v2));
    expect(read.kind).toBe('ok');
    if (read.kind !== 'ok') return;
    expect(read.document.schemaVersion).toBe(SCHEMA_VERSION);
    expect(read.document.room.tags).toEqual([]);
    expect(read.document.room.timers.map((t) => t.tagId)).toEqual([null, null]);
    // The display looks as it always did.
    expect(read.document.room.display).toEqual(DISPLAY_DEFAULTS);
    const restored = restoreRoom(read.document, wallAt(SAVED_AT.wallMs + 5_000));
    expect(restored.room).toMatchObject({ seq: 10_050, activeTimerId: 'b', tags: [], settings: { timeZone: 'Europe/Berlin', chimeVolume: 40 } });
    // Written again, it is a file of the current version that reads back the same.
    const again = parseDocument(serializeDocument(toDocument(restored.room, SAVED_AT, 10_060)));
    expect(again).toMatchObject({ kind: 'ok', document: { schemaVersion: SCHEMA_VERSION, room: { tags: [], questions: [] } } });
  });

  it('keeps the tags, and refuses a file where a timer carries a tag the room does not have', () => {
    const v3 = JSON.parse(serializeDocument(saved(day()))) as { room: { tags: unknown[]; timers: { tagId: string | null }[] } };
    v3.room.tags = [{ id: 'k1', name: 'Main stage', colour: '#ff9f0a' }];
    (v3.room.timers[0] as { tagId: string | null }).tagId = 'k1';
    const read = parseDocument(JSON.stringify(v3));
    expect(read).toMatchObject({ kind: 'ok', document: { room: { tags: [{ id: 'k1', name: 'Main stage', colour: '#ff9f0a' }] } } });
    (v3.room.timers[0] as { tagId: string | null }).tagId = 'gone';
    expect(parseDocument(JSON.stringify(v3))).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/a timer carries a tag the room does not have/) as unknown });
  });

  it('keeps the display settings', () => {
    const display = { ...DISPLAY_DEFAULTS, layout: 'lowerThird' as const, background: '#00b140', timeSize: 130, showNext: true, showTitle: false };
    const room = { ...day(), display };
    const read = parseDocument(serializeDocument(toDocument(room, SAVED_AT, room.seq)));
    expect(read).toMatchObject({ kind: 'ok', document: { room: { display } } });
    const bad = JSON.parse(serializeDocument(toDocument(room, SAVED_AT, room.seq))) as { room: { display: { timeSize: number } } };
    bad.room.display.timeSize = 500;
    expect(parseDocument(JSON.stringify(bad)).kind).toBe('damaged');
  });

  it('reads a version 1 file, with no scheduled start passed', () => {
    const v1 = {
      schemaVersion: 1,
      savedAtWallMs: SAVED_AT.wallMs,
      seqReservedTo: 10_040,
      room: {
        seq: 40,
        timers: [{ id: 'a', label: 'Intro', speaker: '', duration: 60_000, warnAt: 10_000, appearance: 'countdown', tagId: null, scheduledAt: null }],
        activeTimerId: 'a',
        transport: { running: false, remainingMs: 42_000 },
        message: null,
        blackout: false,
        onAir: true,
        settings: { zeroBehavior: 'stop', autoAdvance: false },
      },
    };
    const read = parseDocument(JSON.stringify(v1));
    expect(read.kind).toBe('ok');
    if (read.kind !== 'ok') return;
    expect(read.document.schemaVersion).toBe(SCHEMA_VERSION);
    expect(read.document.room.passedSchedules).toEqual([]);
    const restored = restoreRoom(read.document, wallAt(SAVED_AT.wallMs + 5_000));
    expect(restored.room).toMatchObject({ seq: 10_040, onAir: true, transport: { running: false, remainingMs: 42_000 } });
  });

  it('a damaged version 1 file is damaged, named as version 1', () => {
    const read = parseDocument(JSON.stringify({ schemaVersion: 1, savedAtWallMs: 1, seqReservedTo: 1, room: {} }));
    expect(read).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/^not a room file of schema version 1:/) as unknown });
  });

  it('a version 6 file is newer', () => {
    expect(parseDocument(JSON.stringify({ schemaVersion: 6 }))).toEqual({ kind: 'newer', schemaVersion: 6 });
  });

  it('reads a version 3 file: no questions yet', () => {
    const v3 = JSON.parse(serializeDocument(saved(day()))) as { schemaVersion: number; room: Record<string, unknown> };
    v3.schemaVersion = 3;
    delete v3.room.questions;
    expect(parseDocument(JSON.stringify(v3))).toMatchObject({ kind: 'ok', document: { schemaVersion: SCHEMA_VERSION, room: { questions: [] } } });
  });

  it('keeps the audience questions, and refuses a file with two on the screens', () => {
    const questions = [
      { id: 'q1', text: 'Why <b>now</b>?', name: 'Ada', receivedAt: SAVED_AT.wallMs - 1_000, state: 'shown' as const, nameShown: true },
      { id: 'q2', text: 'And then?', name: '', receivedAt: SAVED_AT.wallMs, state: 'new' as const, nameShown: false },
    ];
    const room = { ...day(), questions };
    const text = serializeDocument(toDocument(room, SAVED_AT, room.seq));
    expect(parseDocument(text)).toMatchObject({ kind: 'ok', document: { room: { questions } } });
    const bad = JSON.parse(text) as { room: { questions: { state: string }[] } };
    (bad.room.questions[1] as { state: string }).state = 'shown';
    expect(parseDocument(JSON.stringify(bad))).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/more than one question is shown/) as unknown });
  });
});
