// Issue 25, findings 1 and 2: a slow or failing SD card, seen from outside. The
// bundled service runs with an LD_PRELOAD shim (fsync-shim.ts) that makes every
// fsync/fdatasync sleep 1.2 s ("slow"), or makes fsync of a directory fail with
// EIO after room.json's temp file was renamed into place ("dir-eio"). The fault
// is switched on and off at run time with a control file; every service starts
// with it off, and every restart after a kill -9 is made with it off.
//
// The contract tested (README, "Data, keys and power cuts"): a 2xx running-order
// edit is on disk and stays there (kill -9 cannot lose it); a 503 "nothing was
// changed" never reaches the disk; seq never goes back; room.json is always whole.
//   1. Slow card: an update answered 200, then a message change made during its
//      save, must not be overwritten on disk by the delayed save of the message
//      change (a room taken before the edit was applied).
//   2. Directory fsync failing: an update and a create answered 503 must not be on
//      disk after their answers, nor in the running order after kill -9 and restart.
//   3. Mixed load for each shim: concurrent clients, kill -9 at a random moment,
//      every answer checked against the restarted room.
// Needs Linux and cc; skipped with the reason otherwise.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildShims,
  FaultSwitch,
  readRoomFile,
  seededRandom,
  shimEnv,
  shimUnavailable,
  sleep,
  SLOW_FSYNC_MS,
  watchRoomFile,
  type DiskRead,
  type RoomFile,
  type ShimKind,
  type TimerOnDisk,
} from './fsync-shim.js';
import { ensureBundle, readSse, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from './service-process.js';

const unavailable = shimUnavailable();
if (unavailable !== null) console.warn(`SKIPPED: slow and failing SD card (issue 25) are not tested here: ${unavailable}`);

const AUDIENCE_KEY = 'SlowCardAudienceKey_0123456789';
/** Mixed-load rounds per shim. */
const ROUNDS = 5;
/** A request never waits longer than this (a slow save takes 2.4 s; several queue up). */
const FETCH_TIMEOUT_MS = 60_000;
const SEED = Number(process.env.SLOW_CARD_SEED ?? Math.floor(Math.random() * 1e9));

interface StateView {
  readonly seq: number;
  readonly timers: readonly TimerOnDisk[];
}

interface Body {
  readonly ok?: boolean;
  readonly error?: string;
  readonly state?: StateView;
  readonly timer?: TimerOnDisk;
  readonly id?: string;
  readonly questions?: readonly { readonly id: string; readonly text: string }[];
}

/** An answer, or none (the service was killed while the request was in flight, or it timed out). */
type Answer = { readonly status: number; readonly body: Body | null } | { readonly status: null; readonly error: string };

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    return { status: null, error: error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error) };
  }
  let body: Body | null = null;
  try {
    body = (await response.json()) as Body;
  } catch {
    // The status line came; the body may have been cut off by the kill.
  }
  return { status: response.status, body };
}

function bodyOf(answer: Answer): Body | null {
  return answer.status === null ? null : answer.body;
}

function postJson(url: string, value: unknown): Promise<Answer> {
  return ask(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) });
}

async function stateOf(service: ServiceProcess): Promise<StateView> {
  const answer = await ask(`${service.api}/state`);
  if (answer.status !== 200 || answer.body?.state === undefined) throw new Error(`GET /state: ${JSON.stringify(answer)}`);
  return answer.body.state;
}

function labelOnDisk(file: RoomFile, id: string): string | null {
  return file.room.timers.find((t) => t.id === id)?.label ?? null;
}

function describeRead(read: DiskRead, since: number, id: string): string {
  const at = `+${Math.round(read.startedAt - since)} ms`;
  return read.read.ok ? `${at}: ${JSON.stringify(labelOnDisk(read.read.file, id))} (seq ${read.read.file.room.seq})` : `${at}: room.json ${read.read.problem}`;
}

