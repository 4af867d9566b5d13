// The header every answer carries while the room is not being saved: added by the
// request log for every request (src/http/app.ts), and again by the answer to a
// command, as the save may have failed or recovered meanwhile (src/api/api-routes.ts).
import type { StorageHealth } from '../store/room-store.js';

/** Exposed to browsers too (CORS), so the console can read it from any answer. */
export const STORAGE_HEADER = 'Showclock-Storage';

/** Every answer says loudly when the room is not being saved; nothing at all when it is. */
export function storageHeader(health: StorageHealth): Record<string, string> {
  if (health.saving) return {};
  // Header values are ASCII: a path or message with other characters must not break the answer.
  const problem = health.problem.replace(/[^\x20-\x7e]/g, '?');
  return { [STORAGE_HEADER]: `failing; the room is not being saved: ${problem}`, 'Access-Control-Expose-Headers': STORAGE_HEADER };
}
