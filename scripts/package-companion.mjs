// The Bitfocus Companion module package, for Companion's "Import module package"
// and the Companion module store:
//   dist/companion-module-showclock-<version>.tgz
//     pkg/main.js                   src/companion/main.ts and what it imports, with
//                                   @companion-module/base, in one CommonJS file
//     pkg/companion/manifest.json   src/companion/companion/manifest.json, version and
//                                   apiVersion filled in by the tools
//     pkg/companion/HELP.md
//     pkg/package.json, pkg/LICENSE (the module's MIT licence and those of what it bundles)
// Built the way every Companion module is: @companion-module/tools' own check
// (companion-module-check: the manifest as the store validates it, and the
// licence policy) and build (companion-module-build: checks again, bundles with
// webpack), with no licence rule relaxed; any licence warning fails here. Both run
// on Companion's node22 runtime from the module's own package (src/companion/
// package.json, installed by scripts/companion-deps.mjs, which this runs first).
// Their input is a module folder made here in a temporary directory: esbuild first
// turns the TypeScript (which also imports the screens' face and clock code from
// src/client) into main.js, since the tools' webpack reads JavaScript only. Nothing
// here touches the service's build (scripts/build.mjs bundles src/main.ts, which
// never imports src/companion).
// Works offline once the module's dependencies are installed.
// Options: --out DIR (where the .tgz goes; default dist/).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { COMPANION_NODE_VERSION, companionEnv, ensureCompanionDeps, MODULE_NODE_MODULES, MODULE_PACKAGE_DIR } from './companion-deps.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function option(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function runTool(node, script, args, cwd) {
  const result = spawnSync(node, [script, ...args], { cwd, encoding: 'utf8', env: companionEnv(node, { FORCE_COLOR: '0' }) });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const name = path.basename(script, '.js');
  if (result.status !== 0) throw new Error(`${name} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`);
  // The tools also pass when they skipped a dependency they could not find: that is a failure here. (Their note that
  // @companion-module/base ships no licence file of its own is not: its package.json declares MIT, which they check.)
  const warnings = output.split('\n').filter((line) => /LICENSE (WARNING|ERROR)|License inventory: Ignoring/.test(line));
  if (warnings.length > 0) throw new Error(`${name} reported licence problems:\n${warnings.join('\n')}`);
  return output;
}

export async function packageCompanionModule({ outDir = path.join(root, 'dist'), log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const { node } = ensureCompanionDeps({ log });
  const pkg = readJson(path.join(root, 'package.json'));
  const modulePkg = readJson(path.join(MODULE_PACKAGE_DIR, 'package.json'));
  const manifest = readJson(path.join(MODULE_PACKAGE_DIR, 'companion/manifest.json'));
  const base = readJson(path.join(MODULE_NODE_MODULES, '@companion-module/base/package.json'));
  const tools = path.join(MODULE_NODE_MODULES, '@companion-module/tools/scripts');

  const stage = mkdtempSync(path.join(tmpdir(), 'showclock-companion-'));
  try {
    // The tools resolve @companion-module/base (to bundle it, and for its licence) from the module folder.
    symlinkSync(MODULE_NODE_MODULES, path.join(stage, 'node_modules'), 'dir');
    await build({
      entryPoints: [path.join(MODULE_PACKAGE_DIR, 'main.ts')],
      outfile: path.join(stage, 'main.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // Bundled by the tools' webpack, which lists it (and its dependencies) in the package's licence file.
      external: ['@companion-module/base'],
      legalComments: 'none',
      logLevel: 'warning',
    });
    cpSync(path.join(MODULE_PACKAGE_DIR, 'companion'), path.join(stage, 'companion'), { recursive: true });
    // The module's own licence text, which the tools put first in the package's LICENSE file.
    copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
    writeFileSync(
      path.join(stage, 'package.json'),
      `${JSON.stringify(
        {
          name: modulePkg.name,
          version: pkg.version,
          private: true,
          type: 'module',
          main: 'main.js',
          // The module source's licence (the tools require MIT); the manifest's is the one it is distributed under.
          license: modulePkg.license,
          repository: modulePkg.repository,
          bugs: modulePkg.bugs,
          dependencies: { '@companion-module/base': base.version },
        },
        null,
        2,
      )}\n`,
    );

    const check = runTool(node, path.join(tools, 'check-connection.js'), [], stage);
    mkdirSync(outDir, { recursive: true });
    const tarball = path.join(outDir, `companion-module-${manifest.id}-${pkg.version}.tgz`);
    rmSync(tarball, { force: true });
    const output = runTool(node, path.join(tools, 'build-connection.js'), ['--output', tarball.replace(/\.tgz$/, '')], stage);
    if (!existsSync(tarball)) throw new Error(`companion-module-build wrote no ${tarball}:\n${output}`);
    log(`companion module: companion-module-check and companion-module-build passed on node ${COMPANION_NODE_VERSION} (licence ${manifest.license})`);
    return { tarball, output: `${check}${output}` };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { tarball } = await packageCompanionModule({ outDir: path.resolve(option('--out') ?? path.join(root, 'dist')) });
  process.stdout.write(`${path.relative(process.cwd(), tarball) || tarball}\n`);
}