/** The label changes seen on disk, for the log: one line per change. */
function timeline(reads: readonly DiskRead[], since: number, id: string): string[] {
  const lines: string[] = [];
  let last = '';
  for (const read of reads) {
    const label = read.read.ok ? JSON.stringify(labelOnDisk(read.read.file, id)) : read.read.problem;
    if (label !== last) lines.push(describeRead(read, since, id));
    last = label;
  }
  return lines;
}

let top = '';
const running: ServiceProcess[] = [];
let shims: Record<ShimKind, string> | null = null;

function dirs(name: string): { dataDir: string; control: FaultSwitch } {
  const dataDir = path.join(top, name);
  mkdirSync(dataDir);
  const control = new FaultSwitch(path.join(top, `${name}.fault-on`));
  control.off();
  return { dataDir, control };
}

/** The bundled service with the shim loaded; the fault is whatever `control` says (off at every start here). */
async function startWith(kind: ShimKind, dataDir: string, control: FaultSwitch): Promise<ServiceProcess> {
  if (shims === null) throw new Error('the shims were not built');
  const env = serviceEnv({
    ...shimEnv(shims[kind], control),
    SHOWCLOCK_DATA_DIR: dataDir,
    SHOWCLOCK_API_KEY: TEST_API_KEY,
    SHOWCLOCK_AUDIENCE_KEY: AUDIENCE_KEY,
    SHOWCLOCK_RATE_LIMIT: '100000',
    SHOWCLOCK_CODE_CACHE: 'off',
  });
  const service = await startService(env, { readyTimeoutMs: 30_000 });
  running.push(service);
  return service;
}

async function kill(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGKILL');
  await service.exited;
}

