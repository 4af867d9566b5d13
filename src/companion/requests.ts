// Every module action as the v1 request it is: the same paths and fields a
// `curl` of the README sends, as POST with JSON (v1 takes every mutation that
// way, and a JSON body carries any message text without escaping worries).
// Pure: actions that depend on the room (a timer by position, toggles the API
// has no command for, a time of day in the room's zone) read the last snapshot
// passed in.
import type { ScreenRequest } from '../domain/screen.js';
import { parseInstantText } from '../client/time-of-day-text.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { AuxAppearance, MessageColor, TimerFields, ZeroBehavior } from '../domain/types.js';

export const TRANSPORT_COMMANDS = ['start', 'pause', 'stop', 'toggle', 'reset', 'next', 'previous'] as const;
export type TransportCommand = (typeof TRANSPORT_COMMANDS)[number];

/** The aux timer's own transport, each a v1 command `/aux_{command}`. */
export const AUX_COMMANDS = ['start', 'pause', 'toggle', 'reset'] as const;
export type AuxCommand = (typeof AUX_COMMANDS)[number];

/** The v1 operation that sets the aux timer's duration, appearance or label (one place, should the API name it otherwise). */
export const AUX_SET_PATH = '/aux';

/** What an `aux.set` changes; at least one of them. */
export interface AuxChange {
  readonly duration?: number;
  readonly appearance?: AuxAppearance;
  readonly label?: string;
}

export type SwitchMode = 'on' | 'off' | 'toggle';

/**
 * A timer named by its id, or by its 1-based place in the running order (a panel
 * need not know ids), or chosen in the action's dropdown of the running order
 * (`listed`: an id too, but one the module offered, so a timer deleted since is
 * refused here with the reason instead of the box's bare 404).
 */
export type TimerRef =
  | { readonly by: 'position'; readonly position: number }
  | { readonly by: 'id'; readonly id: string }
  | { readonly by: 'listed'; readonly id: string };

/**
 * A wall-clock instant as typed on a key: milliseconds since the epoch (what the
 * API takes, for scripts), or a time of day ("19:30", "7:30 pm",
 * "2026-11-24 09:00") read in the room's time zone at the press, as the
 * console's running order reads it: its next occurrence after the box's now.
 */
export type InstantInput = { readonly ms: number } | { readonly timeOfDay: string };

/** What a timer create or update sets: the API's timer fields, with the instants as typed; null clears (update). */
export type TimerChange = Omit<TimerFields, 'scheduledAt' | 'endsAt'> & {
  readonly scheduledAt?: InstantInput | null;
  readonly endsAt?: InstantInput | null;
};

export interface MessageInput {
  readonly text: string;
  readonly color: MessageColor;
  readonly flash: boolean;
  readonly bold: boolean;
}

export type ModuleAction =
  | { readonly type: 'transport'; readonly command: TransportCommand }
  | { readonly type: 'adjust'; readonly ms: number }
  | { readonly type: 'message.set'; readonly message: MessageInput }
  | { readonly type: 'message.clear' }
  | { readonly type: 'message.toggle'; readonly message: MessageInput }
  | { readonly type: 'blackout'; readonly mode: SwitchMode }
  | { readonly type: 'onair'; readonly mode: SwitchMode }
  | { readonly type: 'zero-behavior'; readonly zeroBehavior: ZeroBehavior }
  | { readonly type: 'auto-advance'; readonly mode: SwitchMode }
  | { readonly type: 'timer.select'; readonly timer: TimerRef }
  /** Select and start in one request (v1 `/timer/{id}/start`): nothing can land between the two. */
  | { readonly type: 'timer.start'; readonly timer: TimerRef }
  | { readonly type: 'timer.create'; readonly fields: TimerChange }
  | { readonly type: 'timer.update'; readonly timer: TimerRef; readonly fields: TimerChange }
  | { readonly type: 'timer.delete'; readonly timer: TimerRef }
  | { readonly type: 'timer.move'; readonly timer: TimerRef; readonly toPosition: number }
  // Only the question steps that need no id: a panel cannot know which question is which.
  | { readonly type: 'question.unshow' }
  | { readonly type: 'questions.clear-answered' }
  /** A new run of the show: the recorded actual times cleared, the first timer active at its duration. */
  | { readonly type: 'show.reset' }
  /** Every screen inverts `count` times (v1 `/flash`). */
  | { readonly type: 'flash'; readonly count: number }
  /** Every display plays the chime once, a sound check (v1 `/chime`). */
  | { readonly type: 'chime.test' }
  | { readonly type: 'aux'; readonly command: AuxCommand }
  | { readonly type: 'aux.adjust'; readonly ms: number }
  | { readonly type: 'aux.set'; readonly change: AuxChange }
  /** The screen over HDMI-CEC (v1 `/screen/on`, `/screen/standby`, `/screen/active`): answered once the screen acknowledged. */
  | { readonly type: 'screen'; readonly request: ScreenRequest };

