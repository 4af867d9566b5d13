// A temp directory per test for config files, and the two questions the config
// tests ask of it: write this file, and what does loading say is wrong.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../src/config/config.js';

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
