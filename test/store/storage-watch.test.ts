// The data directory watched like the card it is (issue 25, findings 4, 5 and
// the health at rest of 6), on a real temp directory: a directory removed while
// running is made again with the keys and the room written back at once; a
// keys.json that is gone is written back; garbage written into room.json is
// seen, reported and replaced from memory (and, had the box crashed first, the
// previous generation brings the room back with seq ahead); a card that starts
// failing while nothing is written shows in health within one check.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { KEYS_FILE, readKeys, writeKeys, type RoomKeys } from '../../src/keys/key-file.js';
import { nodeFileOps, type AtomicFileOps } from '../../src/store/atomic-file.js';
import { openRoom } from '../../src/store/open-room.js';
import { parseDocument, type RoomDocument } from '../../src/store/room-document.js';
import { PREVIOUS_FILE, RoomStore, SEQ_RESERVE, STATE_FILE } from '../../src/store/room-store.js';
import { StorageWatch } from '../../src/store/storage-watch.js';
import { FakeClock } from '../helpers/test-app.js';
import { captureLog, LEVEL } from './log-capture.js';

let top: string;
let dataDir: string;
beforeEach(() => {
  top = mkdtempSync(path.join(tmpdir(), 'showclock-watch-'));
  dataDir = path.join(top, 'data');
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

const INTERVAL_MS = 10_000;
const KEYS: RoomKeys = { apiKey: 'WatchApiKey_0123456789abcdef', viewerKey: 'WatchViewerKey_0123456789abc', audienceKey: 'WatchAudienceKey_0123456789a' };

function documentOnDisk(file = STATE_FILE): RoomDocument {
  const read = parseDocument(readFileSync(path.join(dataDir, file), 'utf8'));
  if (read.kind !== 'ok') throw new Error(`${file} does not parse: ${JSON.stringify(read)}`);
  return read.document;
}

async function wired(ops?: AtomicFileOps) {
  const clock = new FakeClock();
  const log = captureLog();
  const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger: log.logger, ...(ops === undefined ? {} : { ops }) });
  const initialRoom = await openRoom(store, { clock, logger: log.logger, newTimerId: () => 't1' });
  writeKeys(dataDir, KEYS);
  const service = new RoomService({ initialRoom, clock, scheduler: clock.scheduler, persistence: store });
  service.start();
  let recreated = 0;
  const watch = new StorageWatch({
    dataDir,
    keysFile: KEYS_FILE,
    saveKeys: () => writeKeys(dataDir, KEYS),
    store,
    clock,
    scheduler: clock.scheduler,
    logger: log.logger,
    intervalMs: INTERVAL_MS,
    onRecreated: () => (recreated += 1),
  });
  watch.start();
  /** Lets one check run to its end. */
  const tick = async () => {
    clock.advance(INTERVAL_MS);
    await watch.checkNow();
    await store.idle();
  };
  return { clock, store, service, watch, tick, recreated: () => recreated, ...log };
}

