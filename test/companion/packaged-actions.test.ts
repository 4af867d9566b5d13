// The packaged module, started the way Companion starts it (companion-ipc.ts),
// against the real service: the box features added to the keys change the box,
// and the timer and tag dropdowns follow the running order as it is edited
// elsewhere (Companion gets the action definitions again, with the new choices).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { CompanionHost } from './companion-ipc.js';
import { waitFor } from './fake-host.js';
import { command, serverState } from './live-box.js';
import { packagedModule } from './packaged-module.js';

interface Choice {
  readonly id: string;
  readonly label: string;
}
interface ActionDefinition {
  readonly id: string;
  readonly options: { readonly id: string; readonly choices?: Choice[] }[];
}

describe('the packaged module drives every box feature', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-packaged-actions-'));
  let box: ServiceProcess;
  let companion: CompanionHost;

  async function press(actionId: string, options: Record<string, unknown> = {}): Promise<void> {
    await companion.call('executeAction', { action: { id: `a-${actionId}`, controlId: 'bank:1', actionId, options, upgradeIndex: null, disabled: false }, surfaceId: undefined });
  }

  /** The choices of an action's dropdown as Companion was last told them. */
  function choices(actionId: string, optionId: string): Choice[] {
    const last = companion.callsNamed('setActionDefinitions').at(-1) as { actions: ActionDefinition[] } | undefined;
    return last?.actions.find((a) => a.id === actionId)?.options.find((o) => o.id === optionId)?.choices ?? [];
  }

  beforeAll(async () => {
    ensureBundle();
    const packaged = await packagedModule();
    box = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dir, SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_RATE_LIMIT: '10000' }));
    companion = new CompanionHost(packaged.mainJs, packaged.manifest);
    await waitFor(() => companion.callsNamed('register').length > 0, 15_000, `the module to register; output: ${companion.output.join('')}`);
    await companion.call('init', { label: 'showclock', isFirstInit: false, config: { host: '127.0.0.1', port: box.port }, secrets: { apiKey: TEST_API_KEY }, lastUpgradeIndex: -1, feedbacks: {}, actions: {} });
    await waitFor(() => companion.callsNamed('set-status').some((p) => (p as { status: string }).status === 'ok'), 10_000, 'connected');
  }, 180_000);

  afterAll(async () => {
    await companion.stop();
    await stopService(box);
    rmSync(dir, { recursive: true, force: true });
  });

  it('flashes the screens and plays the chime test', async () => {
    await press('flash', { count: 4 });
    expect((await serverState(box)).flash).toMatchObject({ count: 4 });
    await press('chime_test');
    expect((await serverState(box)).chimeTestAt).toEqual(expect.any(Number));
  });

  it('offers a timer created elsewhere in the dropdown, starts it in one press, and follows a rename and a delete', async () => {
    await waitFor(() => choices('timer_start', 'timerId').length === 1, 5_000, 'the first running order in the dropdown');
    const created = (await command(box, '/timers', { label: 'Keynote', duration: 1_200_000 })) as { timer: { id: string } };
    const keynote = created.timer.id;
    await waitFor(() => choices('timer_start', 'timerId').some((c) => c.id === keynote && c.label === '2. Keynote'), 5_000, 'Keynote in the dropdown');

    await press('timer_start', { by: 'list', timerId: keynote });
    const started = await serverState(box);
    expect(started.activeTimerId).toBe(keynote);
    expect(started.running).toBe(true);

    await command(box, `/timer/${keynote}/update`, { label: 'Keynote: the future' });
    await waitFor(() => choices('timer_select', 'timerId').some((c) => c.label === '2. Keynote: the future'), 5_000, 'the rename in the dropdown');
    // Saved buttons that name a timer by position keep working beside the dropdown.
    await press('timer_select', { by: 'position', timer: '1' });
    expect((await serverState(box)).activeTimerId).not.toBe(keynote);
    await command(box, `/timer/${keynote}/delete`, {});
    await waitFor(() => !choices('timer_start', 'timerId').some((c) => c.id === keynote), 5_000, 'the delete in the dropdown');
  });

  it('gives a timer a red threshold, a start time, an end time and a tag chosen by name', async () => {
    const tag = (await command(box, '/tags', { name: 'Panel', colour: '#3366ff' })) as { state: Snapshot };
    const panel = tag.state.tags.find((t) => t.name === 'Panel');
    if (panel === undefined) throw new Error('the tag was not made');
    await waitFor(() => choices('timer_create', 'tagId').some((c) => c.id === panel.id && c.label === 'Panel'), 5_000, 'the tag in the dropdown');
    await press('timer_create', { label: 'Panel talk', duration: '30:00', warnAt: '5:00', dangerAt: '1:00', scheduledAt: '1790000000000', endsAt: '', tagId: panel.id, appearance: 'countdown' });
    const made = (await serverState(box)).timers.find((t) => t.label === 'Panel talk');
    expect(made).toMatchObject({ duration: 1_800_000, warnAt: 300_000, dangerAt: 60_000, scheduledAt: 1_790_000_000_000, endsAt: null, tagId: panel.id });
  });
});
