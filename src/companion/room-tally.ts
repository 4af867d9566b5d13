// What the keys show of the tally (issue 32): whether the vision mixer or OBS says
// the room is on air, beside ON AIR itself (which a press can override until the
// tally next changes). Pure. A box older than tally in sends no `tally`, and a box
// with no tally source configured (or none heard since it started) sends null:
// both read as "none", so a key can tell "no tally here" from "tally says off".
import type { Snapshot } from '../domain/snapshot.js';
import { TALLY_SOURCES, type TallySource } from '../domain/types.js';

export type TallyWord = 'on' | 'off' | 'none';

export interface RoomTally {
  readonly word: TallyWord;
  /**
   * The sources that decide it, as the console lists them: while on, those that say
   * on; while off, every source heard (all say off); none while there is no tally.
   */
  readonly sources: readonly TallySource[];
}

const NO_TALLY: RoomTally = { word: 'none', sources: [] };

/** The Snapshot type says a box always sends `tally`; an older one does not, and the wire is read as it comes. */
type TallyField = { readonly tally?: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function tallyOf(state: Snapshot): RoomTally {
  const { tally }: TallyField = state;
  if (!isRecord(tally) || typeof tally.on !== 'boolean') return NO_TALLY;
  const reports = isRecord(tally.sources) ? tally.sources : {};
  const on = tally.on;
  // The known sources in their fixed order; a source a later box adds is not named, but its `on` still counts.
  const sources = TALLY_SOURCES.filter((source) => (on ? reports[source] === true : typeof reports[source] === 'boolean'));
  return { word: on ? 'on' : 'off', sources };
}
