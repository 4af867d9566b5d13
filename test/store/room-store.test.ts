// The state store against real temp directories: what is on disk when, what a
// restart reads back, and what happens to damaged, newer and half-written files.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mustBeSavedFirst, type RoomChange } from '../../src/app/room-service.js';
import { applyCommand } from '../../src/domain/engine.js';
import { createRoom, remainingAt } from '../../src/domain/room.js';
import type { Command, Room } from '../../src/domain/types.js';
import { nodeFileOps, type AtomicFileOps } from '../../src/store/atomic-file.js';
import { openRoom } from '../../src/store/open-room.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, SCHEMA_VERSION, type RoomDocument } from '../../src/store/room-document.js';
import { COALESCE_MS, RETRY_MS, RoomStore, SEQ_RESERVE, PREVIOUS_FILE, STATE_FILE, STATE_FILE_MAX_BYTES } from '../../src/store/room-store.js';
import { FakeClock } from '../helpers/test-app.js';
import { captureLog, LEVEL } from './log-capture.js';
import { at } from '../domain/now.js';

let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-store-'));
});

afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function setup(opts: { ops?: AtomicFileOps; clock?: FakeClock } = {}) {
  const clock = opts.clock ?? new FakeClock();
  const log = captureLog();
  const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger: log.logger, ops: opts.ops });
  return { clock, store, ...log };
}

const file = () => path.join(dataDir, STATE_FILE);

function onDisk(): RoomDocument {
  const read = parseDocument(readFileSync(file(), 'utf8'));
  if (read.kind !== 'ok') throw new Error(`room.json does not parse: ${JSON.stringify(read)}`);
  return read.document;
}

/**
 * Applies a command as the room service would: a running-order edit is saved
 * first and recorded once saved; anything else is recorded at once.
 */
function apply(store: RoomStore, clock: FakeClock, room: Room, command: Command): { room: Room; durable: Promise<void> } {
  const next = applyCommand(room, command, at(clock.monoMs())).room;
  const change: RoomChange = { room: next, previous: room, cause: command, source: 'http-v1' };
  // The room service's part: the change happens (is recorded) the moment its file is on disk.
  if (mustBeSavedFirst(command)) return { room: next, durable: store.saveFirst({ prepare: () => next, commit: () => store.record(change) }) };
  store.record(change);
  return { room: next, durable: Promise.resolve() };
}

/** Lets the write a timer started run to its end (real file system, so real time). */
async function settleWrites(store: RoomStore): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await store.idle();
}

