// Picks up rotated keys at once: `showclock key --rotate-api` replaces keys.json
// by rename, so the data directory is watched (a watch on the file itself would
// follow the old, replaced inode). Event-driven, nothing polls. A half-written
// or missing file keeps the keys in use; a failing watcher is reported and the
// service runs on with the keys it has (a restart then picks up new ones).
import { watch, type FSWatcher } from 'node:fs';
import { KEY_NAMES, KEYS_FILE, readKeys, type FixedKeys, type RoomKeys } from './key-file.js';

export interface KeyWatcherDeps {
  readonly dataDir: string;
  /** Keys fixed by the environment win over the file, as at start. */
  readonly fixed: FixedKeys;
  readonly current: () => RoomKeys;
  readonly onChange: (keys: RoomKeys, rotated: { api: boolean; viewer: boolean; audience: boolean }) => void;
  /** A problem worth a log line: the file unreadable, the watcher broken. */
  readonly onProblem: (message: string, detail: Record<string, unknown>) => void;
}

export class KeyWatcher {
  readonly #deps: KeyWatcherDeps;
  #watcher: FSWatcher | null = null;

  constructor(deps: KeyWatcherDeps) {
    this.#deps = deps;
  }

  start(): void {
    if (this.#watcher !== null) return;
    try {
      this.#watcher = watch(this.#deps.dataDir, { persistent: false }, (_event, filename) => {
        // Some platforms give no name; then any change in the directory is worth a look.
        if (filename === null || filename === KEYS_FILE) this.reload();
      });
    } catch (error) {
      this.#deps.onProblem('cannot watch the data directory: rotated keys take effect after a restart', { code: (error as NodeJS.ErrnoException).code });
      return;
    }
    this.#watcher.on('error', (error: NodeJS.ErrnoException) => {
      this.#deps.onProblem('watching the data directory failed: rotated keys take effect after a restart', { code: error.code });
      this.close();
    });
  }

  /** Reads keys.json and applies it if it holds new keys; safe to call any time. */
  reload(): void {
    const read = readKeys(this.#deps.dataDir);
    // A missing file mid-replace, or damaged by hand: keep serving with the keys we have.
    if (read.kind === 'missing') return;
    if (read.kind === 'damaged' || read.kind === 'unreadable') {
      this.#deps.onProblem(`${KEYS_FILE} ${read.reason}; keeping the keys in use`, { file: KEYS_FILE });
      return;
    }
    const { fixed } = this.#deps;
    const before = this.#deps.current();
    const after: RoomKeys = {
      apiKey: fixed.apiKey ?? read.keys.apiKey,
      viewerKey: fixed.viewerKey ?? read.keys.viewerKey,
      // A file without one (written by an older `showclock key`) keeps the audience key in use.
      audienceKey: fixed.audienceKey ?? read.keys.audienceKey ?? before.audienceKey,
    };
    const rotated = { api: after.apiKey !== before.apiKey, viewer: after.viewerKey !== before.viewerKey, audience: after.audienceKey !== before.audienceKey };
    if (KEY_NAMES.some((name) => after[name] !== before[name])) this.#deps.onChange(after, rotated);
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
  }
}
