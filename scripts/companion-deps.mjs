// The Companion module's own dependencies (@companion-module/base and
// @companion-module/tools), installed into src/companion/node_modules from
// src/companion/package-lock.json with the node runtime Companion runs modules
// on, not with the service's Node 20.
//
// Why: both packages declare engines for Companion's runtimes (node 18 or 22),
// so installing them with the project on Node 20 printed EBADENGINE warnings.
// The module is its own package (src/companion/package.json, engine-strict),
// and its install runs under Companion's node22 runtime, so npm's engine check
// passes for real instead of being silenced.
//
// Companion's node22 runtime is a fixed Node.js release (bitfocus/companion
// assets/nodejs-versions.json: node22 = 22.23.2), published on npm as
// node-linux-<arch>@<version> (its bin/node). It is fetched with `npm pack`
// into node_modules/.cache/companion-node and unpacked there, never installed
// as a dependency: its `bin: node` would shadow Node 20 in every npm script.
// The archive is checked against the integrity pinned below.
//
// Idempotent: a stamp (hash of the lock file and the runtime version) in
// src/companion/node_modules says the install is current; then nothing runs
// and nothing is fetched (works offline). The test host also uses the same
// runtime binary (companionNode) to start the packaged module as Companion does.
//
// Run: node scripts/companion-deps.mjs   (npm test runs it first)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const MODULE_PACKAGE_DIR = path.join(root, 'src/companion');
export const MODULE_NODE_MODULES = path.join(MODULE_PACKAGE_DIR, 'node_modules');
const STAMP = path.join(MODULE_NODE_MODULES, '.showclock-companion-deps');
const CACHE = path.join(root, 'node_modules/.cache/companion-node');

/** Companion's node22 runtime (bitfocus/companion assets/nodejs-versions.json). */
export const COMPANION_NODE_VERSION = '22.23.2';

/** The npm registry's integrity of each runtime archive, so a changed archive is refused. */
const RUNTIME_INTEGRITY = {
  x64: 'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==',
  arm64: 'sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ==',
};

function runtimePackage() {
  const integrity = RUNTIME_INTEGRITY[process.arch];
  if (process.platform !== 'linux' || integrity === undefined) {
    throw new Error(
      `companion-deps: Companion's node runtime is fetched for Linux x64 and arm64 only, this is ${process.platform}-${process.arch}`,
    );
  }
  return { name: `node-linux-${process.arch}`, spec: `node-linux-${process.arch}@${COMPANION_NODE_VERSION}`, integrity };
}

/** npm's own command-line entry, for running npm under another node binary. */
function npmCli() {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm !== undefined && /npx-cli\.js$/.test(fromNpm)) return path.join(path.dirname(fromNpm), 'npm-cli.js');
  if (fromNpm !== undefined && /npm-cli\.js$/.test(fromNpm)) return fromNpm;
  const beside = path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
  if (existsSync(beside)) return beside;
  throw new Error('companion-deps: cannot find npm (run it through npm, or with the node that npm came with)');
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(`companion-deps: ${path.basename(command)} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`);
  }
  return output;
}

/**
 * Path of Companion's node22 binary, fetched into the cache the first time.
 * @returns {string}
 */
export function companionNode() {
  const pkg = runtimePackage();
  const dir = path.join(CACHE, `${pkg.name}-${COMPANION_NODE_VERSION}`);
  const node = path.join(dir, 'bin/node');
  if (existsSync(node)) return node;

  mkdirSync(CACHE, { recursive: true });
  const work = path.join(CACHE, `.fetch-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  try {
    // npm pack only downloads (through npm's cache, so a second machine-local fetch is offline); it runs no script.
    run(process.execPath, [npmCli(), 'pack', pkg.spec, '--pack-destination', work, '--prefer-offline', '--silent'], { cwd: work });
    const tgz = path.join(work, `${pkg.name}-${COMPANION_NODE_VERSION}.tgz`);
    const integrity = `sha512-${createHash('sha512').update(readFileSync(tgz)).digest('base64')}`;
    if (integrity !== pkg.integrity) throw new Error(`companion-deps: ${pkg.spec} has integrity ${integrity}, expected ${pkg.integrity}`);
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    // Only the binary and its licence: the headers and man pages are a third of the archive.
    run('tar', ['xzf', tgz, '-C', unpacked, '--strip-components=1', 'package/bin/node', 'package/LICENSE'], {});
    const version = run(path.join(unpacked, 'bin/node'), ['--version'], {}).trim();
    if (version !== `v${COMPANION_NODE_VERSION}`) throw new Error(`companion-deps: ${pkg.spec} runs as ${version}`);
    // Renamed into place whole, so a reader never sees a half-unpacked runtime (another test process may be looking).
    try {
      renameSync(unpacked, dir);
    } catch (error) {
      if (!existsSync(node)) throw error;
    }
    return node;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The environment for a tool run on the node22 runtime `node` (npm here, the module tools in
 * package-companion.mjs): without the npm settings of a calling npm (npm test sets its own prefix
 * there), and with that node first on PATH, so what the tool starts runs on it too, not on Node 20.
 * @param {string} node
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string | undefined>}
 */
export function companionEnv(node, extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
}

function expectedStamp() {
  const lock = readFileSync(path.join(MODULE_PACKAGE_DIR, 'package-lock.json'));
  return createHash('sha256').update(lock).update(`node ${COMPANION_NODE_VERSION}\n`).digest('hex');
}

/** True when src/companion/node_modules holds what the module's lock file says. */
export function companionDepsCurrent() {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === expectedStamp();
}

/**
 * Installs the module's dependencies with Companion's node22 runtime unless they are current.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {{ node: string, installed: boolean, output: string }}
 */
export function ensureCompanionDeps({ log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const node = companionNode();
  if (companionDepsCurrent()) return { node, installed: false, output: '' };
  log(`companion-deps: installing src/companion's dependencies with node ${COMPANION_NODE_VERSION} (Companion's node22 runtime)`);
  rmSync(STAMP, { force: true });
  const output = run(node, [npmCli(), 'ci', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: MODULE_PACKAGE_DIR,
    env: companionEnv(node, { npm_config_engine_strict: 'true' }),
  });
  // npm passes with a warning too: any warning here is a failure, so the install stays clean.
  const warnings = output.split('\n').filter((line) => /^npm (warn|WARN)/.test(line));
  if (warnings.length > 0) throw new Error(`companion-deps: npm ci in src/companion warned:\n${warnings.join('\n')}`);
  writeFileSync(STAMP, `${expectedStamp()}\n`);
  return { node, installed: true, output };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { installed, output } = ensureCompanionDeps();
  if (output.trim() !== '') process.stdout.write(`${output.trim()}\n`);
  process.stdout.write(
    `companion-deps: src/companion/node_modules ${installed ? 'installed' : 'already current'} (${Math.round(performance.now() - started)} ms)\n`,
  );
}
