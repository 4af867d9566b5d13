// The module's variables, `$(showclock:<id>)` in button text. Pure: the values
// come from the snapshot, the view at the last second boundary and the link.
// A variable with nothing to say (no next timer, no message, no question on the
// screens, no plan to be on time against, no room yet) is empty, never the last
// value it had.
import type { CompanionVariableDefinition, CompanionVariableValue } from '@companion-module/base';
import type { Snapshot } from '../domain/snapshot.js';
import { formatSeconds } from '../client/face.js';
import { connectionWord, type LinkState } from './link-state.js';
import { questionsOf } from './room-questions.js';
import { tallyOf } from './room-tally.js';
import { screenOf } from './room-screen.js';
import { activePosition, type RoomView } from './room-view.js';

export const VARIABLES = [
  { variableId: 'remaining', name: 'Remaining time as the display shows it (4:59, 1:02:03, +0:05 in overrun)' },
  { variableId: 'remaining_signed', name: 'Remaining time with a sign (-4:59 counting down, +0:05 in overrun)' },
  { variableId: 'remaining_hours', name: 'Remaining time: hours part' },
  { variableId: 'remaining_minutes', name: 'Remaining time: minutes part (two digits)' },
  { variableId: 'remaining_seconds', name: 'Remaining time: seconds part (two digits)' },
  { variableId: 'remaining_ms', name: 'Remaining time in ms (negative in overrun), at the last second boundary' },
  { variableId: 'display_time', name: "The display's big digits (countdown, count-up or time of day, as the timer's appearance says)" },
  { variableId: 'elapsed', name: 'Elapsed time of the active timer (m:ss)' },
  { variableId: 'elapsed_ms', name: 'Elapsed time in ms, whole seconds' },
  { variableId: 'duration', name: 'Duration of the active timer (m:ss)' },
  { variableId: 'duration_ms', name: 'Duration of the active timer in ms' },
  { variableId: 'progress', name: 'Elapsed share of the duration, percent (0-100)' },
  { variableId: 'phase', name: 'Phase: ready, running, warning, danger, overrun, paused or stopped' },
  { variableId: 'running', name: 'Running (true/false)' },
  { variableId: 'active_id', name: 'Active timer: id' },
  { variableId: 'active_label', name: 'Active timer: label' },
  { variableId: 'active_speaker', name: 'Active timer: speaker' },
  { variableId: 'active_position', name: 'Active timer: position in the running order (1 = first)' },
  { variableId: 'next_label', name: 'Next timer: label (empty on the last timer)' },
  { variableId: 'next_speaker', name: 'Next timer: speaker (empty on the last timer)' },
  { variableId: 'timer_count', name: 'Number of timers in the running order' },
  { variableId: 'message_text', name: 'Message on screen (empty when none)' },
  { variableId: 'message_color', name: 'Message colour: white, green or red (empty when none)' },
  { variableId: 'questions_new', name: 'Audience questions: how many are new (not yet looked at)' },
  { variableId: 'questions_approved', name: 'Audience questions: how many are approved (kept for later)' },
  { variableId: 'question_text', name: 'Audience question on the screens: its text (empty when none)' },
  { variableId: 'question_name', name: 'Audience question on the screens: the name as the screens show it (empty when none or not shown)' },
  { variableId: 'blackout', name: 'Blackout (true/false)' },
  { variableId: 'onair', name: 'ON AIR (true/false)' },
  { variableId: 'tally', name: 'Tally from the vision mixer/OBS: on, off, or none (no tally on this box, none heard since it started, or an older box)' },
  { variableId: 'tally_sources', name: 'Tally: the sources that decide it (tsl, obs): while on, those saying on; while off, all heard (empty with none)' },
  { variableId: 'screen_power', name: 'Screen over HDMI-CEC, as it last answered: on, standby, to-on, to-standby, unknown, unavailable; none on a box without screen control' },
  { variableId: 'zero_behavior', name: 'At zero: continue, stop or hide' },
  { variableId: 'auto_advance', name: 'Auto-advance (true/false)' },
  { variableId: 'offset', name: 'Schedule: how far behind (+) or ahead (-) the show runs, signed (+4:20, -1:05, 0:00; empty without a plan)' },
  { variableId: 'offset_text', name: 'Schedule: the offset in words (4:20 behind, 1:05 ahead, on time; empty without a plan)' },
  { variableId: 'offset_seconds', name: 'Schedule: the offset in whole seconds, positive behind, negative ahead (empty without a plan)' },
  { variableId: 'offset_state', name: 'Schedule: behind, ahead or onTime (empty without a plan)' },
  { variableId: 'show_end', name: 'Schedule: when the show ends as things stand, time of day in the room\'s zone (17:42)' },
  { variableId: 'planned_end', name: 'Schedule: when the show was planned to end, time of day (empty while unknown)' },
  { variableId: 'next_start', name: 'Schedule: planned start of the next timer, time of day (empty on the last, or without a plan)' },
  { variableId: 'aux_time', name: 'Aux timer: its time as the display shows it (4:59, +0:05 past zero; 1:01 counting up)' },
  { variableId: 'aux_label', name: 'Aux timer: label' },
  { variableId: 'aux_running', name: 'Aux timer: running (true/false)' },
  { variableId: 'aux_duration', name: 'Aux timer: duration (m:ss)' },
  { variableId: 'connection', name: 'Connection: connected, connecting, unreachable, wrong key, rate-limited, too old, not configured' },
  { variableId: 'server_version', name: 'Showclock API version of the box (empty until known)' },
] as const satisfies readonly CompanionVariableDefinition[];

