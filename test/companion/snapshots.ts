// Snapshots for the module's unit tests, made by the service's own domain code
// (toSnapshot), with plain numbers for time: WALL is the server's wall clock at
// the snapshot, MONO its monotonic clock.
import { createRoom, newTimer } from '../../src/domain/room.js';
import { toSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import type { Actual, Appearance, AuxAppearance, Message, Question, QuestionState, Room, TallyReports, ZeroBehavior } from '../../src/domain/types.js';

export const WALL = Date.UTC(2025, 5, 1, 9, 0, 0);
const MONO = 50_000;

export interface SnapshotOptions {
  readonly remainingMs?: number;
  readonly running?: boolean;
  /** The active timer has run since it was made active; by default running, or paused with time gone. */
  readonly started?: boolean;
  readonly duration?: number;
  readonly warnAt?: number;
  readonly appearance?: Appearance;
  readonly zero?: ZeroBehavior;
  readonly timers?: number;
  /** 0-based index of the active timer. */
  readonly active?: number;
  readonly message?: Message | null;
  readonly blackout?: boolean;
  readonly onAir?: boolean;
  readonly autoAdvance?: boolean;
  readonly seq?: number;
  /** The room's audience questions; the snapshot's `shownQuestion` follows from them. */
  readonly questions?: readonly Question[];
  /** When the show is planned to begin (wall ms); none by default. */
  readonly plannedStart?: number | null;
  /** What actually happened (wall ms); nothing by default. */
  readonly actuals?: readonly Actual[];
  /** The second timer; paused at its default (5:00) otherwise. */
  readonly aux?: AuxOptions;
  /** What the tally sources last said; none heard by default (the snapshot's `tally` is null). */
  readonly tally?: TallyReports;
}

export interface AuxOptions {
  readonly label?: string;
  readonly duration?: number;
  readonly appearance?: AuxAppearance;
  readonly running?: boolean;
  /** At WALL; its duration by default. */
  readonly remainingMs?: number;
}

/** An audience question as the room keeps it. */
export function question(id: string, state: QuestionState, text = `Question ${id}?`, name = '', nameShown = false): Question {
  return { id, text, name, receivedAt: WALL - 60_000, state, nameShown };
}

/**
 * The snapshot as a box from before audience questions sends it: no `questions`,
 * no `shownQuestion`. Cast: the Snapshot type says a box always sends them.
 */
export function olderBox(s: Snapshot): Snapshot {
  const { questions: _questions, shownQuestion: _shown, ...rest } = s;
  return rest as Snapshot;
}

/** A room of `timers` timers (ids t1, t2, …; labels `Talk N`, speakers `Speaker N`), as a snapshot taken at WALL. */
export function snapshot(opts: SnapshotOptions = {}): Snapshot {
  const base = createRoom('t1');
  const count = opts.timers ?? 3;
  const timers = Array.from({ length: count }, (_, i) => ({
    ...newTimer(`t${i + 1}`, { label: `Talk ${i + 1}`, speaker: `Speaker ${i + 1}` }, i + 1),
    duration: opts.duration ?? 600_000,
    warnAt: opts.warnAt ?? 60_000,
    appearance: opts.appearance ?? 'countdown',
  }));
  const remainingMs = opts.remainingMs ?? opts.duration ?? 600_000;
  const room: Room = {
    ...base,
    seq: opts.seq ?? 7,
    timers,
    activeTimerId: `t${(opts.active ?? 0) + 1}`,
    transport: opts.running === true ? { running: true, endMonoMs: MONO + remainingMs } : { running: false, remainingMs },
    // Run since it was made active: running, or paused with time gone (say so for any other case).
    started: opts.started ?? (opts.running === true || remainingMs < (opts.duration ?? 600_000)),
    message: opts.message ?? null,
    blackout: opts.blackout ?? false,
    onAir: opts.onAir ?? false,
    settings: { ...base.settings, zeroBehavior: opts.zero ?? 'continue', autoAdvance: opts.autoAdvance ?? false, plannedStart: opts.plannedStart ?? null },
    questions: opts.questions ?? [],
    actuals: opts.actuals ?? [],
    aux: auxOf(base.aux, opts.aux),
    tally: opts.tally ?? base.tally,
  };
  return toSnapshot(room, MONO, WALL);
}

function auxOf(base: Room['aux'], opts: AuxOptions | undefined): Room['aux'] {
  if (opts === undefined) return base;
  const duration = opts.duration ?? base.duration;
  const remainingMs = opts.remainingMs ?? duration;
  return {
    label: opts.label ?? base.label,
    duration,
    appearance: opts.appearance ?? base.appearance,
    transport: opts.running === true ? { running: true, endMonoMs: MONO + remainingMs } : { running: false, remainingMs },
  };
}
