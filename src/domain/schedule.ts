// The schedule (issue 29): "are we on time, and when do we finish". Derived, never
// stored: from the running order (durations, hard starts `scheduledAt`, times of
// day `endsAt`), the room's `plannedStart`, the actual times the engine recorded,
// and where the active timer stands. One implementation for the API, Companion,
// OSC and the pages: its input is what every snapshot carries, and the moment is
// passed in (the server's wall clock, or a page's estimate of it), never read here.
// Every instant is wall-clock ms since the epoch; times of day are the caller's to show.
import type { Actual, Timer } from './types.js';

/** What the schedule is made from: the fields of a snapshot of the same names. */
export interface ScheduleInput {
  readonly timers: readonly Pick<Timer, 'id' | 'duration' | 'scheduledAt' | 'endsAt'>[];
  readonly activeTimerId: string;
  readonly settings: { readonly plannedStart: number | null };
  readonly actuals: readonly Actual[];
  readonly running: boolean;
  /** Running: the active timer's end on the wall clock. */
  readonly endAt: number | null;
  /** Paused: what the active timer has left (negative in overrun). */
  readonly remainingAtPause: number | null;
}

export interface ScheduledTimer {
  readonly id: string;
  /** Its own `scheduledAt` (a hard start), else the planned end of the one before; the first's is the show's planned start. Null while unknown. */
  readonly plannedStart: number | null;
  /** `endsAt` where set, else planned start + duration. */
  readonly plannedEnd: number | null;
  readonly actualStart: number | null;
  readonly actualEnd: number | null;
  /** For the active timer and those after it; null for the ones before (they have happened, or were skipped). */
  readonly projectedStart: number | null;
  readonly projectedEnd: number | null;
}

export interface Schedule {
  /** `plannedStart` of the room, or (without one) the first actual start: the first timer's planned start. */
  readonly plannedStart: number | null;
  /** The last timer's planned end, or null while unknown. */
  readonly plannedEnd: number | null;
  /** The last timer's projected end: when the show finishes as things stand. */
  readonly projectedEnd: number;
  /** The active timer's projected end minus its planned end: positive is late (behind), negative early (ahead); null while its planned end is unknown. */
  readonly offset: number | null;
  /** The sum of every timer's duration: the running time of the order. */
  readonly totalDuration: number;
  /** The planned start of the timer after the active one, or null (none, or unknown). */
  readonly nextPlannedStart: number | null;
  readonly timers: readonly ScheduledTimer[];
}

interface Planned {
  readonly start: number | null;
  readonly end: number | null;
}

function plannedTimes(input: ScheduleInput, showStart: number | null): Planned[] {
  const planned: Planned[] = [];
  let previousEnd: number | null = showStart;
  for (const timer of input.timers) {
    const start = timer.scheduledAt ?? previousEnd;
    const end = timer.endsAt ?? (start === null ? null : start + timer.duration);
    planned.push({ start, end });
    previousEnd = end;
  }
  return planned;
}

function earliestStart(actuals: readonly Actual[]): number | null {
  let earliest: number | null = null;
  for (const actual of actuals) if (earliest === null || actual.startedAt < earliest) earliest = actual.startedAt;
  return earliest;
}

/**
 * Where the active timer starts and ends as things stand at `nowMs`:
 * - on (running, or paused part-way): from its actual start to now plus what it has
 *   left; in overrun, or paused, its end is now at the earliest and moves with the clock;
 * - done (stopped at zero, its end recorded): its actual times;
 * - not begun: it starts now at the earliest, not before its hard start, nor before
 *   the show's planned start while nothing has run yet; it ends its remaining time
 *   later (a countdown to a time of day, at that time).
 */
