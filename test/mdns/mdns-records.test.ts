// What a box advertises (TXT of _showclock._tcp and _http._tcp, host labels) and what
// a browser makes of what it hears (FoundBox), without a network.
import { describe, expect, it } from 'vitest';
import { venueTag } from '../../src/config/venue-config.js';
import { linkName } from '../../src/mdns/ciao-interfaces.js';
import { foundBox, hostLabels, httpTxt, instanceName, orderAddresses, parseTxt, showclockTxt } from '../../src/mdns/mdns-records.js';

const KEY = 'VenueKey_0123456789abcdef';

describe('the records a box advertises', () => {
  it('_showclock._tcp TXT: room, the newest api, every version, path; no venue without a key', () => {
    expect(showclockTxt({ name: 'Main hall', port: 8080, apiVersions: ['v0', 'v1'], venueTag: null })).toEqual({
      room: 'Main hall',
      api: 'v1',
      versions: 'v0,v1',
      path: '/',
    });
  });

  it('with a venue key: venue=<tag>, 12 hex, and nothing of the key', () => {
    const txt = showclockTxt({ name: 'Studio B', port: 80, apiVersions: ['v0', 'v1'], venueTag: venueTag(KEY) });
    expect(txt.venue).toMatch(/^[0-9a-f]{12}$/);
    expect(txt.venue).toBe(venueTag(KEY));
    expect(JSON.stringify(txt)).not.toContain(KEY);
    expect(JSON.stringify(txt)).not.toContain(KEY.slice(0, 8));
  });

  it('_http._tcp TXT: the front door', () => {
    expect(httpTxt()).toEqual({ path: '/' });
  });

  it('a box serving no API version is a mistake, not an empty api=', () => {
    expect(() => showclockTxt({ name: 'x', port: 1, apiVersions: [], venueTag: null })).toThrow();
  });

  it('host labels: two (ciao will not share one between services), without dots, within 48 bytes of whole characters', () => {
    expect(hostLabels('Main hall')).toEqual({ showclock: 'Main hall', http: 'Main hall web' });
    expect(hostLabels('Hall 2.1')).toEqual({ showclock: 'Hall 2-1', http: 'Hall 2-1 web' });
    const long = hostLabels('Salle des fêtes '.repeat(4));
    expect(Buffer.byteLength(long.showclock, 'utf8')).toBeLessThanOrEqual(48);
    expect(long.showclock.startsWith('Salle des fêtes Salle')).toBe(true);
    expect(hostLabels('')).toEqual({ showclock: 'showclock', http: 'showclock web' });
  });

  it('ciao fix: a veth or VLAN name as `ip -o link` prints it loses its peer', () => {
    expect(linkName('eth0@if12')).toBe('eth0');
    expect(linkName('eth0.10@eth0')).toBe('eth0.10');
    expect(linkName('wlan0')).toBe('wlan0');
  });
});

describe('what a browser makes of a box it heard', () => {
  const txt = (...entries: string[]): Buffer[] => entries.map((entry) => Buffer.from(entry, 'utf8'));

  it('a box of ours: name from TXT room, IPv4 first, api and tag', () => {
    expect(
      foundBox({
        fullName: 'Main hall (2)._showclock._tcp.local.',
        port: 8080,
        txt: txt('room=Main hall', 'api=v1', 'versions=v0,v1', 'path=/', `venue=${venueTag(KEY)}`),
        addresses: ['fd00::12', '10.0.0.12'],
      }),
    ).toEqual({ id: 'Main hall (2)._showclock._tcp.local', name: 'Main hall', addresses: ['10.0.0.12', 'fd00::12'], port: 8080, api: 'v1', venueTag: venueTag(KEY) });
  });

  it('no TXT room: the instance name, DNS escapes undone', () => {
    const box = foundBox({ fullName: 'Caf\\195\\169 \\.bar._showclock._tcp.local', port: 80, txt: [], addresses: ['10.0.0.2'] });
    expect(box?.name).toBe('Café .bar');
    expect(box?.api).toBeNull();
    expect(box?.venueTag).toBeNull();
  });

  it('foreign or broken values read as absent: a tag that is not 12 hex, an api that is not vN', () => {
    const box = foundBox({ fullName: 'x._showclock._tcp.local', port: 80, txt: txt('venue=the-key-itself', 'api=latest', 'room=  '), addresses: ['10.0.0.2'] });
    expect(box).toMatchObject({ name: 'x', api: null, venueTag: null });
  });

  it('not a box one can reach: no address, or no usable port', () => {
    expect(foundBox({ fullName: 'x._showclock._tcp.local', port: 80, txt: [], addresses: [] })).toBeNull();
    expect(foundBox({ fullName: 'x._showclock._tcp.local', port: 0, txt: [], addresses: ['10.0.0.2'] })).toBeNull();
    expect(foundBox({ fullName: 'x._showclock._tcp.local', port: 80, txt: [], addresses: ['fe80::1'] })).toBeNull();
  });

  it('TXT: keys case-insensitive, the first wins, a bare key is empty, empty strings skipped', () => {
    expect(parseTxt(txt('Room=A', 'room=B', 'flag', '', 'path=/a=b'))).toEqual({ room: 'A', flag: '', path: '/a=b' });
  });

  it('addresses: IPv4 first, no repeats, link-local IPv6 left out (no zone in a record)', () => {
    expect(orderAddresses(['fe80::1', '2001:db8::5', '10.0.0.5', '10.0.0.5', '192.168.1.5'])).toEqual(['10.0.0.5', '192.168.1.5', '2001:db8::5']);
  });

  it('instance names of another service type are left whole', () => {
    expect(instanceName('Main hall._http._tcp.local')).toBe('Main hall._http._tcp.local');
    expect(instanceName('Main hall._http._tcp.local', '_http._tcp.local')).toBe('Main hall');
  });
});
