// The store's invariant (room-store.ts) with the real room service on a slow,
// uneven and failing file system (real files in a temp directory, each step of a
// write delayed or failed on purpose):
// - no write holds a room older than an earlier write, and none lacks a change
//   that was answered after being saved first (issue 25, finding 1: a message set
//   while an edit's save was slow wrote the room from before the edit);
// - a change refused because a step after the rename failed is not in the file
//   (finding 2: the directory sync failed with EIO, the answer was 503, the file
//   held the change).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotDone, RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import type { Command, Room } from '../../src/domain/types.js';
import { nodeFileOps, type AtomicFileOps } from '../../src/store/atomic-file.js';
import { parseDocument, type RoomDocument } from '../../src/store/room-document.js';
import { RoomStore, STATE_FILE } from '../../src/store/room-store.js';
import { FakeClock } from '../helpers/test-app.js';
import { captureLog } from './log-capture.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-save-order-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const eio = (step: string) => Object.assign(new Error(`${step}: input/output error (test)`), { code: 'EIO' });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The room file as stored (its running order, message and seq are what these tests compare). */
type StoredRoom = RoomDocument['room'];

function roomOnDisk(): StoredRoom {
  const read = parseDocument(readFileSync(path.join(dataDir, STATE_FILE), 'utf8'));
  if (read.kind !== 'ok') throw new Error(`room.json does not parse: ${JSON.stringify(read)}`);
  return read.document.room;
}

const labels = (room: Pick<Room, 'timers'>) => room.timers.map((t) => t.label);
const message = (text: string): Command => ({ type: 'message.set', message: { text, flash: false, color: 'white', bold: false } });

/**
 * Real file operations with each step's delay (and failure) chosen by the test,
 * and every file the room file became, read right after its rename.
 */
function unevenOps(plan: { delayMs: (step: 'write' | 'rename' | 'sync') => number; syncFails?: () => boolean; writeFails?: () => boolean }) {
  const landed: StoredRoom[] = [];
  const ops: AtomicFileOps = {
    writeSynced: async (file, text, mode) => {
      await sleep(plan.delayMs('write'));
      if (plan.writeFails?.() === true) throw eio('write');
      await nodeFileOps.writeSynced(file, text, mode);
    },
    rename: async (from, to) => {
      await sleep(plan.delayMs('rename'));
      await nodeFileOps.rename(from, to);
      if (path.basename(to) === STATE_FILE) landed.push(roomOnDisk());
    },
    syncDirectory: async (dir) => {
      await sleep(plan.delayMs('sync'));
      if (plan.syncFails?.() === true) throw eio('fsync of the directory');
      await nodeFileOps.syncDirectory(dir);
    },
    unlink: (file) => nodeFileOps.unlink(file),
  };
  return { ops, landed };
}

async function wired(ops: AtomicFileOps, initial: Room = createRoom('t1')) {
  const clock = new FakeClock();
  const { logger } = captureLog();
  const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger, ops });
  const room = await store.start(initial);
  const service = new RoomService({ initialRoom: room, clock, scheduler: clock.scheduler, persistence: store });
  service.start();
  return { clock, store, service };
}

