// v0 is frozen (decisions.md): its answers carry the snapshot as it was before the
// schedule and the aux timer (issue 29), byte for byte: no `started`, `actuals`, `aux`, `tally`, `screen` or
// `schedule`, no `plannedStart` in the settings and none of the display switches
// that came with them. The fields keep their places, so the text is what v0 answered before.
import type { Snapshot } from '../domain/snapshot.js';
import type { DisplaySettings, Settings } from '../domain/types.js';

export type V0Settings = Omit<Settings, 'plannedStart'>;
export type V0Display = Omit<DisplaySettings, 'showOverUnder' | 'showShowEnd' | 'showAux'>;
export type V0Snapshot = Omit<Snapshot, 'started' | 'actuals' | 'aux' | 'tally' | 'screen' | 'schedule' | 'settings' | 'display'> & {
  readonly settings: V0Settings;
  readonly display: V0Display;
};

// Kept by the room's own object: the room replaces it on a change and never edits it in place,
// so the projection is made once per change, and the snapshot's JSON text (which is kept by
// identity, snapshot-json.ts) is reused for v0 as it is for v1.
const settingsSeen = new WeakMap<Settings, V0Settings>();
const displaySeen = new WeakMap<DisplaySettings, V0Display>();

function v0Settings(settings: Settings): V0Settings {
  let kept = settingsSeen.get(settings);
  if (kept === undefined) {
    const { plannedStart: _plannedStart, ...rest } = settings;
    kept = rest;
    settingsSeen.set(settings, kept);
  }
  return kept;
}

function v0Display(display: DisplaySettings): V0Display {
  let kept = displaySeen.get(display);
  if (kept === undefined) {
    const { showOverUnder: _overUnder, showShowEnd: _showEnd, showAux: _aux, ...rest } = display;
    kept = rest;
    displaySeen.set(display, kept);
  }
  return kept;
}

export function v0Snapshot(snapshot: Snapshot): V0Snapshot {
  const { started: _started, actuals: _actuals, aux: _aux, tally: _tally, screen: _screen, schedule: _schedule, ...rest } = snapshot;
  // Given again, a field keeps its place in the object, so the JSON's order is the snapshot's.
  return { ...rest, settings: v0Settings(snapshot.settings), display: v0Display(snapshot.display) };
}
