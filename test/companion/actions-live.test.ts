// The box features on keys (issue 30) against the real bundled service: each new
// action changes the box (flash, chime test, start a given timer, the red
// threshold, start and end times and the tag on create and update), and the
// timer and tag dropdowns follow edits of the running order made elsewhere.
// ShowclockConnection with a FakeHost in Companion's place; the host's
// roomListsChanged builds the definitions as the instance (instance.ts) does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InstanceStatus, type CompanionActionDefinition, type CompanionActionDefinitions, type CompanionInputFieldDropdown, type CompanionOptionValues } from '@companion-module/base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { actionDefinitions } from '../../src/companion/actions.js';
import { setupOf } from '../../src/companion/config.js';
import { ShowclockConnection, type RoomLists } from '../../src/companion/connection.js';
import { feedbackDefinitions } from '../../src/companion/feedbacks.js';
import { TAG_NONE, TAG_UNCHANGED } from '../../src/companion/options.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { command, direct, serverState } from './live-box.js';
import { countingFetch, FakeHost, waitFor } from './fake-host.js';

const ZONE = 'Europe/Berlin';

/** Companion's part, with the dropdowns: on each change of the room's lists, the definitions the instance would send. */
class ListingHost extends FakeHost {
  connection: ShowclockConnection | null = null;
  actions: CompanionActionDefinitions = {};
  /** How many times the definitions were sent again. */
  resent = 0;

  roomListsChanged(lists: RoomLists): void {
    const connection = this.connection as ShowclockConnection;
    // As ShowclockInstance.roomListsChanged: both sets, made from the same lists.
    this.actions = actionDefinitions(connection, lists);
    feedbackDefinitions(connection, lists);
    this.resent += 1;
  }

  /** The choices of the `timerId` dropdown of action `id`. */
  timerChoices(id = 'timer_select'): string[] {
    const field = this.actions[id]?.options.find((o) => o.id === 'timerId') as CompanionInputFieldDropdown | undefined;
    return field?.choices.map((c) => `${String(c.id)}=${c.label}`) ?? [];
  }

  tagChoices(id: string): string[] {
    const field = this.actions[id]?.options.find((o) => o.id === 'tagId') as CompanionInputFieldDropdown | undefined;
    return field?.choices.map((c) => c.label) ?? [];
  }
}

interface Module {
  readonly host: ListingHost;
  readonly connection: ShowclockConnection;
  readonly seen: ReturnType<typeof countingFetch>['seen'];
  fire(actionId: string, options?: CompanionOptionValues): Promise<void>;
}

const modules: ShowclockConnection[] = [];
const dirs: string[] = [];

function startModule(port: number): Module {
  const host = new ListingHost();
  const { fetch, seen } = countingFetch(TEST_API_KEY);
  const connection = new ShowclockConnection(host, { fetch });
  host.connection = connection;
  host.actions = actionDefinitions(connection);
  modules.push(connection);
  connection.configure(setupOf({ host: '127.0.0.1', port }, { apiKey: TEST_API_KEY }));
  return {
    host,
    connection,
    seen,
    async fire(actionId, options = {}) {
      // The definitions as last sent: a press uses the options the key holds, whatever the dropdown offers now.
      const def = host.actions[actionId] as CompanionActionDefinition;
      await def.callback(
        { id: 'test', controlId: 'bank', actionId, options, surfaceId: undefined },
        { parseVariablesInString: async (text) => text, setCustomVariableValue: () => {} },
      );
    },
  };
}

async function connected(module: Module): Promise<void> {
  await waitFor(() => module.host.status()?.status === InstanceStatus.Ok && module.connection.snapshot() !== null, 10_000, 'the module to connect');
}

/** A command straight to the API, which must succeed; the room after it. */
async function ok(service: ServiceProcess, urlPath: string, body: Record<string, unknown> = {}): Promise<Snapshot> {
  await command(service, urlPath, body);
  return serverState(service);
}

/** The wall-clock time of day of `ms` in `zone`, 24-hour: "19:30". */
function wallTime(ms: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(ms));
}

const errors = (m: Module) => m.host.logs.filter((l) => l.value.level === 'error').map((l) => l.value.message);

beforeAll(() => {
  ensureBundle();
});

afterEach(() => {
  for (const m of modules.splice(0)) m.destroy();
});

afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the new actions against the real service', () => {
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'showclock-companion-actions-'));
    dirs.push(dir);
    service = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_RATE_LIMIT: '1000' }));
  });

  afterAll(async () => {
    await stopService(service);
  });

  it('flashes the screens and plays the chime test', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    await m.fire('flash', { count: 4 });
    // The flash lasts count × 500 ms: the box still carries it.
    const flashed = await serverState(s);
    expect(flashed.flash).toMatchObject({ count: 4 });
    await m.fire('chime_test', {});
    const chimed = await serverState(s);
    expect(chimed.chimeTestAt).toEqual(expect.any(Number));
    expect(m.seen.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['/api/v1/{key}/flash', { count: 4 }],
      ['/api/v1/{key}/chime', {}],
    ]);
    // A count the box would refuse is not sent.
    await m.fire('flash', { count: 12 });
    expect(m.seen.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(errors(m)).toEqual(['Showclock: Flash the screens: 12 is too large: how many times the screens flash, 1 to 10 (default 3); nothing was sent']);
  });

  it('starts a timer chosen in the dropdown, and one by position, in one press', async () => {
    const s = service as ServiceProcess;
    await ok(s, '/timers', { label: 'Keynote' });
    const before = await ok(s, '/timers', { label: 'Panel' });
    const m = startModule(s.port);
    await connected(m);
    const keynote = before.timers.find((t) => t.label === 'Keynote')?.id as string;
    await waitFor(() => m.host.timerChoices().some((c) => c.startsWith(`${keynote}=`)), 2_000, 'the dropdown to offer the Keynote');
    await m.fire('timer_start', { by: 'list', timerId: keynote, timer: '1' });
    expect(await serverState(s)).toMatchObject({ activeTimerId: keynote, running: true });
    await ok(s, '/pause');
    await m.fire('timer_start', { by: 'position', timer: '1' });
    expect(await serverState(s)).toMatchObject({ activeTimerId: before.timers[0]?.id, running: true });
    await ok(s, '/pause');
    expect(errors(m)).toEqual([]);
  });

  it('creates and updates a timer with a red threshold, start and end times of day and a tag', async () => {
    const s = service as ServiceProcess;
    await ok(s, '/settings', { timeZone: ZONE });
    await ok(s, '/tags', { name: 'Main stage' });
    const tagged = await ok(s, '/tags', { name: 'Side room' });
    const main = tagged.tags.find((t) => t.name === 'Main stage')?.id as string;
    const side = tagged.tags.find((t) => t.name === 'Side room')?.id as string;
    const m = startModule(s.port);
    await connected(m);
    await waitFor(() => m.host.tagChoices('timer_create').includes('Side room'), 2_000, 'the tag dropdown');
    expect(m.host.tagChoices('timer_create')).toEqual(['No tag', 'Main stage', 'Side room']);
    expect(m.host.tagChoices('timer_update')).toEqual(['Unchanged', 'No tag (clear it)', 'Main stage', 'Side room']);

    const endMs = Date.now() + 3 * 3_600_000;
    await m.fire('timer_create', {
      label: 'Gala',
      speaker: '',
      duration: '30:00',
      warnAt: '5:00',
      dangerAt: '1:00',
      scheduledAt: '19:30',
      endsAt: String(endMs),
      tagId: main,
      appearance: 'countdown',
    });
    const created = await serverState(s);
    const gala = created.timers.at(-1);
    expect(gala).toMatchObject({ label: 'Gala', duration: 1_800_000, warnAt: 300_000, dangerAt: 60_000, endsAt: endMs, tagId: main });
    // 19:30 in the room's zone (not this machine's), the next one to come.
    expect(wallTime(gala?.scheduledAt as number, ZONE)).toBe('19:30');
    expect(gala?.scheduledAt).toBeGreaterThan(created.serverNow);
    expect(gala?.scheduledAt).toBeLessThanOrEqual(created.serverNow + 86_400_000);

    const galaId = gala?.id as string;
    await waitFor(() => m.host.timerChoices().some((c) => c.startsWith(`${galaId}=`)), 2_000, 'the dropdown to offer the Gala');
    await m.fire('timer_update', { by: 'list', timerId: galaId, dangerAt: '0:45', endsAt: '21:15', tagId: side, appearance: 'unchanged' });
    const updated = (await serverState(s)).timers.find((t) => t.id === galaId);
    expect(updated).toMatchObject({ label: 'Gala', dangerAt: 45_000, tagId: side, scheduledAt: gala?.scheduledAt });
    expect(wallTime(updated?.endsAt as number, ZONE)).toBe('21:15');

    // Empty and "unchanged" keep; none and "no tag" clear, as the API's null does.
    await m.fire('timer_update', { by: 'list', timerId: galaId, dangerAt: 'none', scheduledAt: 'none', endsAt: 'clear', tagId: TAG_NONE, appearance: 'unchanged' });
    expect((await serverState(s)).timers.find((t) => t.id === galaId)).toMatchObject({ label: 'Gala', dangerAt: 0, scheduledAt: null, endsAt: null, tagId: null });
    await m.fire('timer_update', { by: 'list', timerId: galaId, label: 'Gala night', tagId: TAG_UNCHANGED, appearance: 'unchanged' });
    expect((await serverState(s)).timers.find((t) => t.id === galaId)).toMatchObject({ label: 'Gala night', tagId: null, duration: 1_800_000 });
    expect(errors(m)).toEqual([]);
  });

  it('follows the running order and the tags as they are edited elsewhere, and refuses a timer deleted since it was chosen', async () => {
    const s = service as ServiceProcess;
    const m = startModule(s.port);
    await connected(m);
    const start = await serverState(s);
    const listed = (state: Snapshot) => state.timers.map((t, i) => `${t.id}=${i + 1}. ${t.label}`);
    await waitFor(() => JSON.stringify(m.host.timerChoices()) === JSON.stringify(listed(start)), 2_000, 'the dropdown to be the running order');
    const resent = m.host.resent;

    // Created elsewhere (the console, a script): it appears, last.
    const created = await ok(s, '/timers', { label: 'Late addition' });
    const lateId = created.timers.at(-1)?.id as string;
    await waitFor(() => m.host.timerChoices().at(-1) === `${lateId}=${created.timers.length}. Late addition`, 2_000, 'the new timer in the dropdown');
    // Every timer action and the feedback get it, not only select.
    for (const id of ['timer_start', 'timer_update', 'timer_delete', 'timer_move']) expect(m.host.timerChoices(id), id).toEqual(m.host.timerChoices());

    // Renamed and moved to the top: same id, new label and place.
    await ok(s, `/timer/${lateId}/update`, { label: 'Opening' });
    await ok(s, `/timer/${lateId}/move`, { to: 0 });
    await waitFor(() => m.host.timerChoices()[0] === `${lateId}=1. Opening`, 2_000, 'the renamed, moved timer');
    expect(m.host.timerChoices()).toEqual(listed(await serverState(s)));

    // A tag added elsewhere joins the tag dropdown.
    await ok(s, '/tags', { name: 'Overflow' });
    await waitFor(() => m.host.tagChoices('timer_update').includes('Overflow'), 2_000, 'the new tag');

    // Deleted elsewhere: gone from the list, and a key still holding it is refused, with nothing sent.
    await ok(s, `/timer/${lateId}/delete`);
    await waitFor(() => !m.host.timerChoices().some((c) => c.startsWith(`${lateId}=`)), 2_000, 'the deleted timer to leave the dropdown');
    expect(m.host.resent).toBeGreaterThan(resent);
    const before = await serverState(s);
    const sent = m.seen.length;
    await m.fire('timer_start', { by: 'list', timerId: lateId, timer: '1' });
    await m.fire('timer_delete', { by: 'list', timerId: lateId, timer: '1' });
    expect(m.seen.length).toBe(sent);
    expect(errors(m)).toEqual([
      `Showclock: the timer chosen in the list (id "${lateId}") is no longer in the running order (deleted?): choose another timer in the action's options; nothing was sent`,
      `Showclock: the timer chosen in the list (id "${lateId}") is no longer in the running order (deleted?): choose another timer in the action's options; nothing was sent`,
    ]);
    const after = await serverState(s);
    expect({ active: after.activeTimerId, running: after.running, timers: after.timers.map((t) => t.id) }).toEqual({
      active: before.activeTimerId,
      running: before.running,
      timers: before.timers.map((t) => t.id),
    });
  });
});
