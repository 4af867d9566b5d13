// Pull the plug after every acknowledged edit: the bundled service is killed with
// SIGKILL the moment a 2xx of a running-order edit arrives, restarted on the same
// data directory, and must show every edit it acknowledged, in order; seq must
// never go back across the restarts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKeys } from '../../src/keys/key-file.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from './service-process.js';

const ROUNDS = 50;

interface TimerView {
  readonly id: string;
  readonly label: string;
  readonly duration: number;
}

type Edit =
  | { readonly kind: 'create'; readonly label: string; readonly duration: number }
  | { readonly kind: 'update'; readonly id: string; readonly label: string; readonly duration: number }
  | { readonly kind: 'move'; readonly id: string; readonly to: number }
  | { readonly kind: 'delete'; readonly id: string };

/** A mix of every running-order edit, keeping the list between 2 and 6 timers. */
function chooseEdit(round: number, timers: readonly TimerView[]): Edit {
  const pick = (timers[round % timers.length] as TimerView).id;
  const duration = 1_000 * (round + 1);
  if (timers.length < 3) return { kind: 'create', label: `created in round ${round}`, duration };
  switch (round % 4) {
    case 0:
      return timers.length < 6 ? { kind: 'create', label: `created in round ${round}`, duration } : { kind: 'delete', id: pick };
    case 1:
      return { kind: 'update', id: pick, label: `updated in round ${round}`, duration };
    case 2:
      return { kind: 'move', id: (timers[timers.length - 1] as TimerView).id, to: 0 };
    default:
      return { kind: 'delete', id: pick };
  }
}

/** What the running order must be once `edit` was acknowledged; ids of new timers are unknown, so null. */
function expectedAfter(timers: readonly TimerView[], edit: Edit): { id: string | null; label: string; duration: number }[] {
  switch (edit.kind) {
    case 'create':
      return [...timers, { id: null, label: edit.label, duration: edit.duration }];
    case 'update':
      return timers.map((t) => (t.id === edit.id ? { ...t, label: edit.label, duration: edit.duration } : t));
    case 'move': {
      const moved = timers.find((t) => t.id === edit.id) as TimerView;
      const rest = timers.filter((t) => t.id !== edit.id);
      rest.splice(edit.to, 0, moved);
      return rest;
    }
    case 'delete':
      return timers.filter((t) => t.id !== edit.id);
    default: {
      const unknown: never = edit;
      throw new Error(`unhandled edit ${JSON.stringify(unknown)}`);
    }
  }
}

function request(api: string, edit: Edit): Promise<Response> {
  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  switch (edit.kind) {
    case 'create':
      return post(`${api}/timers`, { label: edit.label, duration: edit.duration });
    case 'update':
      return post(`${api}/timer/${edit.id}/update`, { label: edit.label, duration: edit.duration });
    case 'move':
      return fetch(`${api}/timer/${edit.id}/move?to=${edit.to}`);
    case 'delete':
      return fetch(`${api}/timer/${edit.id}/delete`);
    default: {
      const unknown: never = edit;
      throw new Error(`unhandled edit ${JSON.stringify(unknown)}`);
    }
  }
}

describe('kill -9 right after an acknowledged running-order edit', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    ensureBundle();
    dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-kill-'));
  });

  afterAll(async () => {
    await stopService(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`loses no acknowledged edit over ${ROUNDS} rounds, and seq never goes back`, { timeout: 300_000 }, async () => {
    const env = serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_RATE_LIMIT: '100000' });
    let expected: { id: string | null; label: string; duration: number }[] | null = null;
    let lastSeq = 0;
    const kinds = new Map<string, number>();
    for (let round = 0; round <= ROUNDS; round += 1) {
      service = await startService(env);
      const state = (await (await fetch(`${service.api}/state`)).json()) as { state: { seq: number; timers: TimerView[] } };
      const timers = state.state.timers.map(({ id, label, duration }) => ({ id, label, duration }));
      if (expected !== null) {
        expect(timers.map(({ label, duration }) => ({ label, duration })), `after round ${round - 1}`).toEqual(
          expected.map(({ label, duration }) => ({ label, duration })),
        );
        for (const [i, t] of expected.entries()) if (t.id !== null) expect(timers[i]?.id).toBe(t.id);
        // The edit of the last round raised seq, and a crash restart resumes above all it may have published.
        expect(state.state.seq).toBeGreaterThan(lastSeq);
      }
      lastSeq = state.state.seq;
      if (round === ROUNDS) break;

      const edit = chooseEdit(round, timers);
      const response = await request(service.api, edit);
      if (response.ok) service.child.kill('SIGKILL');
      expect(response.status, `round ${round}: ${edit.kind}`).toBeLessThan(300);
      await service.exited;
      expected = expectedAfter(timers, edit);
      kinds.set(edit.kind, (kinds.get(edit.kind) ?? 0) + 1);
    }
    expect([...kinds.keys()].sort()).toEqual(['create', 'delete', 'move', 'update']);
    await stopService(service);
  });
});

