// The table of every API operation, v0 and v1. The router is built from it and
// so is the OpenAPI document, so the two cannot drift apart.
import { DISPLAY_FIELD_NAMES } from '../domain/display-settings.js';
import { TIMER_FIELD_NAMES } from '../domain/engine.js';
import { FLASH_COUNT_DEFAULT, TAG_COLOUR_DEFAULT } from '../domain/limits.js';
import type { Command, DisplaySettings, Message, TimerFields } from '../domain/types.js';
import type { ScreenRequest } from '../domain/screen.js';
import type { ComponentName } from './schemas.js';
import { auxAppearanceField, fields, type FieldDef, type FieldName, type FieldValue } from './fields.js';

export type ApiVersion = 'v0' | 'v1';
export type Method = 'GET' | 'POST';

/** What an operation asks of the room service. */
export type Action =
  | { readonly kind: 'command'; readonly command: Command }
  | { readonly kind: 'read-state' }
  | { readonly kind: 'list-timers' }
  | { readonly kind: 'list-questions' }
  /** Asks the screen over HDMI-CEC (src/cec); answered once the screen acknowledged it, with the snapshot. */
  | { readonly kind: 'screen'; readonly request: ScreenRequest };

export interface ActionContext {
  /** The `{id}` path parameter, '' where the path has none. */
  readonly id: string;
  readonly newTimerId: () => string;
}

/** The values of fields an operation defines for itself (see `own`), by name. */
type OwnValues = { readonly [K in FieldName]?: unknown };

type ValueOf<K extends FieldName, V extends OwnValues> = K extends keyof V ? V[K] : FieldValue<K>;

export type Inputs<R extends FieldName, O extends FieldName, V extends OwnValues = {}> = { readonly [K in R]: ValueOf<K, V> } & {
  readonly [K in O]?: ValueOf<K, V>;
};

/** An operation's own definitions of fields, by the shared name they stand in for. */
export type OwnFields = { readonly [K in FieldName]?: FieldDef<unknown> };

export interface Operation {
  readonly operationId: string;
  readonly version: ApiVersion;
  readonly methods: readonly Method[];
  /** Relative to `/api/{version}/{api_key}`, with OpenAPI `{id}` templating. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly required: readonly FieldName[];
  readonly optional: readonly FieldName[];
  /** Optional fields of which at least one must come (beside the required ones); empty when none must. */
  readonly needsOneOf: readonly FieldName[];
  /**
   * Fields this operation reads by a shared name with rules of its own: the aux timer's
   * `appearance` takes countdown or countup only, where a timer's also takes clock.
   * Everything that reads an operation's fields goes through fieldOf().
   */
  readonly own: OwnFields;
  readonly success: { readonly status: 200 | 201; readonly schema: ComponentName };
  /** True for `/{cmd}` commands: listed in the 404 for an unknown command. */
  readonly isCommand: boolean;
  readonly toAction: (input: Readonly<Record<string, unknown>>, ctx: ActionContext) => Action;
}

interface OperationDef<R extends FieldName, O extends FieldName, V extends OwnValues = {}> {
  operationId: string;
  version: ApiVersion;
  methods: readonly Method[];
  path: string;
  summary: string;
  description?: string;
  required?: readonly R[];
  optional?: readonly O[];
  needsOneOf?: readonly O[];
  own?: { readonly [K in keyof V]: FieldDef<V[K]> };
  success?: Operation['success'];
  isCommand?: boolean;
  action: (input: Inputs<R, O, V>, ctx: ActionContext) => Action;
}

function operation<R extends FieldName = never, O extends FieldName = never, V extends OwnValues = {}>(def: OperationDef<R, O, V>): Operation {
  return {
    operationId: def.operationId,
    version: def.version,
    methods: def.methods,
    path: def.path,
    summary: def.summary,
    ...(def.description === undefined ? {} : { description: def.description }),
    required: def.required ?? [],
    optional: def.optional ?? [],
    needsOneOf: def.needsOneOf ?? [],
    own: def.own ?? {},
    success: def.success ?? { status: 200, schema: def.version === 'v0' ? 'V0StateEnvelope' : 'StateEnvelope' },
    isCommand: def.isCommand ?? false,
    // The router validates the input with a schema built from exactly `required` and
    // `optional` (each by fieldOf), so the record it passes has this shape.
    toAction: (input, ctx) => def.action(input as Inputs<R, O, V>, ctx),
  };
}