/** null clears a field (a timer's scheduledAt, endsAt, tagId). */
export type JsonBody = Readonly<Record<string, string | number | boolean | null>>;

export interface ApiCall {
  readonly method: 'GET' | 'POST';
  /** After `/api/v1/{api_key}`. */
  readonly path: string;
  readonly body: JsonBody | null;
  /** How the log names it. */
  readonly name: string;
}

export type Built = { readonly ok: true; readonly call: ApiCall } | { readonly ok: false; readonly error: string };

const post = (path: string, name: string, body: JsonBody = {}): Built => ({ ok: true, call: { method: 'POST', path, body, name } });
const refuse = (error: string): Built => ({ ok: false, error });
const NO_STATE = 'no state from Showclock yet (not connected)';

export const STATE_READ: ApiCall = { method: 'GET', path: '/state', body: null, name: 'state' };

function timerId(ref: TimerRef, state: Snapshot | null): { id: string } | { error: string } {
  if (ref.by === 'id') return ref.id === '' ? { error: 'no timer id given' } : { id: ref.id };
  if (state === null) return { error: NO_STATE };
  if (ref.by === 'listed') {
    if (ref.id === '') return { error: 'no timer chosen in the list: choose one in the action\'s options' };
    // A timer deleted since it was chosen: the press must not reach another timer, nor a 404 the operator cannot read.
    return state.timers.some((t) => t.id === ref.id)
      ? { id: ref.id }
      : { error: `the timer chosen in the list (id "${ref.id}") is no longer in the running order (deleted?): choose another timer in the action's options` };
  }
  const timer = state.timers[ref.position - 1];
  if (!Number.isInteger(ref.position) || ref.position < 1 || timer === undefined) {
    return { error: `there is no timer at position ${ref.position}: the running order has ${state.timers.length}` };
  }
  return { id: timer.id };
}

const timerPath = (id: string, op: string): string => `/timer/${encodeURIComponent(id)}/${op}`;

/** An operation on one timer that takes nothing else (select, start, delete). */
function timerCall(ref: TimerRef, state: Snapshot | null, op: 'select' | 'start' | 'delete', name: string): Built {
  const found = timerId(ref, state);
  return 'error' in found ? refuse(found.error) : post(timerPath(found.id, op), name);
}

function messageBody(m: MessageInput): JsonBody {
  return { text: m.text, color: m.color, flash: m.flash, bold: m.bold };
}

const TIME_OF_DAY_HINT = 'write 19:30, 7:30 pm or 2026-11-24 09:00 (the room\'s time zone), or milliseconds since the epoch';

/** An instant as the API takes it: ms, or null to clear; a time of day is read in the room's zone against the box's now. */
function instantValue(input: InstantInput | null, field: string, state: Snapshot | null, serverNow: number | null): { value: number | null } | { error: string } {
  if (input === null) return { value: null };
  if ('ms' in input) return { value: input.ms };
  if (state === null || serverNow === null) return { error: `${field} "${input.timeOfDay}" is a time of day in the room's time zone: ${NO_STATE}` };
  const at = parseInstantText(input.timeOfDay, serverNow, state.settings.timeZone);
  return at === undefined || at === null ? { error: `${field} "${input.timeOfDay}" is not a time of day: ${TIME_OF_DAY_HINT}` } : { value: at };
}

function fieldsBody(fields: TimerChange, state: Snapshot | null, serverNow: number | null): { body: JsonBody } | { error: string } {
  const body: Record<string, string | number | null> = {};
  if (fields.label !== undefined) body.label = fields.label;
  if (fields.speaker !== undefined) body.speaker = fields.speaker;
  if (fields.duration !== undefined) body.duration = fields.duration;
  if (fields.warnAt !== undefined) body.warnAt = fields.warnAt;
  if (fields.dangerAt !== undefined) body.dangerAt = fields.dangerAt;
  if (fields.appearance !== undefined) body.appearance = fields.appearance;
  for (const field of ['scheduledAt', 'endsAt'] as const) {
    const input = fields[field];
    if (input === undefined) continue;
    const at = instantValue(input, field === 'scheduledAt' ? 'start at' : 'end at', state, serverNow);
    if ('error' in at) return at;
    body[field] = at.value;
  }
  if (fields.tagId !== undefined) {
    // A tag deleted since it was chosen in the dropdown: said here, in the operator's words. Without a state the box checks it (400 naming tagId).
    const tags = state === null ? null : (state.tags ?? []);
    if (fields.tagId !== null && tags !== null && !tags.some((t) => t.id === fields.tagId)) {
      return { error: `the tag chosen in the list (id "${fields.tagId}") is no longer one of the room's tags (deleted?): choose another tag in the action's options` };
    }
    body.tagId = fields.tagId;
  }
  return { body };
}

