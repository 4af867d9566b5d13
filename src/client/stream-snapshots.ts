// One push stream's snapshots, as its events make them: a `state` event is the
// whole snapshot (the first of every connection), a `patch` event is a delta of
// the one before (src/domain/snapshot-delta.ts). The pages and the Companion
// module read their streams through this, so they all rebuild the same snapshot
// the box has. A patch that does not fit the snapshot held (it never happens with
// the box's own streams) is reported, and the reader opens the stream again for a
// whole one. Kept small: it is in every screen's page (a closure, not a class
// with private fields, which the pages' oldest browsers would need emulated).
import type { PublicSnapshot, Snapshot } from '../domain/snapshot.js';
import { applyDelta, isSnapshotDelta } from '../domain/snapshot-delta.js';

/**
 * Takes each event of one connection (its name and data): the snapshot as it is
 * now; null when a patch cannot be applied (open the stream again); undefined for
 * any other event, or one that cannot be read.
 */
export type StreamSnapshots<S> = (event: string, data: string) => S | null | undefined;

export function streamSnapshots<S extends Snapshot | PublicSnapshot>(isSnapshot: (value: unknown) => value is S): StreamSnapshots<S> {
  let current: S | null = null;
  return (event, data) => {
    const patch = event === 'patch';
    if (!patch && event !== 'state') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return patch ? null : undefined;
    }
    if (!patch) return isSnapshot(value) ? (current = value) : undefined;
    return (current = current === null || !isSnapshotDelta(value) ? null : applyDelta(current, value));
  };
}