/** The definition of a field as this operation reads it: its own, or the shared one. */
export function fieldOf(op: Pick<Operation, 'own'>, name: FieldName): FieldDef<unknown> {
  return op.own[name] ?? fields[name];
}

const command = (c: Command): Action => ({ kind: 'command', command: c });
const timerFieldNames = TIMER_FIELD_NAMES;

/** Only the fields given, so the engine can tell "not given" from a value (null included, for scheduledAt). */
function timerFields(input: TimerFields): TimerFields {
  const { label, speaker, duration, warnAt, dangerAt, appearance, scheduledAt, endsAt, tagId } = input;
  return {
    ...(tagId === undefined ? {} : { tagId }),
    ...(dangerAt === undefined ? {} : { dangerAt }),
    ...(scheduledAt === undefined ? {} : { scheduledAt }),
    ...(endsAt === undefined ? {} : { endsAt }),
    ...(label === undefined ? {} : { label }),
    ...(speaker === undefined ? {} : { speaker }),
    ...(duration === undefined ? {} : { duration }),
    ...(warnAt === undefined ? {} : { warnAt }),
    ...(appearance === undefined ? {} : { appearance }),
  };
}

function message(input: { text: string; flash?: boolean; color?: Message['color']; bold?: boolean }): Message {
  return { text: input.text, flash: input.flash ?? false, color: input.color ?? 'white', bold: input.bold ?? false };
}

const messageDescription =
  'Shows a message on the screens, replacing any other: `text` (required), `flash`, `color`, `bold`; defaults: not blinking, white, not bold.';

/** A `/{cmd}` command in the given version. */
function cmd<R extends FieldName = never, O extends FieldName = never>(
  version: ApiVersion,
  name: string,
  summary: string,
  def: Pick<OperationDef<R, O>, 'required' | 'optional' | 'action' | 'description'>,
): Operation {
  return operation<R, O>({
    ...def,
    operationId: `${version}_${name}`,
    version,
    methods: version === 'v0' ? ['GET'] : ['GET', 'POST'],
    path: `/${name}`,
    summary,
    isCommand: true,
  });
}

function sharedCommands(version: ApiVersion): Operation[] {
  return [
    cmd(version, 'start', 'Start the active timer (nothing changes if it is running)', {
      description: 'Starts the active timer from its remaining time: `running` becomes true and `endAt` is set. Already running: 200 and nothing changes.',
      action: () => command({ type: 'start' }),
    }),
    cmd(version, 'pause', 'Pause the active timer (nothing changes if it is paused)', {
      description: 'Pauses the active timer: `running` becomes false and `remainingAtPause` holds what is left. Already paused: 200 and nothing changes.',
      action: () => command({ type: 'pause' }),
    }),
    cmd(version, 'stop', 'Alias of pause', {
      description: 'The same as pause: the active timer stops counting and keeps what is left. Already paused: 200 and nothing changes.',
      action: () => command({ type: 'pause' }),
    }),
    cmd(version, 'reset', 'Set the active timer back to its planned duration, paused', {
      description: 'Sets the active timer back to its planned duration and pauses it.',
      action: () => command({ type: 'reset' }),
    }),
    cmd(version, 'next', 'Make the next timer active at its duration, keeping running or paused; 400 on the last timer', {
      description:
        'Makes the next timer of the running order active with its full duration. Running stays running (the next timer starts now); ' +
        'paused stays paused. On the last timer: 400 `no next timer` and nothing changes.',
      action: () => command({ type: 'next' }),
    }),
    cmd(version, 'adjust', 'Shift the remaining time by ms (positive adds, negative removes), at most 1 hour per call', {
      description:
        'Moves the remaining time of the active timer by `ms`: positive adds, negative removes, at most 3600000 (1 hour) either way per call. ' +
        'Running: `endAt` moves; paused: `remainingAtPause` moves. A result above 86400000 (24 hours) is refused with 400.',
      required: ['ms'],
      action: (input) => command({ type: 'adjust', ms: input.ms }),
    }),
    version === 'v0'
      ? cmd(version, 'message', 'Show a message on the screens', {
          description: 'Shows a message on the screens, replacing any other: `text` (required) and `flash`; v0 has no colour or bold (white, not bold).',
          required: ['text'],
          optional: ['flash'],
          action: (input) => command({ type: 'message.set', message: message(input) }),
        })
      : cmd(version, 'message', 'Show a message on the screens', {
          description: messageDescription,
          required: ['text'],
          optional: ['flash', 'color', 'bold'],
          action: (input) => command({ type: 'message.set', message: message(input) }),
        }),
    cmd(version, 'clear_message', 'Clear the message', {
      description: 'Removes the on-screen message: `message` becomes null. Without a message: 200 and nothing changes.',
      action: () => command({ type: 'message.clear' }),
    }),
    cmd(version, 'blackout', 'Black screen on (`on` anything but 0, or missing) or off (`on=0`)', {
      description: 'The black-screen switch: `on=0` switches it off; any other value of `on`, or none, switches it on.',
      optional: ['on'],
      action: (input) => command({ type: 'blackout.set', on: input.on ?? true }),
    }),
    cmd(version, 'status', 'Read the snapshot; changes nothing', {
      description:
        version === 'v0'
          ? 'Answers the room snapshot as v0 always has (V0State: without the schedule, the actual times and the aux timer); a read, so nothing changes and seq stays.'
          : 'Answers the room snapshot, as GET /state does; a read, so nothing changes and seq stays.',
      action: () => ({ kind: 'read-state' }),
    }),
  ];
}

