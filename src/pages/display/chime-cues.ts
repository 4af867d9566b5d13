// When the display chimes: at zero (endAt) and at the warning threshold (endAt -
// warnAt) of a running countdown when the room's settings ask for it, and at a
// test chime's instant (chimeTestAt). Pure: the page asks, at each redraw,
// which cues fell between the previous redraw and now, on the server's timeline.
import type { Snapshot } from '../../domain/snapshot.js';
import type { ChimeKind } from './chime.js';

export interface Cue {
  readonly at: number;
  readonly kind: ChimeKind;
}

export type CueState = Pick<Snapshot, 'running' | 'endAt' | 'warnAt' | 'activeTimerId' | 'timers'> & {
  readonly settings?: Partial<Pick<Snapshot['settings'], 'chimeAtZero' | 'chimeAtWarning'>>;
  readonly chimeTestAt?: number | null;
};

/** A cue later than this is not played: a page that slept through it stays quiet. */
export const CUE_LATE_MS = 1_000;

export function cuesOf(state: CueState): Cue[] {
  const cues: Cue[] = [];
  if (state.chimeTestAt !== undefined && state.chimeTestAt !== null) cues.push({ at: state.chimeTestAt, kind: 'test' });
  const settings = state.settings;
  if (settings === undefined || !state.running || state.endAt === null) return cues;
  const timer = state.timers.find((t) => t.id === state.activeTimerId);
  // A time of day has no zero.
  if (timer !== undefined && timer.appearance === 'clock') return cues;
  if (settings.chimeAtZero === true) cues.push({ at: state.endAt, kind: 'zero' });
  if (settings.chimeAtWarning === true && state.warnAt > 0) cues.push({ at: state.endAt - state.warnAt, kind: 'warning' });
  return cues;
}

/** The cues due in (sinceMs, nowMs], not too late, each once (by kind and instant). */
export function dueCues(cues: readonly Cue[], sinceMs: number, nowMs: number, played: Set<string>): Cue[] {
  const due: Cue[] = [];
  for (const cue of cues) {
    const key = `${cue.kind}@${cue.at}`;
    if (cue.at > sinceMs && cue.at <= nowMs && nowMs - cue.at < CUE_LATE_MS && !played.has(key)) {
      played.add(key);
      due.push(cue);
    }
  }
  return due;
}

/** The next cue after `nowMs`, so the page redraws (and chimes) exactly then. */
export function nextCueAt(cues: readonly Cue[], nowMs: number): number | null {
  let next: number | null = null;
  for (const cue of cues) if (cue.at > nowMs && (next === null || cue.at < next)) next = cue.at;
  return next;
}
