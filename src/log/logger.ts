// pino, JSON lines on stdout (journald collects them). Request lines carry route
// patterns, never paths, since paths hold keys; as a second guard every line is
// scrubbed of the current keys before it is written.
import { writeSync } from 'node:fs';
import { pino, type Logger } from 'pino';

export type { Logger };

export interface LineSink {
  write(line: string): void;
}

export const REDACTED = '[redacted]';

/**
 * The spellings a secret can have inside a JSON line: as it is, JSON-escaped (a
 * hand-edited keys.json may hold a quote or a backslash) and percent-encoded (in a URL).
 */
function spellings(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

let stdoutSink: LineSink | null = null;

/**
 * How long a line may wait for the ones after it: one write per LOG_FLUSH_MS at
 * most (or per LOG_FLUSH_BYTES), not one per line. A line per request is a system
 * call per request: a tenth of the CPU of a GET /state, and after every command
 * in series (BENCHMARKS.md). 50 ms is no delay anyone reading `journalctl -f` sees.
 */
export const LOG_FLUSH_MS = 50;
/** At most this much waits: a line that would not fit sends what waits at once. */
export const LOG_FLUSH_BYTES = 64 * 1024;

/**
 * Standard output, lines gathered for LOG_FLUSH_MS and written together. Whatever is still
 * waiting when the process exits (process.exit, an uncaught exception) is
 * written synchronously on the way out. One sink for the process, shared by
 * every logger, so lines keep their order and one exit handler serves all.
 */
export function batchedStdout(): LineSink {
  stdoutSink ??= makeBatchedStdout();
  return stdoutSink;
}

function makeBatchedStdout(): LineSink {
  // The lines waiting are kept as bytes in one buffer made at start, not as a
  // string: a string kept for LOG_FLUSH_MS outlives V8's young generation, and
  // with a line per command that was 170 bytes of old-generation garbage per
  // command (bench/gc-promotion.mjs). Each line's string now dies young.
  const waiting = Buffer.allocUnsafe(LOG_FLUSH_BYTES);
  let used = 0;
  // The terminal that ran `npm start` was closed (EIO), or the pipe's reader left
  // (EPIPE): the lines have nowhere to go, and that must never take the service
  // down, least of all in the middle of its stop. From then on they are dropped.
  let gone = false;
  process.stdout.on('error', () => {
    gone = true;
  });
  let timer: NodeJS.Timeout | undefined;
  /** The lines waiting, as a copy: a write to a pipe may still hold it after this returns. */
  const take = (): Buffer | null => {
    if (used === 0) return null;
    const bytes = Buffer.from(waiting.subarray(0, used));
    used = 0;
    return bytes;
  };
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const bytes = take();
    if (bytes !== null && !gone) process.stdout.write(bytes);
  };
  process.on('exit', () => {
    const bytes = take();
    if (bytes === null || gone) return;
    try {
      writeSync(1, bytes);
    } catch {
      // Standard output is gone (closed pipe): nothing left to tell.
    }
  });
  return {
    write(line: string): void {
      const length = Buffer.byteLength(line);
      // No room: what waits goes now, in order, and a line longer than the buffer goes on its own.
      if (used + length > waiting.length) {
        flush();
        if (length > waiting.length) {
          if (!gone) process.stdout.write(line);
          return;
        }
      }
      // Unref'd: a waiting line never holds a stopping process open (the exit handler writes it).
      if (used === 0) timer = setTimeout(flush, LOG_FLUSH_MS).unref();
      used += waiting.write(line, used);
    },
  };
}

export function createLogger(opts: {
  level?: string;
  /** The secrets to scrub, read at every line so rotated keys are covered at once. */
  secrets: () => readonly string[];
  sink?: LineSink;
}): Logger {
  const sink = opts.sink ?? batchedStdout();
  // Spellings of the secrets in use, made once per secret rather than once per line.
  let known = new Map<string, string[]>();
  const formsOf = (secret: string): string[] => {
    let forms = known.get(secret);
    if (forms === undefined) {
      // Rotated keys leave old entries behind: start over rather than grow.
      if (known.size >= 8) known = new Map();
      forms = spellings(secret);
      known.set(secret, forms);
    }
    return forms;
  };
  const destination = {
    write(line: string): void {
      let clean = line;
      for (const secret of opts.secrets()) {
        if (secret.length === 0) continue;
        for (const form of formsOf(secret)) {
          if (clean.includes(form)) clean = clean.split(form).join(REDACTED);
        }
      }
      sink.write(clean);
    },
  };
  return pino({ level: opts.level ?? 'info', base: { service: 'showclock' } }, destination);
}