describe.skipIf(unavailable !== null)('a slow or failing SD card (issue 25)', () => {
  beforeAll(() => {
    ensureBundle();
    top = mkdtempSync(path.join(tmpdir(), 'showclock-slow-card-'));
    console.log(`[slow-card] seed ${SEED} (SLOW_CARD_SEED=${SEED} repeats the mixed rounds' choices)`);
    shims = buildShims(top);
  });

  afterEach(async () => {
    for (const service of running.splice(0)) await stopService(service);
  });

  afterAll(() => {
    if (top !== '') rmSync(top, { recursive: true, force: true });
  });

  it('finding 1: an update answered 200 stays on disk while a message change made during its save is written, and survives kill -9', { timeout: 120_000 }, async () => {
    const { dataDir, control } = dirs('finding-1');
    let service = await startWith('slow', dataDir, control);
    const created = await postJson(`${service.api}/timers`, { label: 'T before', duration: 300_000 });
    expect(created.status).toBe(201);
    const id = bodyOf(created)?.timer?.id ?? '';
    control.on();

    // Round 0 watches the disk for 5 s after the 200; the others kill -9 that long after it.
    const killAfter: readonly (number | null)[] = [null, 1_200, 1_800, 3_000];
    for (const [round, killAfterMs] of killAfter.entries()) {
      const label = `T after ${round}`;
      const sentAt = performance.now();
      const update = ask(`${service.api}/timer/${id}/update?label=${encodeURIComponent(label)}`);
      await sleep(150);
      const message = await ask(`${service.api}/message/set?text=${encodeURIComponent(`said during save ${round}`)}`);
      expect(message.status, 'a message change happens at once, also on a slow card').toBe(200);
      const answer = await update;
      const answeredAt = performance.now();
      const tookMs = Math.round(answeredAt - sentAt);
      console.log(`[slow-card] finding 1, round ${round}: update answered ${answer.status} after ${tookMs} ms (message/set answered 200 at +150 ms)`);
      expect(answer.status).toBe(200);
      // The shim is in effect: the temp file's fsync and the directory's, 1.2 s each.
      expect(tookMs, 'the update took as long as two slowed fsyncs (the shim reaches the service)').toBeGreaterThanOrEqual(2 * SLOW_FSYNC_MS - 50);

      if (killAfterMs === null) {
        const watch = watchRoomFile(dataDir, 50);
        await sleep(5_000);
        watch.stop();
        const after = watch.reads.filter((read) => read.startedAt >= answeredAt);
        console.log(`[slow-card] finding 1, room.json after the 200 (${after.length} reads):\n  ${timeline(after, answeredAt, id).join('\n  ')}`);
        const wrong = after.filter((read) => !read.read.ok || labelOnDisk(read.read.file, id) !== label).map((read) => describeRead(read, answeredAt, id));
        expect.soft(wrong, `room.json read after the 200 must hold ${JSON.stringify(label)}; the reads that did not`).toEqual([]);
        // Whatever is still being written finishes before the next round.
        await sleep(2_500);
        continue;
      }

      await sleep(Math.max(0, answeredAt + killAfterMs - performance.now()));
      await kill(service);
      const disk = readRoomFile(dataDir);
      const diskLabel = disk.ok ? labelOnDisk(disk.file, id) : disk.problem;
      control.off();
      service = await startWith('slow', dataDir, control);
      const restarted = (await stateOf(service)).timers.find((t) => t.id === id)?.label ?? null;
      console.log(`[slow-card] finding 1, kill -9 at +${killAfterMs} ms after the 200: room.json had ${JSON.stringify(diskLabel)}, the restart shows ${JSON.stringify(restarted)}`);
      expect.soft(restarted, `kill -9 ${killAfterMs} ms after update answered 200: the timer's label after restart`).toBe(label);
      control.on();
    }
  });

  it('finding 2: with fsync of the directory failing, an update and a create answered 503 are never on disk after their answer, nor after kill -9 and restart', { timeout: 60_000 }, async () => {
    const { dataDir, control } = dirs('finding-2');
    let service = await startWith('dir-eio', dataDir, control);
    const created = await postJson(`${service.api}/timers`, { label: 'kept', duration: 120_000 });
    expect(created.status).toBe(201);
    const id = bodyOf(created)?.timer?.id ?? '';
    const before = await stateOf(service);

    control.on();
    const update = await ask(`${service.api}/timer/${id}/update?label=refused-update`);
    const updateAnsweredAt = performance.now();
    const watch = watchRoomFile(dataDir, 50);
    await sleep(400);
    const create = await postJson(`${service.api}/timers`, { label: 'refused-create', duration: 60_000 });
    const createAnsweredAt = performance.now();
    await sleep(600);
    watch.stop();
    console.log(`[slow-card] finding 2: update answered ${update.status} (${update.status === null ? '' : (update.body?.error ?? '')}), create answered ${create.status}`);
    // The shim is in effect: the service could not sync the directory, and said so.
    expect(update.status).toBe(503);
    expect(create.status).toBe(503);

    const onDisk = (read: DiskRead): string[] => (read.read.ok ? read.read.file.room.timers.map((t) => t.label) : [`room.json ${read.read.problem}`]);
    const wrong = [
      ...watch.reads.filter((read) => read.startedAt >= updateAnsweredAt && onDisk(read).includes('refused-update')).map((read) => `+${Math.round(read.startedAt - updateAnsweredAt)} ms after the update's 503: ${JSON.stringify(onDisk(read))}`),
      ...watch.reads.filter((read) => read.startedAt >= createAnsweredAt && onDisk(read).includes('refused-create')).map((read) => `+${Math.round(read.startedAt - createAnsweredAt)} ms after the create's 503: ${JSON.stringify(onDisk(read))}`),
      ...watch.reads.filter((read) => !read.read.ok).map((read) => `room.json ${read.read.ok ? '' : read.read.problem}`),
    ];
    expect.soft(wrong, 'reads of room.json, after the 503s, that hold what was refused').toEqual([]);

    await kill(service);
    const disk = readRoomFile(dataDir);
    control.off();
    service = await startWith('dir-eio', dataDir, control);
    const after = await stateOf(service);
    console.log(`[slow-card] finding 2, after kill -9: room.json has ${disk.ok ? JSON.stringify(disk.file.room.timers.map((t) => t.label)) : disk.problem}; the restart shows ${JSON.stringify(after.timers.map((t) => t.label))}`);
    expect(after.timers.map((t) => ({ id: t.id, label: t.label, duration: t.duration })), 'the running order after restart: as it was before the refused edits').toEqual(
      before.timers.map((t) => ({ id: t.id, label: t.label, duration: t.duration })),
    );
    expect(after.seq).toBeGreaterThanOrEqual(before.seq);
  });

  for (const kind of ['slow', 'dir-eio'] as const) {
    it(
      `mixed load with the ${kind} shim, kill -9 at a random moment, ${ROUNDS} rounds: every 2xx edit is there after restart, nothing refused is, seq never goes back`,
      { timeout: 240_000 },
      async () => {
        const random = seededRandom(SEED + (kind === 'slow' ? 0 : 7919));
        const problems: string[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          const report = await mixedRound(kind, round, random);
          console.log(`[slow-card] ${kind} round ${round}: ${report.summary}; ${report.problems.length === 0 ? 'no problem' : `PROBLEMS:\n  ${report.problems.join('\n  ')}`}`);
          problems.push(...report.problems.map((problem) => `round ${round}: ${problem}`));
        }
        expect(problems, `${kind}: what the restarted rooms got wrong (seed ${SEED})`).toEqual([]);
      },
    );
  }
});