const AUX_NOTE = 'The aux timer is the second timer, beside the running order (`aux` in the state): next, auto-advance and scheduled starts never move it.';

// The second timer's commands, named as the main timer's with `aux_` before them
// (toggle_blackout and toggle_onair name what they act on the same way).
const auxCommands: Operation[] = [
  cmd('v1', 'aux_start', 'Addition: start the aux timer (nothing changes if it is running)', {
    description: `Addition to v1: starts the aux timer from where it stands: \`aux.running\` becomes true and \`aux.endAt\` is set. Already running: 200 and nothing changes. ${AUX_NOTE}`,
    action: () => command({ type: 'aux.start' }),
  }),
  cmd('v1', 'aux_pause', 'Addition: pause the aux timer (nothing changes if it is paused)', {
    description: `Addition to v1: pauses the aux timer: \`aux.running\` becomes false and \`aux.remainingAtPause\` holds what is left. Already paused: 200 and nothing changes. ${AUX_NOTE}`,
    action: () => command({ type: 'aux.pause' }),
  }),
  cmd('v1', 'aux_toggle', 'Addition: start the aux timer when paused, pause it when running', {
    description: `Addition to v1, for a single button: starts the aux timer when it is paused, pauses it when it is running. ${AUX_NOTE}`,
    action: () => command({ type: 'aux.toggle' }),
  }),
  cmd('v1', 'aux_reset', 'Addition: set the aux timer back to its duration, paused', {
    description: `Addition to v1: sets the aux timer back to its duration (a count-up back to 0:00) and pauses it. ${AUX_NOTE}`,
    action: () => command({ type: 'aux.reset' }),
  }),
  cmd('v1', 'aux_adjust', 'Addition: shift the aux timer\'s remaining time by ms, at most 1 hour per call', {
    description:
      'Addition to v1, adjust for the aux timer: moves its remaining time by `ms`: positive adds, negative removes, at most 3600000 (1 hour) either way per call. ' +
      `Running: \`aux.endAt\` moves; paused: \`aux.remainingAtPause\` moves. A result above 86400000 (24 hours) is refused with 400. ${AUX_NOTE}`,
    required: ['ms'],
    action: (input) => command({ type: 'aux.adjust', ms: input.ms }),
  }),
  operation({
    operationId: 'v1_aux',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/aux',
    summary: 'Addition: set up the aux timer (duration, appearance, label); at least one field',
    description:
      'Addition to v1: `duration` (a new one stands the aux timer paused at it, as a reset would), `appearance` (`countdown`, or `countup` for the time since its start) ' +
      'and `label`; give at least one, the others keep their values. A new appearance or label alone keeps the time where it is, running or not. ' +
      `Default: Aux, 300000 (5 minutes), countdown. ${AUX_NOTE}`,
    optional: ['duration', 'appearance', 'label'],
    own: { appearance: auxAppearanceField },
    action: (input) =>
      command({
        type: 'aux.set',
        ...(input.duration === undefined ? {} : { duration: input.duration }),
        ...(input.appearance === undefined ? {} : { appearance: input.appearance }),
        ...(input.label === undefined ? {} : { label: input.label }),
      }),
  }),
];

