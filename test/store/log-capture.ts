// A real pino logger whose lines are kept, parsed, for assertions on what was logged.
import { createLogger, type Logger } from '../../src/log/logger.js';

export interface LoggedLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export const LEVEL = { info: 30, warn: 40, error: 50 } as const;

export function captureLog(): { logger: Logger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => lines.push(JSON.parse(line) as LoggedLine) } });
  return { logger, lines };
}
