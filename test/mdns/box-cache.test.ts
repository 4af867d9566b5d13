// The browser's memory of other boxes (box-cache.ts), fed with records as multicast-dns
// decodes them and a time given by the test: found, updated, gone by goodbye and by expiry.
import { describe, expect, it } from 'vitest';
import { BoxCache, type HeardRecord } from '../../src/mdns/box-cache.js';

const SERVICE = '_showclock._tcp.local';

function announcement(name: string, opts: { host?: string; port?: number; address?: string; ttl?: number; addressTtl?: number; txt?: string[] } = {}): HeardRecord[] {
  const fullName = `${name}.${SERVICE}`;
  const host = opts.host ?? `${name.replace(/ /g, '-')}.local`;
  const ttl = opts.ttl ?? 4500;
  return [
    { type: 'PTR', name: SERVICE, ttl, data: fullName },
    { type: 'SRV', name: fullName, ttl: opts.ttl ?? 120, data: { port: opts.port ?? 8080, target: host } },
    { type: 'TXT', name: fullName, ttl, data: (opts.txt ?? [`room=${name}`, 'api=v1', 'versions=v0,v1', 'path=/']).map((entry) => Buffer.from(entry)) },
    { type: 'A', name: host, ttl: opts.addressTtl ?? opts.ttl ?? 120, flush: true, data: opts.address ?? '10.0.0.5' },
  ];
}

const goodbye = (records: HeardRecord[]): HeardRecord[] => records.map((record) => ({ ...record, ttl: 0 }) as HeardRecord);

describe('BoxCache', () => {
  it('an announcement makes a box found, once; the same again changes nothing', () => {
    const cache = new BoxCache();
    const events = cache.hear(announcement('Main hall'), 0);
    expect(events).toEqual([
      { kind: 'found', box: { id: `Main hall.${SERVICE}`, name: 'Main hall', addresses: ['10.0.0.5'], port: 8080, api: 'v1', venueTag: null } },
    ]);
    expect(cache.hear(announcement('Main hall'), 1_000)).toEqual([]);
    expect(cache.boxes().map((box) => box.name)).toEqual(['Main hall']);
  });

  it('a new address (cache-flush) or a new TXT: updated', () => {
    const cache = new BoxCache();
    cache.hear(announcement('Main hall'), 0);
    expect(cache.hear(announcement('Main hall', { address: '10.0.0.9' }), 1_000)).toMatchObject([{ kind: 'updated', box: { addresses: ['10.0.0.9'] } }]);
    expect(cache.hear(announcement('Main hall', { address: '10.0.0.9', txt: ['room=Main hall', 'api=v1', 'venue=0123456789ab'] }), 2_000)).toMatchObject([
      { kind: 'updated', box: { venueTag: '0123456789ab' } },
    ]);
  });

  it('a goodbye (TTL 0) makes it gone at once, reported as it was last seen', () => {
    const cache = new BoxCache();
    cache.hear(announcement('Main hall'), 0);
    cache.hear(announcement('Studio B', { address: '10.0.0.6' }), 0);
    const events = cache.hear(goodbye(announcement('Main hall')), 5_000);
    expect(events).toMatchObject([{ kind: 'gone', box: { name: 'Main hall', addresses: ['10.0.0.5'] } }]);
    expect(cache.boxes().map((box) => box.name)).toEqual(['Studio B']);
    // Back after a restart: found again.
    expect(cache.hear(announcement('Main hall'), 9_000)).toMatchObject([{ kind: 'found' }]);
  });

  it('unplugged, no goodbye: gone when its address records expire, not before', () => {
    const cache = new BoxCache();
    cache.hear(announcement('Main hall', { ttl: 4500, addressTtl: 120 }), 0);
    expect(cache.expire(119_000)).toEqual([]);
    expect(cache.expire(120_000)).toMatchObject([{ kind: 'gone', box: { name: 'Main hall' } }]);
    expect(cache.boxes()).toEqual([]);
  });

  it('refreshed records keep a box: an answer to the next question moves the expiry on', () => {
    const cache = new BoxCache();
    cache.hear(announcement('Main hall', { ttl: 120 }), 0);
    cache.hear(announcement('Main hall', { ttl: 120 }), 60_000);
    expect(cache.expire(150_000)).toEqual([]);
  });

  it('its own names are never reported', () => {
    const cache = new BoxCache((id) => id === `main hall.${SERVICE}`);
    expect(cache.hear(announcement('Main hall'), 0)).toEqual([]);
    expect(cache.hear(announcement('Studio B'), 0)).toMatchObject([{ kind: 'found', box: { name: 'Studio B' } }]);
  });

  it('a PTR alone is not yet a box: the browser is told what to ask for', () => {
    const cache = new BoxCache();
    const [ptr, srv, txt, a] = announcement('Main hall');
    expect(cache.hear([ptr!], 0)).toEqual([]);
    expect(cache.missing()).toEqual({ instances: [`Main hall.${SERVICE}`], hosts: [] });
    expect(cache.hear([srv!, txt!], 10)).toEqual([]);
    expect(cache.missing()).toEqual({ instances: [], hosts: ['Main-hall.local'] });
    expect(cache.hear([a!], 20)).toMatchObject([{ kind: 'found' }]);
    expect(cache.missing()).toEqual({ instances: [], hosts: [] });
  });

  it('other service types and records of unknown instances are ignored', () => {
    const cache = new BoxCache();
    expect(
      cache.hear(
        [
          { type: 'PTR', name: '_http._tcp.local', ttl: 4500, data: 'Printer._http._tcp.local' },
          { type: 'SRV', name: 'Printer._http._tcp.local', ttl: 120, data: { port: 80, target: 'printer.local' } },
          { type: 'A', name: 'printer.local', ttl: 120, data: '10.0.0.99' },
        ],
        0,
      ),
    ).toEqual([]);
    expect(cache.boxes()).toEqual([]);
  });

  it('names compare without case or a trailing dot, as DNS does', () => {
    const cache = new BoxCache();
    cache.hear(announcement('Main hall'), 0);
    expect(cache.hear([{ type: 'PTR', name: '_SHOWCLOCK._tcp.local.', ttl: 0, data: `MAIN HALL.${SERVICE}.` }], 1_000)).toMatchObject([{ kind: 'gone' }]);
  });
});