function activeProjection(input: ScheduleInput, timer: ScheduleInput['timers'][number], actual: Actual | undefined, nowMs: number): Planned {
  const remaining = input.running ? (input.endAt ?? nowMs) - nowMs : (input.remainingAtPause ?? timer.duration);
  if (input.running || (actual !== undefined && actual.endedAt === null)) {
    return { start: actual?.startedAt ?? null, end: nowMs + Math.max(0, remaining) };
  }
  if (actual !== undefined && actual.endedAt !== null && remaining <= 0) return { start: actual.startedAt, end: actual.endedAt };
  const notBefore = timer.scheduledAt ?? (input.actuals.length === 0 ? input.settings.plannedStart : null) ?? nowMs;
  const start = Math.max(nowMs, notBefore);
  const end = timer.endsAt === null ? start + Math.max(0, remaining) : Math.max(timer.endsAt, start);
  return { start, end };
}

const ROW_FIELDS = ['plannedStart', 'plannedEnd', 'actualStart', 'actualEnd', 'projectedStart', 'projectedEnd'] as const;

/** The same schedule, value for value: cheaper than a generic deep compare (a row per timer, all numbers). */
export function sameSchedule(a: Schedule, b: Schedule): boolean {
  if (
    a.plannedStart !== b.plannedStart ||
    a.plannedEnd !== b.plannedEnd ||
    a.projectedEnd !== b.projectedEnd ||
    a.offset !== b.offset ||
    a.totalDuration !== b.totalDuration ||
    a.nextPlannedStart !== b.nextPlannedStart ||
    a.timers.length !== b.timers.length
  ) {
    return false;
  }
  for (let i = 0; i < a.timers.length; i += 1) {
    const x = a.timers[i] as ScheduledTimer;
    const y = b.timers[i] as ScheduledTimer;
    if (x.id !== y.id) return false;
    for (let f = 0; f < ROW_FIELDS.length; f += 1) {
      const field = ROW_FIELDS[f] as (typeof ROW_FIELDS)[number];
      if (x[field] !== y[field]) return false;
    }
  }
  return true;
}

export function scheduleOf(input: ScheduleInput, nowMs: number): Schedule {
  const showStart = input.settings.plannedStart ?? earliestStart(input.actuals);
  const planned = plannedTimes(input, showStart);
  // Most rooms have none or a few: a map only when a lookup per timer would cost more.
  const actualOf = input.actuals.length > 8 ? new Map(input.actuals.map((a) => [a.timerId, a])) : null;
  const findActual = (id: string): Actual | undefined => (actualOf === null ? input.actuals.find((a) => a.timerId === id) : actualOf.get(id));
  const activeIndex = input.timers.findIndex((t) => t.id === input.activeTimerId);
  const rows: ScheduledTimer[] = [];
  let previousEnd = nowMs;
  let totalDuration = 0;
  // Page code too: no destructuring (esbuild targets old browsers).
  for (let index = 0; index < input.timers.length; index += 1) {
    const timer = input.timers[index] as ScheduleInput['timers'][number];
    totalDuration += timer.duration;
    const actual = findActual(timer.id);
    let projected: Planned = { start: null, end: null };
    if (index === activeIndex) {
      projected = activeProjection(input, timer, actual, nowMs);
    } else if (index > activeIndex) {
      // Nothing after the active timer starts before now, before the one before it ends, or before its own hard start.
      const start = Math.max(previousEnd, nowMs, timer.scheduledAt ?? previousEnd);
      projected = { start, end: timer.endsAt === null ? start + timer.duration : Math.max(timer.endsAt, start) };
    }
    if (projected.end !== null) previousEnd = projected.end;
    const plan = planned[index] as Planned;
    rows.push({
      id: timer.id,
      plannedStart: plan.start,
      plannedEnd: plan.end,
      actualStart: actual?.startedAt ?? null,
      actualEnd: actual?.endedAt ?? null,
      projectedStart: projected.start,
      projectedEnd: projected.end,
    });
  }
  const active = rows[activeIndex];
  const last = rows[rows.length - 1];
  return {
    plannedStart: showStart,
    plannedEnd: last?.plannedEnd ?? null,
    projectedEnd: last?.projectedEnd ?? nowMs,
    offset: active === undefined || active.plannedEnd === null || active.projectedEnd === null ? null : active.projectedEnd - active.plannedEnd,
    totalDuration,
    nextPlannedStart: rows[activeIndex + 1]?.plannedStart ?? null,
    timers: rows,
  };
}
