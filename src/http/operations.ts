// The table of every API operation, v0 and v1. The router is built from it and
// so is the OpenAPI document, so the two cannot drift apart.
import type { Command, Message, TimerFields } from '../domain/types.js';
import type { ComponentName } from './schemas.js';
import type { FieldName, FieldValue } from './fields.js';

export type ApiVersion = 'v0' | 'v1';
export type Method = 'GET' | 'POST';

/** What an operation asks of the room service. */
export type Action =
  | { readonly kind: 'command'; readonly command: Command }
  | { readonly kind: 'read-state' }
  | { readonly kind: 'list-timers' };

export interface ActionContext {
  /** The `{id}` path parameter, '' where the path has none. */
  readonly id: string;
  readonly newTimerId: () => string;
}

export type Inputs<R extends FieldName, O extends FieldName> = { readonly [K in R]: FieldValue<K> } & {
  readonly [K in O]?: FieldValue<K>;
};

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
  readonly success: { readonly status: 200 | 201; readonly schema: ComponentName };
  /** True for `/{cmd}` commands: listed in the 404 for an unknown command. */
  readonly isCommand: boolean;
  readonly toAction: (input: Readonly<Record<string, unknown>>, ctx: ActionContext) => Action;
}

interface OperationDef<R extends FieldName, O extends FieldName> {
  operationId: string;
  version: ApiVersion;
  methods: readonly Method[];
  path: string;
  summary: string;
  description?: string;
  required?: readonly R[];
  optional?: readonly O[];
  success?: Operation['success'];
  isCommand?: boolean;
  action: (input: Inputs<R, O>, ctx: ActionContext) => Action;
}

function operation<R extends FieldName = never, O extends FieldName = never>(def: OperationDef<R, O>): Operation {
  return {
    operationId: def.operationId,
    version: def.version,
    methods: def.methods,
    path: def.path,
    summary: def.summary,
    ...(def.description === undefined ? {} : { description: def.description }),
    required: def.required ?? [],
    optional: def.optional ?? [],
    success: def.success ?? { status: 200, schema: 'StateEnvelope' },
    isCommand: def.isCommand ?? false,
    // The router validates the input with a schema built from exactly `required` and
    // `optional`, so the record it passes has this shape.
    toAction: (input, ctx) => def.action(input as Inputs<R, O>, ctx),
  };
}

const command = (c: Command): Action => ({ kind: 'command', command: c });
const timerFieldNames = ['label', 'speaker', 'duration', 'warnAt', 'appearance'] as const;

/** Only the fields given, so the engine can tell "not given" from a value. */
function timerFields(input: TimerFields): TimerFields {
  const { label, speaker, duration, warnAt, appearance } = input;
  return {
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
    cmd(version, 'start', 'Start the active timer (nothing changes if it is running)', { action: () => command({ type: 'start' }) }),
    cmd(version, 'pause', 'Pause the active timer (nothing changes if it is paused)', { action: () => command({ type: 'pause' }) }),
    cmd(version, 'stop', 'Alias of pause', { action: () => command({ type: 'pause' }) }),
    cmd(version, 'reset', 'Set the active timer back to its planned duration, paused', { action: () => command({ type: 'reset' }) }),
    cmd(version, 'next', 'Make the next timer active at its duration, keeping running or paused; 400 on the last timer', {
      action: () => command({ type: 'next' }),
    }),
    cmd(version, 'adjust', 'Shift the remaining time by ms (positive adds, negative removes), at most 1 hour per call', {
      required: ['ms'],
      action: (input) => command({ type: 'adjust', ms: input.ms }),
    }),
    version === 'v0'
      ? cmd(version, 'message', 'Show a message on the screens', {
          required: ['text'],
          optional: ['flash'],
          action: (input) => command({ type: 'message.set', message: message(input) }),
        })
      : cmd(version, 'message', 'Show a message on the screens', {
          required: ['text'],
          optional: ['flash', 'color', 'bold'],
          action: (input) => command({ type: 'message.set', message: message(input) }),
        }),
    cmd(version, 'clear_message', 'Clear the message', { action: () => command({ type: 'message.clear' }) }),
    cmd(version, 'blackout', 'Black screen on (`on` anything but 0, or missing) or off (`on=0`)', {
      optional: ['on'],
      action: (input) => command({ type: 'blackout.set', on: input.on ?? true }),
    }),
    cmd(version, 'status', 'Read the snapshot; changes nothing', { action: () => ({ kind: 'read-state' }) }),
  ];
}

