// The running order as a file in the API (issue 26, finding 4): POST
// /timers/import adds all rows as one change (one seq step, one push) or none,
// naming the first bad line and field; one request counts once against the
// quota; GET /timers.csv exports what imports back field for field, with
// spreadsheet formulas neutralised in the bytes.
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../src/domain/room.js';
import type { Room, Timer } from '../../src/domain/types.js';
import { API_KEY, createTestApp } from '../helpers/test-app.js';

const HEADER = 'label,speaker,duration,warnAt,appearance,tag,scheduledAt\n';
const csvRow = (i: number) => `Segment ${i},Speaker ${i},${i}:00,0:30,countdown,,\n`;
const csvOf = (count: number, bad?: { at: number; row: string }) =>
  HEADER + Array.from({ length: count }, (_, i) => (bad !== undefined && bad.at === i + 1 ? bad.row : csvRow(i + 1))).join('');

function importCsv(app: ReturnType<typeof createTestApp>, text: string): Promise<Response> {
  return app.request(`/api/v1/${API_KEY}/timers/import`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: text });
}

/** The test app with a record of every change pushed to the screens. */
function setup(opts: { limit?: number; room?: Room } = {}) {
  const app = createTestApp({ ...(opts.limit === undefined ? {} : { limit: opts.limit }), ...(opts.room === undefined ? {} : { room: opts.room }) });
  const pushed: number[] = [];
  app.service.subscribe((change) => pushed.push(change.room.seq));
  return { app, pushed };
}

const fieldsOf = (t: Timer) => ({
  label: t.label,
  speaker: t.speaker,
  duration: t.duration,
  warnAt: t.warnAt,
  dangerAt: t.dangerAt,
  appearance: t.appearance,
  tagId: t.tagId,
  scheduledAt: t.scheduledAt,
  endsAt: t.endsAt,
});

describe('POST /timers/import', () => {
  it('a good 99-row file is one change: 201, one seq step, one push, every row in order', async () => {
    const { app, pushed } = setup();
    const seq = app.service.room.seq;
    const response = await importCsv(app, csvOf(99));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { ok: boolean; imported: number; timers: Timer[] };
    expect(body.imported).toBe(99);
    expect(body.timers.map((t) => t.label)).toEqual(Array.from({ length: 99 }, (_, i) => `Segment ${i + 1}`));
    expect(app.service.room.seq).toBe(seq + 1);
    expect(pushed).toEqual([seq + 1]);
    expect(app.service.room.timers).toHaveLength(100);
    expect(app.service.room.timers[5]).toMatchObject({ label: 'Segment 5', speaker: 'Speaker 5', duration: 300_000, warnAt: 30_000 });
  });

  it.each([
    ['a 201-character label at row 2', { at: 2, row: `${'x'.repeat(201)},,1:00,,countdown,,\n` }, /^nothing was imported: line 3, label: /],
    ['a duration of 999999999 at row 98 of 99', { at: 98, row: 'Late,,999999999,,countdown,,\n' }, /^nothing was imported: line 99, duration: /],
    ['a U+0007 in a label', { at: 5, row: 'Bell\u0007,,1:00,,countdown,,\n' }, /^nothing was imported: line 6, label: /],
    ['an unknown tag', { at: 3, row: 'A,,1:00,,countdown,Nowhere,\n' }, /^nothing was imported: line 4, tag: no tag is named "Nowhere"/],
  ])('%s: 400 naming the line and field; the running order and seq untouched, nothing pushed', async (_name, bad, message) => {
    const { app, pushed } = setup();
    const before = app.service.room;
    const response = await importCsv(app, csvOf(99, bad));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
    expect(app.service.room).toBe(before);
    expect(pushed).toEqual([]);
  });

  it('a file that does not fit the 100-timer limit is refused whole, naming the first row past it', async () => {
    const { app } = setup();
    const response = await importCsv(app, csvOf(100));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^nothing was imported: line 101: the running order is full/);
    expect(app.service.room.timers).toHaveLength(1);
  });

  it('one request counts once against the quota; one refused by the quota changes nothing', async () => {
    const { app } = setup({ limit: 3 });
    expect((await app.get('v1', '/state')).status).toBe(200);
    expect((await app.get('v1', '/state')).status).toBe(200);
    // The third request of the minute: 99 rows, one count.
    expect((await importCsv(app, csvOf(99))).status).toBe(201);
    const before = app.service.room;
    const refused = await importCsv(app, csvOf(5));
    expect(refused.status).toBe(429);
    expect(app.service.room).toBe(before);
  });

  it('takes a JSON list with the fields of POST /timers, naming a bad one by its position', async () => {
    const { app } = setup();
    const good = await app.request(`/api/v1/${API_KEY}/timers/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timers: [{ label: 'Keynote', duration: 1_200_000, dangerAt: 30_000 }, { label: 'Q&A' }] }),
    });
    expect(good.status).toBe(201);
    expect(app.service.room.timers.map((t) => [t.label, t.duration])).toEqual([
      ['Timer 1', 600_000],
      ['Keynote', 1_200_000],
      ['Q&A', 600_000],
    ]);
    for (const [timers, message] of [
      [[{ label: 'A' }, { duration: -5 }], /^nothing was imported: timers\[1\]\.duration: /],
      [[{ label: 'A', colour: 'red' }], /^nothing was imported: timers\[0\]\.colour: unknown field/],
      ['not a list', /"timers"/],
    ] as const) {
      const response = await app.request(`/api/v1/${API_KEY}/timers/import`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ timers }) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    expect(app.service.room.timers).toHaveLength(3);
  });

  it('another Content-Type is 415 saying what to send; a wrong key is 401 and imports nothing', async () => {
    const { app } = setup();
    const form = await app.request(`/api/v1/${API_KEY}/timers/import`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: csvOf(2) });
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: string }).error).toMatch(/text\/csv/);
    const wrong = await app.request('/api/v1/not-the-key-0123456789/timers/import', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: csvOf(2) });
    expect(wrong.status).toBe(401);
    expect(app.service.room.timers).toHaveLength(1);
  });
});

describe('GET /timers.csv', () => {
  it('exports what imports back into an empty room field for field, tags by name', async () => {
    const { app } = setup();
    await app.post('v1', '/tags', { name: 'Main stage' });
    const tagId = app.service.room.tags[0]?.id ?? '';
    const wall = app.clock.wallMs();
    for (const fields of [
      { label: 'Doors, "early"', speaker: 'Front of house', duration: 900_000, warnAt: 120_000, dangerAt: 30_000, appearance: 'countup', tagId },
      { label: '=2*3', speaker: '@host', duration: 1_234_500, scheduledAt: wall + 3_600_000 },
      { label: 'Closing', duration: 300_000, endsAt: wall + 7_200_000 },
    ]) {
      expect((await app.post('v1', '/timers', fields)).status).toBe(201);
    }
    const exported = await app.get('v1', '/timers.csv');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await exported.text();
    // The formula is written as text: a ' first, in the bytes themselves.
    expect(text).toContain("'=2*3,'@host,");

    const fresh = setup({ room: createRoom('only') });
    await fresh.app.post('v1', '/tags', { name: 'Main stage' });
    expect((await importCsv(fresh.app, text)).status).toBe(201);
    const source = app.service.room.timers;
    const copy = fresh.app.service.room.timers.slice(1);
    const freshTag = fresh.app.service.room.tags[0]?.id ?? '';
    expect(copy.map(fieldsOf)).toEqual(source.map(fieldsOf).map((f) => ({ ...f, tagId: f.tagId === null ? null : freshTag })));
  });
});