// ---------------------------------------------------------------------------
// The mixed load.

interface Load {
  killed: boolean;
  maxSeq: number;
  readonly problems: string[];
  /** How long each edit answered 2xx took, ms. */
  readonly editMs: number[];
}

interface Tally {
  ok: number;
  refused503: number;
  other: number;
  none: number;
}

function newTally(): Tally {
  return { ok: 0, refused503: 0, other: 0, none: 0 };
}

function count(tally: Tally, answer: Answer): void {
  if (answer.status === null) tally.none += 1;
  else if (answer.status >= 200 && answer.status < 300) tally.ok += 1;
  else if (answer.status === 503) tally.refused503 += 1;
  else tally.other += 1;
}

function noteSeq(load: Load, answer: Answer): void {
  if (answer.status !== null && answer.body?.state !== undefined) load.maxSeq = Math.max(load.maxSeq, answer.body.state.seq);
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

type Edit =
  | { readonly kind: 'create'; readonly label: string; readonly duration: number }
  | { readonly kind: 'update'; readonly id: string; readonly label: string; readonly duration: number }
  | { readonly kind: 'move'; readonly id: string; readonly to: number }
  | { readonly kind: 'delete'; readonly id: string };

/**
 * A console editing only its own timers, one request at a time, so what each of
 * its answers means for the running order is known: its timers (and their
 * relative order, which no other client's edit changes), their labels and
 * durations as last acknowledged, what was refused, and the one edit whose
 * answer the kill cut off.
 */
class EditClient {
  /** Its acknowledged timers, in running order. */
  own: string[] = [];
  readonly fields = new Map<string, { label: string; duration: number }>();
  readonly deleted = new Set<string>();
  /** Creates and updates answered anything but 2xx: their labels (each used once) must be nowhere. */
  readonly refused: { kind: string; label: string; status: number }[] = [];
  /** Sent, never answered: it may or may not have happened. */
  unknown: Edit | null = null;
  #count = 0;
  #total = 1;

  constructor(
    readonly name: string,
    readonly tally: Tally,
  ) {}

  #choose(random: () => number): Edit {
    this.#count += 1;
    const label = `${this.name}-${this.#count}`;
    const duration = 1_000 * (1 + Math.floor(random() * 3_600));
    const n = this.own.length;
    const r = random();
    if (n < 2 || (n < 4 && r < 0.3)) return { kind: 'create', label, duration };
    const id = pick(random, this.own);
    if (r < 0.6) return { kind: 'update', id, label, duration };
    if (r < 0.8) return { kind: 'move', id, to: Math.floor(random() * this.#total) };
    return { kind: 'delete', id };
  }

  #send(api: string, edit: Edit, random: () => number): Promise<Answer> {
    switch (edit.kind) {
      case 'create':
        return postJson(`${api}/timers`, { label: edit.label, duration: edit.duration });
      case 'update':
        // Both ways an update comes: JSON, and the query of a GET (as Companion sends it).
        return random() < 0.5
          ? postJson(`${api}/timer/${edit.id}/update`, { label: edit.label, duration: edit.duration })
          : ask(`${api}/timer/${edit.id}/update?label=${encodeURIComponent(edit.label)}&duration=${edit.duration}`);
      case 'move':
        return ask(`${api}/timer/${edit.id}/move?to=${edit.to}`);
      case 'delete':
        return ask(`${api}/timer/${edit.id}/delete`);
      default: {
        const unknown: never = edit;
        throw new Error(`unhandled edit ${JSON.stringify(unknown)}`);
      }
    }
  }

  async run(api: string, load: Load, random: () => number): Promise<void> {
    while (!load.killed) {
      const edit = this.#choose(random);
      this.unknown = edit;
      const sentAt = performance.now();
      const answer = await this.#send(api, edit, random);
      if (answer.status !== null && answer.status >= 200 && answer.status < 300) load.editMs.push(performance.now() - sentAt);
      count(this.tally, answer);
      noteSeq(load, answer);
      if (answer.status === null) {
        if (!load.killed) load.problems.push(`${this.name}: ${edit.kind} got no answer before the kill: ${answer.error}`);
        return;
      }
      // A 2xx whose body the kill cut off: it happened, but what it made is not known; counted as unanswered.
      if (answer.status >= 200 && answer.status < 300 && answer.body === null) return;
      this.unknown = null;
      this.#learn(edit, answer);
      // Paced like people at consoles, so a kill often falls between one answer and the next save.
      await sleep(20 + random() * 230);
    }
  }

  #learn(edit: Edit, answer: Answer & { status: number }): void {
    const state = answer.body?.state;
    if (state !== undefined) this.#total = state.timers.length;
    if (answer.status < 200 || answer.status >= 300) {
      if (edit.kind === 'create' || edit.kind === 'update') this.refused.push({ kind: edit.kind, label: edit.label, status: answer.status });
      return;
    }
    switch (edit.kind) {
      case 'create': {
        const id = answer.body?.timer?.id;
        if (id === undefined) throw new Error(`${this.name}: create answered ${answer.status} without a timer: ${JSON.stringify(answer.body)}`);
        this.own.push(id);
        this.fields.set(id, { label: edit.label, duration: edit.duration });
        this.#total += 1;
        return;
      }
      case 'update':
        this.fields.set(edit.id, { label: edit.label, duration: edit.duration });
        break;
      case 'delete':
        this.own = this.own.filter((id) => id !== edit.id);
        this.fields.delete(edit.id);
        this.deleted.add(edit.id);
        break;
      case 'move':
        break;
      default: {
        const unknown: never = edit;
        throw new Error(`unhandled edit ${JSON.stringify(unknown)}`);
      }
    }
    // The answered room: the relative order of this client's timers after its edit (no other client's edit changes it).
    if (state === undefined) {
      if (edit.kind === 'move') throw new Error(`${this.name}: move answered ${answer.status} without the state`);
      return;
    }
    const mine = new Set(this.own);
    this.own = state.timers.filter((t) => mine.has(t.id)).map((t) => t.id);
  }

  /** What the restarted running order got wrong for this client. */
  check(timers: readonly TimerOnDisk[]): string[] {
    const problems: string[] = [];
    const byId = new Map(timers.map((t) => [t.id, t]));
    const unknown = this.unknown;
    for (const id of this.own) {
      const want = this.fields.get(id);
      const got = byId.get(id);
      if (got === undefined) {
        if (!(unknown?.kind === 'delete' && unknown.id === id)) problems.push(`${this.name}: timer ${id} (${JSON.stringify(want?.label)}), created with a 2xx and never deleted, is missing`);
        continue;
      }
      const maybe = unknown?.kind === 'update' && unknown.id === id ? unknown : null;
      const same = (w: { label: string; duration: number } | null | undefined): boolean => w !== null && w !== undefined && got.label === w.label && got.duration === w.duration;
      if (!same(want) && !same(maybe)) {
        problems.push(
          `${this.name}: timer ${id} is ${JSON.stringify(got.label)}/${got.duration} ms; the last 2xx made it ${JSON.stringify(want?.label)}/${want?.duration} ms` +
            (maybe === null ? '' : ` (an update to ${JSON.stringify(maybe.label)} had no answer)`),
        );
      }
    }
    if (unknown?.kind !== 'move') {
      const mine = new Set(this.own);
      const order = timers.filter((t) => mine.has(t.id)).map((t) => t.id);
      const want = this.own.filter((id) => byId.has(id));
      if (JSON.stringify(order) !== JSON.stringify(want)) problems.push(`${this.name}: its timers are in the order ${JSON.stringify(order)}; the last 2xx left them ${JSON.stringify(want)}`);
    }
    for (const id of this.deleted) if (byId.has(id)) problems.push(`${this.name}: timer ${id}, deleted with a 2xx, is back`);
    for (const refused of this.refused) {
      const found = timers.find((t) => t.label === refused.label);
      if (found !== undefined) problems.push(`${this.name}: a ${refused.kind} answered ${refused.status} (label ${JSON.stringify(refused.label)}) is in the running order (timer ${found.id})`);
    }
    return problems;
  }

  /** Whether a timer in the restarted room is accounted for by this client. */
  accounts(timer: TimerOnDisk): boolean {
    return this.own.includes(timer.id) || (this.unknown?.kind === 'create' && this.unknown.label === timer.label);
  }
}

