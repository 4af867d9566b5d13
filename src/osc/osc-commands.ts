// The command table of OSC and plain-text UDP: what comes after
// `/showclock/{api_key}` names an HTTP v1 operation, and the arguments fill its
// fields in order. Each argument becomes the text an HTTP query would carry and
// is validated by that operation's own query schema (commands/input.ts, built from
// commands/fields.ts), so OSC, plain text and HTTP refuse the same inputs with the
// same messages, and the operation builds the same command.
import type * as z from '../schema/zod.js';
import type { Command } from '../domain/types.js';
import type { FieldName } from '../commands/fields.js';
import { describeZodError } from '../commands/zod-error.js';
import { inputSchema } from '../commands/input.js';
import { operations, type Operation } from '../commands/operations.js';
import { isRelease, queryText, type ArgValue } from './arg-value.js';
import { shortened } from './shorten.js';

interface OscCommand {
  /** How the command is written after the key, with `{id}`/`{n}` for a path parameter: for messages and logs. */
  readonly name: string;
  readonly op: Operation;
  /** The fields the arguments fill, in order; the first `required` of them must be given. */
  readonly args: readonly FieldName[];
  readonly required: number;
}

function v1(operationId: string): Operation {
  const op = operations.find((candidate) => candidate.operationId === operationId);
  // A renamed operation must fail the tests at once, not a show.
  if (op === undefined) throw new Error(`OSC command table: no HTTP operation ${operationId}`);
  return op;
}

function plain(name: string, args: readonly FieldName[] = [], required = 0): OscCommand {
  return { name: `/${name}`, op: v1(`v1_${name}`), args, required };
}

/** `/{name}`: the v1 commands the issue lists (less `status`), the show reset and the aux timer's transport. */
const SIMPLE: ReadonlyMap<string, OscCommand> = new Map(
  [
    plain('start'),
    plain('pause'),
    plain('stop'),
    plain('toggle'),
    plain('reset'),
    plain('next'),
    plain('previous'),
    plain('adjust', ['ms'], 1),
    // Positional, so the order is the one a person types: text first, then how it looks.
    plain('message', ['text', 'color', 'flash', 'bold'], 1),
    plain('clear_message'),
    plain('blackout', ['on']),
    plain('onair', ['on']),
    plain('toggle_blackout'),
    plain('toggle_onair'),
    // A new run of the show: the recorded actual times cleared, the first timer ready.
    plain('show_reset'),
    // The second timer's transport, named as v1 names it.
    plain('aux_start'),
    plain('aux_pause'),
    plain('aux_toggle'),
    plain('aux_reset'),
    plain('aux_adjust', ['ms'], 1),
  ].map((command) => [command.name.slice(1), command]),
);

const SELECT_BY_ID: OscCommand = { name: '/timer/{id}/select', op: v1('v1_selectTimer'), args: [], required: 0 };
const SELECT_BY_INDEX: OscCommand = { name: '/timer/index/{n}/select', op: v1('v1_selectTimer'), args: [], required: 0 };
const SETTINGS: ReadonlyMap<string, OscCommand> = new Map(
  (['zeroBehavior', 'autoAdvance'] as const).map((field) => [field, { name: `/settings/${field}`, op: v1('v1_settings'), args: [field], required: 1 }]),
);

/**
 * `/aux/{field}`: one of the aux timer's set-up fields (v1 `/aux`), one value per
 * address as a fader or a text field sends it, as for the settings.
 */
const AUX_SET: ReadonlyMap<string, OscCommand> = new Map(
  (['duration', 'appearance', 'label'] as const).map((field) => [field, { name: `/aux/${field}`, op: v1('v1_aux'), args: [field], required: 1 }]),
);

/** Every command, as the message for an unknown one lists them. */
export const OSC_COMMAND_NAMES: readonly string[] = [
  ...[...SIMPLE.values()].map((command) => command.name),
  SELECT_BY_ID.name,
  SELECT_BY_INDEX.name,
  ...[...SETTINGS.values()].map((command) => command.name),
  ...[...AUX_SET.values()].map((command) => command.name),
];

export type Resolution =
  | { readonly kind: 'command'; readonly name: string; readonly command: Command }
  /** A push button's release (see isRelease): nothing to do, and nothing wrong. */
  | { readonly kind: 'release'; readonly name: string }
  | { readonly kind: 'unknown-command'; readonly error: string }
  /** `name` is the command's, so a log can group its problems without repeating what was sent. */
  | { readonly kind: 'bad-input'; readonly name: string; readonly error: string };

/** What a command needs to know of the room: the running order, for `/timer/index/{n}/select`. */
export interface RunningOrder {
  readonly timers: readonly { readonly id: string }[];
}

function unknownCommand(path: readonly string[]): Resolution {
  const given = shortened(`/${path.join('/')}`);
  return { kind: 'unknown-command', error: `unknown command "${given}"; commands: ${OSC_COMMAND_NAMES.join(', ')}` };
}

const INDEX_PATTERN = /^\d{1,6}$/;

/**
 * The timer at a 1-based position, as panels count. HTTP has no such field (it
 * takes ids), so this is the one rule of its own here.
 */
