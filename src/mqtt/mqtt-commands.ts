// The commands of MQTT (README "MQTT (Home Assistant)"): a message on
// `{base}/{room}/set/<operation>` names an HTTP v1 operation and its payload is
// read as that operation's input would be over HTTP (commands/input.ts, the
// same parseInput): plain text fills the operation's one field as a query
// parameter would (`set/adjust` `60000` is `POST /adjust?ms=60000`), a JSON
// object is a JSON body (`set/message` `{"text":"5 min","color":"red"}`). So
// MQTT refuses what HTTP refuses, in HTTP's words, and builds the same command
// for the one dispatch (source `mqtt`).
//
// Kept out of dist/showclock-mqtt.cjs: main.ts hands it to the adapter, so the
// side file holds no copy of the shared vocabulary (scripts/build.mjs).
import type { FixedWindowLimiter } from '../app/rate-limit.js';
import { NotDone, type CommandSource, type DispatchResult } from '../app/room-service.js';
import { parseInput } from '../commands/input.js';
import { operations, type Operation } from '../commands/operations.js';
import type { Command } from '../domain/types.js';

export interface MqttCommandDef {
  readonly op: Operation;
  /** The field plain text fills; null: the operation takes no input and the payload is ignored (Home Assistant's button sends PRESS). */
  readonly textField: string | null;
  /** ON/OFF and true/false for a switch: Home Assistant's words. */
  readonly onOff: boolean;
}

function v1(name: string): Operation {
  const op = operations.find((candidate) => candidate.operationId === `v1_${name}`);
  if (op === undefined) throw new Error(`MQTT command table: no HTTP operation v1_${name}`);
  return op;
}

const NAMES: readonly (readonly [name: string, textField: string | null, onOff?: boolean])[] = [
  ['start', null],
  ['pause', null],
  ['stop', null],
  ['toggle', null],
  ['reset', null],
  ['next', null],
  ['previous', null],
  ['adjust', 'ms'],
  ['message', 'text'],
  ['clear_message', null],
  ['onair', 'on', true],
  ['blackout', 'on', true],
  ['toggle_onair', null],
  ['toggle_blackout', null],
  ['show_reset', null],
  ['aux_start', null],
  ['aux_pause', null],
  ['aux_toggle', null],
  ['aux_reset', null],
  ['aux_adjust', 'ms'],
];

let table: ReadonlyMap<string, MqttCommandDef> | null = null;

/** Built at the first command, so a box without MQTT never makes it. */
function commands(): ReadonlyMap<string, MqttCommandDef> {
  table ??= new Map(NAMES.map(([name, textField, onOff]) => [name, { op: v1(name), textField, onOff: onOff === true }]));
  return table;
}

export const MQTT_COMMAND_NAMES: readonly string[] = NAMES.map(([name]) => name);

const ON_WORDS = new Map([
  ['on', '1'],
  ['true', '1'],
  ['1', '1'],
  ['off', '0'],
  ['false', '0'],
  ['0', '0'],
]);

export type MqttResolution =
  | { readonly kind: 'command'; readonly command: Command }
  | { readonly kind: 'refused'; readonly error: string };

/** The command a message on `set/<name>` asks for, or HTTP's words for what is wrong with it. */
export function resolveMqttCommand(name: string, payload: string): MqttResolution {
  const def = commands().get(name);
  if (def === undefined) return { kind: 'refused', error: `unknown command "${name.slice(0, 64)}"; commands: ${MQTT_COMMAND_NAMES.join(', ')}` };
  const trimmed = payload.trim();
  let request: { url: string; contentType: string | undefined; body: string };
  if (def.textField === null) {
    request = { url: 'mqtt:/', contentType: undefined, body: '' };
  } else if (trimmed.startsWith('{')) {
    request = { url: 'mqtt:/', contentType: 'application/json', body: trimmed };
  } else if (def.onOff) {
    const on = trimmed === '' ? undefined : ON_WORDS.get(trimmed.toLowerCase());
    if (trimmed !== '' && on === undefined) {
      return { kind: 'refused', error: `on: must be ON or OFF (or true/false, 1/0); got ${JSON.stringify(trimmed.slice(0, 40))}` };
    }
    request = { url: on === undefined ? 'mqtt:/' : `mqtt:/?on=${on}`, contentType: undefined, body: '' };
  } else {
    // Plain text as a query parameter: a message's text as it was sent, a number trimmed.
    const value = def.textField === 'text' ? payload : trimmed;
    request = { url: `mqtt:/?${def.textField}=${encodeURIComponent(value)}`, contentType: undefined, body: '' };
  }
  const parsed = parseInput(def.op, 'POST', request);
  if (!parsed.ok) return { kind: 'refused', error: parsed.error };
  const action = def.op.toAction(parsed.input, {
    id: '',
    newTimerId: () => {
      throw new Error('no MQTT command creates a timer');
    },
  });
  if (action.kind !== 'command') throw new Error(`MQTT command ${name} maps to a read (${action.kind})`);
  return { kind: 'command', command: action.command };
}

/** The part of the room service commands need. */
export interface MqttCommandTarget {
  dispatch(command: Command, source: CommandSource): DispatchResult;
}

/** What the adapter calls for each command message; `refuse` gets HTTP's words, now or once a save failed. */
export type MqttCommandHandler = (name: string, payload: string, refuse: (error: string) => void) => void;

/**
 * The quota: MQTT has one of its own (`rateLimit` per minute, bucket `mqtt`),
 * not the API key's: the broker is a device the venue trusts and authenticates,
 * and an automation gone wrong must not lock the console and the panels out.
 */
export function mqttCommandHandler(deps: {
  readonly service: MqttCommandTarget;
  readonly limiter: FixedWindowLimiter;
  readonly onAccepted?: (name: string) => void;
}): MqttCommandHandler {
  return (name, payload, refuse) => {
    const decision = deps.limiter.hit('mqtt');
    if (!decision.allowed) {
      refuse(`rate limit exceeded: at most ${deps.limiter.limit} requests per minute; try again in ${decision.resetSeconds} s`);
      return;
    }
    const resolved = resolveMqttCommand(name, payload);
    if (resolved.kind === 'refused') {
      refuse(resolved.error);
      return;
    }
    const { outcome, durable } = deps.service.dispatch(resolved.command, 'mqtt');
    if (!outcome.ok) {
      refuse(outcome.error.message);
      return;
    }
    deps.onAccepted?.(name);
    durable.catch((error: unknown) => refuse(error instanceof NotDone ? error.message : String(error)));
  };
}
