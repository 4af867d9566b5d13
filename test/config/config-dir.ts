// A temp directory per test for config files, and the two questions the config
// tests ask of it: write this file, and what does loading say is wrong.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../src/config/config.js';
import { runConfigCommand } from '../../src/cli/config-command.js';

export interface ConfigDir {
  /** The directory of the current test. */
  readonly path: () => string;
  /** Writes showclock.json (a string as it is, anything else as JSON) and returns its path. */
  file(content: unknown): string;
  /** The ConfigError's message for this environment; fails the test when it loads. */
  error(env: NodeJS.ProcessEnv): string;
  /** Loads the configuration with this file (as `file` writes it) and environment. */
  load(content: unknown, env?: NodeJS.ProcessEnv): Config;
  /** The ConfigError's message for this file and environment; fails the test when it loads. */
  problem(content: unknown, env?: NodeJS.ProcessEnv): string;
}

/** Registers the per-test directory (beforeEach/afterEach) and returns its helpers. */
export function useConfigDir(prefix: string): ConfigDir {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = (content: unknown): string => {
    const written = path.join(dir, 'showclock.json');
    writeFileSync(written, typeof content === 'string' ? content : JSON.stringify(content));
    return written;
  };
  const error = (env: NodeJS.ProcessEnv): string => {
    try {
      loadConfig(env, dir);
    } catch (thrown) {
      expect(thrown).toBeInstanceOf(ConfigError);
      return (thrown as ConfigError).message;
    }
    throw new Error('loadConfig accepted a bad configuration');
  };
  return {
    path: () => dir,
    file,
    error,
    load: (content, env = {}) => loadConfig({ SHOWCLOCK_CONFIG: file(content), ...env }, dir),
    problem: (content, env = {}) => error({ SHOWCLOCK_CONFIG: file(content), ...env }),
  };
}

/**
 * The install script's commented example of a config section (`// "osc": {` to its
 * `// },`) with the `//` taken off: the object's text, `{ "osc": {...} }`, to load.
 */
export function installScriptExample(section: string): string {
  const script = readFileSync(fileURLToPath(new URL('../../scripts/install.sh', import.meta.url)), 'utf8');
  const start = script.indexOf(`// "${section}": {`);
  const end = script.indexOf('// },', start) + '// },'.length;
  expect(start, `install.sh has a commented "${section}" example`).toBeGreaterThan(0);
  const block = script
    .slice(start, end)
    .split('\n')
    .map((line) => line.replace(/^\s*\/\/ ?/, ''))
    .join('\n')
    .replace(/,\s*$/, '');
  return `{ ${block} }`;
}

/** What `showclock config` prints for each list of arguments, one string per call. */
export function configCommandOutput(config: Config, ...calls: (readonly string[])[]): string[] {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    return calls.map((args) => {
      const before = written.length;
      runConfigCommand(config, [...args]);
      return written.slice(before).join('');
    });
  } finally {
    process.stdout.write = write;
  }
}
