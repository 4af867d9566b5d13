// The schedule as a page shows it: derived from the newest snapshot at the page's
// estimate of the server's time, never the device's clock, so it follows the clock
// between events (the push streams carry no schedule). Before any estimate, the
// snapshot's own moment. Pure: the estimate comes in.
import { scheduleOf, type Schedule, type ScheduleInput } from '../domain/schedule.js';

export function scheduleAtEstimate(snapshot: ScheduleInput & { readonly serverNow: number }, estimatedServerNowMs: number | null): Schedule {
  return scheduleOf(snapshot, estimatedServerNowMs === null ? snapshot.serverNow : estimatedServerNowMs);
}
