// The module package as a Companion user imports it: `npm run package`'s
// companion step builds it with @companion-module/tools (whose build checks the
// manifest and the licences of what it bundles, offline), the archive holds
// what Companion's "Import module package" reads, and the packaged main.js runs
// under Companion's IPC protocol against the real service. Also: the service
// bundle holds nothing of the module.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionDefinitions } from '../../src/companion/actions.js';
import { FEEDBACK_IDS } from '../../src/companion/feedbacks.js';
import { VARIABLES } from '../../src/companion/variables.js';
import { BUNDLE, ensureBundle, ROOT, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { CompanionHost } from './companion-ipc.js';
import { waitFor } from './fake-host.js';

const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const baseVersion = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@companion-module/base/package.json'), 'utf8')) as { version: string }).version;

describe('the Companion module package', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'showclock-companion-pkg-'));
  const unpacked = path.join(out, 'unpacked');
  let tarball = '';

  beforeAll(async () => {
    // As `npm run package` runs it.
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/package-companion.mjs'), '--out', out], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`package-companion failed: ${built.stdout}${built.stderr}`);
    tarball = path.join(out, `companion-module-showclock-${version}.tgz`);
    mkdirSync(unpacked);
    const untar = spawnSync('tar', ['xzf', tarball, '-C', unpacked], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(untar.stderr);
  }, 120_000);

  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
  });

  it('is companion-module-showclock-<version>.tgz with pkg/main.js, the manifest and HELP.md', () => {
    const listed = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
    expect(listed).toEqual(expect.arrayContaining(['pkg/main.js', 'pkg/package.json', 'pkg/companion/manifest.json', 'pkg/companion/HELP.md']));
  });

  it('declares the module API of the @companion-module/base it was built with, on the node22 runtime', () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'pkg/companion/manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      id: 'showclock',
      version,
      runtime: { type: 'node22', api: 'nodejs-ipc', apiVersion: baseVersion, entrypoint: '../main.js' },
    });
    // 1.13: the first module API with secret config fields (the API key), loaded by Companion 4.1 and later.
    expect(baseVersion).toMatch(/^1\.13\./);
  });

  it('documents every action, feedback and variable in HELP.md', () => {
    const help = readFileSync(path.join(unpacked, 'pkg/companion/HELP.md'), 'utf8');
    const actions = Object.keys(actionDefinitions({ run: async () => {}, reject: () => {} }));
    for (const id of [...actions, ...FEEDBACK_IDS, ...VARIABLES.map((v) => v.variableId)]) expect(help, id).toContain(`\`${id}\``);
  });

  describe('run by an emulated Companion', () => {
    let service: ServiceProcess | undefined;
    let host: CompanionHost | undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-companion-data-'));

    beforeAll(async () => {
      ensureBundle();
      service = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_API_KEY: TEST_API_KEY }));
    });

    afterAll(async () => {
      await host?.stop();
      await stopService(service);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('registers, connects, publishes variables, runs an action and answers a feedback', async () => {
      const s = service as ServiceProcess;
      const companion = new CompanionHost(path.join(unpacked, 'pkg/main.js'), path.join(unpacked, 'pkg/companion/manifest.json'));
      host = companion;
      await waitFor(() => companion.callsNamed('register').length > 0, 10_000, `the module to register; output: ${companion.output.join('')}`);
      expect(companion.callsNamed('register')[0]).toMatchObject({ apiVersion: baseVersion, connectionId: 'showclock-test' });

      await companion.call('init', { label: 'showclock', isFirstInit: false, config: { host: '127.0.0.1', port: s.port }, secrets: { apiKey: TEST_API_KEY }, lastUpgradeIndex: -1, feedbacks: {}, actions: {} });
      await waitFor(() => companion.callsNamed('set-status').some((p) => (p as { status: string }).status === 'ok'), 10_000, 'status ok');
      const variablesNow = (): Record<string, unknown> =>
        Object.assign({}, ...companion.callsNamed('setVariableValues').flatMap((p) => (p as { newValues: { id: string; value: unknown }[] }).newValues.map((v) => ({ [v.id]: v.value })))) as Record<string, unknown>;
      // The status and the variables travel in separate messages: the connection variable may follow the status.
      await waitFor(() => variablesNow().connection === 'connected', 10_000, 'the connection variable');
      expect(variablesNow()).toMatchObject({ remaining: '10:00', connection: 'connected', server_version: '1.0.0' });
      const defined = companion.callsNamed('setVariableDefinitions')[0] as { variables: unknown[] };
      expect(defined.variables).toHaveLength(VARIABLES.length);
      expect(companion.callsNamed('setPresetDefinitions')).toHaveLength(1);

      await companion.call('executeAction', { action: { id: 'a1', controlId: 'bank:1', actionId: 'onair', options: { mode: 'on' }, upgradeIndex: null, disabled: false }, surfaceId: undefined });
      const state = (await (await fetch(`${s.api}/state`)).json()) as { state: { onAir: boolean } };
      expect(state.state.onAir).toBe(true);

      await companion.call('updateFeedbacks', {
        feedbacks: { f1: { id: 'f1', controlId: 'bank:1', feedbackId: 'onair', options: {}, isInverted: false, upgradeIndex: null, disabled: false } },
      });
      await waitFor(
        () => companion.callsNamed('updateFeedbackValues').some((p) => (p as { values: { id: string; value: unknown }[] }).values.some((v) => v.id === 'f1' && v.value === true)),
        5_000,
        'the ON AIR feedback to be true',
      );
      await companion.call('destroy', {});
    });
  });
});

describe('the service bundle', () => {
  it('holds nothing of the Companion module', () => {
    ensureBundle();
    const bundle = readFileSync(BUNDLE.replace(/\.mjs$/, '.cjs'), 'utf8');
    expect(bundle).not.toContain('companion-module');
    expect(bundle).not.toContain('runEntrypoint');
    expect(bundle).not.toContain('Showclock is too old for this module');
  });
});