/** Transport, message, display and settings changes: they happen at once and are written within a second. */
async function quickClient(api: string, load: Load, random: () => number, tally: Tally, round: string): Promise<void> {
  for (let n = 0; !load.killed; n += 1) {
    const r = random();
    const route =
      r < 0.45
        ? `/${pick(random, ['start', 'pause', 'next', 'previous', 'toggle'])}`
        : r < 0.75
          ? `/message/set?text=${encodeURIComponent(`${round} message ${n}`)}`
          : r < 0.9
            ? `/display?timeSize=${50 + Math.floor(random() * 101)}`
            : `/settings?chimeVolume=${Math.floor(random() * 101)}`;
    const answer = await ask(`${api}${route}`);
    count(tally, answer);
    noteSeq(load, answer);
    if (answer.status === null) {
      if (!load.killed) load.problems.push(`GET ${route} got no answer before the kill: ${answer.error}`);
      return;
    }
    await sleep(30 + random() * 90);
  }
}

/** Audience questions (saved before they are acknowledged), at most 4 a round: the box allows 5 a minute per address. */
async function audienceClient(
  origin: string,
  load: Load,
  random: () => number,
  tally: Tally,
  round: string,
): Promise<{ received: { id: string; text: string }[]; refused: { text: string; status: number }[]; unknown: string | null }> {
  const received: { id: string; text: string }[] = [];
  const refused: { text: string; status: number }[] = [];
  for (let n = 0; n < 4 && !load.killed; n += 1) {
    await sleep(300 + random() * 900);
    if (load.killed) break;
    const text = `${round} question ${n}?`;
    const answer = await postJson(`${origin}/ask/${AUDIENCE_KEY}`, { text });
    count(tally, answer);
    if (answer.status === null) {
      if (!load.killed) load.problems.push(`a question got no answer before the kill: ${answer.error}`);
      return { received, refused, unknown: text };
    }
    if (answer.status === 201 && answer.body?.id !== undefined) received.push({ id: answer.body.id, text });
    else refused.push({ text, status: answer.status });
  }
  return { received, refused, unknown: null };
}

