// When the advertisement starts afresh: an interface that was there with no IPv4
// address (only its IPv6 link-local one, as a Pi's at boot before DHCP) and has one now.
import { describe, expect, it } from 'vitest';
import { interfacesGainingIpv4, ipv4ByInterface } from '../../src/mdns/advertiser.js';

const v6 = { family: 'IPv6', internal: false, address: 'fe80::1' };
const v4 = (address: string) => ({ family: 'IPv4', internal: false, address });

describe('interfaces gaining an IPv4 address', () => {
  it('reads the first IPv4 address of each interface, loopback left out', () => {
    expect(
      ipv4ByInterface({ lo: [{ family: 'IPv4', internal: true, address: '127.0.0.1' }], eth0: [v6, v4('10.0.0.5')], wlan0: [v6], usb0: [{ family: 4, internal: false, address: '192.168.7.2' }] }),
    ).toEqual(
      new Map([
        ['eth0', '10.0.0.5'],
        ['wlan0', null],
        ['usb0', '192.168.7.2'],
      ]),
    );
  });

  it('there without IPv4, with it now: start afresh for it', () => {
    expect(interfacesGainingIpv4(new Map([['eth0', null]]), new Map([['eth0', '10.0.0.5']]))).toEqual(['eth0']);
  });

  it('new interfaces with an address, a changed address, a lost one, nothing new: ciao follows those itself', () => {
    expect(interfacesGainingIpv4(new Map(), new Map([['wlan0', '10.0.0.6']]))).toEqual([]);
    expect(interfacesGainingIpv4(new Map([['eth0', '10.0.0.5']]), new Map([['eth0', '10.0.0.9']]))).toEqual([]);
    expect(interfacesGainingIpv4(new Map([['eth0', '10.0.0.5']]), new Map([['eth0', null]]))).toEqual([]);
    expect(interfacesGainingIpv4(new Map([['eth0', null]]), new Map([['eth0', null]]))).toEqual([]);
  });
});