const v1Commands: Operation[] = [
  ...sharedCommands('v1'),
  cmd('v1', 'onair', 'ON AIR indicator on (`on` anything but 0, or missing) or off (`on=0`)', {
    description: 'The ON AIR indicator: `on=0` switches it off; any other value of `on`, or none, switches it on. Not in v0.',
    optional: ['on'],
    action: (input) => command({ type: 'onair.set', on: input.on ?? true }),
  }),
  cmd('v1', 'previous', 'Addition: make the previous timer active at its duration, keeping running or paused; 400 on the first timer', {
    description:
      'Addition to v1, the mirror of next: the previous timer of the running order becomes active with its full duration, keeping running or paused. ' +
      'On the first timer: 400 `no previous timer` and nothing changes.',
    action: () => command({ type: 'previous' }),
  }),
  cmd('v1', 'toggle', 'Addition: start when paused, pause when running', {
    description: 'Addition to v1, for a single button: starts the active timer when it is paused, pauses it when it is running.',
    action: () => command({ type: 'toggle' }),
  }),
  cmd('v1', 'toggle_blackout', 'Addition: switch blackout over', {
    description: 'Addition to v1, for a single button: switches the black screen on when it is off, off when it is on.',
    action: () => command({ type: 'blackout.toggle' }),
  }),
  cmd('v1', 'flash', 'Addition: flash every screen (a strong inversion, about 2 per second) `count` times', {
    description:
      'Addition to v1: every screen inverts `count` times (default 3, at most 10), twice a second, all at the same server instants, ' +
      'starting a moment (150 ms) after the answer so the push reaches every screen first; the message is not changed. ' +
      'The snapshot carries it as `flash` until it is over, so a screen that connects mid-flash shows the rest. A new flash replaces one still going.',
    optional: ['count'],
    action: (input) => command({ type: 'flash', count: input.count ?? FLASH_COUNT_DEFAULT }),
  }),
  cmd('v1', 'chime', 'Addition: play the chime on every display (a test)', {
    description:
      'Addition to v1: every display plays the chime once, at the same server instant (150 ms after the answer), at the room\'s volume, ' +
      'whether or not the chime settings are on: a sound check. The snapshot carries it as `chimeTestAt` for a second.',
    action: () => command({ type: 'chime.test' }),
  }),
  cmd('v1', 'toggle_onair', 'Addition: switch ON AIR over', {
    description: 'Addition to v1, for a single button: switches the ON AIR indicator on when it is off, off when it is on.',
    action: () => command({ type: 'onair.toggle' }),
  }),
  cmd('v1', 'show_reset', 'Addition: a new run of the show: clear the actual times, first timer active and paused', {
    description:
      'Addition to v1: clears what the show recorded (`actuals`: each timer\'s actual start and end) and makes the first timer of the running order active, ' +
      'paused at its full time, ready for the next run (a rehearsal, then the show). The running order, `plannedStart` and the aux timer stay as they are. ' +
      'Saved to disk before it is answered.',
    action: () => command({ type: 'show.reset' }),
  }),
  ...auxCommands,
];

