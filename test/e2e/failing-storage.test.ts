// Storage that fails under a running show, from outside: the bundled service in
// a private mount namespace whose data directory is a bind mount remounted
// read-only (an SD card that ext4 remounted read-only), or a tiny tmpfs filled
// up. A holder process keeps the namespace (and the tmpfs) alive across a
// `kill -9`, and every service is started inside it with nsenter. A stream of
// commands runs while writes fail; every answer is checked against the room
// (2xx: it happened; 503: it did not, and was never pushed), health reports it,
// nothing refused reaches the disk once it works again, and after `kill -9`
// while failing the restart never shows a lower seq. Needs root, unshare and
// nsenter; where they are missing every test here is skipped with the reason.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { streamSnapshots } from '../../src/client/stream-snapshots.js';
import { ensureBundle, readSse, serviceEnv, startService, TEST_API_KEY, type ServiceProcess } from './service-process.js';

function probe(): string | null {
  if (process.platform !== 'linux') return 'needs Linux mount namespaces';
  if (process.getuid?.() !== 0) return 'needs root to mount in a private mount namespace';
  const tried = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k t "$d" && mount -o remount,ro "$d"'], {
    encoding: 'utf8',
  });
  if (tried.error !== undefined) return `unshare is not available (${tried.error.message})`;
  if (tried.status !== 0) return `unshare -m with a tmpfs is not permitted here: ${tried.stderr.trim()}`;
  if (spawnSync('nsenter', ['--version']).error !== undefined) return 'nsenter is not available';
  return null;
}

const unavailable = probe();
if (unavailable !== null) console.warn(`SKIPPED: failing storage is not tested here: ${unavailable}`);

type Kind = 'read-only' | 'full';

interface RoomFile {
  readonly seqReservedTo: number;
  readonly room: { readonly seq: number; readonly timers: readonly { readonly label: string }[] };
}

/** A private mount namespace kept alive by a sleeping holder, with the data directory mounted in it. */
class Namespace {
  readonly holder: ChildProcess;
  constructor(
    readonly kind: Kind,
    readonly dataDir: string,
  ) {
    const mountIt =
      kind === 'read-only'
        ? `mount --bind "${dataDir}" "${dataDir}"`
        : // Room for the room file and its temp copy, and little else.
          `mount -t tmpfs -o size=256k,mode=0700 showclock-full "${dataDir}"`;
    this.holder = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `${mountIt} && echo mounted && exec sleep 600`], { stdio: ['ignore', 'pipe', 'pipe'] });
  }

  async ready(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.holder.stdout?.once('data', () => resolve());
      this.holder.once('exit', (code) => reject(new Error(`namespace holder exited with ${code}`)));
    });
  }

  run(script: string): string {
    const done = spawnSync('nsenter', ['-t', String(this.holder.pid), '-m', 'sh', '-c', script], { encoding: 'utf8' });
    if (done.status !== 0 && !script.includes('|| true')) throw new Error(`in the namespace: ${script}: ${done.stderr}`);
    return done.stdout;
  }

  /** Makes writes fail the way this kind of storage does. */
  fail(): void {
    if (this.kind === 'read-only') this.run(`mount -o remount,bind,ro "${this.dataDir}"`);
    else this.run(`dd if=/dev/zero of="${this.dataDir}/filler" bs=4k 2>/dev/null || true`);
  }

  recover(): void {
    if (this.kind === 'read-only') this.run(`mount -o remount,bind,rw "${this.dataDir}"`);
    else this.run(`rm -f "${this.dataDir}/filler"`);
  }

  /** What is on disk, as the namespace sees it (a tmpfs is invisible from outside). */
  roomFile(): RoomFile {
    return JSON.parse(this.run(`cat "${this.dataDir}/room.json"`)) as RoomFile;
  }

  files(): string[] {
    return this.run(`ls -A "${this.dataDir}"`).split('\n').filter((name) => name !== '' && name !== 'filler');
  }

  start(): Promise<ServiceProcess> {
    const env = serviceEnv({
      SHOWCLOCK_DATA_DIR: this.dataDir,
      SHOWCLOCK_API_KEY: TEST_API_KEY,
      SHOWCLOCK_VIEWER_KEY: 'FailingStorageViewerKey_0123',
      SHOWCLOCK_RATE_LIMIT: '100000',
      SHOWCLOCK_CODE_CACHE: 'off',
    });
    return startService(env, { prefix: ['nsenter', '-t', String(this.holder.pid), '-m', '--'] });
  }

  close(): void {
    this.holder.kill('SIGKILL');
  }
}