function auxBody(change: AuxChange): JsonBody {
  const body: Record<string, string | number> = {};
  if (change.duration !== undefined) body.duration = change.duration;
  if (change.appearance !== undefined) body.appearance = change.appearance;
  if (change.label !== undefined) body.label = change.label;
  return body;
}

function switchCall(mode: SwitchMode, name: 'blackout' | 'onair'): Built {
  // `on` is a string in JSON too: "0" is off, anything else on.
  if (mode === 'toggle') return post(`/toggle_${name}`, `toggle_${name}`);
  return post(`/${name}`, `${name} ${mode}`, { on: mode === 'on' ? '1' : '0' });
}

/**
 * `serverNow`: the box's time now, for a time of day typed on a key (its next
 * occurrence after it); the last snapshot's own time when not given.
 */
export function toApiCall(action: ModuleAction, state: Snapshot | null, serverNow: number | null = state?.serverNow ?? null): Built {
  switch (action.type) {
    case 'transport':
      return post(`/${action.command}`, action.command);
    case 'adjust':
      return post('/adjust', `adjust ${action.ms > 0 ? '+' : ''}${action.ms} ms`, { ms: action.ms });
    case 'message.set':
      return post('/message/set', 'message set', messageBody(action.message));
    case 'message.clear':
      return post('/message/clear', 'message clear');
    case 'message.toggle': {
      // Showing this text already: take it down; anything else (nothing, another text): show this one.
      if (state === null) return refuse(NO_STATE);
      return state.message !== null && state.message.text === action.message.text.trim()
        ? post('/message/clear', 'message toggle (clear)')
        : post('/message/set', 'message toggle (set)', messageBody(action.message));
    }
    case 'blackout':
      return switchCall(action.mode, 'blackout');
    case 'onair':
      return switchCall(action.mode, 'onair');
    case 'zero-behavior':
      return post('/settings', `zero behaviour ${action.zeroBehavior}`, { zeroBehavior: action.zeroBehavior });
    case 'auto-advance': {
      // The API has no toggle for it: the flip is computed from the last snapshot.
      if (action.mode === 'toggle' && state === null) return refuse(NO_STATE);
      const on = action.mode === 'toggle' ? !(state as Snapshot).settings.autoAdvance : action.mode === 'on';
      return post('/settings', `auto-advance ${on ? 'on' : 'off'}`, { autoAdvance: on });
    }
    case 'timer.select':
      return timerCall(action.timer, state, 'select', 'select timer');
    case 'timer.start':
      return timerCall(action.timer, state, 'start', 'start timer');
    case 'timer.create': {
      const fields = fieldsBody(action.fields, state, serverNow);
      return 'error' in fields ? refuse(fields.error) : post('/timers', 'create timer', fields.body);
    }
    case 'timer.update': {
      const found = timerId(action.timer, state);
      if ('error' in found) return refuse(found.error);
      const fields = fieldsBody(action.fields, state, serverNow);
      if ('error' in fields) return refuse(fields.error);
      if (Object.keys(fields.body).length === 0) return refuse('update timer: nothing to change (every field is empty or unchanged)');
      return post(timerPath(found.id, 'update'), 'update timer', fields.body);
    }
    case 'timer.delete':
      return timerCall(action.timer, state, 'delete', 'delete timer');
    case 'timer.move': {
      const found = timerId(action.timer, state);
      if ('error' in found) return refuse(found.error);
      if (!Number.isInteger(action.toPosition) || action.toPosition < 1) return refuse(`move timer: position ${action.toPosition} is not 1 or more`);
      return post(timerPath(found.id, 'move'), 'move timer', { to: action.toPosition - 1 });
    }
    // Neither reads the last snapshot: the box knows what is shown and what is answered, and with nothing to do it answers 200.
    case 'question.unshow':
      return post('/question/unshow', 'take question off screen');
    case 'questions.clear-answered':
      return post('/questions/clear_answered', 'delete answered questions');
    case 'show.reset':
      return post('/show_reset', 'show reset');
    case 'flash':
      return post('/flash', `flash ${action.count} times`, { count: action.count });
    case 'chime.test':
      return post('/chime', 'chime test');
    case 'aux':
      return post(`/aux_${action.command}`, `aux ${action.command}`);
    case 'aux.adjust':
      return post('/aux_adjust', `aux adjust ${action.ms > 0 ? '+' : ''}${action.ms} ms`, { ms: action.ms });
    case 'aux.set': {
      const body = auxBody(action.change);
      if (Object.keys(body).length === 0) return refuse('aux set: nothing to change (give a duration, an appearance or a label)');
      return post(AUX_SET_PATH, 'aux set', body);
    }
    case 'screen':
      return post(`/screen/${action.request}`, `screen ${action.request}`);
    default: {
      const unknown: never = action;
      throw new Error(`unhandled action ${JSON.stringify(unknown)}`);
    }
  }
}
