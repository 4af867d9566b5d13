// A temp directory per test for config files, and the two questions the config
// tests ask of it: write this file, and what does loading say is wrong.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

export interface ConfigDir {
  /** The directory of the current test. */
  readonly path: () => string;
  /** Writes showclock.json (a string as it is, anything else as JSON) and returns its path. */
  file(content: unknown): string;
  /** The ConfigError's message for this environment; fails the test when it loads. */
  error(env: NodeJS.ProcessEnv): string;
}

/** Registers the per-test directory (beforeEach/afterEach) and returns its helpers. */
export function useConfigDir(prefix: string): ConfigDir {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    path: () => dir,
    file(content) {
      const file = path.join(dir, 'showclock.json');
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    },
    error(env) {
      try {
        loadConfig(env, dir);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message;
      }
      throw new Error('loadConfig accepted a bad configuration');
    },
  };
}
