// The Companion module package as a user imports it: `npm run package:companion`
// (scripts/package-companion.mjs, which runs @companion-module/tools' check and
// build on Companion's node22 runtime), unpacked as Companion unpacks an
// imported module. Tests start it with CompanionHost(mainJs, manifest).
//
// Built once per content: into node_modules/.cache/companion-package/<hash of
// what goes into it>, by the test run's global setup (deps.global-setup.ts)
// before any test starts, so the build's CPU (webpack, about 5 s) never
// competes with timing-sensitive tests, and a run with nothing changed
// reuses the last build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = path.join(ROOT, 'node_modules/.cache/companion-package');

export interface PackagedModule {
  /** The .tgz as built. */
  readonly tarball: string;
  /** What package-companion.mjs printed (the tools' output is not printed on success). */
  readonly buildOutput: string;
  /** The unpacked module directory (the archive's pkg/). */
  readonly dir: string;
  readonly mainJs: string;
  readonly manifest: string;
}

/** Every file under `dir` (node_modules left out), sorted, for the hash. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/** What the package is made of: the sources it bundles (src/), the script that builds it and the versions. */
function contentHash(): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(path.join(ROOT, 'src')), path.join(ROOT, 'scripts/package-companion.mjs'), path.join(ROOT, 'package.json')]) {
    hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function layout(out: string): PackagedModule {
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = path.join(out, 'unpacked/pkg');
  return {
    tarball: path.join(out, `companion-module-showclock-${version}.tgz`),
    buildOutput: existsSync(path.join(out, 'build-output.txt')) ? readFileSync(path.join(out, 'build-output.txt'), 'utf8') : '',
    dir,
    mainJs: path.join(dir, 'main.js'),
    manifest: path.join(dir, 'companion/manifest.json'),
  };
}

let current: PackagedModule | undefined;

/** The packaged module for the sources as they are, built now unless a build of them is cached. */
export function ensurePackagedModule(): PackagedModule {
  if (current !== undefined) return current;
  const out = path.join(CACHE, contentHash());
  if (!existsSync(path.join(out, 'complete'))) {
    // Built beside, then moved in whole: a run stopped halfway never leaves a package that looks complete.
    const building = `${out}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/package-companion.mjs'), '--out', building], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`package-companion failed: ${built.stdout}${built.stderr}`);
    const files = layout(building);
    mkdirSync(path.join(building, 'unpacked'));
    const untar = spawnSync('tar', ['xzf', files.tarball, '-C', path.join(building, 'unpacked')], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
    writeFileSync(path.join(building, 'build-output.txt'), `${built.stdout}${built.stderr}`);
    writeFileSync(path.join(building, 'complete'), '');
    // Older builds are of sources that are gone: keep only this one.
    for (const old of existsSync(CACHE) ? readdirSync(CACHE) : []) if (path.join(CACHE, old) !== building) rmSync(path.join(CACHE, old), { recursive: true, force: true });
    renameSync(building, out);
  }
  current = layout(out);
  return current;
}

/** The packaged module (the global setup has built it; a lone run builds it here). */
export function packagedModule(): Promise<PackagedModule> {
  return Promise.resolve().then(ensurePackagedModule);
}
