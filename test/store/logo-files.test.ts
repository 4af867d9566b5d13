// Files beside the room follow the room (issue 25, finding 3): a logo file is
// removed only once a room that no longer names it is on disk, so at every
// instant (a crash may come at any) the room on disk names a logo whose file is
// there. Checked after every rename of room.json and every removal of a file, on
// a real temp directory, with the room service and the store as main wires them.
// At start, files the room does not name go, and a missing file means no logo.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { nodeFileOps, type AtomicFileOps } from '../../src/store/atomic-file.js';
import { LogoFiles } from '../../src/store/logo-files.js';
import { parseDocument } from '../../src/store/room-document.js';
import { RoomStore, STATE_FILE } from '../../src/store/room-store.js';
import { FakeClock } from '../helpers/test-app.js';
import { captureLog, LEVEL } from './log-capture.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-logos-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const VERSIONS = ['0123456789abcdef.png', 'fedcba9876543210.svg', 'aaaaaaaaaaaaaaaa.webp'] as const;

function logoOnDisk(): string | null {
  const read = parseDocument(readFileSync(path.join(dataDir, STATE_FILE), 'utf8'));
  if (read.kind !== 'ok') throw new Error('room.json does not parse');
  return read.document.room.display.logo;
}

/** Real file operations that check the invariant after each step that changes what a crash would leave. */
function checkingOps(delayMs: () => number) {
  const broken: string[] = [];
  const check = (after: string) => {
    if (!existsSync(path.join(dataDir, STATE_FILE))) return;
    const logo = logoOnDisk();
    if (logo !== null && !existsSync(path.join(dataDir, `logo-${logo}`))) broken.push(`after ${after}: room.json names ${logo}, whose file is gone`);
  };
  const ops: AtomicFileOps = {
    writeSynced: async (file, text, mode) => {
      await sleep(delayMs());
      await nodeFileOps.writeSynced(file, text, mode);
    },
    rename: async (from, to) => {
      await sleep(delayMs());
      await nodeFileOps.rename(from, to);
      check(`rename to ${path.basename(to)}`);
    },
    syncDirectory: (dir) => nodeFileOps.syncDirectory(dir),
    unlink: async (file) => {
      await nodeFileOps.unlink(file);
      check(`removing ${path.basename(file)}`);
    },
  };
  return { ops, broken };
}

async function wired(ops: AtomicFileOps) {
  const clock = new FakeClock();
  const log = captureLog();
  const store = new RoomStore({ dataDir, clock, scheduler: clock.scheduler, logger: log.logger, ops });
  const logos = new LogoFiles({ dataDir, saved: store, ops, logger: log.logger });
  const service = new RoomService({ initialRoom: await store.start(createRoom('t1')), clock, scheduler: clock.scheduler, persistence: store });
  service.start();
  /** What the upload and delete routes do (logo-routes.ts). */
  const upload = async (version: string) => {
    await logos.save(version, new TextEncoder().encode(`bytes of ${version}`));
    const previous = service.room.display.logo;
    service.dispatch({ type: 'display.logo', logo: version }, 'http-v1');
    await logos.uploaded(version, service.room);
    await logos.retire(previous, service.room);
  };
  const remove = () => {
    const previous = service.room.display.logo;
    service.dispatch({ type: 'display.logo', logo: null }, 'http-v1');
    void logos.retire(previous, service.room);
  };
  return { clock, store, logos, service, upload, remove, ...log };
}

const logoFiles = () => readdirSync(dataDir).filter((name) => name.startsWith('logo-')).sort();