const v1Commands: Operation[] = [
  ...sharedCommands('v1'),
  cmd('v1', 'onair', 'ON AIR indicator on (`on` anything but 0, or missing) or off (`on=0`)', {
    optional: ['on'],
    action: (input) => command({ type: 'onair.set', on: input.on ?? true }),
  }),
  cmd('v1', 'previous', 'Addition: make the previous timer active at its duration, keeping running or paused; 400 on the first timer', {
    action: () => command({ type: 'previous' }),
  }),
  cmd('v1', 'toggle', 'Addition: start when paused, pause when running', { action: () => command({ type: 'toggle' }) }),
  cmd('v1', 'toggle_blackout', 'Addition: switch blackout over', { action: () => command({ type: 'blackout.toggle' }) }),
  cmd('v1', 'toggle_onair', 'Addition: switch ON AIR over', { action: () => command({ type: 'onair.toggle' }) }),
];

const v1Resources: Operation[] = [
  operation({
    operationId: 'v1_getState',
    version: 'v1',
    methods: ['GET'],
    path: '/state',
    summary: 'The full room snapshot',
    action: () => ({ kind: 'read-state' }),
  }),
  operation({
    operationId: 'v1_listTimers',
    version: 'v1',
    methods: ['GET'],
    path: '/timers',
    summary: 'The running order',
    success: { status: 200, schema: 'TimersList' },
    action: () => ({ kind: 'list-timers' }),
  }),
  operation({
    operationId: 'v1_createTimer',
    version: 'v1',
    methods: ['POST'],
    path: '/timers',
    summary: 'Append a timer to the running order',
    description: 'Defaults: label `Timer N`, speaker empty, duration 600000, warnAt 60000, appearance countdown.',
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
    action: (_input, ctx) => command({ type: 'timer.select', id: ctx.id }),
  }),
  operation({
    operationId: 'v1_updateTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/update',
    summary: 'Change a timer; at least one field',
    description: 'A new duration on the active timer keeps the time already elapsed.',
    optional: timerFieldNames,
    action: (input, ctx) => command({ type: 'timer.update', id: ctx.id, fields: timerFields(input) }),
  }),
  operation({
    operationId: 'v1_deleteTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/delete',
    summary: 'Remove a timer; the last remaining timer is kept (400)',
    action: (_input, ctx) => command({ type: 'timer.delete', id: ctx.id }),
  }),
  operation({
    operationId: 'v1_moveTimer',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/timer/{id}/move',
    summary: 'Addition: move a timer to a 0-based position in the running order',
    required: ['to'],
    action: (input, ctx) => command({ type: 'timer.move', id: ctx.id, to: input.to }),
  }),
  operation({
    operationId: 'v1_setMessage',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/message/set',
    summary: 'Show a message on the screens',
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
    action: () => command({ type: 'message.clear' }),
  }),
  operation({
    operationId: 'v1_settings',
    version: 'v1',
    methods: ['GET', 'POST'],
    path: '/settings',
    summary: 'Addition: room settings; at least one field',
    optional: ['zeroBehavior', 'autoAdvance'],
    action: (input) =>
      command({
        type: 'settings.set',
        ...(input.zeroBehavior === undefined ? {} : { zeroBehavior: input.zeroBehavior }),
        ...(input.autoAdvance === undefined ? {} : { autoAdvance: input.autoAdvance }),
      }),
  }),
];

/** Literal resource paths first: they take precedence over `/{cmd}`. */
export const operations: readonly Operation[] = [...v1Resources, ...v1Commands, ...sharedCommands('v0')];

export function commandNames(version: ApiVersion): string[] {
  return operations.filter((op) => op.version === version && op.isCommand).map((op) => op.path.slice(1));
}
