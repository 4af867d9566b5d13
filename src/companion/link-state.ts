// Where the module stands with the box, how Companion's connection status shows
// it, and how long to wait before the next try. The module never gives up (a
// box may come back at any time during a show) and tries at least every 3 s
// (3.75 s with jitter), so a box that returns after a reboot is on the keys again
// within 5 s of answering. A wrong key or a box that is too old is tried only
// once a minute: retrying faster cannot fix either, and a wrong key counts
// against the box's per-address quota.
import { InstanceStatus } from '@companion-module/base';

export type LinkState =
  | { readonly kind: 'not-configured'; readonly problem: string }
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected'; readonly apiVersion: string }
  | { readonly kind: 'unreachable'; readonly reason: string; readonly retryInMs: number }
  | { readonly kind: 'wrong-key'; readonly message: string; readonly retryInMs: number }
  | { readonly kind: 'rate-limited'; readonly message: string; readonly retryInMs: number }
  | { readonly kind: 'too-old'; readonly reason: string; readonly retryInMs: number };

/** How one try to connect ended. `delivered`: the stream carried a snapshot before it ended. */
export type Outcome =
  | { readonly kind: 'lost'; readonly delivered: boolean; readonly reason: string }
  | { readonly kind: 'unreachable'; readonly reason: string }
  | { readonly kind: 'wrong-key'; readonly message: string }
  | { readonly kind: 'rate-limited'; readonly message: string; readonly resetSeconds: number | null }
  | { readonly kind: 'too-old'; readonly reason: string };

export interface Backoff {
  readonly firstMs: number;
  readonly maxMs: number;
  /** For a wrong key and a box that is too old. */
  readonly slowMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 3_000, slowMs: 60_000 };

/**
 * The wait before the next try. `failures` counts the tries in a row that did not
 * connect, this one included (1 after the first). Capped doubling with ±25 %
 * jitter, so a room of Companions does not come back in lockstep after a restart.
 */
export function retryDelayMs(outcome: Outcome, failures: number, backoff: Backoff, random: () => number): number {
  switch (outcome.kind) {
    case 'wrong-key':
    case 'too-old':
      return backoff.slowMs;
    case 'rate-limited':
      // The box says when its window ends; a little after that, never before.
      return Math.max(1, outcome.resetSeconds ?? 60) * 1000 + Math.round(random() * 500);
    case 'lost':
    case 'unreachable': {
      const capped = Math.min(backoff.maxMs, backoff.firstMs * Math.pow(2, Math.max(0, failures - 1)));
      return Math.round(capped * (0.75 + random() * 0.5));
    }
    default: {
      const unknown: never = outcome;
      throw new Error(`unhandled outcome ${JSON.stringify(unknown)}`);
    }
  }
}

/** The state to show while waiting `retryInMs` after `outcome`. */
export function linkAfter(outcome: Outcome, retryInMs: number): LinkState {
  switch (outcome.kind) {
    case 'lost':
    case 'unreachable':
      return { kind: 'unreachable', reason: outcome.reason, retryInMs };
    case 'wrong-key':
      return { kind: 'wrong-key', message: outcome.message, retryInMs };
    case 'rate-limited':
      return { kind: 'rate-limited', message: outcome.message, retryInMs };
    case 'too-old':
      return { kind: 'too-old', reason: outcome.reason, retryInMs };
    default: {
      const unknown: never = outcome;
      throw new Error(`unhandled outcome ${JSON.stringify(unknown)}`);
    }
  }
}

const seconds = (ms: number): string => `${Math.max(1, Math.round(ms / 1000))} s`;

/** Companion's connection status and its message. */
export function statusOf(link: LinkState): { readonly status: InstanceStatus; readonly message: string } {
  switch (link.kind) {
    case 'not-configured':
      return { status: InstanceStatus.BadConfig, message: link.problem };
    case 'connecting':
      return { status: InstanceStatus.Connecting, message: 'Connecting to Showclock' };
    case 'connected':
      return { status: InstanceStatus.Ok, message: `Connected (Showclock API ${link.apiVersion})` };
    case 'unreachable':
      return { status: InstanceStatus.ConnectionFailure, message: `Unreachable: ${link.reason}; trying again in ${seconds(link.retryInMs)}` };
    case 'wrong-key':
      return { status: InstanceStatus.AuthenticationFailure, message: `Wrong API key: ${link.message}` };
    case 'rate-limited':
      return { status: InstanceStatus.UnknownWarning, message: `Rate-limited: ${link.message}; trying again in ${seconds(link.retryInMs)}` };
    case 'too-old':
      return { status: InstanceStatus.ConnectionFailure, message: `Showclock is too old for this module: ${link.reason}. Update Showclock.` };
    default: {
      const unknown: never = link;
      throw new Error(`unhandled link state ${JSON.stringify(unknown)}`);
    }
  }
}

/** The `connection` variable: one short word or two, for a button. */
export function connectionWord(link: LinkState): string {
  switch (link.kind) {
    case 'not-configured':
      return 'not configured';
    case 'connecting':
      return 'connecting';
    case 'connected':
      return 'connected';
    case 'unreachable':
      return 'unreachable';
    case 'wrong-key':
      return 'wrong key';
    case 'rate-limited':
      return 'rate-limited';
    case 'too-old':
      return 'too old';
    default: {
      const unknown: never = link;
      throw new Error(`unhandled link state ${JSON.stringify(unknown)}`);
    }
  }
}