describe('RoomStore: round trip', () => {
  it('an empty data directory loads nothing; start saves the fresh room at once', async () => {
    const { store } = setup();
    expect(await store.load()).toBeNull();
    const room = createRoom('first');
    await store.start(room);
    const saved = onDisk();
    expect(saved.schemaVersion).toBe(SCHEMA_VERSION);
    expect(saved.room.seq).toBe(1);
    expect(saved.seqReservedTo).toBe(1 + SEQ_RESERVE);
    expect(saved.room.timers).toEqual(room.timers);
  });

  it('reads back what it wrote: running order, message, switches, settings, running timer', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    const commands: Command[] = [
      { type: 'timer.create', id: 'second', fields: { label: 'Keynote', speaker: 'Ada', duration: 1_200_000 } },
      { type: 'timer.update', id: 'first', fields: { warnAt: 30_000, appearance: 'countup' } },
      { type: 'timer.move', id: 'second', to: 0 },
      { type: 'message.set', message: { text: 'Wrap up', flash: true, color: 'red', bold: false } },
      { type: 'blackout.set', on: true },
      { type: 'onair.set', on: true },
      { type: 'settings.set', zeroBehavior: 'stop', autoAdvance: true },
      { type: 'timer.select', id: 'second' },
      { type: 'start' },
    ];
    for (const command of commands) {
      const applied = apply(store, clock, room, command);
      room = applied.room;
      await applied.durable;
    }
    clock.advance(10_000);
    await store.close();

    const next = setup({ clock });
    const document = await next.store.load();
    expect(document).not.toBeNull();
    const restored = restoreRoom(document as RoomDocument, { monoMs: clock.monoMs(), wallMs: clock.wallMs() });
    expect(restored.room.timers).toEqual(room.timers);
    expect(restored.room.activeTimerId).toBe('second');
    expect(restored.room.message).toEqual(room.message);
    expect([restored.room.blackout, restored.room.onAir]).toEqual([true, true]);
    expect(restored.room.settings).toEqual({ zeroBehavior: 'stop', autoAdvance: true, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
    expect(restored.room.seq).toBe(room.seq);
    expect(remainingAt(restored.room, clock.monoMs())).toBe(remainingAt(room, clock.monoMs()));
  });
});

describe('RoomStore: durability rules', () => {
  it('a running-order edit is on disk when saveFirst resolves', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    const edits: Command[] = [
      { type: 'timer.create', id: 'b', fields: { label: 'B' } },
      { type: 'timer.update', id: 'first', fields: { label: 'Renamed' } },
      { type: 'timer.move', id: 'b', to: 0 },
      { type: 'timer.delete', id: 'first' },
    ];
    for (const edit of edits) {
      const applied = apply(store, clock, room, edit);
      room = applied.room;
      await applied.durable;
      expect(onDisk().room.timers, edit.type).toEqual(room.timers);
      expect(onDisk().room.seq).toBe(room.seq);
    }
  });

  it('transport, message, switch and setting changes are coalesced into one write within 1 s, and no timer runs when nothing is unsaved', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    const writesAtStart = store.writes;
    const commands: Command[] = [
      { type: 'start' },
      { type: 'blackout.set', on: true },
      { type: 'onair.toggle' },
      { type: 'message.set', message: { text: 'Five minutes', flash: false, color: 'white', bold: false } },
      { type: 'settings.set', autoAdvance: true },
      { type: 'adjust', ms: 60_000 },
      { type: 'timer.select', id: 'first' },
    ];
    for (const command of commands) {
      const applied = apply(store, clock, room, command);
      room = applied.room;
      await applied.durable;
      clock.advance(100);
    }
    await settleWrites(store);
    expect(store.writes).toBe(writesAtStart);
    expect(onDisk().room.blackout).toBe(false);

    // The first unsaved change was 700 ms ago: its second is up in 300 ms.
    clock.advance(COALESCE_MS - 700 - 1);
    await settleWrites(store);
    expect(store.writes).toBe(writesAtStart);
    clock.advance(1);
    await settleWrites(store);
    expect(store.writes).toBe(writesAtStart + 1);
    expect(onDisk().room).toMatchObject({ seq: room.seq, blackout: true, onAir: true, message: { text: 'Five minutes' } });

    // At rest: an hour later, nothing more was written.
    clock.advance(3_600_000);
    await settleWrites(store);
    expect(store.writes).toBe(writesAtStart + 1);
  });

  it('a running-order edit also writes the changes that were waiting, and cancels their timer', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    room = apply(store, clock, room, { type: 'onair.set', on: true }).room;
    const edit = apply(store, clock, room, { type: 'timer.create', id: 'b', fields: {} });
    await edit.durable;
    expect(onDisk().room.onAir).toBe(true);
    const writes = store.writes;
    clock.advance(COALESCE_MS * 2);
    await settleWrites(store);
    expect(store.writes).toBe(writes);
  });

  it('unchanged state is not rewritten', async () => {
    const { store } = setup();
    const room = createRoom('first');
    await store.start(room);
    await store.start(room);
    expect(store.writes).toBe(1);
  });

  it('writes at once when changes use up half the seq reserve before a save lands', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    // Half the reserve: these changes wait for the coalesced write; the next goes to disk at once, in the background.
    for (let i = 0; i < SEQ_RESERVE / 2; i += 1) room = apply(store, clock, room, { type: 'blackout.toggle' }).room;
    await settleWrites(store);
    expect(store.writes).toBe(1);
    expect(store.canPublish(1 + SEQ_RESERVE)).toBe(true);
    expect(store.canPublish(2 + SEQ_RESERVE)).toBe(false);
    const applied = apply(store, clock, room, { type: 'blackout.toggle' });
    await settleWrites(store);
    expect(store.writes).toBe(2);
    expect(onDisk().seqReservedTo).toBe(applied.room.seq + SEQ_RESERVE);
    expect(store.canPublish(applied.room.seq + SEQ_RESERVE)).toBe(true);
  });

  it('a failed write refuses the edit for good, is logged once a minute, reported in health, and retried until the disk works', async () => {
    const failing = { on: false };
    const ops: AtomicFileOps = {
      ...nodeFileOps,
      rename: (from, to) => (failing.on ? Promise.reject(Object.assign(new Error('no space left'), { code: 'ENOSPC' })) : nodeFileOps.rename(from, to)),
    };
    const { store, clock, lines } = setup({ ops });
    const healths: boolean[] = [];
    store.onHealthChange((health) => healths.push(health.saving));
    let room = createRoom('first');
    await store.start(room);
    failing.on = true;
    await expect(apply(store, clock, room, { type: 'timer.create', id: 'b', fields: {} }).durable).rejects.toThrow(/no space left/);
    await expect(apply(store, clock, room, { type: 'timer.create', id: 'c', fields: {} }).durable).rejects.toThrow();
    expect(store.health()).toMatchObject({ saving: false, problem: expect.stringMatching(/ENOSPC/) });
    // The show goes on: a switch is recorded (it happened) and kept for the retry.
    room = apply(store, clock, room, { type: 'onair.set', on: true }).room;
    expect(lines.filter((l) => l.level === LEVEL.error)).toHaveLength(1);
    // No temp file is left; the previous generation (a second name of the file as it was) may be there.
    expect(readdirSync(dataDir).filter((name) => name !== PREVIOUS_FILE)).toEqual([STATE_FILE]);
    expect(onDisk().room.timers).toHaveLength(1);

    clock.advance(RETRY_MS);
    await settleWrites(store);
    expect(lines.filter((l) => l.level === LEVEL.error)).toHaveLength(1);
    clock.advance(60_000);
    await settleWrites(store);
    expect(lines.filter((l) => l.level === LEVEL.error)).toHaveLength(2);

    failing.on = false;
    clock.advance(RETRY_MS);
    await settleWrites(store);
    // What was refused is never written; what happened is.
    expect(onDisk().room.timers.map((t) => t.id)).toEqual(['first']);
    expect(onDisk().room.onAir).toBe(true);
    expect(store.health()).toEqual({ saving: true });
    expect(healths).toEqual([false, true]);
    expect(lines.some((l) => /being written again/.test(String(l.msg)))).toBe(true);
  });

  it('while writes fail, retries probe the disk even with nothing new to save', async () => {
    const failing = { on: true };
    const ops: AtomicFileOps = {
      ...nodeFileOps,
      writeSynced: (file, text, mode) => (failing.on ? Promise.reject(Object.assign(new Error('read-only'), { code: 'EROFS' })) : nodeFileOps.writeSynced(file, text, mode)),
    };
    const { store, clock } = setup({ ops });
    const room = createRoom('first');
    expect(await store.start(room)).toBe(room);
    expect(store.health().saving).toBe(false);
    clock.advance(RETRY_MS);
    await settleWrites(store);
    expect(store.health().saving).toBe(false);
    failing.on = false;
    clock.advance(RETRY_MS);
    await settleWrites(store);
    expect(store.health().saving).toBe(true);
    expect(onDisk().room.seq).toBe(1);
  });

  it('close flushes, marks the file clean and refuses later changes', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    room = apply(store, clock, room, { type: 'start' }).room;
    await store.close();
    expect(onDisk().room.transport.running).toBe(true);
    expect(onDisk().seqReservedTo).toBe(room.seq);
    await expect(apply(store, clock, room, { type: 'timer.create', id: 'b', fields: {} }).durable).rejects.toThrow(/stopping/);
    const writes = store.writes;
    apply(store, clock, room, { type: 'pause' });
    clock.advance(COALESCE_MS);
    await settleWrites(store);
    expect(store.writes).toBe(writes);
  });
});

