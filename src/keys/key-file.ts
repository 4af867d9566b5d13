// The room's three keys (API, viewer, audience), in their own file (mode 0600) beside the state, so a
// damaged state file never loses them. Generated at first start: 192 random
// bits each, base64url, so they are safe in a URL path.
//
// Keys are never destroyed: a keys.json that cannot be read stops the start
// (DataDirError, exit 73) and is left as it is; a damaged one is kept aside as
// keys.damaged-<time>.json before new keys are made; temp files of a write that
// was cut off (they hold both keys) are removed; a file open to other users is
// set back to 0600.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from '../schema/zod.js';
import { isTempFileOf, syncPathSync } from '../store/atomic-file.js';
import { checkDataDir, DataDirError, errorCode } from '../store/data-dir.js';

export const KEYS_FILE = 'keys.json';

export interface RoomKeys {
  readonly apiKey: string;
  readonly viewerKey: string;
  /** Only submits audience questions (/ask/{audience_key}): it reads and changes nothing else. */
  readonly audienceKey: string;
}

/** Keys set in the environment, which win over keys.json. */
export type FixedKeys = { readonly [K in keyof RoomKeys]: string | undefined };

export const KEY_NAMES = ['apiKey', 'viewerKey', 'audienceKey'] as const satisfies readonly (keyof RoomKeys)[];

/** Made for each read (at start, and when the file changes): not held by an idle box. */
const keysFileSchema = () =>
  z.object({
    version: z.literal(1),
    apiKey: z.string().check(z.minLength(16)),
    viewerKey: z.string().check(z.minLength(16)),
    // Files written before audience questions have none: one is made and saved at start.
    audienceKey: z.optional(z.string().check(z.minLength(16))),
  });

/** What keys.json holds; a file from before audience questions has no audience key. */
type StoredKeys = Omit<RoomKeys, 'audienceKey'> & { readonly audienceKey?: string };

export function generateKey(): string {
  return randomBytes(24).toString('base64url');
}

export function keysPath(dataDir: string): string {
  return join(dataDir, KEYS_FILE);
}

export type KeysRead =
  | { readonly kind: 'ok'; readonly keys: StoredKeys }
  | { readonly kind: 'missing' }
  /** Read, but not a keys file: it may be kept aside and replaced. */
  | { readonly kind: 'damaged'; readonly reason: string }
  /** Could not be read (EACCES, EISDIR, EIO...): it may still hold good keys, so it is never replaced. */
  | { readonly kind: 'unreadable'; readonly code: string; readonly reason: string };

