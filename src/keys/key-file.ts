// The room's two keys, in their own file (mode 0600) beside the state, so a
// damaged state file never loses them. Generated at first start: 192 random
// bits each, base64url, so they are safe in a URL path.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const KEYS_FILE = 'keys.json';

export interface RoomKeys {
  readonly apiKey: string;
  readonly viewerKey: string;
}

const KeysFileSchema = z.object({
  version: z.literal(1),
  apiKey: z.string().min(16),
  viewerKey: z.string().min(16),
});

export function generateKey(): string {
  return randomBytes(24).toString('base64url');
}

export function keysPath(dataDir: string): string {
  return path.join(dataDir, KEYS_FILE);
}

export type KeysRead = { readonly kind: 'ok'; readonly keys: RoomKeys } | { readonly kind: 'missing' } | { readonly kind: 'damaged'; readonly reason: string };

export function readKeys(dataDir: string): KeysRead {
  let text: string;
  try {
    text = readFileSync(keysPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'damaged', reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  try {
    const parsed = KeysFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return { kind: 'damaged', reason: 'not a keys file of version 1' };
    return { kind: 'ok', keys: { apiKey: parsed.data.apiKey, viewerKey: parsed.data.viewerKey } };
  } catch {
    return { kind: 'damaged', reason: 'not valid JSON' };
  }
}

/** Atomic write: temp file (0600), fsync, rename, fsync the directory. */
export function writeKeys(dataDir: string, keys: RoomKeys): void {
  mkdirSync(dataDir, { recursive: true });
  const target = keysPath(dataDir);
  const temp = `${target}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify({ version: 1, ...keys }, null, 2)}\n`, { mode: 0o600 });
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
  const dirFd = openSync(dataDir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * The keys to use: from the file, generated and written on first start, or
 * fixed by the environment. A damaged file is replaced by new keys (reported
 * through `onDamaged`), since the service must start either way.
 */
export function loadOrCreateKeys(
  dataDir: string,
  fixed: { apiKey: string | undefined; viewerKey: string | undefined },
  onDamaged: (reason: string) => void = () => {},
): RoomKeys {
  const read = readKeys(dataDir);
  if (read.kind === 'damaged') onDamaged(read.reason);
  const stored = read.kind === 'ok' ? read.keys : undefined;
  const keys: RoomKeys = {
    apiKey: fixed.apiKey ?? stored?.apiKey ?? generateKey(),
    viewerKey: fixed.viewerKey ?? stored?.viewerKey ?? generateKey(),
  };
  if (stored === undefined || stored.apiKey !== keys.apiKey || stored.viewerKey !== keys.viewerKey) {
    // Environment keys are written too, so `npm run key` prints what the service uses.
    writeKeys(dataDir, keys);
  }
  return keys;
}
