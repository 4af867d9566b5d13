// `showclock key`: prints the control and viewer links; `--rotate-api` and
// `--rotate-viewer` make new keys (a running service picks them up from the file).
import type { Config } from '../config/config.js';
import { roomUrls } from '../app/urls.js';
import { generateKey, loadOrCreateKeys, writeKeys } from '../keys/key-file.js';

export function runKeyCommand(config: Config, args: readonly string[]): void {
  const known = new Set(['--rotate-api', '--rotate-viewer']);
  const unknown = args.filter((arg) => !known.has(arg));
  if (unknown.length > 0) {
    process.stderr.write(`showclock key: unknown option ${unknown.join(' ')}; use --rotate-api and/or --rotate-viewer\n`);
    process.exit(64);
  }
  let keys = loadOrCreateKeys(config.dataDir, { apiKey: config.apiKey, viewerKey: config.viewerKey });
  const rotateApi = args.includes('--rotate-api');
  const rotateViewer = args.includes('--rotate-viewer');
  if (rotateApi || rotateViewer) {
    keys = { apiKey: rotateApi ? generateKey() : keys.apiKey, viewerKey: rotateViewer ? generateKey() : keys.viewerKey };
    writeKeys(config.dataDir, keys);
  }
  const urls = roomUrls(config.host, config.port, keys);
  process.stdout.write(`Control room: ${urls.control}\nViewers:      ${urls.viewer}\nAPI base:     ${urls.api}\n`);
  if (rotateApi) process.stdout.write('The API key is new: update button panels and bookmarks.\n');
  if (rotateViewer) process.stdout.write('The viewer key is new: old viewer links stop working.\n');
}
