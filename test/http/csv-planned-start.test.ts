// The show's planned start and the hard starts through the CSV endpoints (issue 29):
// GET /timers.csv writes the room's planned start on its first row; POST
// /timers/import sets it in the same change as the timers (one seq step), leaves
// it as it is when the file says nothing, and refuses one on a later row or an
// instant it cannot read, changing nothing.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { API_KEY, createTestApp } from '../helpers/test-app.js';

type App = ReturnType<typeof createTestApp>;

function importCsv(app: App, text: string): Promise<Response> {
  return app.request(`/api/v1/${API_KEY}/timers/import`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: text });
}

async function exportCsv(app: App): Promise<string> {
  const response = await app.get('v1', '/timers.csv');
  expect(response.status).toBe(200);
  return response.text();
}

async function setPlannedStart(app: App, plannedStart: number | null): Promise<void> {
  expect((await app.post('v1', '/settings', { plannedStart })).status).toBe(200);
  expect(app.service.room.settings.plannedStart).toBe(plannedStart);
}

/** The test app with a record of every change pushed to the screens. */
function setup(room?: Room) {
  const app = createTestApp(room === undefined ? {} : { room });
  const pushed: number[] = [];
  app.service.subscribe((change) => pushed.push(change.room.seq));
  return { app, pushed };
}

const lastCell = (line: string | undefined): string | undefined => line?.split(',').pop();

describe('CSV round trip of the planned start and the hard starts', () => {
  it('export, then import into an empty room: the same planned start and the same scheduledAt and endsAt, to the millisecond', async () => {
    const { app } = setup();
    const wall = app.clock.wallMs();
    // Not on a whole second, so a writer that dropped the milliseconds would show.
    const plannedStart = wall + 1_800_123;
    await setPlannedStart(app, plannedStart);
    for (const fields of [
      { label: 'Keynote', duration: 1_200_000, scheduledAt: wall + 3_600_000 },
      { label: 'Panel', duration: 2_400_000 },
      { label: 'Late slot', duration: 600_000, scheduledAt: wall + 86_400_000 + 7 },
      { label: 'Closing', duration: 300_000, endsAt: wall + 90_000_000 },
    ]) {
      expect((await app.post('v1', '/timers', fields)).status).toBe(201);
    }
    const text = await exportCsv(app);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('label,speaker,duration,warnAt,dangerAt,appearance,tag,scheduledAt,endsAt,plannedStart');
    // Written as the hard starts are: ISO 8601 in UTC.
    expect(lastCell(lines[1])).toBe(new Date(plannedStart).toISOString());
    expect(lines.slice(2, 6).map(lastCell)).toEqual(['', '', '', '']);
    expect(lines[2]).toContain(`,${new Date(wall + 3_600_000).toISOString()},`);

    const fresh = setup(createRoom('only'));
    expect(fresh.app.service.room.settings.plannedStart).toBeNull();
    const seq = fresh.app.service.room.seq;
    expect((await importCsv(fresh.app, text)).status).toBe(201);
    // The planned start and the timers land together: one change, one push.
    expect(fresh.app.service.room.seq).toBe(seq + 1);
    expect(fresh.pushed).toEqual([seq + 1]);
    expect(fresh.app.service.room.settings.plannedStart).toBe(plannedStart);
    // The state says so too, and the schedule is planned from it.
    const answer = (await (await fresh.app.get('v1', '/state')).json()) as { state: { settings: { plannedStart: number | null }; schedule?: { plannedStart: number | null } } };
    expect(answer.state.settings.plannedStart).toBe(plannedStart);
    expect(answer.state.schedule?.plannedStart).toBe(plannedStart);
    const times = (room: Room) => room.timers.map((t) => [t.label, t.scheduledAt, t.endsAt]);
    expect(times(fresh.app.service.room).slice(1)).toEqual(times(app.service.room));

    // And back out again: the same rows after the room's own first timer, which now carries the planned start.
    const again = (await exportCsv(fresh.app)).split('\r\n');
    expect(lastCell(again[1])).toBe(new Date(plannedStart).toISOString());
    expect(again.slice(2)).toEqual([lines[1]?.replace(/[^,]*$/, ''), ...lines.slice(2)]);
  });

  it('a room without a planned start exports an empty cell, and that file leaves another room\'s planned start as it is', async () => {
    const { app } = setup();
    const text = await exportCsv(app);
    expect(lastCell(text.split('\r\n')[1])).toBe('');

    const other = setup(createRoom('only'));
    const kept = other.app.clock.wallMs() + 600_000;
    await setPlannedStart(other.app, kept);
    expect((await importCsv(other.app, text)).status).toBe(201);
    expect(other.app.service.room.settings.plannedStart).toBe(kept);
    // A file without the column at all: the same.
    expect((await importCsv(other.app, 'label,duration\nA,1:00\n')).status).toBe(201);
    expect(other.app.service.room.settings.plannedStart).toBe(kept);
    // A file that gives one replaces it, written with an offset.
    expect((await importCsv(other.app, 'label,duration,plannedStart\nB,1:00,2026-05-01T11:30:00+02:00\n')).status).toBe(201);
    expect(other.app.service.room.settings.plannedStart).toBe(Date.parse('2026-05-01T09:30:00Z'));
    expect(other.app.service.room.timers.map((t) => t.label)).toEqual(['Timer 1', 'Timer 1', 'A', 'B']);
  });
});

describe('CSV import refusals of the planned start', () => {
  it.each([
    ['on a later row', 'label,duration,plannedStart\nA,1:00,\nB,1:00,2026-05-01T09:30:00Z\n', /^nothing was imported: line 3, plannedStart: the show's planned start is given once, on the first row \(line 2\)/],
    ['without a time zone', 'label,duration,plannedStart\nA,1:00,2026-05-01T09:30\n', /^nothing was imported: line 2, plannedStart: "2026-05-01T09:30" has no time zone/],
    ['not a date', 'label,duration,plannedStart\nA,1:00,half past nine\n', /^nothing was imported: line 2, plannedStart: "half past nine" is not a date-time/],
    ['a day the month does not have', 'label,duration,plannedStart\nA,1:00,2026-02-30T09:30:00Z\n', /^nothing was imported: line 2, plannedStart: .* is not a real date/],
    ['a hard start without a zone', 'label,duration,scheduledAt\nA,1:00,\nB,1:00,2026-05-01 09:30\n', /^nothing was imported: line 3, scheduledAt: .* has no time zone/],
  ])('a planned start %s: 400 naming the line; no timer added, the planned start and seq untouched, nothing pushed', async (_name, text, message) => {
    const { app, pushed } = setup();
    await setPlannedStart(app, app.clock.wallMs());
    const before = app.service.room;
    const pushedBefore = pushed.length;
    const response = await importCsv(app, text);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
    expect(app.service.room).toBe(before);
    expect(pushed).toHaveLength(pushedBefore);
  });
});
