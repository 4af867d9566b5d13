// The Companion module offers the boxes found on the network: its manifest asks
// Companion to browse for `_showclock._tcp` (bonjourQueries), under the id of a
// 'bonjour-device' config field; a chosen box's `<address>:<port>` is where the
// connection goes, and the typed host and port count only for Manual.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFields, FOUND_BOX_FIELD, foundBoxAddress, setupOf } from '../../src/companion/config.js';
import { SHOWCLOCK_SERVICE_TYPE } from '../../src/mdns/mdns-records.js';

const manifest = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../src/companion/companion/manifest.json'), 'utf8')) as {
  bonjourQueries?: Record<string, { type: string; protocol: string }>;
};

describe('Companion: found boxes', () => {
  it('the manifest browses for what the box advertises, under the id of a bonjour-device field', () => {
    expect(manifest.bonjourQueries).toEqual({ [FOUND_BOX_FIELD]: { type: SHOWCLOCK_SERVICE_TYPE, protocol: 'tcp' } });
    const field = configFields().find((candidate) => candidate.id === FOUND_BOX_FIELD);
    expect(field?.type).toBe('bonjour-device');
  });

  it('host and port are for Manual: hidden while a found box is chosen', () => {
    for (const id of ['host', 'port']) {
      const field = configFields().find((candidate) => candidate.id === id);
      expect(field?.isVisibleExpression).toBe(`!$(options:${FOUND_BOX_FIELD})`);
    }
  });

  it('a found box wins over what was typed; IPv6 gets brackets', () => {
    expect(setupOf({ bonjourHost: '10.0.0.12:8080', host: 'old.local', port: 9 }, { apiKey: 'k' })).toEqual({
      ok: true,
      target: { origin: 'http://10.0.0.12:8080', apiKey: 'k' },
    });
    expect(setupOf({ bonjourHost: 'fd00::12:8081' }, { apiKey: 'k' })).toMatchObject({ target: { origin: 'http://[fd00::12]:8081' } });
  });

  it('Manual (null or nothing) or a value of another shape: the typed host and port', () => {
    expect(setupOf({ bonjourHost: null, host: 'showclock.local', port: 8080 }, { apiKey: 'k' })).toMatchObject({ target: { origin: 'http://showclock.local:8080' } });
    expect(setupOf({ host: 'showclock.local', port: 8080 }, { apiKey: 'k' })).toMatchObject({ target: { origin: 'http://showclock.local:8080' } });
    expect(foundBoxAddress('no port')).toBeNull();
    expect(foundBoxAddress('10.0.0.1:0')).toBeNull();
    expect(foundBoxAddress('10.0.0.1:70000')).toBeNull();
  });
});
