// The log lines for what time did by itself: a timer that started at its
// scheduled instant, one whose instant passed without it, a wall-clock step.
// Said in words, since a stage manager reads them to learn why the room changed.
import type { Logger } from '../log/logger.js';
import type { TimeNotice } from './room-service.js';

export function logTimeNotice(logger: Logger, notice: TimeNotice): void {
  switch (notice.kind) {
    case 'scheduled-start':
      logger.info(
        { timerId: notice.timerId, scheduledAt: new Date(notice.scheduledAt).toISOString(), seq: notice.seq },
        'scheduled start: the timer became active and started at its scheduled time',
      );
      return;
    case 'scheduled-start-missed':
      logger.warn(
        { timerId: notice.timerId, scheduledAt: new Date(notice.scheduledAt).toISOString() },
        'scheduled start passed without starting: the timer would already have reached zero (the wall clock stepped over it), ' +
          'or a later scheduled start came due at the same moment; the room was left as it was',
      );
      return;
    case 'wall-clock-step':
      logger.warn(
        { stepMs: notice.stepMs },
        'the wall clock stepped (network time?): scheduled starts were re-armed at their wall-clock instants; running timers are not affected',
      );
      return;
    default: {
      const unknown: never = notice;
      throw new Error(`unhandled time notice ${JSON.stringify(unknown)}`);
    }
  }
}
