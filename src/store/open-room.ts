// Start-up: the room to serve, from the state file when there is a good one,
// else a fresh room; saved once (with a fresh seq reserve) before serving, or
// served from memory when the data directory cannot be written.
import type { Clock } from '../app/clock.js';
import { createRoom } from '../domain/room.js';
import { boxTimeZone } from '../app/box-time-zone.js';
import type { Room } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { LogoFiles } from './logo-files.js';
import { restoreRoom } from './restore.js';
import type { RoomStore } from './room-store.js';

export async function openRoom(store: RoomStore, deps: { clock: Clock; logger: Logger; newTimerId: () => string; logos?: LogoFiles }): Promise<Room> {
  const { clock, logger } = deps;
  const document = await store.load();
  let room: Room;
  if (document === null) {
    room = createRoom(deps.newTimerId(), boxTimeZone());
    logger.info({ file: store.file }, 'no saved room: starting with a fresh room');
  } else {
    const restored = restoreRoom(document, { monoMs: clock.monoMs(), wallMs: clock.wallMs() });
    room = restored.room;
    const summary = { file: store.file, seq: room.seq, timers: room.timers.length, running: room.transport.running, downMs: restored.downMs };
    if (restored.warning !== null) logger.warn(summary, `restored the room, but ${restored.warning}`);
    else logger.info(summary, 'restored the room from the state file');
    const started = restored.scheduled.started;
    if (started !== null) {
      logger.info(
        { timerId: started.timerId, scheduledAt: new Date(started.scheduledAt).toISOString() },
        'a scheduled start fell due while the box was off: that timer is active and running, its end where it would have been (scheduledAt + duration)',
      );
    }
  }
  // Logo files the room does not name go; a logo whose file is gone is shown as none.
  if (deps.logos !== undefined) room = await deps.logos.reconcile(room);
  return store.start(room, { restored: document !== null });
}
