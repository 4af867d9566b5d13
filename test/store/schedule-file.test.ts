// The room file of schema version 5 (issue 29): the show's planned start, what
// actually happened (`actuals`) and the aux timer are kept, the aux timer on
// through a restart as the main one is (its end on the wall clock; paused at what
// it had left when the wall clock went back). A version 4 file still reads, with
// none of them; a version 6 file is newer, and refused rather than overwritten.
import { describe, expect, it } from 'vitest';
import { auxRemainingAt } from '../../src/domain/aux.js';
import { AUX_DEFAULT, createRoom, newTimer } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, serializeDocument, SCHEMA_VERSION, toDocument, type ClockReading, type RoomDocument } from '../../src/store/room-document.js';

const SAVED_AT: ClockReading = { monoMs: 7_200_000, wallMs: Date.UTC(2026, 10, 23, 8, 55, 0) };
const PLANNED_START = Date.UTC(2026, 10, 23, 8, 30, 0);
const bootMono = 2_500;
const wallAt = (wallMs: number): ClockReading => ({ monoMs: bootMono, wallMs });

/** A show under way: the first timer done, the second on (paused), the aux timer counting up with 200 s to its duration. */
function showUnderWay(): Room {
  const room = createRoom('unused');
  const timers = [newTimer('doors', { label: 'Doors', duration: 600_000 }, 1), newTimer('keynote', { label: 'Keynote', duration: 1_200_000 }, 2)];
  return {
    ...room,
    seq: 12,
    timers,
    activeTimerId: 'keynote',
    transport: { running: false, remainingMs: 900_000 },
    settings: { ...room.settings, plannedStart: PLANNED_START },
    actuals: [
      { timerId: 'doors', startedAt: PLANNED_START + 60_000, endedAt: PLANNED_START + 700_000 },
      { timerId: 'keynote', startedAt: PLANNED_START + 700_000, endedAt: null },
    ],
    aux: { label: 'Q&A', duration: 300_000, appearance: 'countup', transport: { running: true, endMonoMs: SAVED_AT.monoMs + 200_000 } },
  };
}

function fileText(room: Room): string {
  return serializeDocument(toDocument(room, SAVED_AT, room.seq));
}

function read(text: string): RoomDocument {
  const parsed = parseDocument(text);
  if (parsed.kind !== 'ok') throw new Error(`did not parse: ${JSON.stringify(parsed)}`);
  return parsed.document;
}