function readKeysFile(file: string): { read: KeysRead; mode?: number } {
  let text: string;
  let mode: number;
  try {
    const fd = openSync(file, 'r');
    try {
      mode = fstatSync(fd).mode;
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { read: { kind: 'missing' } };
    return { read: { kind: 'unreadable', code, reason: `cannot be read (${code})` } };
  }
  try {
    const parsed = keysFileSchema().safeParse(JSON.parse(text));
    if (!parsed.success) return { read: { kind: 'damaged', reason: 'not a keys file of version 1' }, mode };
    const { apiKey, viewerKey, audienceKey } = parsed.data;
    return { read: { kind: 'ok', keys: audienceKey === undefined ? { apiKey, viewerKey } : { apiKey, viewerKey, audienceKey } }, mode };
  } catch {
    return { read: { kind: 'damaged', reason: 'not valid JSON' }, mode };
  }
}

export function readKeys(dataDir: string): KeysRead {
  return readKeysFile(keysPath(dataDir)).read;
}

/**
 * Atomic write: temp file (0600), fsync, rename, fsync the directory. A failure
 * removes the temp file (it holds both keys) and is a DataDirError naming the file.
 */
export function writeKeys(dataDir: string, keys: RoomKeys): void {
  const target = resolve(keysPath(dataDir));
  const temp = `${target}.tmp-${process.pid}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, `${JSON.stringify({ version: 1, ...keys }, null, 2)}\n`, { mode: 0o600 });
    syncPathSync(temp);
    renameSync(temp, target);
    syncPathSync(dirname(target));
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Not made, or already renamed.
    }
    const code = errorCode(error);
    throw new DataDirError(`cannot save the keys in ${target} (${code}): make ${dirname(target)} writable for the service user${code === 'ENOSPC' ? ' and free some space on it' : ''}`, target);
  }
}

/** How loadOrCreateKeys tells what it did or found; one line each, never a key. */
export type KeysReport = (level: 'error' | 'warn' | 'info', message: string, detail: { readonly path: string; readonly [field: string]: unknown }) => void;

/** A file name stamp without characters some file systems refuse. */
function stamp(wallMs: number): string {
  return new Date(wallMs).toISOString().replace(/[:.]/g, '-');
}

function unreadableMessage(file: string, code: string): string {
  switch (code) {
    case 'EISDIR':
      return `${file} is a directory, not the keys file: move it away and start again (new keys are made then)`;
    case 'EACCES':
    case 'EPERM':
      return `${file} cannot be read (${code}): give the service user read access (chown showclock ${file}); the keys are not replaced`;
    default:
      return `${file} cannot be read (${code}): check the file and the storage it is on; the keys are not replaced`;
  }
}

/** Removes temp files of keys.json that a cut-off write left (they hold both keys); returns their names. */
function removeLeftoverTemps(file: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dirname(file))) {
    if (!isTempFileOf(file, name)) continue;
    try {
      unlinkSync(join(dirname(file), name));
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: it is never read either way.
    }
  }
  return removed;
}

function fixMode(file: string, mode: number, report: KeysReport): void {
  const octal = (mode & 0o777).toString(8).padStart(4, '0');
  try {
    chmodSync(file, 0o600);
    report('warn', `${file} was open to other users (mode ${octal}): set it to 0600`, { path: file });
  } catch (error) {
    report('warn', `${file} is open to other users (mode ${octal}) and could not be set to 0600 (${errorCode(error)}): run chmod 600 ${file}`, { path: file });
  }
}

/**
 * The keys to use at start (and for `showclock key`): from the file, generated
 * and written on first start, or fixed by the environment. Throws DataDirError
 * (exit 73) when the data directory or keys.json cannot be used, leaving every
 * file as it is. A read-only data directory is fine as long as nothing has to be
 * saved: keys from the file or the environment are used, with a warning.
 */
export function loadOrCreateKeys(dataDir: string, fixed: FixedKeys, report: KeysReport = () => {}): RoomKeys {
  const dir = resolve(dataDir);
  const state = checkDataDir(dir);
  if (state.kind === 'unusable') throw new DataDirError(state.message, dir);
  const file = keysPath(dir);
  if (state.kind === 'writable') {
    const removed = removeLeftoverTemps(file);
    if (removed.length > 0) report('info', `removed temp files of ${file} left by a write that was cut off`, { path: file, files: removed });
  }

  const { read, mode } = readKeysFile(file);
  if (read.kind === 'unreadable') throw new DataDirError(unreadableMessage(file, read.code), file);
  if (mode !== undefined && (mode & 0o077) !== 0) fixMode(file, mode, report);

  const stored = read.kind === 'ok' ? read.keys : undefined;
  const keys: RoomKeys = {
    apiKey: fixed.apiKey ?? stored?.apiKey ?? generateKey(),
    viewerKey: fixed.viewerKey ?? stored?.viewerKey ?? generateKey(),
    audienceKey: fixed.audienceKey ?? stored?.audienceKey ?? generateKey(),
  };
  // A key made here exists nowhere else: it must be saved, or the start fails. The
  // audience key is the exception on a read-only directory whose keys.json predates
  // it: questions then work with a key that is new at every start, said in the warning.
  const generated = (['apiKey', 'viewerKey'] as const).some((name) => fixed[name] === undefined && stored?.[name] === undefined);
  const audienceUnsaved = fixed.audienceKey === undefined && stored?.audienceKey === undefined;
  const changed = KEY_NAMES.some((name) => stored?.[name] !== keys[name]);

  if (state.kind === 'read-only') {
    if (generated) {
      throw new DataDirError(
        read.kind === 'damaged'
          ? `${file} is damaged (${read.reason}) and the data directory is read-only (${state.reason}), so it cannot be kept aside and new keys cannot be saved: make ${dir} writable for the service user; the file is left as it is`
          : `data directory ${dir} is read-only (${state.reason}) and holds no keys.json, so new keys cannot be saved: make it writable for the service user, or set SHOWCLOCK_API_KEY, SHOWCLOCK_VIEWER_KEY and SHOWCLOCK_AUDIENCE_KEY`,
        read.kind === 'damaged' ? file : dir,
      );
    }
    const fromEnvironment = KEY_NAMES.some((name) => fixed[name] !== undefined && stored?.[name] !== fixed[name]);
    const what = !fromEnvironment
      ? `the keys in ${file} are used`
      : `the keys from the environment are used but not saved in ${file}${read.kind === 'damaged' ? `, which is damaged (${read.reason}) and left as it is` : ''}`;
    const audience = audienceUnsaved ? '; the audience link (questions) has a key that is new at every start until then, or set SHOWCLOCK_AUDIENCE_KEY' : '';
    report('warn', `data directory ${dir} is read-only (${state.reason}): ${what}; nothing is saved there until it is writable${audience}`, { path: dir });
    return keys;
  }
  if (!changed) return keys;

  if (read.kind === 'damaged') {
    const kept = join(dir, `keys.damaged-${stamp(Date.now())}.json`);
    try {
      renameSync(file, kept);
    } catch (error) {
      throw new DataDirError(`${file} is damaged (${read.reason}) and cannot be kept aside (${errorCode(error)}): move it away by hand and start again; it is not overwritten`, file);
    }
    const made = generated ? 'made new keys: run `npm run key` for the new links (button panels need the new API key)' : 'saved the keys from the environment';
    report('error', `${file} is damaged (${read.reason}): kept it as ${kept} and ${made}`, { path: file, keptAs: kept });
  }
  // New keys beside a room that was saved before: keys.json was lost (the service writes it back
  // while running, but not after a crash that came first). Said loudly: every panel needs the new key.
  if (read.kind === 'missing' && generated && existsSync(join(dir, 'room.json'))) {
    report('error', `${file} is missing, but the data directory holds a saved room: made new keys; run \`npm run key\` for the new links (button panels and bookmarks need the new API key)`, { path: file });
  }
  try {
    // Environment keys are written too, so `npm run key` prints what the service uses.
    writeKeys(dir, keys);
  } catch (error) {
    if (generated || !(error instanceof DataDirError)) throw error;
    const used = audienceUnsaved ? 'the keys in use are kept; the audience link (questions) has a key that is new at every start until it can be saved' : 'the keys from the environment are used';
    report('warn', `${error.message}; ${used}`, { path: file });
  }
  return keys;
}