const v1Resources: Operation[] = [
  operation({
    operationId: 'v1_getState',
    version: 'v1',
    methods: ['GET'],
    path: '/state',
    summary: 'The full room snapshot',
    description:
      'The room snapshot the control consoles see: transport, active timer, running order, message, switches and settings, ' +
      'the aux timer, the actual times and the schedule (planned, actual and projected times, the offset) at `serverNow`. ' +
      'Derive the remaining time from it (`endAt` - `serverNow` while running, `remainingAtPause` while paused) rather than counting on your own. ' +
      'A read: nothing changes.',
    action: () => ({ kind: 'read-state' }),
  }),
  operation({
    operationId: 'v1_listTimers',
    version: 'v1',
    methods: ['GET'],
    path: '/timers',
    summary: 'The running order',
    description: 'Every timer in running order, and the id of the active one. A read: nothing changes.',
    success: { status: 200, schema: 'TimersList' },
    action: () => ({ kind: 'list-timers' }),
  }),
  operation({
    operationId: 'v1_createTimer',
    version: 'v1',
    methods: ['POST'],
    path: '/timers',
    summary: 'Append a timer to the running order',
    description:
      'Appends a timer at the end of the running order and answers 201 with it. Every field is optional; defaults: ' +
      'label `Timer N`, speaker empty, duration 600000, warnAt 60000, dangerAt 0, appearance countdown, scheduledAt null, endsAt null, tagId null (dangerAt, scheduledAt, endsAt and tagId are additions to v1). ' +
      'A `tagId` the room does not have is 400. ' +
      'The running order holds at most 100 timers: a full one is 400.',
    optional: timerFieldNames,
    success: { status: 201, schema: 'TimerCreated' },
    action: (input, ctx) => command({ type: 'timer.create', id: ctx.newTimerId(), fields: timerFields(input) }),
  }),
  operation({
    operationId: 'v1_selectTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/select',
    summary: 'Make a timer active, paused at its duration',
    description: 'Makes the timer active, paused, with its full duration left; also when it already was the active one.',
    action: (_input, ctx) => command({ type: 'timer.select', id: ctx.id }),
  }),
  operation({
    operationId: 'v1_startTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/start',
    summary: 'Make a timer active and start it, in one step',
    description:
      'Selects the timer (active, at its full duration) and starts it, as one change: no other request can land between the two. ' +
      'On the timer that is already active it only starts it, from where it is; a running one keeps running. An addition to v1.',
    action: (_input, ctx) => command({ type: 'timer.start', id: ctx.id }),
  }),
  operation({
    operationId: 'v1_updateTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/update',
    summary: 'Change a timer; at least one field',
    description:
      'Changes the fields given (at least one of label, speaker, duration, warnAt, dangerAt, appearance, scheduledAt, endsAt, tagId) and keeps the others. ' +
      'A new duration on the active timer keeps the time already elapsed. `dangerAt`, `scheduledAt`, `endsAt` and `tagId` are additions to v1; empty (query) or null (JSON) clears them. ' +
      'A `tagId` the room does not have is 400.',
    optional: timerFieldNames,
    action: (input, ctx) => command({ type: 'timer.update', id: ctx.id, fields: timerFields(input) }),
  }),
  operation({
    operationId: 'v1_deleteTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/delete',
    summary: 'Remove a timer; the last remaining timer is kept (400)',
    description:
      'Removes the timer from the running order. Deleting the active timer makes the following one active (the previous one if it was the last), ' +
      'paused at its duration. The last remaining timer is kept: 400 and nothing changes.',
    action: (_input, ctx) => command({ type: 'timer.delete', id: ctx.id }),
  }),
  operation({
    operationId: 'v1_moveTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/move',
    summary: 'Addition: move a timer to a 0-based position in the running order',
    description: 'Addition to v1: moves the timer to position `to` of the running order (0 is the top). A position past the last timer is 400.',
    required: ['to'],
    action: (input, ctx) => command({ type: 'timer.move', id: ctx.id, to: input.to }),
  }),
  operation({
    operationId: 'v1_setMessage',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/message/set',
    summary: 'Show a message on the screens',
    description: messageDescription,
    required: ['text'],
    optional: ['flash', 'color', 'bold'],
    action: (input) => command({ type: 'message.set', message: message(input) }),
  }),
  operation({
    operationId: 'v1_clearMessage',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/message/clear',
    summary: 'Clear the message',
    description: 'Removes the on-screen message: `message` becomes null. Without a message: 200 and nothing changes.',
    action: () => command({ type: 'message.clear' }),
  }),
  operation({
    operationId: 'v1_settings',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/settings',
    summary: 'Addition: room settings; at least one field',
    description:
      'Addition to v1: `zeroBehavior` decides what happens at zero (continue into overrun, stop at 0, or hide the time); ' +
      '`autoAdvance` starts the next timer at zero; `timeZone` and `clockFormat` decide how every time of day is shown; ' +
      '`chimeAtZero`, `chimeAtWarning` and `chimeVolume` are the displays\' sound; `plannedStart` is when the show is planned to begin, ' +
      'from which the schedule (`schedule` in the state) plans every timer. ' +
      'Give at least one; the others keep their values.',
    optional: ['zeroBehavior', 'autoAdvance', 'timeZone', 'clockFormat', 'chimeAtZero', 'chimeAtWarning', 'chimeVolume', 'plannedStart'],
    action: (input) =>
      command({
        type: 'settings.set',
        ...(input.zeroBehavior === undefined ? {} : { zeroBehavior: input.zeroBehavior }),
        ...(input.autoAdvance === undefined ? {} : { autoAdvance: input.autoAdvance }),
        ...(input.timeZone === undefined ? {} : { timeZone: input.timeZone }),
        ...(input.clockFormat === undefined ? {} : { clockFormat: input.clockFormat }),
        ...(input.chimeAtZero === undefined ? {} : { chimeAtZero: input.chimeAtZero }),
        ...(input.chimeAtWarning === undefined ? {} : { chimeAtWarning: input.chimeAtWarning }),
        ...(input.chimeVolume === undefined ? {} : { chimeVolume: input.chimeVolume }),
        ...(input.plannedStart === undefined ? {} : { plannedStart: input.plannedStart }),
      }),
  }),
];