describe('a version 5 room file', () => {
  it('keeps plannedStart, the actual times and the aux timer, its running transport as a wall-clock end', () => {
    const room = showUnderWay();
    const document = read(fileText(room));
    expect(document.schemaVersion).toBe(5);
    expect(document.room.settings.plannedStart).toBe(PLANNED_START);
    expect(document.room.actuals).toEqual(room.actuals);
    expect(document.room.aux).toEqual({ label: 'Q&A', duration: 300_000, appearance: 'countup', transport: { running: true, endWallMs: SAVED_AT.wallMs + 200_000 } });
  });

  it('the aux timer runs on through a restart: remaining = saved end - now, on the wall clock', () => {
    const restored = restoreRoom(read(fileText(showUnderWay())), wallAt(SAVED_AT.wallMs + 50_000));
    expect(restored.room.aux.transport.running).toBe(true);
    expect(auxRemainingAt(restored.room.aux, bootMono)).toBe(150_000);
    expect(auxRemainingAt(restored.room.aux, bootMono + 10_000)).toBe(140_000);
    // Off for longer than it had left: it runs on past zero, as it would have (nothing stops the aux timer).
    const late = restoreRoom(read(fileText(showUnderWay())), wallAt(SAVED_AT.wallMs + 260_000));
    expect(late.room.aux.transport.running).toBe(true);
    expect(auxRemainingAt(late.room.aux, bootMono)).toBe(-60_000);
    // And the rest of what was saved comes back as it was.
    expect(restored.room.settings.plannedStart).toBe(PLANNED_START);
    expect(restored.room.actuals).toEqual(showUnderWay().actuals);
    expect(restored.room.aux).toMatchObject({ label: 'Q&A', duration: 300_000, appearance: 'countup' });
  });

  it('the wall clock went back (no network time yet): the aux timer is paused at what it had left at the save', () => {
    const restored = restoreRoom(read(fileText(showUnderWay())), wallAt(SAVED_AT.wallMs - 3_600_000));
    expect(restored.room.aux.transport).toEqual({ running: false, remainingMs: 200_000 });
  });

  it('a paused aux timer stays paused at its time', () => {
    const room: Room = { ...showUnderWay(), aux: { ...AUX_DEFAULT, transport: { running: false, remainingMs: 42_000 } } };
    const restored = restoreRoom(read(fileText(room)), wallAt(SAVED_AT.wallMs + 600_000));
    expect(restored.room.aux.transport).toEqual({ running: false, remainingMs: 42_000 });
  });

  it('refuses a file whose actual times name a timer that is not in the running order, or one twice', () => {
    const file = JSON.parse(fileText(showUnderWay())) as { room: { actuals: { timerId: string }[] } };
    (file.room.actuals[1] as { timerId: string }).timerId = 'gone';
    expect(parseDocument(JSON.stringify(file))).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/not in the running order/) as unknown });
    (file.room.actuals[1] as { timerId: string }).timerId = 'doors';
    expect(parseDocument(JSON.stringify(file))).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/two entries for one timer/) as unknown });
  });

  it('refuses a plannedStart that is not an instant, and an aux timer of an unknown appearance', () => {
    const file = JSON.parse(fileText(showUnderWay())) as { room: { settings: { plannedStart: unknown }; aux: { appearance: string } } };
    file.room.settings.plannedStart = '08:30';
    expect(parseDocument(JSON.stringify(file))).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/^not a room file of schema version 5: .*plannedStart/) as unknown });
    file.room.settings.plannedStart = PLANNED_START;
    file.room.aux.appearance = 'clock';
    expect(parseDocument(JSON.stringify(file))).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/aux\.appearance/) as unknown });
  });
});

describe('older and newer room files', () => {
  it('reads a version 4 file: no planned start, nothing recorded, the aux timer of a new room', () => {
    const v4 = JSON.parse(fileText(showUnderWay())) as { schemaVersion: number; room: Record<string, unknown> & { settings: Record<string, unknown>; display: Record<string, unknown> } };
    v4.schemaVersion = 4;
    delete v4.room.settings.plannedStart;
    delete v4.room.actuals;
    delete v4.room.aux;
    for (const name of ['showOverUnder', 'showShowEnd', 'showAux']) delete v4.room.display[name];
    const document = read(JSON.stringify(v4));
    expect(document.schemaVersion).toBe(SCHEMA_VERSION);
    expect(document.room.settings.plannedStart).toBeNull();
    expect(document.room.actuals).toEqual([]);
    expect(document.room.aux).toEqual({ label: AUX_DEFAULT.label, duration: AUX_DEFAULT.duration, appearance: 'countdown', transport: { running: false, remainingMs: AUX_DEFAULT.duration } });
    expect(document.room.display).toMatchObject({ showOverUnder: false, showShowEnd: false, showAux: false });
    // The rest of the room is as it was saved.
    expect(document.room).toMatchObject({ seq: 12, activeTimerId: 'keynote', transport: { running: false, remainingMs: 900_000 } });
    // Written again, it is a version 5 file that reads back the same.
    const restored = restoreRoom(document, wallAt(SAVED_AT.wallMs + 1_000));
    expect(read(fileText(restored.room)).room).toMatchObject({ settings: { plannedStart: null }, actuals: [], aux: { label: 'Aux' } });
  });

  it('a version 6 file is newer: refused, not read as a damaged one', () => {
    const v6 = JSON.parse(fileText(showUnderWay())) as { schemaVersion: number };
    v6.schemaVersion = 6;
    expect(parseDocument(JSON.stringify(v6))).toEqual({ kind: 'newer', schemaVersion: 6 });
  });
});