interface State {
  readonly seq: number;
  readonly blackout: boolean;
  readonly onAir: boolean;
  readonly running: boolean;
  readonly remaining: number;
  readonly timers: { id: string; label: string }[];
  readonly message: { text: string } | null;
}

async function call(api: string, pathAndQuery: string, init?: RequestInit): Promise<{ status: number; storage: string | null; body: { ok: boolean; error?: string; state?: State } }> {
  const response = await fetch(`${api}${pathAndQuery}`, init);
  return { status: response.status, storage: response.headers.get('showclock-storage'), body: (await response.json()) as { ok: boolean; error?: string; state?: State } };
}

async function state(api: string): Promise<State> {
  const answer = await call(api, '/state');
  if (answer.body.state === undefined) throw new Error(`no state: ${JSON.stringify(answer.body)}`);
  return answer.body.state;
}

/**
 * One command and its check against the room read right after: a 2xx must have
 * happened, a 503 must not have. Returns the status.
 */
async function commandAndCheck(api: string, round: number, step: number): Promise<{ status: number; refusedLabel: string | null; storage: string | null }> {
  const before = await state(api);
  const label = `round-${round}-step-${step}`;
  switch (step % 6) {
    case 0: {
      const answer = await call(api, '/timers', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ label }) });
      const after = await state(api);
      const made = after.timers.some((t) => t.label === label);
      expect(made, `POST /timers answered ${answer.status}`).toBe(answer.status === 201);
      expect(after.timers.length).toBe(before.timers.length + (made ? 1 : 0));
      return { status: answer.status, refusedLabel: made ? null : label, storage: answer.storage };
    }
    case 1: {
      const id = before.timers[0]?.id ?? '';
      const answer = await call(api, `/timer/${id}/update?label=${label}`);
      const after = await state(api);
      expect(after.timers[0]?.label === label, `update answered ${answer.status}`).toBe(answer.status === 200);
      return { status: answer.status, refusedLabel: answer.status === 200 ? null : label, storage: answer.storage };
    }
    case 2: {
      const answer = await call(api, '/toggle_blackout');
      expect(answer.status).toBe(200);
      expect((await state(api)).blackout).toBe(!before.blackout);
      return { status: answer.status, refusedLabel: null, storage: answer.storage };
    }
    case 3: {
      const answer = await call(api, '/toggle_onair');
      expect(answer.status).toBe(200);
      expect((await state(api)).onAir).toBe(!before.onAir);
      return { status: answer.status, refusedLabel: null, storage: answer.storage };
    }
    case 4: {
      const answer = await call(api, '/adjust?ms=60000');
      expect(answer.status).toBe(200);
      const after = await state(api);
      // Paused, the remaining time moved by exactly the adjustment.
      expect(after.remaining - before.remaining).toBe(60_000);
      return { status: answer.status, refusedLabel: null, storage: answer.storage };
    }
    default: {
      const answer = await call(api, `/message?text=${label}`);
      expect(answer.status).toBe(200);
      expect((await state(api)).message?.text).toBe(label);
      return { status: answer.status, refusedLabel: null, storage: answer.storage };
    }
  }
}

const running: { ns?: Namespace; services: ServiceProcess[]; dirs: string[] } = { services: [], dirs: [] };

