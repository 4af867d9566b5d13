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
 * Standard output, one write per turn of the event loop: under load a line per
 * request is a system call per request (a tenth of the CPU of a GET /state, see
 * BENCHMARKS.md), so the lines of one turn go out together. Whatever is still
 * waiting when the process exits (process.exit, an uncaught exception) is
 * written synchronously on the way out. One sink for the process, shared by
 * every logger, so lines keep their order and one exit handler serves all.
 */
export function batchedStdout(): LineSink {
  stdoutSink ??= makeBatchedStdout();
  return stdoutSink;
}

function makeBatchedStdout(): LineSink {
  let pending = '';
  // The terminal that ran `npm start` was closed (EIO), or the pipe's reader left
  // (EPIPE): the lines have nowhere to go, and that must never take the service
  // down, least of all in the middle of its stop. From then on they are dropped.
  let gone = false;
  process.stdout.on('error', () => {
    gone = true;
  });
  const flush = (): void => {
    const text = pending;
    pending = '';
    if (text !== '' && !gone) process.stdout.write(text);
  };
  process.on('exit', () => {
    if (pending === '' || gone) return;
    try {
      writeSync(1, pending);
    } catch {
      // Standard output is gone (closed pipe): nothing left to tell.
    }
    pending = '';
  });
  return {
    write(line: string): void {
      if (pending === '') setImmediate(flush);
      pending += line;
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
