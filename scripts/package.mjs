// `npm run package`: the release tarball that scripts/install.sh runs from.
//   dist/showclock-<version>.tar.gz
//     showclock-<version>/install.sh            scripts/install.sh
//     showclock-<version>/dist/...              the bundle and the pages, as built
//     showclock-<version>/systemd/*.service     the units
//     showclock-<version>/bin/showclock-kiosk   the kiosk launcher
//     showclock-<version>/package.json          only onoff, installed on the Pi (native addon)
//     showclock-<version>/README.md, LICENSE
// Options: --out DIR (where the tarball goes), --no-build (use dist/ as it is).
// Owners, modes and times are fixed in the archive, so the same tree packs the same.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function option(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

function run(command, args, opts = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...opts });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
}

function copy(from, to, mode) {
  mkdirSync(path.dirname(to), { recursive: true, mode: 0o755 });
  copyFileSync(from, to);
  chmodSync(to, mode);
}

/** Every file under dir, relative, skipping release tarballs. */
function filesUnder(dir, prefix = '') {
  const found = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(dir, relative));
    // Not the code cache: it belongs to this machine's Node; a box makes its own (src/launcher.ts).
    else if (entry.isFile() && !entry.name.endsWith('.tar.gz') && !entry.name.endsWith('.tgz') && !entry.name.endsWith('.cache')) found.push(relative);
  }
  return found;
}

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const outDir = path.resolve(option('--out') ?? path.join(root, 'dist'));
const name = `showclock-${pkg.version}`;

if (!process.argv.includes('--no-build')) run(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root });
if (!existsSync(path.join(root, 'dist/showclock.mjs'))) throw new Error('dist/showclock.mjs is missing: build first (npm run build)');

// The exact onoff this tree was tested with; the range from package.json if it is not installed here.
const onoffInstalled = path.join(root, 'node_modules/onoff/package.json');
const onoff = existsSync(onoffInstalled) ? JSON.parse(readFileSync(onoffInstalled, 'utf8')).version : pkg.optionalDependencies.onoff;

const stage = mkdtempSync(path.join(tmpdir(), 'showclock-package-'));
try {
  const top = path.join(stage, name);
  copy(path.join(root, 'scripts/install.sh'), path.join(top, 'install.sh'), 0o755);
  copy(path.join(root, 'README.md'), path.join(top, 'README.md'), 0o644);
  copy(path.join(root, 'LICENSE'), path.join(top, 'LICENSE'), 0o644);
  copy(path.join(root, 'systemd/showclock.service'), path.join(top, 'systemd/showclock.service'), 0o644);
  copy(path.join(root, 'systemd/showclock-kiosk.service'), path.join(top, 'systemd/showclock-kiosk.service'), 0o644);
  copy(path.join(root, 'systemd/showclock-kiosk.sh'), path.join(top, 'bin/showclock-kiosk'), 0o755);
  for (const file of filesUnder(path.join(root, 'dist'))) copy(path.join(root, 'dist', file), path.join(top, 'dist', file), 0o644);
  const release = {
    name: pkg.name,
    version: pkg.version,
    private: true,
    description: pkg.description,
    license: pkg.license,
    type: 'module',
    engines: pkg.engines,
    dependencies: { onoff },
  };
  writeFileSync(path.join(top, 'package.json'), `${JSON.stringify(release, null, 2)}\n`, { mode: 0o644 });

  mkdirSync(outDir, { recursive: true });
  const tarball = path.join(outDir, `${name}.tar.gz`);
  const mtime = process.env.SOURCE_DATE_EPOCH ?? String(Math.floor(statSync(path.join(root, 'dist/showclock.mjs')).mtimeMs / 1000));
  run('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', `--mtime=@${mtime}`, '-czf', tarball, '-C', stage, name]);
  process.stdout.write(`${path.relative(process.cwd(), tarball) || tarball}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
run(process.execPath, [path.join(root, 'scripts/package-companion.mjs'), '--out', outDir], { cwd: root }); // and dist/companion-module-showclock-<version>.tgz
