// A link that goes silent is seen within seconds: the module asks the box for a
// heartbeat every second and counts 3 s of silence as a dead link; on a box
// without its own heartbeat it keeps the old 40 s. On fake time.
import { InstanceStatus } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/commands/openapi.js';
import { LEGACY_SILENCE_MS, LINK_SILENCE_MS, ShowclockConnection } from '../../src/companion/connection.js';
import { fakeBox } from './fake-box.js';
import { FakeHost, waitFor } from './fake-host.js';
import { fakeTime } from './fake-time.js';
import { snapshot } from './snapshots.js';

/** Lets promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function connect(opts: { oldBox?: boolean } = {}) {
  const time = fakeTime(5_000);
  const box = fakeBox('k');
  const host = new FakeHost();
  const streams: string[] = [];
  const oldDoc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
  const events = oldDoc.paths['/api/v1/{api_key}/events'];
  if (events !== undefined) events.get.parameters = events.get.parameters.filter((p) => p.name !== 'heartbeat');
  const boxFetch: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith('/events')) streams.push(url.search);
    if (opts.oldBox === true && url.pathname.endsWith('openapi.json')) return Promise.resolve(Response.json(oldDoc));
    return box.fetch(input, init);
  };
  const connection = new ShowclockConnection(host, { fetch: boxFetch, perfNow: time.perfNow, timers: time.timers, random: () => 0.5 });
  connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
  await waitFor(() => box.streaming(), 5_000, 'the push stream');
  box.push(snapshot());
  await waitFor(() => connection.isConnected(), 5_000, 'connected');
  return { time, box, host, connection, streams };
}

describe('a silent link', () => {
  it('asks for a heartbeat every second and shows the link lost after 3 s of silence', async () => {
    const t = await connect();
    expect(t.streams).toEqual(['?heartbeat=1']);
    t.time.advance(LINK_SILENCE_MS - 1);
    await settle();
    expect(t.connection.isConnected()).toBe(true);
    expect(t.host.status()?.status).toBe(InstanceStatus.Ok);
    t.time.advance(1);
    await waitFor(() => t.host.status()?.status === InstanceStatus.ConnectionFailure, 2_000, 'the lost link');
    expect(t.host.status()?.message).toBe('Unreachable: nothing heard for 3 s; trying again in 1 s');
    expect(t.host.variables.connection).toBe('unreachable');
    t.connection.destroy();
  });

  it('keeps the 40 s rule with a box that beats only every 15 s', async () => {
    const t = await connect({ oldBox: true });
    expect(t.streams).toEqual(['']);
    t.time.advance(LEGACY_SILENCE_MS - 1);
    await settle();
    expect(t.host.status()?.status).toBe(InstanceStatus.Ok);
    t.time.advance(1);
    await waitFor(() => t.host.status()?.status === InstanceStatus.ConnectionFailure, 2_000, 'the lost link');
    t.connection.destroy();
  });

  it('gives up on a stream that opens but never answers after 3 s, and tries again', async () => {
    const time = fakeTime(5_000);
    const box = fakeBox('k');
    const host = new FakeHost();
    let opened = 0;
    const hanging: typeof fetch = (input, init) => {
      if (!String(input).includes('/events')) return box.fetch(input, init);
      opened += 1;
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    };
    const connection = new ShowclockConnection(host, { fetch: hanging, perfNow: time.perfNow, timers: time.timers, random: () => 0.5 });
    connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
    await waitFor(() => opened === 1, 2_000, 'the stream request');
    time.advance(3_000);
    await waitFor(() => host.status()?.status === InstanceStatus.ConnectionFailure, 2_000, 'unreachable');
    expect(host.status()?.message).toBe('Unreachable: no answer in time; trying again in 1 s');
    time.advance(1_000);
    await waitFor(() => opened === 2, 2_000, 'the second try');
    connection.destroy();
  });
});
