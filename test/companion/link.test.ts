// Staying connected, in pure parts: the backoff (forever, capped, slow for a wrong
// key), the version check against the service's own OpenAPI document, and the
// connection settings.
import { describe, expect, it } from 'vitest';
import { setupOf } from '../../src/companion/config.js';
import { DEFAULT_BACKOFF, retryDelayMs, type Outcome } from '../../src/companion/link-state.js';
import { judgeOpenApi } from '../../src/companion/version-check.js';
import { buildOpenApiDocument } from '../../src/commands/openapi.js';

describe('retry delays', () => {
  const middle = () => 0.5;
  const unreachable: Outcome = { kind: 'unreachable', reason: 'connection refused' };

  it('doubles from 1 s to a 3 s cap and never stops, so a box back from a reboot is seen within 5 s', () => {
    const delays = [1, 2, 3, 4, 50, 10_000].map((n) => retryDelayMs(unreachable, n, DEFAULT_BACKOFF, middle));
    expect(delays).toEqual([1_000, 2_000, 3_000, 3_000, 3_000, 3_000]);
    expect(retryDelayMs({ kind: 'lost', delivered: true, reason: 'nothing heard for 3 s' }, 1, DEFAULT_BACKOFF, middle)).toBe(1_000);
  });

  it('jitters by up to a quarter either way, never beyond 3.75 s', () => {
    expect(retryDelayMs(unreachable, 2, DEFAULT_BACKOFF, () => 0)).toBe(1_500);
    expect(retryDelayMs(unreachable, 2, DEFAULT_BACKOFF, () => 1)).toBe(2_500);
    expect(retryDelayMs(unreachable, 99, DEFAULT_BACKOFF, () => 1)).toBe(3_750);
  });

  it('waits a minute after a wrong key or a box too old, and the reset time after a 429', () => {
    expect(retryDelayMs({ kind: 'wrong-key', message: 'invalid API key' }, 1, DEFAULT_BACKOFF, middle)).toBe(60_000);
    expect(retryDelayMs({ kind: 'too-old', reason: 'x' }, 9, DEFAULT_BACKOFF, middle)).toBe(60_000);
    expect(retryDelayMs({ kind: 'rate-limited', message: 'x', resetSeconds: 17 }, 1, DEFAULT_BACKOFF, () => 0)).toBe(17_000);
  });
});

describe('version check', () => {
  it("accepts this service's own OpenAPI document and reads its API version", () => {
    expect(judgeOpenApi(200, JSON.parse(JSON.stringify(buildOpenApiDocument())))).toEqual({ ok: true, apiVersion: '1.0.0', ownHeartbeat: true });
  });

  it('tells a box that offers its own heartbeat (/events?heartbeat) from one that beats every 15 s', () => {
    const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    const events = doc.paths['/api/v1/{api_key}/events'];
    if (events === undefined) throw new Error('no events path');
    events.get.parameters = events.get.parameters.filter((p) => p.name !== 'heartbeat');
    expect(judgeOpenApi(200, doc)).toEqual({ ok: true, apiVersion: '1.0.0', ownHeartbeat: false });
  });

  it('says what an older box lacks', () => {
    const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as { paths: Record<string, unknown> };
    delete doc.paths['/api/v1/{api_key}/events'];
    delete doc.paths['/api/v1/{api_key}/toggle'];
    expect(judgeOpenApi(200, doc)).toEqual({ ok: false, reason: 'API 1.0.0 lacks events, toggle' });
    expect(judgeOpenApi(404, { ok: false })).toMatchObject({ ok: false, reason: expect.stringMatching(/predates the push channel/) });
    expect(judgeOpenApi(200, { info: { version: '0.9.0' }, paths: {} })).toMatchObject({ ok: false });
  });
});

describe('connection settings', () => {
  it('builds the origin from host and port, tolerating a pasted URL', () => {
    expect(setupOf({ host: 'showclock.local', port: 8080 }, { apiKey: ' k ' })).toEqual({ ok: true, target: { origin: 'http://showclock.local:8080', apiKey: 'k' } });
    expect(setupOf({ host: 'http://10.0.0.5:9000/control/abc', port: 8080 }, { apiKey: 'k' })).toMatchObject({ target: { origin: 'http://10.0.0.5:9000' } });
    expect(setupOf({ host: 'fe80::1', port: 80 }, { apiKey: 'k' })).toMatchObject({ target: { origin: 'http://[fe80::1]:80' } });
    expect(setupOf({ host: 'h', port: 8080 }, { apiKey: 'http://showclock.local:8080/api/v1/Abc_123-x' })).toMatchObject({ target: { apiKey: 'Abc_123-x' } });
  });

  it('names what is missing', () => {
    expect(setupOf({ host: '', port: 8080 }, { apiKey: 'k' })).toMatchObject({ ok: false, problem: expect.stringMatching(/host/) });
    expect(setupOf({ host: 'h', port: 0 }, { apiKey: 'k' })).toMatchObject({ ok: false, problem: expect.stringMatching(/Port/) });
    expect(setupOf({ host: 'h', port: 8080 }, {})).toMatchObject({ ok: false, problem: expect.stringMatching(/API key/) });
  });
});
