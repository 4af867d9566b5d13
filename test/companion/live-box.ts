// The real service as the module tests reach it beside the module: a command
// straight to its API, as `curl` sends it, and the room as GET /state gives it.
import { expect } from 'vitest';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { ServiceProcess } from '../e2e/service-process.js';

/** A request straight to the API: a GET without a body, else a POST with it as JSON. */
export function direct(service: ServiceProcess, urlPath: string, body?: Record<string, unknown>): Promise<Response> {
  return fetch(`${service.api}${urlPath}`, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

export async function serverState(service: ServiceProcess): Promise<Snapshot> {
  return ((await (await direct(service, '/state')).json()) as { state: Snapshot }).state;
}

/** A command straight to the API, which must succeed; its answer's JSON. */
export async function command(service: ServiceProcess, urlPath: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await direct(service, urlPath, body);
  expect(answer.status, `${urlPath}: ${await answer.clone().text()}`).toBeLessThan(300);
  return (await answer.json()) as Record<string, unknown>;
}