async function mixedRound(kind: ShimKind, round: number, random: () => number): Promise<{ summary: string; problems: string[] }> {
  const name = `${kind}-${round}`;
  const { dataDir, control } = dirs(`mixed-${name}`);
  let service = await startWith(kind, dataDir, control);
  const initial = await stateOf(service);
  const load: Load = { killed: false, maxSeq: initial.seq, problems: [], editMs: [] };
  const stream = readSse(`${service.api}/events`, (event) => {
    // Whole snapshots and deltas alike carry the seq they make as their id.
    if ((event.event === 'state' || event.event === 'patch') && event.id !== null) load.maxSeq = Math.max(load.maxSeq, Number(event.id));
  });

  const edits = newTally();
  const quick = newTally();
  const questions = newTally();
  const clients = [0, 1, 2].map((n) => new EditClient(`${name}-c${n}`, edits));
  // The slow card is slow through the whole round. The failing directory comes and goes
  // (200 to 800 ms each way), then stays failing for the last 300 to 800 ms before the kill:
  // a card that died shortly before the power went.
  const killAtMs = Math.round(kind === 'slow' ? 3_000 + random() * 8_000 : 1_500 + random() * 3_500);
  const failingFromMs = killAtMs - Math.round(300 + random() * 500);
  const startedAt = performance.now();
  control.on();
  let faultFlips = 0;
  const flipping = (async () => {
    if (kind !== 'dir-eio') return;
    for (let on = true; !load.killed && performance.now() - startedAt < failingFromMs; on = !on) {
      if (on) control.on();
      else control.off();
      faultFlips += 1;
      await sleep(Math.min(200 + random() * 600, Math.max(0, failingFromMs - (performance.now() - startedAt))));
    }
    control.on();
  })();
  const working = [
    ...clients.map((client) => client.run(service.api, load, random)),
    quickClient(service.api, load, random, quick, name),
    quickClient(service.api, load, random, quick, name),
  ];
  const audience = audienceClient(new URL(service.api).origin, load, random, questions, name);

  await sleep(killAtMs - (performance.now() - startedAt));
  load.killed = true;
  await kill(service);
  await Promise.all([...working, flipping]);
  const asked = await audience;
  stream.close();
  control.off();

  const problems = [...load.problems];
  const disk = readRoomFile(dataDir);
  if (!disk.ok) problems.push(`room.json after the kill ${disk.problem}`);

  // Restarted with the shim loaded and the fault off.
  service = await startWith(kind, dataDir, control);
  const after = await stateOf(service);
  const listed = await ask(`${service.api}/questions`);
  const questionsAfter = bodyOf(listed)?.questions ?? [];
  await stopService(service);

  for (const client of clients) problems.push(...client.check(after.timers));
  const initialIds = new Set(initial.timers.map((t) => t.id));
  for (const timer of after.timers) {
    if (!initialIds.has(timer.id) && !clients.some((client) => client.accounts(timer))) {
      problems.push(`timer ${timer.id} (${JSON.stringify(timer.label)}) is in the running order, and no 2xx made it`);
    }
  }
  for (const q of asked.received) {
    if (!questionsAfter.some((x) => x.id === q.id && x.text === q.text)) problems.push(`question ${JSON.stringify(q.text)}, answered 201, is missing`);
  }
  for (const q of asked.refused) {
    if (questionsAfter.some((x) => x.text === q.text)) problems.push(`question ${JSON.stringify(q.text)}, answered ${q.status}, is there`);
  }
  if (after.seq < load.maxSeq) problems.push(`seq went back: ${after.seq} after the restart, ${load.maxSeq} seen before the kill`);

  const tallied = (t: Tally): string => `2xx ${t.ok}, 503 ${t.refused503}, other ${t.other}, no answer ${t.none}`;
  const took = [...load.editMs].sort((a, b) => a - b);
  const tookText = took.length === 0 ? 'none answered 2xx' : `2xx edits took ${Math.round(took[0] ?? 0)} to ${Math.round(took.at(-1) ?? 0)} ms (median ${Math.round(took[Math.floor(took.length / 2)] ?? 0)})`;
  const summary =
    `kill -9 at ${killAtMs} ms${kind === 'dir-eio' ? ` (fault switched ${faultFlips} times, on from ${failingFromMs} ms)` : ''}; ` +
    `edits: ${tallied(edits)}; transport/message/display/settings: ${tallied(quick)}; questions: ${tallied(questions)}; ` +
    `${tookText}; seq ${load.maxSeq} seen, ${after.seq} after restart; ${after.timers.length} timers after restart`;
  return { summary, problems };
}
