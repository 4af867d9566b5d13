// pino, JSON lines on stdout (journald collects them). Request lines carry route
// patterns, never paths, since paths hold keys; as a second guard every line is
// scrubbed of the current keys before it is written.
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

export function createLogger(opts: {
  level?: string;
  /** The secrets to scrub, read at every line so rotated keys are covered at once. */
  secrets: () => readonly string[];
  sink?: LineSink;
}): Logger {
  const sink = opts.sink ?? { write: (line: string) => process.stdout.write(line) };
  const destination = {
    write(line: string): void {
      let clean = line;
      for (const secret of opts.secrets()) {
        if (secret.length === 0) continue;
        for (const form of spellings(secret)) {
          if (clean.includes(form)) clean = clean.split(form).join(REDACTED);
        }
      }
      sink.write(clean);
    },
  };
  return pino({ level: opts.level ?? 'info', base: { service: 'showclock' } }, destination);
}