function timerAtIndex(text: string, order: RunningOrder): { ok: true; id: string } | { ok: false; error: string } {
  const count = order.timers.length;
  const hint = `the timer's 1-based position in the running order, 1 to ${count}, e.g. /timer/index/1/select for the first`;
  if (!INDEX_PATTERN.test(text) || Number(text) < 1) return { ok: false, error: `index: must be ${hint}; got ${JSON.stringify(shortened(text))}` };
  const timer = order.timers[Number(text) - 1];
  if (timer === undefined) return { ok: false, error: `index: no timer at position ${Number(text)}: the running order has ${count}; give ${hint}` };
  return { ok: true, id: timer.id };
}

function find(path: readonly string[], order: RunningOrder): { command: OscCommand; id: string } | { error: Resolution } {
  const [first, second, third, fourth, ...rest] = path;
  if (first === undefined) return { error: unknownCommand(path) };
  if (path.length === 1) {
    const command = SIMPLE.get(first);
    return command === undefined ? { error: unknownCommand(path) } : { command, id: '' };
  }
  if (first === 'settings' && path.length === 2 && second !== undefined) {
    const command = SETTINGS.get(second);
    return command === undefined ? { error: unknownCommand(path) } : { command, id: '' };
  }
  if (first === 'aux' && path.length === 2 && second !== undefined) {
    const command = AUX_SET.get(second);
    return command === undefined ? { error: unknownCommand(path) } : { command, id: '' };
  }
  if (first === 'timer' && path.length === 3 && second !== undefined && second !== '' && third === 'select') {
    return { command: SELECT_BY_ID, id: second };
  }
  if (first === 'timer' && second === 'index' && fourth === 'select' && third !== undefined && rest.length === 0) {
    const found = timerAtIndex(third, order);
    return found.ok ? { command: SELECT_BY_INDEX, id: found.id } : { error: { kind: 'bad-input', name: SELECT_BY_INDEX.name, error: found.error } };
  }
  return { error: unknownCommand(path) };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function tooManyArguments(command: OscCommand, given: number): string {
  const most = command.args.length;
  const takes = command.required === most ? plural(most, 'argument') : `at most ${plural(most, 'argument')}`;
  return `${command.name} takes ${takes} (${command.args.join(', ')}); got ${given}`;
}

const schemas = new Map<OscCommand, z.ZodMiniObject>();

/**
 * The operation's own query schema (commands/input.ts), with the fields this command
 * fills; OSC makes the settings' one field required. A field of a type no
 * command takes is already named, so it is left out rather than also "required".
 */
function schemaFor(command: OscCommand, broken: ReadonlyMap<FieldName, string>): z.ZodMiniObject {
  // In the operation's order of fields, so the problems are named in HTTP's order.
  const inOrder = [...command.op.required, ...command.op.optional].filter((field) => command.args.includes(field) && !broken.has(field));
  const mustGive = new Set(command.args.slice(0, command.required));
  const build = () =>
    inputSchema(
      { ...command.op, required: inOrder.filter((field) => mustGive.has(field)), optional: inOrder.filter((field) => !mustGive.has(field)) },
      'query',
    );
  if (broken.size > 0) return build();
  let schema = schemas.get(command);
  if (schema === undefined) {
    schema = build();
    schemas.set(command, schema);
  }
  return schema;
}

const noNewTimers = (): string => {
  throw new Error('no OSC command creates a timer');
};

/**
 * The command for a path (the address after the key, split at `/`) and its
 * arguments, or what is wrong with them. A command that takes no argument
 * ignores any it is given (a surface's button sends its value), except that a
 * first argument 0 or false is that button's release and does nothing.
 */
export function resolveCommand(path: readonly string[], args: readonly ArgValue[], order: RunningOrder): Resolution {
  // A trailing slash names the same command.
  const trimmed = path.length > 1 && path[path.length - 1] === '' ? path.slice(0, -1) : path;
  const found = find(trimmed, order);
  if ('error' in found) return found.error;
  const { command, id } = found;
  if (command.args.length === 0 && isRelease(args[0])) return { kind: 'release', name: command.name };
  if (command.args.length > 0 && args.length > command.args.length) {
    return { kind: 'bad-input', name: command.name, error: tooManyArguments(command, args.length) };
  }
  const raw: Record<string, string> = {};
  const broken = new Map<FieldName, string>();
  command.args.forEach((field, index) => {
    const value = args[index];
    if (value === undefined) return;
    const text = queryText(value);
    if (text !== null) raw[field] = text;
    else if (typeof value === 'object') broken.set(field, `${field}: an OSC ${value.unsupported} is not taken here; send an int, a float with a whole value, a string, or true/false`);
  });
  const parsed = schemaFor(command, broken).safeParse(raw);
  const problems = [...broken.values(), ...(parsed.success ? [] : [describeZodError(parsed.error)])];
  if (!parsed.success || problems.length > 0) return { kind: 'bad-input', name: command.name, error: problems.join('; ') };
  const action = command.op.toAction(parsed.data, { id, newTimerId: noNewTimers });
  if (action.kind !== 'command') throw new Error(`OSC command ${command.name} maps to a read (${action.kind})`);
  return { kind: 'command', name: command.name, command: action.command };
}
