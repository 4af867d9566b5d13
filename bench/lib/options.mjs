// Command-line options of the bench's scripts: `--name=value` gives the value, a
// bare `--name` gives '', and an absent one the fallback.

/** The script's own arguments: those before a `--` (what follows is for the Node it starts). */
export function ownArgs(argv = process.argv.slice(2)) {
  const dashes = argv.indexOf('--');
  return dashes === -1 ? argv : argv.slice(0, dashes);
}

/** What follows a `--`, if anything. */
export function argsAfterDashes(argv = process.argv.slice(2)) {
  const dashes = argv.indexOf('--');
  return dashes === -1 ? [] : argv.slice(dashes + 1);
}

/**
 * @param {string} name
 * @param {string} [fallback]
 * @returns {string | undefined}
 */
export function option(name, fallback, args = ownArgs()) {
  const arg = args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (arg === undefined) return fallback;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : '';
}
