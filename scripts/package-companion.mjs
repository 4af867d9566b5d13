// The Bitfocus Companion module package, for Companion's "Import module package":
//   dist/companion-module-showclock-<version>.tgz
//     pkg/main.js                   src/companion/main.ts and what it imports, with
//                                   @companion-module/base, in one CommonJS file
//     pkg/companion/manifest.json   src/companion/companion/manifest.json, version and
//                                   apiVersion filled in by the tools
//     pkg/companion/HELP.md
//     pkg/package.json
// Built the way every Companion module is: @companion-module/tools' own build
// (companion-module-build), which checks the manifest, bundles with webpack and
// checks the licences of what it bundles. Its input is a module folder made
// here in a temporary directory: esbuild first turns the TypeScript (which also
// imports the screens' face and clock code from src/client) into main.js, since
// the tools' webpack reads JavaScript only. Nothing here touches the service's
// build (scripts/build.mjs bundles src/main.ts, which never imports src/companion).
// Works offline: everything it runs is in node_modules.
// Options: --out DIR (where the .tgz goes; default dist/).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const moduleSource = path.join(root, 'src/companion');

/** Licences the tools accept for a module; any other is reported by them as a policy issue. */
const TOOLS_LICENSES = ['MIT', 'GPL-2.0-only', 'GPL-3.0-only'];

function option(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

export async function packageCompanionModule({ outDir = path.join(root, 'dist'), log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const pkg = readJson(path.join(root, 'package.json'));
  const manifest = readJson(path.join(moduleSource, 'companion/manifest.json'));
  const base = readJson(path.join(root, 'node_modules/@companion-module/base/package.json'));
  const toolsBuild = path.join(root, 'node_modules/@companion-module/tools/scripts/build-connection.js');
  if (!existsSync(toolsBuild)) throw new Error('@companion-module/tools is not installed: run npm install');

  const stage = mkdtempSync(path.join(tmpdir(), 'showclock-companion-'));
  try {
    // The tools resolve @companion-module/base (to bundle it, and for its licence) from the module folder.
    symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    await build({
      entryPoints: [path.join(moduleSource, 'main.ts')],
      outfile: path.join(stage, 'main.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node18',
      // Bundled by the tools' webpack, which lists it (and its dependencies) in the package's licence file.
      external: ['@companion-module/base'],
      legalComments: 'none',
      logLevel: 'warning',
    });
    cpSync(path.join(moduleSource, 'companion'), path.join(stage, 'companion'), { recursive: true });
    writeFileSync(
      path.join(stage, 'package.json'),
      `${JSON.stringify(
        {
          name: manifest.id,
          version: pkg.version,
          private: true,
          type: 'module',
          main: 'main.js',
          license: manifest.license,
          dependencies: { '@companion-module/base': base.version },
        },
        null,
        2,
      )}\n`,
    );

    mkdirSync(outDir, { recursive: true });
    const tarball = path.join(outDir, `companion-module-${manifest.id}-${pkg.version}.tgz`);
    rmSync(tarball, { force: true });
    // The project has chosen no licence (see the manifest): the tools' licence rules then report the module's own
    // declaration, so they run as warnings, and every other finding of theirs (a bundled dependency) still fails below.
    const ownLicenseAccepted = TOOLS_LICENSES.includes(manifest.license);
    const args = [toolsBuild, '--output', tarball.replace(/\.tgz$/, ''), ...(ownLicenseAccepted ? [] : ['--ignore-license-rules'])];
    const result = spawnSync(process.execPath, args, { cwd: stage, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    if (result.status !== 0) throw new Error(`companion-module-build failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`);
    const dependencyIssues = output.split('\n').filter((line) => /^\s*-?\s*Dependency\b|License inventory: Ignoring dependency/.test(line));
    if (dependencyIssues.length > 0) throw new Error(`companion-module-build reported licence problems of bundled packages:\n${dependencyIssues.join('\n')}`);
    if (!existsSync(tarball)) throw new Error(`companion-module-build wrote no ${tarball}:\n${output}`);
    if (!ownLicenseAccepted) {
      log(`companion module: licence "${manifest.license}" is not one Bitfocus accepts (${TOOLS_LICENSES.join(', ')}); fine for importing, not for the Companion module store`);
    }
    return { tarball, output };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { tarball } = await packageCompanionModule({ outDir: path.resolve(option('--out') ?? path.join(root, 'dist')) });
  process.stdout.write(`${path.relative(process.cwd(), tarball) || tarball}\n`);
}
