// The tally on the keys (issue 32): the `tally` feedback and the `tally` and
// `tally_sources` variables follow what the box's tally sources say, beside ON AIR,
// which a press overrides until the tally next changes. In process, the room is a
// real RoomService driven by `tally.set` as the tally adapter sends it; against the
// bundled service, a TSL 3.1 datagram on its tally port reaches the module's keys
// over the push stream. A box without tally, or older than it, reads as `none`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InstanceStatus, type CompanionFeedbackDefinition } from '@companion-module/base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupOf } from '../../src/companion/config.js';
import { ShowclockConnection } from '../../src/companion/connection.js';
import { feedbackDefinitions, feedbackSignatures, type FeedbackSource } from '../../src/companion/feedbacks.js';
import { presetDefinitions } from '../../src/companion/presets.js';
import { viewAt, type RoomView } from '../../src/companion/room-view.js';
import { variableValues } from '../../src/companion/variables.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { TallySource } from '../../src/domain/types.js';
import { ensureBundle, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { createTestApp, roomWithTimers } from '../helpers/test-app.js';
import { tsl31 } from '../tally/tsl-rig.js';
import { FakeHost, waitFor } from './fake-host.js';
import { snapshot, WALL } from './snapshots.js';

const CONNECTED = { kind: 'connected', apiVersion: '1.0.0' } as const;

function sourceOf(state: Snapshot | null): FeedbackSource {
  return { snapshot: () => state, view: () => (state === null ? null : viewAt(state, state.serverNow)), isConnected: () => state !== null };
}

async function tallyLit(state: Snapshot | null): Promise<boolean> {
  const def = feedbackDefinitions(sourceOf(state)).tally as CompanionFeedbackDefinition;
  const lit = await def.callback(
    { type: def.type, id: 'f', controlId: 'c', feedbackId: 'tally', options: {}, image: { width: 72, height: 72 } },
    { parseVariablesInString: async (text: string) => text },
  );
  return lit === true;
}

function keys(state: Snapshot): { tally: unknown; tally_sources: unknown; onair: unknown; lit: Promise<boolean> } {
  const view: RoomView = viewAt(state, state.serverNow);
  const values = variableValues(state, view, CONNECTED, '1.0.0');
  return { tally: values.tally, tally_sources: values.tally_sources, onair: values.onair, lit: tallyLit(state) };
}

describe('the tally feedback and variables', () => {
  it('follow tally.set from the sources, beside ON AIR, which a press overrides', async () => {
    const t = createTestApp({ room: roomWithTimers(2) });
    const report = (source: TallySource, on: boolean) => t.service.dispatch({ type: 'tally.set', source, on }, 'tally');
    const now = async () => {
      const k = keys(t.service.snapshot());
      return { tally: k.tally, tally_sources: k.tally_sources, onair: k.onair, lit: await k.lit };
    };

    // No source has reported: none, the key dark.
    expect(await now()).toEqual({ tally: 'none', tally_sources: '', onair: false, lit: false });
    report('tsl', true);
    expect(await now()).toEqual({ tally: 'on', tally_sources: 'tsl', onair: true, lit: true });
    report('obs', true);
    expect(await now()).toEqual({ tally: 'on', tally_sources: 'tsl, obs', onair: true, lit: true });
    // A press takes ON AIR off: the tally still says on air, and the key says so.
    t.service.dispatch({ type: 'onair.set', on: false }, 'console');
    expect(await now()).toEqual({ tally: 'on', tally_sources: 'tsl, obs', onair: false, lit: true });
    report('tsl', false);
    expect(await now()).toEqual({ tally: 'on', tally_sources: 'obs', onair: false, lit: true });
    report('obs', false);
    // Off: every source heard decides it.
    expect(await now()).toEqual({ tally: 'off', tally_sources: 'tsl, obs', onair: false, lit: false });
  });

  it('re-checks the tally feedback when the tally changes, not when ON AIR alone does', () => {
    const sig = (s: Snapshot) => feedbackSignatures(s, viewAt(s, WALL), true);
    const changed = (a: Snapshot, b: Snapshot) => {
      const x = sig(a);
      const y = sig(b);
      return (Object.keys(x) as (keyof typeof x)[]).filter((k) => x[k] !== y[k]);
    };
    const none = snapshot();
    const on = snapshot({ tally: { tsl: true }, onAir: true });
    const pressedOff = snapshot({ tally: { tsl: true }, onAir: false });
    expect(changed(none, on)).toEqual(['onair', 'tally']);
    expect(changed(on, pressedOff)).toEqual(['onair']);
  });

  it('read a box older than tally, or a tally it cannot read, as none', async () => {
    const { tally: _tally, ...rest } = snapshot({ tally: { tsl: true }, onAir: true });
    const older = rest as Snapshot;
    expect(await (async () => ({ ...keys(older), lit: await keys(older).lit }))()).toEqual({ tally: 'none', tally_sources: '', onair: true, lit: false });
    const odd = { ...older, tally: { on: 'yes', sources: [] } } as unknown as Snapshot;
    expect(keys(odd).tally).toBe('none');
    expect(await keys(odd).lit).toBe(false);
    // A source a later box adds is not named, but its word counts.
    const later = { ...older, tally: { on: true, sources: { ndi: true } } } as unknown as Snapshot;
    expect(keys(later).tally).toBe('on');
    expect(keys(later).tally_sources).toBe('');
    // Not connected: empty, as every variable.
    expect(variableValues(null, null, { kind: 'connecting' }, '').tally).toBe('');
    expect(await tallyLit(null)).toBe(false);
  });

  it('come with a red default and a Tally preset', () => {
    const def = feedbackDefinitions(sourceOf(null)).tally;
    expect(def).toMatchObject({ type: 'boolean', name: 'Tally: on air by the vision mixer/OBS', defaultStyle: { bgcolor: 0xd00000, color: 0xffffff } });
    const presets = presetDefinitions('sc');
    expect(presets.tally).toMatchObject({ category: 'Tally', style: { text: 'TALLY\n$(sc:tally)' }, feedbacks: [{ feedbackId: 'tally' }], steps: [{ down: [], up: [] }] });
  });
});

describe('the tally on the keys from the bundled service', () => {
  let dir: string;
  let service: ServiceProcess | undefined;
  let connection: ShowclockConnection | undefined;

  beforeAll(() => {
    ensureBundle();
    dir = mkdtempSync(path.join(tmpdir(), 'showclock-companion-tally-'));
  });

  afterEach(() => {
    connection?.destroy();
    connection = undefined;
  });

  afterAll(async () => {
    await stopService(service);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a TSL 3.1 datagram on the box lights the tally key and sets the variables over the push stream', async () => {
    const config = path.join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ tally: { tsl: { port: 0, host: '127.0.0.1', indices: [3] } } }));
    service = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: path.join(dir, 'data'), SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_CONFIG: config }));
    const listening = await service.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('TSL tally listening'));
    const port = listening.port as number;

    const host = new FakeHost();
    connection = new ShowclockConnection(host);
    connection.configure(setupOf({ host: '127.0.0.1', port: service.port }, { apiKey: TEST_API_KEY }));
    await waitFor(() => host.status()?.status === InstanceStatus.Ok && host.variables.tally === 'none', 10_000, 'the module to connect, tally none');
    const source: FeedbackSource = connection;
    const lit = () => tallyLit(source.snapshot());
    expect(await lit()).toBe(false);

    const sender = createSocket('udp4');
    try {
      const since = performance.now();
      sender.send(tsl31(3, { program: true }), port, '127.0.0.1');
      await waitFor(() => host.variables.tally === 'on', 5_000, 'tally on');
      expect(host.variables).toMatchObject({ tally: 'on', tally_sources: 'tsl', onair: true });
      expect(host.checkedAfter('tally', since)).not.toBeNull();
      expect(await lit()).toBe(true);

      sender.send(tsl31(3, {}), port, '127.0.0.1');
      await waitFor(() => host.variables.tally === 'off', 5_000, 'tally off');
      expect(host.variables).toMatchObject({ tally: 'off', tally_sources: 'tsl', onair: false });
      expect(await lit()).toBe(false);
    } finally {
      sender.close();
    }
  }, 30_000);
});