afterEach(() => {
  for (const service of running.services.splice(0)) service.child.kill('SIGKILL');
  running.ns?.close();
  running.ns = undefined;
  for (const dir of running.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(unavailable !== null)('failing storage under a running show', () => {
  beforeAll(() => ensureBundle());

  for (const kind of ['read-only', 'full'] as const) {
    it(`${kind}: answers agree with the room, health says so, nothing refused is written, and seq never goes back after kill -9`, async () => {
      const top = mkdtempSync(path.join(tmpdir(), 'showclock-failing-'));
      running.dirs.push(top);
      const dataDir = path.join(top, 'data');
      mkdirSync(dataDir);
      const ns = new Namespace(kind, dataDir);
      running.ns = ns;
      await ns.ready();
      const service = await ns.start();
      running.services.push(service);
      const health = () => fetch(`http://127.0.0.1:${service.port}/healthz`);
      expect((await health()).status).toBe(200);

      // Everything pushed to a console while the storage fails.
      const pushed: Snapshot[] = [];
      // Rebuilt as a console rebuilds them: the first event whole, then deltas.
      const take = streamSnapshots((value): value is Snapshot => typeof value === 'object' && value !== null);
      const stream = readSse(`${service.api}/events`, (event) => {
        const snapshot = take(event.event, event.data);
        if (snapshot !== null && snapshot !== undefined) pushed.push(snapshot);
      });
      const storageEvents: string[] = [];
      const notices = readSse(`${service.api}/events`, (event) => {
        if (event.event === 'storage') storageEvents.push(event.data);
      });

      expect((await call(service.api, '/timers', { method: 'POST', body: '{"label":"before"}' })).status).toBe(201);

      ns.fail();
      const refused: string[] = [];
      const statuses: number[] = [];
      for (let step = 0; step < 30; step += 1) {
        const result = await commandAndCheck(service.api, 1, step);
        statuses.push(result.status);
        if (result.refusedLabel !== null) refused.push(result.refusedLabel);
        // Every answer once the first write failed says the room is not being saved.
        if (step > 0) expect(result.storage, `step ${step}`).toMatch(/^failing; the room is not being saved/);
      }
      // Edits were refused, the show went on.
      expect(statuses.filter((s) => s === 503).length).toBe(10);
      expect(statuses.filter((s) => s === 200).length).toBe(20);
      const degraded = await health();
      expect(degraded.status).toBe(503);
      expect(await degraded.json()).toMatchObject({ ok: false, storage: 'failing', problem: expect.stringMatching(kind === 'full' ? /ENOSPC/ : /EROFS/) });
      await expect.poll(() => storageEvents.some((data) => (JSON.parse(data) as { saving: boolean }).saving === false)).toBe(true);
      // Nothing refused was ever pushed.
      const pushedLabels = new Set(pushed.flatMap((s) => s.timers.map((t) => t.label)));
      for (const label of refused) expect(pushedLabels.has(label), label).toBe(false);
      await service.waitForLog((l) => l.level === 50 && /NOT being saved/.test(l.msg), 3_000);
      expect(service.lines.filter((l) => l.level === 50 && /NOT being saved/.test(l.msg))).toHaveLength(1);

      // kill -9 while failing, space back, restart: seq did not go back.
      await expect.poll(() => pushed.at(-1)?.seq ?? 0).toBe((await state(service.api)).seq);
      const highestPushed = Math.max(...pushed.map((s) => s.seq));
      stream.close();
      notices.close();
      service.child.kill('SIGKILL');
      await service.exited;
      ns.recover();
      const restarted = await ns.start();
      running.services.push(restarted);
      const after = await state(restarted.api);
      expect(after.seq).toBeGreaterThan(highestPushed);
      expect((await fetch(`http://127.0.0.1:${restarted.port}/healthz`)).status).toBe(200);
      for (const label of refused) expect(after.timers.some((t) => t.label === label), label).toBe(false);
      expect(after.timers.some((t) => t.label === 'before')).toBe(true);

      // While it runs again, fail and recover without a crash: what happened is written, nothing refused is.
      ns.fail();
      const second: string[] = [];
      for (let step = 0; step < 12; step += 1) {
        const result = await commandAndCheck(restarted.api, 2, step);
        if (result.refusedLabel !== null) second.push(result.refusedLabel);
      }
      const expected = await state(restarted.api);
      ns.recover();
      // The retry comes within 5 s.
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${restarted.port}/healthz`)).status, { timeout: 8_000, interval: 250 }).toBe(200);
      await expect.poll(() => ns.roomFile().room.seq, { timeout: 3_000 }).toBe(expected.seq);
      const disk = ns.roomFile();
      const onDiskLabels = disk.room.timers.map((t) => t.label);
      for (const label of [...refused, ...second]) expect(onDiskLabels).not.toContain(label);
      expect(onDiskLabels).toEqual(expected.timers.map((t) => t.label));
      expect(ns.files().filter((name) => name.includes('.tmp-'))).toEqual([]);
      // Log lines go out in batches (LOG_FLUSH_MS): waited for, not read at once.
      await restarted.waitForLog((l) => /being written again/.test(l.msg), 3_000);
    }, 120_000);
  }
});