describe('logo files follow the room', () => {
  it('replacing a logo keeps the old file until a room without it is on disk, then removes it', async () => {
    const { ops, broken } = checkingOps(() => 0);
    const { clock, store, upload } = await wired(ops);
    await upload(VERSIONS[0]);
    clock.advance(1_000);
    await store.idle();
    expect(logoOnDisk()).toBe(VERSIONS[0]);
    await upload(VERSIONS[1]);
    // The room change waits for its coalesced write: the old file must still be there.
    expect(logoOnDisk()).toBe(VERSIONS[0]);
    expect(logoFiles()).toEqual([`logo-${VERSIONS[0]}`, `logo-${VERSIONS[1]}`]);
    clock.advance(1_000);
    await store.idle();
    await sleep(5);
    expect(logoOnDisk()).toBe(VERSIONS[1]);
    expect(logoFiles()).toEqual([`logo-${VERSIONS[1]}`]);
    expect(broken).toEqual([]);
  });

  it('a logo uploaded again before the room without it was saved is kept', async () => {
    const { ops, broken } = checkingOps(() => 0);
    const { clock, store, upload, remove } = await wired(ops);
    await upload(VERSIONS[0]);
    clock.advance(1_000);
    await store.idle();
    remove();
    await upload(VERSIONS[0]);
    clock.advance(1_000);
    await store.idle();
    await sleep(5);
    expect(logoOnDisk()).toBe(VERSIONS[0]);
    expect(logoFiles()).toEqual([`logo-${VERSIONS[0]}`]);
    expect(broken).toEqual([]);
  });

  it('property: any uploads, replacements and deletes, any write timing: the room on disk never names a missing file', async () => {
    const action = fc.oneof(
      fc.record({ kind: fc.constant('upload' as const), version: fc.constantFrom(...VERSIONS) }),
      fc.constant({ kind: 'delete' as const }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 1_200 }) }),
      fc.record({ kind: fc.constant('edit' as const), label: fc.constantFrom('A', 'B', 'C') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 12 }), fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 5, maxLength: 5 }), async (actions, delays) => {
        rmSync(dataDir, { recursive: true, force: true });
        dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-logos-'));
        let n = 0;
        const { ops, broken } = checkingOps(() => delays[n++ % delays.length] ?? 0);
        const { clock, store, service, upload, remove } = await wired(ops);
        const inFlight: Promise<unknown>[] = [];
        for (const a of actions) {
          if (a.kind === 'upload') inFlight.push(upload(a.version));
          if (a.kind === 'delete') remove();
          if (a.kind === 'tick') clock.advance(a.ms);
          // A saved-first edit makes a write at once, in between the coalesced ones.
          if (a.kind === 'edit') inFlight.push(service.dispatch({ type: 'timer.update', id: 't1', fields: { label: a.label } }, 'http-v1').durable.catch(() => {}));
          await sleep(delays[0] ?? 0);
        }
        await Promise.all(inFlight);
        clock.advance(2_000);
        await sleep(2);
        await store.idle();
        await sleep(5);
        expect(broken).toEqual([]);
        // Once all is saved, only the named file is left.
        const named = service.room.display.logo;
        expect(logoOnDisk()).toBe(named);
        expect(logoFiles()).toEqual(named === null ? [] : [`logo-${named}`]);
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('two uploads of one logo and another in between, with a save landing meanwhile: the file stays while the room names it (a counterexample once found)', async () => {
    for (let round = 0; round < 30; round += 1) {
      rmSync(dataDir, { recursive: true, force: true });
      dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-logos-'));
      let n = 0;
      const delays = [1, 0, 1, 0, 0];
      const { ops, broken } = checkingOps(() => delays[n++ % delays.length] ?? 0);
      const { clock, store, service, upload } = await wired(ops);
      const first = upload(VERSIONS[0]);
      await sleep(1);
      const again = upload(VERSIONS[0]);
      await sleep(1);
      const other = upload(VERSIONS[1]);
      await sleep(round % 3);
      clock.advance(1_000);
      await service.dispatch({ type: 'timer.update', id: 't1', fields: { label: `round ${round}` } }, 'http-v1').durable;
      await Promise.all([first, again, other]);
      clock.advance(2_000);
      await store.idle();
      await sleep(5);
      expect(broken).toEqual([]);
      expect(logoFiles()).toEqual(service.room.display.logo === null ? [] : [`logo-${service.room.display.logo}`]);
    }
  });
});

describe('logo files at start', () => {
  it('files the room does not name are removed; the named one stays', async () => {
    const room: Room = { ...createRoom('t1'), display: { ...createRoom('t1').display, logo: VERSIONS[0] } };
    for (const version of VERSIONS) writeFileSync(path.join(dataDir, `logo-${version}`), version);
    writeFileSync(path.join(dataDir, 'logo-not-a-version.txt'), 'kept: not a logo file of ours');
    const logos = new LogoFiles({ dataDir });
    expect(await logos.reconcile(room)).toBe(room);
    expect(readdirSync(dataDir).sort()).toEqual([`logo-${VERSIONS[0]}`, 'logo-not-a-version.txt']);
  });

  it('a room naming a missing file falls back to no logo, with one warning', async () => {
    const room: Room = { ...createRoom('t1'), display: { ...createRoom('t1').display, logo: VERSIONS[1] } };
    const { logger, lines } = captureLog();
    const reconciled = await new LogoFiles({ dataDir, logger }).reconcile(room);
    expect(reconciled.display.logo).toBeNull();
    expect(reconciled.seq).toBe(room.seq + 1);
    expect(lines.filter((l) => l.level === LEVEL.warn)).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(/names the logo .* whose file is missing/);
  });
});