describe('StorageWatch', () => {
  it('a data directory removed while running is made again, with the keys and the room written back at the next check', async () => {
    const { service, tick, store, lines, recreated } = await wired();
    await service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'Keynote' } }, 'http-v1').durable;
    rmSync(dataDir, { recursive: true, force: true });
    await tick();
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys: KEYS });
    expect(documentOnDisk().room.timers.map((t) => t.label)).toEqual(['Keynote']);
    expect(store.health()).toEqual({ saving: true });
    expect(recreated()).toBe(1);
    expect(lines.some((l) => l.level === LEVEL.error && /disappeared while running/.test(l.msg))).toBe(true);
  });

  it('a directory that cannot be made again is reported in health until it can', async () => {
    const { tick, store } = await wired();
    rmSync(dataDir, { recursive: true, force: true });
    // A file where the directory was: mkdir cannot make it.
    writeFileSync(dataDir, 'not a directory');
    await tick();
    expect(store.health()).toMatchObject({ saving: false, problem: expect.stringMatching(/no longer a directory/) });
    rmSync(dataDir);
    await tick();
    expect(store.health()).toEqual({ saving: true });
    expect(existsSync(path.join(dataDir, KEYS_FILE))).toBe(true);
  });

  it('a keys.json that disappeared is written back with the keys in use, never replaced by new ones', async () => {
    const { tick, lines } = await wired();
    rmSync(path.join(dataDir, KEYS_FILE));
    await tick();
    expect(readKeys(dataDir)).toEqual({ kind: 'ok', keys: KEYS });
    expect(lines.some((l) => l.level === LEVEL.warn && /disappeared while running: wrote the keys in use back/.test(l.msg))).toBe(true);
  });

  it('garbage written into room.json is seen at the next check, logged, and replaced from memory; seq goes on', async () => {
    const { service, tick, lines } = await wired();
    await service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'Keynote' } }, 'http-v1').durable;
    const seq = service.room.seq;
    writeFileSync(path.join(dataDir, STATE_FILE), 'garbage');
    await tick();
    expect(lines.some((l) => l.level === LEVEL.error && /not what this service wrote/.test(l.msg))).toBe(true);
    const document = documentOnDisk();
    expect(document.room.timers.map((t) => t.label)).toEqual(['Keynote']);
    expect(document.seqReservedTo).toBeGreaterThanOrEqual(seq);
  });

  it('the same size with other bytes is seen too (the hash, not only the size)', async () => {
    const { tick, lines } = await wired();
    const file = path.join(dataDir, STATE_FILE);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('Timer 1', 'Timer 9'));
    await tick();
    expect(lines.some((l) => /other content of the same size/.test(String(l.found)))).toBe(true);
    expect(documentOnDisk().room.timers[0]?.label).toBe('Timer 1');
  });

  it('a card that starts failing while nothing is written shows in health within one check, and recovers', async () => {
    const failing = { on: false };
    const ops: AtomicFileOps = {
      ...nodeFileOps,
      writeSynced: (file, text, mode) => (failing.on ? Promise.reject(Object.assign(new Error('I/O error'), { code: 'EIO' })) : nodeFileOps.writeSynced(file, text, mode)),
    };
    const { tick, store, clock } = await wired(ops);
    await tick();
    expect(store.health()).toEqual({ saving: true });
    failing.on = true;
    await tick();
    expect(store.health()).toMatchObject({ saving: false, problem: expect.stringMatching(/cannot write in the data directory \(EIO\)/) });
    failing.on = false;
    clock.advance(5_000);
    await store.idle();
    expect(store.health()).toEqual({ saving: true });
  });
});

describe('the previous generation', () => {
  it('garbage in room.json and a crash before any check: the next start reads the previous generation, seq ahead of all published', async () => {
    const first = await wired();
    for (const label of ['One', 'Two', 'Three']) await first.service.dispatch({ type: 'timer.update', id: 't1', fields: { label } }, 'http-v1').durable;
    const published = first.service.room.seq;
    const reserved = documentOnDisk().seqReservedTo;
    expect(documentOnDisk(PREVIOUS_FILE).room.timers[0]?.label).toBe('Two');
    writeFileSync(path.join(dataDir, STATE_FILE), '{"schemaVersion": 4, "garb');
    // No orderly stop: a crash. A new store reads the directory.
    const clock = new FakeClock();
    const { logger, lines } = captureLog();
    const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger });
    const room = await openRoom(store, { clock, logger, newTimerId: () => 'fresh' });
    expect(room.timers.map((t) => t.label)).toEqual(['Two']);
    expect(room.seq).toBeGreaterThan(reserved);
    expect(room.seq).toBeGreaterThan(published);
    expect(lines.some((l) => l.level === LEVEL.warn && /previous generation/.test(l.msg))).toBe(true);
    expect(room.seq - published).toBeLessThanOrEqual(4 * SEQ_RESERVE);
  });

  it('a room.json changed by hand never becomes the previous generation', async () => {
    const { service } = await wired();
    await service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'Good' } }, 'http-v1').durable;
    writeFileSync(path.join(dataDir, STATE_FILE), 'garbage');
    await service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'Later' } }, 'http-v1').durable;
    expect(readFileSync(path.join(dataDir, PREVIOUS_FILE), 'utf8')).not.toBe('garbage');
    expect(documentOnDisk(PREVIOUS_FILE).room.timers[0]?.label).not.toBe('Later');
  });
});
