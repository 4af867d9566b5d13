// The data directory at start: there and a directory, made when missing, and
// writable or not. A directory the service cannot use at all is a DataDirError,
// which main turns into one log line naming the path and what to do, and exit 73
// (EXIT_DATA_DIR, which systemd does not restart). A read-only one is reported, not
// refused: with nothing to write (the keys known) the show runs from memory.
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** A problem with the data directory or keys.json that stops the start; the message says what to do. */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
  /** The file or directory at fault. */
  readonly path: string;

  constructor(message: string, file: string) {
    super(message);
    this.path = file;
  }
}

export type DataDirState =
  | { readonly kind: 'writable' }
  /** Readable but not writable; `reason` is the error code (EROFS, EACCES, ...). */
  | { readonly kind: 'read-only'; readonly reason: string }
  | { readonly kind: 'unusable'; readonly message: string };

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

function cannotCreate(dir: string, code: string): string {
  switch (code) {
    case 'ENOTDIR':
      return `cannot create the data directory ${dir} (ENOTDIR: a part of its path is a file, not a directory): fix the path, or set SHOWCLOCK_DATA_DIR to a directory`;
    case 'EROFS':
      return `cannot create the data directory ${dir} (EROFS: the file system is read-only): create it on a writable file system, or set SHOWCLOCK_DATA_DIR`;
    default:
      return `cannot create the data directory ${dir} (${code}): create it and give the service user write access, or set SHOWCLOCK_DATA_DIR`;
  }
}

/** Checks the data directory and makes it when missing; never throws. */
export function checkDataDir(dataDir: string): DataDirState {
  const dir = resolve(dataDir);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTDIR') return { kind: 'unusable', message: cannotCreate(dir, code) };
    if (code !== 'ENOENT') {
      return { kind: 'unusable', message: `cannot reach the data directory ${dir} (${code}): give the service user access to it and the directories above it, or set SHOWCLOCK_DATA_DIR` };
    }
    try {
      mkdirSync(dir, { recursive: true });
    } catch (made) {
      return { kind: 'unusable', message: cannotCreate(dir, errorCode(made)) };
    }
    isDirectory = true;
  }
  if (!isDirectory) {
    return { kind: 'unusable', message: `data directory ${dir} is a file, not a directory: remove it, or set SHOWCLOCK_DATA_DIR to a directory` };
  }
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
  } catch (error) {
    return {
      kind: 'unusable',
      message: `data directory ${dir} cannot be read (${errorCode(error)}): give the service user access (chown -R showclock ${dir}), or set SHOWCLOCK_DATA_DIR`,
    };
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    return { kind: 'read-only', reason: errorCode(error) };
  }
  return { kind: 'writable' };
}
