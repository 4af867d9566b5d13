// `showclock key`: prints the control, viewer and audience links (and the venue overview's, with a venue key); `--rotate-api`,
// `--rotate-viewer` and `--rotate-audience` make new keys. keys.json is replaced atomically, and a
// running service watches for that and uses the new keys at once. A rotation
// that cannot be done changes nothing and exits non-zero with one line on
// stderr, so a script (or a person) never takes an old key for a new one:
// 64 (EX_USAGE) for a key fixed in the environment, 73 (EXIT_DATA_DIR) for a
// data directory or keys.json that cannot be written.
import { EXIT_DATA_DIR, type Config } from '../config/config.js';
import { roomUrls, venueUrl } from '../app/urls.js';
import { generateKey, loadOrCreateKeys, writeKeys } from '../keys/key-file.js';
import { checkDataDir, DataDirError } from '../store/data-dir.js';
import { runningBox } from '../store/serving-file.js';

export const EXIT_USAGE = 64;

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
  const known = new Set(['--rotate-api', '--rotate-viewer', '--rotate-audience']);
  const unknown = args.filter((arg) => !known.has(arg));
  if (unknown.length > 0) {
    process.stderr.write(`showclock key: unknown option ${unknown.join(' ')}; use --rotate-api, --rotate-viewer and/or --rotate-audience\n`);
    process.exit(EXIT_USAGE);
  }
  const rotateApi = args.includes('--rotate-api');
  const rotateViewer = args.includes('--rotate-viewer');
  const rotateAudience = args.includes('--rotate-audience');
  // The environment wins over keys.json, in the service as here: a key fixed there
  // cannot be rotated in the file. All or nothing: with two asked for, neither changes.
  const fixed = [
    ...(rotateApi && config.apiKey !== undefined ? ['SHOWCLOCK_API_KEY'] : []),
    ...(rotateViewer && config.viewerKey !== undefined ? ['SHOWCLOCK_VIEWER_KEY'] : []),
    ...(rotateAudience && config.audienceKey !== undefined ? ['SHOWCLOCK_AUDIENCE_KEY'] : []),
  ];
  if (fixed.length > 0) {
    const which = fixed.length === 1 ? `${fixed.join('')} is` : `${fixed.slice(0, -1).join(', ')} and ${fixed[fixed.length - 1] ?? ''} are`;
    process.stderr.write(`showclock key: not rotated, nothing changed: ${which} set in the environment, which overrides keys.json; change the key there\n`);
    process.exit(EXIT_USAGE);
  }
  const rotating = rotateApi || rotateViewer || rotateAudience;
  if (rotating) {
    // Said here in one line, before the keys are read (which would warn about it first).
    const dir = checkDataDir(config.dataDir);
    if (dir.kind === 'read-only') {
      process.stderr.write(`showclock key: not rotated, nothing changed: data directory ${config.dataDir} is read-only (${dir.reason}): make it writable for the service user\n`);
      process.exit(EXIT_DATA_DIR);
    }
  }
  let keys = loadOrCreateKeys(config.dataDir, { apiKey: config.apiKey, viewerKey: config.viewerKey, audienceKey: config.audienceKey }, (_level, message) =>
    process.stderr.write(`showclock key: ${message}\n`),
  );
  if (rotating) {
    keys = {
      apiKey: rotateApi ? generateKey() : keys.apiKey,
      viewerKey: rotateViewer ? generateKey() : keys.viewerKey,
      audienceKey: rotateAudience ? generateKey() : keys.audienceKey,
    };
    try {
      writeKeys(config.dataDir, keys);
    } catch (error) {
      if (!(error instanceof DataDirError)) throw error;
      // keys.json is replaced atomically or not at all: the old keys still hold.
      throw new DataDirError(`not rotated, nothing changed: ${error.message}`, error.path);
    }
  }
  // The box as it runs, when it does (its PORT may not be this shell's); else the config's.
  const running = runningBox(config.dataDir);
  const urls = roomUrls(running?.host ?? config.host, running?.port ?? config.port, keys, config.publicUrl);
  process.stdout.write(`Control room: ${urls.control}\nViewers:      ${urls.viewer}\nAudience:     ${urls.audience}\nAPI base:     ${urls.api}\n`);
  if (config.venue.key !== undefined) {
    process.stdout.write(`Venue:        ${venueUrl(running?.host ?? config.host, running?.port ?? config.port, config.venue.key, config.publicUrl)}\n`);
  }
  if (running !== null && running.port !== config.port) {
    process.stdout.write(`(The box running now, process ${running.pid}, serves on port ${running.port}; the config says ${config.port}.)\n`);
  } else if (running === null) {
    process.stdout.write(`(No box is running from ${config.dataDir} now: these are the links for port ${config.port}, as configured.)\n`);
  }
  const atOnce = 'A running service uses it at once';
  if (rotateApi) process.stdout.write(`The API key is new. ${atOnce}: update button panels and bookmarks.\n`);
  if (rotateViewer) process.stdout.write(`The viewer key is new. ${atOnce}: old viewer links stop working.\n`);
  if (rotateAudience) process.stdout.write(`The audience key is new. ${atOnce}: old question links and QR codes stop working.\n`);
}
