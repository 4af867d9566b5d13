// Tally in (issue 32): how what the tally sources say moves the ON AIR switch.
// Each source's last report is kept (absent until it first reports); the combined
// tally is on while any source says on. A change of the combined tally sets onAir
// to it, so the lamp follows the vision mixer; a manual onair.set/onair.toggle
// overrides it until the next change of the combined tally. A report that changes
// nothing (TSL repeats its state several times a second) leaves the room as it was,
// so the engine counts no change: no seq step, no push, no log line. The first
// report after a start is a change (unknown to known).
import type { Room, TallyReports, TallySource } from './types.js';
import { TALLY_SOURCES } from './types.js';

/** The combined tally: on when any source says on, off when all that reported say off, null before any report. */
export function combinedTally(reports: TallyReports): boolean | null {
  let heard = false;
  for (const source of TALLY_SOURCES) {
    const on = reports[source];
    if (on === true) return true;
    if (on === false) heard = true;
  }
  return heard ? false : null;
}

/** The room after `source` reported `on`; the same room when that is what the source said last. */
export function reportTally(room: Room, source: TallySource, on: boolean): Room {
  if (room.tally[source] === on) return room;
  const tally: TallyReports = { ...room.tally, [source]: on };
  const before = combinedTally(room.tally);
  const after = combinedTally(tally);
  // Only a change of the combined tally moves the switch: a manual override holds until then.
  return before === after ? { ...room, tally } : { ...room, tally, onAir: after === true };
}

/** The tally as the snapshot carries it: null while no source has reported. */
export interface TallySnapshot {
  readonly on: boolean;
  readonly sources: TallyReports;
}

export function tallySnapshot(reports: TallyReports): TallySnapshot | null {
  const on = combinedTally(reports);
  return on === null ? null : { on, sources: reports };
}