describe('kill -9 right after an acknowledged audience question or moderation step', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;
  const audienceKey = 'KillTestAudienceKey_0123456789';

  beforeAll(() => {
    ensureBundle();
    dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-kill-questions-'));
  });

  afterAll(async () => {
    await stopService(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every question answered 201, and every step answered 200, is there after the restart', { timeout: 120_000 }, async () => {
    const env = serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_AUDIENCE_KEY: audienceKey });
    const acknowledged: { id: string; text: string; state: string }[] = [];
    for (let round = 0; round < 8; round += 1) {
      service = await startService(env);
      const listed = (await (await fetch(`${service.api}/questions`)).json()) as { questions: { id: string; text: string; state: string }[] };
      expect(listed.questions.map(({ id, text, state }) => ({ id, text, state })), `after round ${round - 1}`).toEqual(acknowledged);
      const origin = new URL(service.api).origin;
      // Odd rounds moderate the question of the round before; even ones ask a new one.
      const last = acknowledged.at(-1);
      if (round % 2 === 1 && last !== undefined) {
        const response = await fetch(`${service.api}/question/show?questionId=${last.id}`);
        if (response.ok) service.child.kill('SIGKILL');
        expect(response.status).toBe(200);
        for (const q of acknowledged) if (q.state === 'shown') q.state = 'answered';
        last.state = 'shown';
      } else {
        const text = `Question ${round}: <b>kept</b>?`;
        const response = await fetch(`${origin}/ask/${audienceKey}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text }) });
        if (response.ok) service.child.kill('SIGKILL');
        expect(response.status).toBe(201);
        acknowledged.push({ id: ((await response.json()) as { id: string }).id, text, state: 'new' });
      }
      await service.exited;
    }
    service = await startService(env);
    const listed = (await (await fetch(`${service.api}/questions`)).json()) as { questions: { id: string; text: string; state: string }[] };
    expect(listed.questions.map(({ id, text, state }) => ({ id, text, state }))).toEqual(acknowledged);
    await stopService(service);
  });
});

describe('damaged files on disk, seen from outside', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    ensureBundle();
    dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-damaged-'));
  });

  afterAll(async () => {
    await stopService(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  function apiKeyOnDisk(): string {
    const read = readKeys(dataDir);
    if (read.kind !== 'ok') throw new Error(`keys.json: ${read.kind}`);
    return read.keys.apiKey;
  }

  it('a damaged room.json is kept aside and the service starts fresh with the same keys; a newer one is never overwritten', async () => {
    const env = serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir });
    service = await startService(env);
    const apiKey = apiKeyOnDisk();
    const api = `http://127.0.0.1:${service.port}/api/v1/${apiKey}`;
    expect((await fetch(`${api}/timers`, { method: 'POST', body: '{"label":"Lost with the file"}' })).status).toBe(201);
    service.child.kill('SIGKILL');
    await service.exited;

    // Half a file, as a broken card might leave it.
    const whole = readFileSync(path.join(dataDir, 'room.json'), 'utf8');
    writeFileSync(path.join(dataDir, 'room.json'), whole.slice(0, whole.length / 2));
    service = await startService(env);
    const error = await service.waitForLog((line) => line.level === 50 && /room\.damaged-/.test(line.msg));
    expect(error.msg).toMatch(/kept it as .*room\.damaged-.*\.json and started with a fresh room/);
    const fresh = (await (await fetch(`http://127.0.0.1:${service.port}/api/v1/${apiKey}/timers`)).json()) as { timers: TimerView[] };
    expect(fresh.timers.map((t) => t.label)).toEqual(['Timer 1']);
    const kept = readdirSync(dataDir).filter((name) => name.startsWith('room.damaged-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, kept[0] as string), 'utf8')).toBe(whole.slice(0, whole.length / 2));
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);

    const newer = JSON.stringify({ schemaVersion: 99, room: { note: 'from the future' } });
    writeFileSync(path.join(dataDir, 'room.json'), newer);
    service = await startService(env);
    await service.waitForLog((line) => line.level === 50 && /newer Showclock/.test(line.msg));
    expect((await fetch(`http://127.0.0.1:${service.port}/api/v1/${apiKey}/timers`, { method: 'POST' })).status).toBe(201);
    service.child.kill('SIGTERM');
    await service.exited;
    const keptNewer = readdirSync(dataDir).filter((name) => name.startsWith('room.schema-v99-'));
    expect(keptNewer).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, keptNewer[0] as string), 'utf8')).toBe(newer);
    expect(apiKeyOnDisk()).toBe(apiKey);
  });

  it('a damaged keys.json: kept aside, and the service starts with new keys and says so', async () => {
    writeFileSync(path.join(dataDir, 'keys.json'), '{"version":1,');
    service = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir }));
    const error = await service.waitForLog((line) => line.level === 50 && /keys\.json is damaged .*kept it as .*made new keys/.test(line.msg));
    expect(error.path).toBe(path.join(dataDir, 'keys.json'));
    expect(readFileSync(error.keptAs as string, 'utf8')).toBe('{"version":1,');
    const apiKey = apiKeyOnDisk();
    expect((await fetch(`http://127.0.0.1:${service.port}/api/v1/${apiKey}/state`)).status).toBe(200);
    // The room survived the keys' trouble.
    const timers = (await (await fetch(`http://127.0.0.1:${service.port}/api/v1/${apiKey}/timers`)).json()) as { timers: TimerView[] };
    expect(timers.timers).toHaveLength(2);
  });
});
