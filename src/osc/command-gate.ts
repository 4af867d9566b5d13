// What every UDP command goes through, OSC or plain text, in the order HTTP checks
// (decisions.md): the key, then the quota, then the command and its arguments,
// then the same dispatch as HTTP and the buttons. A valid key spends the room's
// quota, the one HTTP v0 and v1 spend; a wrong one is counted per sender address
// in the bucket HTTP uses for wrong keys, and a right one marks its sender as one
// that may be answered (proven-senders.ts). Nothing here throws: a refusal is
// handed to the transport, which logs it (throttled) and may answer the sender,
// with any long argument it quotes shortened (shorten.ts).
import { NotDone, type CommandSource, type DispatchResult } from '../app/room-service.js';
import type { Command } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { FixedWindowLimiter } from '../app/rate-limit.js';
import { sameSecret } from '../app/secret-match.js';
import { queryText, type ArgValue } from './arg-value.js';
import { resolveCommand, type RunningOrder } from './osc-commands.js';
import type { ProvenSenders } from './proven-senders.js';
import { withShortValues } from './shorten.js';
import type { UdpSender } from './udp-listener.js';

export type UdpSource = Extract<CommandSource, 'osc' | 'udp-text'>;

/** What a message asks, as the transport read it: the key, the command's path, the arguments. */
export interface Incoming {
  readonly key: string;
  /** The address after the key, split at `/`: `['timer', 'index', '2', 'select']`. */
  readonly path: readonly string[];
  readonly args: readonly ArgValue[];
}

export interface Refusal {
  readonly kind: 'wrong-key' | 'rate-limit' | 'unknown-command' | 'bad-input' | 'refused' | 'not-done';
  readonly command?: string;
  readonly error: string;
}

/** The part of the room service the gate needs. */
export interface CommandTarget {
  readonly room: RunningOrder;
  dispatch(command: Command, source: CommandSource): DispatchResult;
}

export interface GateDeps {
  readonly service: CommandTarget;
  /** Read at every message, so a rotated key works at once. */
  readonly apiKey: () => string;
  readonly limiter: FixedWindowLimiter;
  /** Where a message with the right key marks its sender as answerable. */
  readonly proven: ProvenSenders;
  readonly logger: Logger;
}

/** The text of every argument and address part, as a message may quote it. */
function sentValues(incoming: Incoming): string[] {
  const args = incoming.args.map(queryText).filter((text): text is string => text !== null);
  return [...incoming.path, ...args];
}

/** HTTP's wording, so a person reads the same thing wherever the command came from. */
const WRONG_KEY = 'invalid API key: use the key shown in the control room (npm run key prints it)';

export class CommandGate {
  readonly #deps: GateDeps;

  constructor(deps: GateDeps) {
    this.#deps = deps;
  }

  handle(incoming: Incoming, source: UdpSource, sender: UdpSender, refuseAsIs: (refusal: Refusal) => void): void {
    const { limiter } = this.#deps;
    const from = sender.address;
    const apiKey = this.#deps.apiKey();
    const valid = incoming.key.length > 0 && sameSecret(incoming.key, apiKey);
    if (valid) this.#deps.proven.prove(sender);
    // What a refusal quotes of the message (an argument, a timer id) is shown shortened.
    const refuse = (refusal: Refusal) => refuseAsIs({ ...refusal, error: withShortValues(refusal.error, sentValues(incoming)) });
    const decision = limiter.hit(valid ? 'room' : `address:${from}`);
    if (!decision.allowed) {
      refuse({ kind: 'rate-limit', error: `rate limit exceeded: at most ${limiter.limit} requests per minute; try again in ${decision.resetSeconds} s` });
      return;
    }
    if (!valid) {
      refuse({ kind: 'wrong-key', error: WRONG_KEY });
      return;
    }
    const resolved = resolveCommand(incoming.path, incoming.args, this.#deps.service.room);
    switch (resolved.kind) {
      case 'unknown-command':
        refuse({ kind: 'unknown-command', error: resolved.error });
        return;
      case 'bad-input':
        refuse({ kind: 'bad-input', command: resolved.name, error: resolved.error });
        return;
      case 'release':
        return;
      case 'command':
        this.#dispatch(resolved.command, resolved.name, source, from, refuse);
        return;
      default: {
        const unknown: never = resolved;
        throw new Error(`unhandled resolution ${JSON.stringify(unknown)}`);
      }
    }
  }

  #dispatch(command: Command, name: string, source: UdpSource, from: string, refuse: (refusal: Refusal) => void): void {
    const { outcome, durable } = this.#deps.service.dispatch(command, source);
    if (!outcome.ok) {
      refuse({ kind: 'refused', command: name, error: outcome.error.message });
      return;
    }
    // Like a request line: every accepted command is logged (the quota bounds how many).
    this.#deps.logger.info({ source, command: name, from }, 'command');
    // Resolved at once, except while the reserve on disk is used up or the service is stopping.
    durable.catch((error: unknown) => {
      refuse({ kind: 'not-done', command: name, error: error instanceof NotDone ? error.message : String(error) });
    });
  }
}
