// Shared pieces of the GPIO tests: a real RoomService on a hand-moved clock, a
// logger whose lines the test can read, and a room change recorder.
import { RoomService, type RoomChange } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { FakeClock } from '../helpers/test-app.js';

export interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export const WARN = 40;
export const ERROR = 50;

export function capturingLogger(): { logger: Logger; records: () => LogRecord[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets: () => [], sink: { write: (line) => void lines.push(line) } });
  return { logger, records: () => lines.map((line) => JSON.parse(line) as LogRecord) };
}

export interface Rig {
  readonly clock: FakeClock;
  readonly service: RoomService;
  readonly changes: RoomChange[];
  readonly logger: Logger;
  readonly records: () => LogRecord[];
}

export function rig(room: Room = createRoom('t1')): Rig {
  const clock = new FakeClock();
  const service = new RoomService({ initialRoom: room, clock, scheduler: clock.scheduler });
  service.start();
  const changes: RoomChange[] = [];
  service.subscribe((change) => void changes.push(change));
  const { logger, records } = capturingLogger();
  return { clock, service, changes, logger, records };
}

/** A room of timers t1..tN with the given durations; t1 active, paused. */
export function roomOfDurations(durationsMs: readonly number[], patch: Partial<Room> = {}): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = durationsMs.map((duration, i) => ({ ...first, id: `t${i + 1}`, label: `Timer ${i + 1}`, duration }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: durationsMs[0] ?? 0 }, ...patch };
}
