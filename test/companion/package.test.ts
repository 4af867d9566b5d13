// The module package as a Companion user imports it and the module store takes
// it: `npm run package:companion` builds it with @companion-module/tools on
// Companion's node22 runtime (packaged-module.ts); it is MIT with the store's
// metadata, passes the tools' checks and the store's own, and the packaged
// main.js runs, launched as Companion launches it (companion-ipc.ts), against
// the real service. Also: the service bundle holds nothing of the module.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateManifest, type ModuleManifest } from '@companion-module/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANION_NODE_VERSION, companionNode, MODULE_NODE_MODULES, MODULE_PACKAGE_DIR } from '../../scripts/companion-deps.mjs';
import { actionDefinitions } from '../../src/companion/actions.js';
import { FEEDBACK_IDS } from '../../src/companion/feedbacks.js';
import { VARIABLES } from '../../src/companion/variables.js';
import { BUNDLE, ensureBundle, ROOT, serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';
import { CompanionHost } from './companion-ipc.js';
import { waitFor } from './fake-host.js';
import { packagedModule, type PackagedModule } from './packaged-module.js';

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const version = readJson(path.join(ROOT, 'package.json')).version as string;
const baseVersion = readJson(path.join(MODULE_NODE_MODULES, '@companion-module/base/package.json')).version as string;
const tools = path.join(MODULE_NODE_MODULES, '@companion-module/tools/scripts');

/** Runs one of @companion-module/tools' commands in `cwd` on Companion's node22 runtime, as the store's CI runs it on node 22. */
function runTool(script: string, cwd: string): { status: number | null; output: string } {
  const result = spawnSync(companionNode(), [path.join(tools, script)], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', FORCE_COLOR: '0' } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the Companion module package', () => {
  let pkg: PackagedModule;
  const manifest = (): Record<string, unknown> => readJson(pkg.manifest);

  beforeAll(async () => {
    // As `npm run package:companion` runs it.
    pkg = await packagedModule();
  }, 120_000);

  it('is companion-module-showclock-<version>.tgz with pkg/main.js, the manifest, HELP.md and the licences', () => {
    const listed = spawnSync('tar', ['tzf', pkg.tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
    expect(listed).toEqual(expect.arrayContaining(['pkg/main.js', 'pkg/package.json', 'pkg/LICENSE', 'pkg/companion/manifest.json', 'pkg/companion/HELP.md']));
  });

  it('declares the module API of the @companion-module/base it was built with, on the node22 runtime', () => {
    expect(manifest()).toMatchObject({
      id: 'showclock',
      version,
      runtime: { type: 'node22', api: 'nodejs-ipc', apiVersion: baseVersion, entrypoint: '../main.js' },
    });
    // 1.13: the first module API with secret config fields (the API key), loaded by Companion 4.1 and later.
    expect(baseVersion).toMatch(/^1\.13\./);
  });

  it('is MIT with the repository, bug tracker and maintainers the module store asks for', () => {
    const m = manifest();
    expect(m).toMatchObject({
      name: 'showclock',
      shortname: 'showclock',
      license: 'MIT',
      repository: 'git+https://github.com/bitfocus/companion-module-showclock.git',
      bugs: 'https://github.com/bitfocus/companion-module-showclock/issues',
      maintainers: [{ name: 'Showclock developers', email: 'developers@showclock.invalid' }],
      manufacturer: 'Showclock',
      products: ['Countdown timer'],
    });
    // Companion lists a module as `manufacturer: products` (ModuleScanner.ts): no more "Showclock: Showclock".
    const listedAs = `${String(m.manufacturer)}: ${(m.products as string[]).join('; ')}`;
    expect(listedAs).toBe('Showclock: Countdown timer');
    expect(readJson(path.join(pkg.dir, 'package.json'))).toMatchObject({ license: 'MIT' });
    expect(readJson(path.join(MODULE_PACKAGE_DIR, 'package.json'))).toMatchObject({ license: 'MIT' });
    // The package's LICENSE (written by the tools) starts with the module's own MIT licence, then what it bundles.
    const licence = readFileSync(path.join(pkg.dir, 'LICENSE'), 'utf8');
    expect(licence.split('\n')[0]).toBe('Packages: companion-module-showclock@' + version + ' — MIT (https://github.com/bitfocus/companion-module-showclock)');
    expect(licence).toContain('Copyright (c) 2026 The Showclock developers');
    // ...and those of what it bundles (@companion-module/base itself ships no licence text to copy).
    expect(licence).toMatch(/^Packages: ejson@[\d.]+ — MIT/m);
  });

  it("passes @companion-module/base's strict manifest validation and the tools' checks with no licence rule relaxed", () => {
    expect(() => validateManifest(manifest() as unknown as ModuleManifest, false)).not.toThrow();
    expect(pkg.buildOutput).toContain(`companion-module-check and companion-module-build passed on node ${COMPANION_NODE_VERSION} (licence MIT)`);
    // companion-module-check on the package itself: the manifest again, and the licence policy of what it ships.
    const check = runTool('check-connection.js', pkg.dir);
    expect(check.output).not.toMatch(/LICENSE (WARNING|ERROR)|failed/i);
    expect(check.status, check.output).toBe(0);
  });

  it("the tools' check fails a package that is not MIT (so the check above can fail)", () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'showclock-companion-unlicensed-'));
    try {
      cpSync(pkg.dir, copy, { recursive: true });
      const file = path.join(copy, 'companion/manifest.json');
      writeFileSync(file, JSON.stringify({ ...readJson(file), license: 'UNLICENSED' }));
      const check = runTool('check-connection.js', copy);
      expect(check.output).toContain('LICENSE ERROR: Your module is published under UNLICENSED');
      expect(check.status).not.toBe(0);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("passes the module store's own checks (bitfocus/actions module-checks.yaml)", () => {
    const source = readJson(path.join(MODULE_PACKAGE_DIR, 'companion/manifest.json'));
    // The store builds bitfocus/companion-module-<id>: the id must match that repository's name.
    const repository = /^git\+https:\/\/github\.com\/bitfocus\/companion-module-([\w-]+)\.git$/.exec(String(source.repository));
    expect(repository?.[1]).toBe(source.id);
    expect(JSON.stringify(source)).not.toContain('your-module-name');
    expect((source.products as unknown[]).length).toBeGreaterThan(0);
    expect((source.runtime as { apiVersion: string }).apiVersion).toBe('0.0.0');
    expect(readFileSync(path.join(MODULE_PACKAGE_DIR, 'companion/HELP.md'), 'utf8').length).toBeGreaterThan(0);
    // "Check module launches": `node pkg/main.js` with no host exits 0 or says the entrypoint refused to start.
    const launched = spawnSync(companionNode(), ['main.js'], { cwd: pkg.dir, encoding: 'utf8', timeout: 60_000 });
    const output = `${launched.stdout}${launched.stderr}`;
    expect(launched.status === 0 || output.includes('Failed to startup module'), output).toBe(true);
  });

  it('documents every action, feedback and variable in HELP.md', () => {
    const help = readFileSync(path.join(pkg.dir, 'companion/HELP.md'), 'utf8');
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
      const companion = new CompanionHost(pkg.mainJs, pkg.manifest);
      host = companion;
      // As Companion 5.1 starts a node22 module: its runtime, under the permission model, reading only its own folder.
      expect(companion.command[0]).toBe(companionNode());
      expect(companion.command).toEqual(expect.arrayContaining(['--permission', '--no-warnings=SecurityWarning', `--allow-fs-read=${realpathSync(pkg.dir)}`]));
      expect(companion.command.some((arg) => arg.startsWith('--allow-fs-write') || arg === '--allow-child-process')).toBe(false);
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
