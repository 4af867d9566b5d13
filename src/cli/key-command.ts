// `showclock key`: prints the control and viewer links; `--rotate-api` and
// `--rotate-viewer` make new keys. keys.json is replaced atomically, and a
// running service watches for that and uses the new keys at once.
import { EXIT_DATA_DIR, type Config } from '../config/config.js';
import { roomUrls } from '../app/urls.js';
import { generateKey, loadOrCreateKeys, writeKeys } from '../keys/key-file.js';
import { DataDirError } from '../store/data-dir.js';

export function runKeyCommand(config: Config, args: readonly string[]): void {
  try {
    printKeys(config, args);
  } catch (error) {
    // The same clear line and exit code as the service gives at start: nothing is replaced.
    if (!(error instanceof DataDirError)) throw error;
    process.stderr.write(`showclock key: ${error.message}\n`);
    process.exit(EXIT_DATA_DIR);
  }
}

function printKeys(config: Config, args: readonly string[]): void {
  const known = new Set(['--rotate-api', '--rotate-viewer']);
  const unknown = args.filter((arg) => !known.has(arg));
  if (unknown.length > 0) {
    process.stderr.write(`showclock key: unknown option ${unknown.join(' ')}; use --rotate-api and/or --rotate-viewer\n`);
    process.exit(64);
  }
  let keys = loadOrCreateKeys(config.dataDir, { apiKey: config.apiKey, viewerKey: config.viewerKey }, (_level, message) =>
    process.stderr.write(`showclock key: ${message}\n`),
  );
  // The environment wins over keys.json, in the service as here: a key fixed there is not rotated in the file.
  const fixedApi = config.apiKey !== undefined;
  const fixedViewer = config.viewerKey !== undefined;
  if (args.includes('--rotate-api') && fixedApi) {
    process.stderr.write('showclock key: SHOWCLOCK_API_KEY is set in the environment and overrides keys.json; change it there to rotate\n');
  }
  if (args.includes('--rotate-viewer') && fixedViewer) {
    process.stderr.write('showclock key: SHOWCLOCK_VIEWER_KEY is set in the environment and overrides keys.json; change it there to rotate\n');
  }
  const rotateApi = args.includes('--rotate-api') && !fixedApi;
  const rotateViewer = args.includes('--rotate-viewer') && !fixedViewer;
  if (rotateApi || rotateViewer) {
    keys = { apiKey: rotateApi ? generateKey() : keys.apiKey, viewerKey: rotateViewer ? generateKey() : keys.viewerKey };
    writeKeys(config.dataDir, keys);
  }
  const urls = roomUrls(config.host, config.port, keys);
  process.stdout.write(`Control room: ${urls.control}\nViewers:      ${urls.viewer}\nAPI base:     ${urls.api}\n`);
  const running = 'A running service uses it at once';
  if (rotateApi) process.stdout.write(`The API key is new. ${running}: update button panels and bookmarks.\n`);
  if (rotateViewer) process.stdout.write(`The viewer key is new. ${running}: old viewer links stop working.\n`);
}