export type VariableId = (typeof VARIABLES)[number]['variableId'];
export type VariableValues = Record<VariableId, CompanionVariableValue>;

export function variableValues(state: Snapshot | null, view: RoomView | null, link: LinkState, serverVersion: string): VariableValues {
  const common = { connection: connectionWord(link), server_version: serverVersion };
  if (state === null || view === null) {
    const empty = Object.fromEntries(VARIABLES.map((v) => [v.variableId, ''])) as VariableValues;
    return { ...empty, ...common };
  }
  const position = activePosition(state);
  const next = position > 0 ? state.timers[position] : undefined;
  const questions = questionsOf(state);
  const tally = tallyOf(state);
  return {
    remaining: view.remaining,
    remaining_signed: view.remainingSigned,
    remaining_hours: view.hours,
    remaining_minutes: view.minutes,
    remaining_seconds: view.seconds,
    remaining_ms: Math.round(view.remainingMs),
    display_time: view.displayTime,
    elapsed: formatSeconds(view.elapsedSeconds),
    elapsed_ms: view.elapsedSeconds * 1000,
    duration: formatSeconds(Math.ceil(state.duration / 1000)),
    duration_ms: state.duration,
    progress: Math.round(view.progress * 100),
    phase: view.phase,
    running: state.running,
    active_id: state.activeTimerId,
    active_label: state.activeLabel,
    active_speaker: state.activeSpeaker,
    active_position: position,
    next_label: next?.label ?? '',
    next_speaker: next?.speaker ?? '',
    timer_count: state.timers.length,
    message_text: state.message?.text ?? '',
    message_color: state.message?.color ?? '',
    questions_new: questions.newCount,
    questions_approved: questions.approvedCount,
    question_text: questions.shown?.text ?? '',
    question_name: questions.shown?.name ?? '',
    blackout: state.blackout,
    onair: state.onAir,
    tally: tally.word,
    tally_sources: tally.sources.join(', '),
    screen_power: screenOf(state),
    zero_behavior: state.zeroBehavior,
    auto_advance: state.settings.autoAdvance,
    offset: view.schedule.offsetSigned,
    offset_text: view.schedule.offsetText,
    offset_seconds: view.schedule.offsetSeconds ?? '',
    offset_state: view.schedule.offsetState ?? '',
    show_end: view.schedule.showEnd,
    planned_end: view.schedule.plannedEnd,
    next_start: view.schedule.nextStart,
    aux_time: view.aux.time,
    aux_label: view.aux.label,
    aux_running: state.aux === undefined ? '' : view.aux.running,
    aux_duration: view.aux.duration,
    ...common,
  };
}

/** Only what changed since `before`: each update sends Companion the difference. */
export function changedValues(before: Partial<VariableValues>, after: VariableValues): Partial<VariableValues> {
  const changed: Partial<VariableValues> = {};
  for (const v of VARIABLES) if (before[v.variableId] !== after[v.variableId]) changed[v.variableId] = after[v.variableId];
  return changed;
}