describe('RoomStore: crashes and damaged files', () => {
  it('a crash between the temp write and the rename: the old file is read, the temp file ignored and removed', async () => {
    const first = setup();
    await first.store.start(createRoom('first'));
    const good = readFileSync(file(), 'utf8');
    // What a cut-off write leaves: a temp file, complete or not.
    writeFileSync(path.join(dataDir, `${STATE_FILE}.tmp-4242-7`), good.replace('Timer 1', 'Never acknowledged'));
    writeFileSync(path.join(dataDir, `${STATE_FILE}.tmp-4242-8`), good.slice(0, 40));

    const { store, lines } = setup();
    const document = await store.load();
    expect(document?.room.timers[0]?.label).toBe('Timer 1');
    expect(readdirSync(dataDir)).toEqual([STATE_FILE]);
    expect(lines.some((l) => l.level === LEVEL.info && /temp files left by writes that were cut off/.test(l.msg))).toBe(true);
  });

  it('a crash after the save keeps seq ahead of anything published since', async () => {
    const { store, clock } = setup();
    let room = createRoom('first');
    await store.start(room);
    for (let i = 0; i < 5; i += 1) room = apply(store, clock, room, { type: 'blackout.toggle' }).room;
    // No close: the process died here. Consoles may have seen seq 6.
    const restored = restoreRoom(onDisk(), { monoMs: 0, wallMs: clock.wallMs() });
    expect(room.seq).toBe(6);
    expect(restored.room.seq).toBeGreaterThan(room.seq);
  });

  it('a damaged file is moved aside with a timestamp, one error names the file kept, and a fresh room starts', async () => {
    writeFileSync(file(), '{"schemaVersion": 1, "room": {"seq": 3, "timers": [');
    const { store, clock, lines } = setup();
    expect(await store.load()).toBeNull();
    const kept = readdirSync(dataDir).filter((n) => n.startsWith('room.damaged-'));
    expect(kept).toEqual([`room.damaged-${new Date(clock.wallMs()).toISOString().replace(/[:.]/g, '-')}.json`]);
    expect(readFileSync(path.join(dataDir, kept[0] as string), 'utf8')).toBe('{"schemaVersion": 1, "room": {"seq": 3, "timers": [');
    const errors = lines.filter((l) => l.level >= LEVEL.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain(path.join(dataDir, kept[0] as string));
    expect(errors[0]?.msg).toMatch(/not valid JSON/);
    await store.start(createRoom('fresh'));
    expect(onDisk().room.timers[0]?.id).toBe('fresh');
  });

  it('a file with a UTF-8 byte-order mark (saved by an editor) is read as if it had none', async () => {
    const first = setup();
    await first.store.start(createRoom('first'));
    await first.store.close();
    writeFileSync(file(), `\uFEFF${readFileSync(file(), 'utf8')}`);
    const { store, lines } = setup();
    const document = await store.load();
    expect(document?.room.timers[0]?.id).toBe('first');
    expect(lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
  });

  it(`a file over ${STATE_FILE_MAX_BYTES} bytes is set aside without being read, and a fresh room starts`, async () => {
    const { store, lines } = setup();
    // Sparse: the size says 9 MB; reading it would take 9 MB of memory and parse time.
    writeFileSync(file(), '{');
    truncateSync(file(), STATE_FILE_MAX_BYTES + 1);
    expect(await store.load()).toBeNull();
    expect(readdirSync(dataDir).filter((n) => n.startsWith('room.damaged-'))).toHaveLength(1);
    expect(lines.find((l) => l.level >= LEVEL.error)?.msg).toMatch(/is 8388609 bytes, more than any room/);
  });

  it('a file that parses but breaks the room rules is damaged too', async () => {
    const { store } = setup();
    await store.start(createRoom('first'));
    const document = onDisk();
    writeFileSync(file(), JSON.stringify({ ...document, room: { ...document.room, activeTimerId: 'nobody' } }));
    const { store: next, lines } = setup();
    expect(await next.load()).toBeNull();
    expect(lines.find((l) => l.level === LEVEL.error)?.msg).toMatch(/activeTimerId: not in the running order/);
  });

  it('an unreadable state file (here a directory) never stops the start', async () => {
    mkdirSync(file());
    const { store, lines } = setup();
    expect(await store.load()).toBeNull();
    expect(lines.find((l) => l.level === LEVEL.error)?.msg).toMatch(/cannot be read \(EISDIR\)/);
    await store.start(createRoom('fresh'));
    expect(onDisk().room.timers[0]?.id).toBe('fresh');
  });

  it('a file of a newer schema version is refused the same way and never overwritten', async () => {
    const newer = JSON.stringify({ schemaVersion: SCHEMA_VERSION + 1, whatever: { seq: 900 } });
    writeFileSync(file(), newer);
    const { store, lines } = setup();
    expect(await store.load()).toBeNull();
    const kept = readdirSync(dataDir).filter((n) => n.startsWith(`room.schema-v${SCHEMA_VERSION + 1}-`));
    expect(kept).toHaveLength(1);
    expect(lines.filter((l) => l.level >= LEVEL.error)).toHaveLength(1);
    expect(lines.find((l) => l.level >= LEVEL.error)?.msg).toMatch(/newer Showclock/);
    await store.start(createRoom('fresh'));
    await store.close();
    expect(readFileSync(path.join(dataDir, kept[0] as string), 'utf8')).toBe(newer);
  });
});

describe('openRoom', () => {
  it('with the wall clock behind the last save: paused, and a warning in the log that says why', async () => {
    const first = setup();
    let room = createRoom('first');
    await first.store.start(room);
    room = apply(first.store, first.clock, room, { type: 'start' }).room;
    first.clock.advance(20_000);
    await first.store.close();

    // The Pi came back without network time: its wall clock is a day behind.
    const clock = new FakeClock({ monoMs: 900, wallMs: first.clock.wallMs() - 86_400_000 });
    const { store, logger, lines } = setup({ clock });
    const restored = await openRoom(store, { clock, logger, newTimerId: () => 'unused' });
    expect(restored.transport).toEqual({ running: false, remainingMs: 600_000 - 20_000 });
    const warnings = lines.filter((l) => l.level === LEVEL.warn);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/wall clock .* is earlier than the last save/);
    expect(warnings[0]?.msg).toMatch(/restored paused at 580000 ms/);
  });

  it('with the wall clock ahead: the time off is applied, logged at info', async () => {
    const first = setup();
    let room = createRoom('first');
    await first.store.start(room);
    room = apply(first.store, first.clock, room, { type: 'start' }).room;
    await first.store.close();

    const clock = new FakeClock({ monoMs: 900, wallMs: first.clock.wallMs() + 45_000 });
    const { logger, lines } = captureLog();
    const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger });
    const restored = await openRoom(store, { clock, logger, newTimerId: () => 'unused' });
    expect(remainingAt(restored, clock.monoMs())).toBe(600_000 - 45_000);
    expect(lines.find((l) => l.msg === 'restored the room from the state file')).toMatchObject({ downMs: 45_000, running: true });
  });
});