describe('a slow card: every write holds what was answered before it started', () => {
  it('an edit whose save is slow, and a message set meanwhile: no later write goes back to the old label (finding 1)', async () => {
    const slow = { on: false };
    const { ops, landed } = unevenOps({ delayMs: (step) => (slow.on && step !== 'rename' ? 120 : 0) });
    const { clock, store, service } = await wired(ops);
    slow.on = true;
    const edit = service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'New label' } }, 'http-v1');
    await sleep(30);
    expect(service.dispatch(message('Five minutes'), 'http-v1').outcome.ok).toBe(true);
    // The message's coalesced write falls due while the edit's write is still in flight.
    clock.advance(1_000);
    await edit.durable;
    const answeredAt = landed.length;
    expect(labels(roomOnDisk())).toEqual(['New label']);
    clock.advance(1_000);
    await sleep(5);
    await store.idle();
    const after = landed.slice(answeredAt);
    expect(after.length).toBeGreaterThan(0);
    for (const room of after) expect(labels(room)).toEqual(['New label']);
    expect(roomOnDisk().message?.text).toBe('Five minutes');
    // Seq on disk never goes back from one write to the next.
    const seqs = landed.map((room) => room.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('property: any mix of edits and transport on an uneven card; each written file is at least as new as the last, and holds every edit answered before its write began', async () => {
    type Step = { kind: 'edit'; label: string } | { kind: 'create' } | { kind: 'message'; text: string } | { kind: 'start' } | { kind: 'pause' } | { kind: 'tick'; ms: number };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), label: fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() === s && s.length > 0) }),
      fc.constant({ kind: 'create' as const }),
      fc.record({ kind: fc.constant('message' as const), text: fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() === s && s.length > 0) }),
      fc.constant({ kind: 'start' as const }),
      fc.constant({ kind: 'pause' as const }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 8, maxLength: 8 }), async (steps, delays) => {
        rmSync(dataDir, { recursive: true, force: true });
        dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-save-order-'));
        let n = 0;
        // Each step of each write takes its own time: writes that overlapped would finish out of order.
        const { ops, landed } = unevenOps({ delayMs: () => delays[n++ % delays.length] ?? 0 });
        const { clock, store, service } = await wired(ops);
        /** Running orders answered so far (saved first, so on disk when answered), in order. */
        const answered: string[][] = [labels(service.room)];
        const checks: { landedBefore: number; answeredBefore: number }[] = [];
        const pending: Promise<void>[] = [];
        let created = 1;
        for (const s of steps) {
          let command: Command | null = null;
          if (s.kind === 'edit') command = { type: 'timer.update', id: 't1', fields: { label: s.label } };
          if (s.kind === 'create') command = { type: 'timer.create', id: `c${(created += 1)}`, fields: { label: `created ${created}` } };
          if (s.kind === 'message') command = message(s.text);
          if (s.kind === 'start') command = { type: 'start' };
          if (s.kind === 'pause') command = { type: 'pause' };
          if (s.kind === 'tick') clock.advance(s.ms);
          if (command !== null) {
            const result = service.dispatch(command, 'http-v1');
            pending.push(
              result.durable.then(
                () => {
                  if (command?.type === 'timer.update' || command?.type === 'timer.create') {
                    answered.push(labels(service.room));
                    // Every file that lands from now on must hold this running order or a later one.
                    checks.push({ landedBefore: landed.length, answeredBefore: answered.length - 1 });
                  }
                },
                () => {},
              ),
            );
          }
          await sleep(delays[0] ?? 0);
        }
        await Promise.all(pending);
        clock.advance(2_000);
        await sleep(1);
        await store.idle();
        const position = (room: StoredRoom): number => {
          for (let i = answered.length - 1; i >= 0; i -= 1) if (JSON.stringify(answered[i]) === JSON.stringify(labels(room))) return i;
          return -1;
        };
        // Every file on disk holds an answered running order, never an older one than the file before it.
        let last = 0;
        for (const room of landed) {
          const at = position(room);
          expect(at).toBeGreaterThanOrEqual(last);
          last = at;
        }
        for (const check of checks) for (const room of landed.slice(check.landedBefore)) expect(position(room)).toBeGreaterThanOrEqual(check.answeredBefore);
        // And the last file is the room as it is.
        expect(labels(roomOnDisk())).toEqual(labels(service.room));
        const seqs = landed.map((room) => room.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('a card whose directory sync fails after the rename', () => {
  it('the refused edit is taken back out of the file before the 503 (finding 2), and never written later', async () => {
    const failing = { on: false };
    const { ops, landed } = unevenOps({ delayMs: () => 0, syncFails: () => failing.on });
    const { clock, store, service } = await wired(ops);
    failing.on = true;
    const update = service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'Refused update' } }, 'http-v1');
    await expect(update.durable).rejects.toMatchObject({ kind: 'storage' });
    const create = service.dispatch({ type: 'timer.create', id: 't2', fields: { label: 'Refused create' } }, 'http-v1');
    await expect(create.durable).rejects.toBeInstanceOf(NotDone);
    // The rename did happen (the file held the change for a moment), and the room without it was put back.
    expect(landed.some((room) => labels(room).includes('Refused update'))).toBe(true);
    expect(labels(roomOnDisk())).toEqual(['Timer 1']);
    expect(store.health().saving).toBe(false);
    // The show goes on, and when the card works again nothing refused reaches the file.
    service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    failing.on = false;
    clock.advance(5_000);
    await sleep(5);
    await store.idle();
    expect(labels(roomOnDisk())).toEqual(['Timer 1']);
    expect(roomOnDisk().onAir).toBe(true);
    expect(store.health()).toEqual({ saving: true });
  });

  it('when the old room cannot be put back either, the file holds the change: it happened (2xx), and health says the card fails', async () => {
    const failing = { sync: false, write: false };
    const { ops } = unevenOps({
      delayMs: () => 0,
      syncFails: () => {
        if (!failing.sync) return false;
        // From the first failed sync on, writing a new temp file fails too.
        failing.write = true;
        return true;
      },
      writeFails: () => failing.write,
    });
    const { store, service } = await wired(ops);
    failing.sync = true;
    const update = service.dispatch({ type: 'timer.update', id: 't1', fields: { label: 'Kept' } }, 'http-v1');
    await expect(update.durable).resolves.toBeUndefined();
    expect(labels(service.room)).toEqual(['Kept']);
    expect(labels(roomOnDisk())).toEqual(['Kept']);
    expect(store.health().saving).toBe(false);
  });
});
