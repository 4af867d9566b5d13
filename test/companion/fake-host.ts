// What the integration tests put in Companion's place: the four InstanceBase
// methods the connection calls (ModuleHost), recorded with the time they came,
// and a fetch that counts every request the module makes.
import type { CompanionVariableValues, InstanceStatus, LogLevel } from '@companion-module/base';
import type { ModuleHost } from '../../src/companion/connection.js';

export interface Stamped<T> {
  readonly at: number;
  readonly value: T;
}

export class FakeHost implements ModuleHost {
  readonly statuses: Stamped<{ status: InstanceStatus; message: string | null }>[] = [];
  readonly variableUpdates: Stamped<CompanionVariableValues>[] = [];
  readonly checks: Stamped<string[]>[] = [];
  readonly logs: Stamped<{ level: LogLevel; message: string }>[] = [];
  readonly variables: CompanionVariableValues = {};

  updateStatus(status: InstanceStatus, message?: string | null): void {
    this.statuses.push({ at: performance.now(), value: { status, message: message ?? null } });
  }

  log(level: LogLevel, message: string): void {
    this.logs.push({ at: performance.now(), value: { level, message } });
  }

  setVariableValues(values: CompanionVariableValues): void {
    this.variableUpdates.push({ at: performance.now(), value: values });
    Object.assign(this.variables, values);
  }

  checkFeedbacks(...feedbackTypes: string[]): void {
    this.checks.push({ at: performance.now(), value: feedbackTypes });
  }

  status(): { status: InstanceStatus; message: string | null } | undefined {
    return this.statuses.at(-1)?.value;
  }

  /** When `feedback` was last asked to be re-checked after `since`; null if not. */
  checkedAfter(feedback: string, since: number): number | null {
    return this.checks.find((c) => c.at >= since && c.value.includes(feedback))?.at ?? null;
  }

  /** When `variable` first had `value` after `since`; null if not. */
  variableAfter(variable: string, value: unknown, since: number): number | null {
    return this.variableUpdates.find((u) => u.at >= since && u.value[variable] === value)?.at ?? null;
  }
}

export interface SeenRequest {
  readonly at: number;
  readonly method: string;
  /** The path with the key taken out: `/api/v1/{key}/start`. */
  readonly path: string;
  readonly body: unknown;
}

/** Node's fetch, counting each request the module makes. */
export function countingFetch(apiKey: string): { fetch: typeof fetch; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
    seen.push({ at: performance.now(), method: init?.method ?? 'GET', path: url.pathname.replace(encodeURIComponent(apiKey), '{key}'), body });
    return fetch(input, init);
  };
  return { fetch: wrapped, seen };
}

/** Polls `probe` every 5 ms until it gives a value other than null/undefined/false. */
export async function waitFor<T>(probe: () => T | null | undefined | false, timeoutMs = 5_000, what = 'condition'): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