// Tags are addressed by a `tagId` field, not a path segment: `{id}` in a path is a
// timer's (unknown: 404 before anything is read), and a tag that is not there is a
// bad field, 400 naming `tagId`, as it is on a timer.
const v1Tags: Operation[] = [
  operation({
    operationId: 'v1_createTag',
    version: 'v1',
    methods: ['POST'],
    path: '/tags',
    summary: 'Addition: add a tag to the room (`name`, `colour`)',
    description:
      `Addition to v1: adds a tag, a coloured label timers can carry (\`tagId\`); \`colour\` defaults to ${TAG_COLOUR_DEFAULT}. ` +
      'Answers the state: the new tag is the last of `tags`. The room holds at most 32 tags.',
    required: ['name'],
    optional: ['colour'],
    action: (input, ctx) => command({ type: 'tag.create', id: ctx.newTimerId(), name: input.name, colour: input.colour ?? TAG_COLOUR_DEFAULT }),
  }),
  operation({
    operationId: 'v1_updateTag',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/tag/update',
    summary: 'Addition: rename or recolour a tag; at least one of name, colour',
    description: 'Addition to v1: changes the `name` or `colour` (at least one) of the tag `tagId` and keeps the other. A tag the room does not have is 400.',
    required: ['tagId'],
    optional: ['name', 'colour'],
    needsOneOf: ['name', 'colour'],
    action: (input) =>
      command({
        type: 'tag.update',
        id: input.tagId ?? '',
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.colour === undefined ? {} : { colour: input.colour }),
      }),
  }),
  operation({
    operationId: 'v1_deleteTag',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/tag/delete',
    summary: 'Addition: delete a tag; the timers that carried it carry none',
    description: 'Addition to v1: removes the tag `tagId` from the room and, in the same change, from every timer that carried it. A tag the room does not have is 400.',
    required: ['tagId'],
    action: (input) => command({ type: 'tag.delete', id: input.tagId ?? '' }),
  }),
];

/** Only the display fields given, so the room keeps the others. */
function displayFields(input: Partial<DisplaySettings>): Partial<DisplaySettings> {
  return Object.fromEntries(DISPLAY_FIELD_NAMES.filter((name) => input[name] !== undefined).map((name) => [name, input[name]])) as Partial<DisplaySettings>;
}

const v1Display: Operation[] = [
  operation({
    operationId: 'v1_display',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/display',
    summary: 'Addition: how the screens look; at least one field',
    description:
      'Addition to v1: the display settings of the room (`display` in the state), pushed to every screen: the layout (`full`, `minimal`, `lowerThird`), ' +
      'the background (black or a chroma-key colour), the colours of the time (normal, warning, overrun), its size, and which elements show ' +
      '(title, speaker, progress bar, time of day, next timer, tag, message). Give at least one; the others keep their values. ' +
      'A viewer link may ask for another layout in its own query (`/view/{viewer_key}?layout=minimal`), which changes nothing for the room.',
    optional: DISPLAY_FIELD_NAMES,
    action: (input) => command({ type: 'display.set', display: displayFields(input) }),
  }),
];

/** A moderation step on the question `questionId` (400 naming it when the room has no such question). */
function questionStep(path: string, operationId: string, summary: string, description: string, type: 'question.approve' | 'question.hide' | 'question.answered' | 'question.delete'): Operation {
  return operation({
    operationId,
    version: 'v1',
    methods: ['GET', 'POST'],
    path,
    summary,
    description,
    required: ['questionId'],
    action: (input) => command({ type, id: input.questionId }),
  });
}

// Audience questions come in through /ask/{audience_key} (src/pages/ask-routes.ts); these are
// the moderator's. Like running-order edits, each is on disk before it is answered.
// Questions are addressed by a `questionId` field, as tags are: `{id}` in a path is a timer's.
const v1Questions: Operation[] = [
  operation({
    operationId: 'v1_listQuestions',
    version: 'v1',
    methods: ['GET'],
    path: '/questions',
    summary: 'Addition: the audience questions',
    description: 'Addition to v1: every audience question, oldest first, with its state (new, approved, shown, answered, hidden). A read: nothing changes.',
    success: { status: 200, schema: 'QuestionsList' },
    action: () => ({ kind: 'list-questions' }),
  }),
  questionStep('/question/approve', 'v1_approveQuestion', 'Addition: approve a question (kept for later; off the screens if it was on them)', 'Addition to v1: the question becomes `approved`. A shown one leaves the screens.', 'question.approve'),
  questionStep('/question/hide', 'v1_hideQuestion', 'Addition: hide a question (not for the stage)', 'Addition to v1: the question becomes `hidden`. A shown one leaves the screens. Hidden and answered questions make way for new ones when the room holds 500.', 'question.hide'),
  operation({
    operationId: 'v1_showQuestion',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/question/show',
    summary: 'Addition: show a question on the screens (one at a time)',
    description:
      'Addition to v1: the question becomes `shown` and appears on every screen in its own area (the message stays as it is). ' +
      'The question shown before is marked `answered`. `withName` shows the name the person gave; without it the name stays off the screens. ' +
      'The viewer link and the kiosk get the shown question (`shownQuestion`) and never the others.',
    required: ['questionId'],
    optional: ['withName'],
    action: (input) => command({ type: 'question.show', id: input.questionId, withName: input.withName ?? false }),
  }),
  operation({
    operationId: 'v1_unshowQuestion',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/question/unshow',
    summary: 'Addition: take the shown question off the screens (back to approved)',
    description: 'Addition to v1: the question on the screens, if any, goes back to `approved`. With none shown: 200 and nothing changes.',
    action: () => command({ type: 'question.unshow' }),
  }),
  questionStep('/question/answered', 'v1_answerQuestion', 'Addition: mark a question answered', 'Addition to v1: the question becomes `answered`. A shown one leaves the screens.', 'question.answered'),
  questionStep('/question/delete', 'v1_deleteQuestion', 'Addition: delete a question', 'Addition to v1: removes the question from the room (and from the screens if it was shown).', 'question.delete'),
  operation({
    operationId: 'v1_clearAnsweredQuestions',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/questions/clear_answered',
    summary: 'Addition: delete every answered question',
    description: 'Addition to v1: removes every question in the `answered` state. With none: 200 and nothing changes.',
    action: () => command({ type: 'question.clearAnswered' }),
  }),
];

const SCREEN_NOTE =
  'Sent over HDMI-CEC with cec-ctl (config `screen.cec.device`, README "Screen (HDMI-CEC)"). 200 only once the screen acknowledged the message, with the snapshot ' +
  'whose `screen.power` is what the screen answered when asked right after; 409 when the box has no screen configured, 502 when the screen did not acknowledge or refused it, ' +
  '503 when the box cannot reach the bus (no cec-ctl, no CEC device, no HDMI link), 504 when cec-ctl did not finish in time. The message says what to check.';

function screenStep(request: ScreenRequest, summary: string, what: string): Operation {
  return operation({
    operationId: `v1_screen_${request}`,
    version: 'v1',
    methods: ['GET', 'POST'],
    path: `/screen/${request}`,
    summary,
    description: `Addition to v1: ${what} ${SCREEN_NOTE}`,
    action: () => ({ kind: 'screen', request }),
  });
}

// The screen (HDMI-CEC): what is asked of it; what it answered comes back in the snapshot's `screen`.
const v1Screen: Operation[] = [
  screenStep('on', 'Addition: switch the screen on and make the box its source', 'switches the screen on (Image View On to the TV) and makes the box the active source (Active Source), so the screen shows the box.'),
  screenStep('standby', 'Addition: put the screen to standby', 'puts the screen to standby (Standby to the TV).'),
  screenStep('active', 'Addition: make the box the screen\'s source', 'makes the box the active source (Active Source), for a screen that is on but shows another input or "no signal".'),
];

/** Literal resource paths first: they take precedence over `/{cmd}`. */
export const operations: readonly Operation[] = [...v1Resources, ...v1Tags, ...v1Display, ...v1Questions, ...v1Screen, ...v1Commands, ...sharedCommands('v0')];

export function commandNames(version: ApiVersion): string[] {
  return operations.filter((op) => op.version === version && op.isCommand).map((op) => op.path.slice(1));
}
