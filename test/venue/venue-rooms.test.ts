// The venue's rooms as the overview sees them (src/venue/venue-rooms.ts, venue-overview.ts):
// this room, listed rooms and found ones merged into tiles; a found box of this venue
// watched with the venue key, a foreign one shown but not watched, this box's own
// advertisement left out, a listed room found by mDNS one tile; changes sent coalesced.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RoomService } from '../../src/app/room-service.js';
import { parseVenueRoomLink, venueTag, type VenueRoomLink } from '../../src/config/venue-config.js';
import { createRoom } from '../../src/domain/room.js';
import type { VenueTiles } from '../../src/client/venue-tile.js';
import { startVenue, type FoundBox } from '../../src/venue/venue-overview.js';
import { FakeClock } from '../helpers/test-app.js';
import { fakeRemote, stateEventText, viewerSnapshot } from './fake-remote.js';

const VENUE_KEY = 'VenueKeyForTheTests_0123456789';
const TAG = venueTag(VENUE_KEY);
const LISTED = parseVenueRoomLink('http://10.0.0.12:8080/view/ViewerKeyOfHallA_0123456789') as VenueRoomLink;

function box(fields: Partial<FoundBox>): FoundBox {
  return { id: 'Hall C._showclock._tcp.local', name: 'Hall C', addresses: ['10.0.0.14'], port: 8080, api: 'v1', venueTag: TAG, ...fields };
}

const pass = (ms: number): Promise<void> => vi.advanceTimersByTimeAsync(ms).then(() => undefined);

function setUp() {
  const clock = new FakeClock();
  const service = new RoomService({ initialRoom: createRoom('t1'), clock, scheduler: clock.scheduler });
  service.start();
  const remote = fakeRemote();
  remote.proofKey = VENUE_KEY;
  const venue = startVenue({
    config: { name: 'Hall B', advertise: false, key: VENUE_KEY, rooms: [LISTED] },
    room: service,
    port: 8080,
    io: remote.io,
    ownAddresses: () => ['127.0.0.1', '10.0.0.11'],
  });
  if (venue === null) throw new Error('no venue');
  const lists: VenueTiles[] = [];
  venue.open();
  return { service, remote, venue, lists };
}

describe('the venue rooms', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-27T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts with this room and the listed ones, watched with the listed viewer key; nothing without a venue key', async () => {
    expect(startVenue({ config: { name: 'x', advertise: false, key: undefined, rooms: [LISTED] }, room: setUp().service, port: 1 })).toBeNull();
    const { venue, remote } = setUp();
    await pass(0);
    expect(remote.streams.map((s) => s.url)).toEqual(['http://10.0.0.12:8080/view/ViewerKeyOfHallA_0123456789/events?heartbeat=1']);
    const tiles = venue.tiles().tiles;
    expect(tiles.map((t) => [t.id, t.kind, t.status, t.name])).toEqual([
      ['self', 'self', 'live', 'Hall B'],
      ['listed:http://10.0.0.12:8080', 'listed', 'connecting', '10.0.0.12:8080'],
    ]);
    expect(tiles[0]?.snapshot?.activeTimerId).toBeDefined();
    // No tile carries a key: the listed room's front door, not its viewer link.
    expect(JSON.stringify(tiles)).not.toContain('ViewerKeyOfHallA');
    expect(tiles[1]?.frontDoor).toBe('http://10.0.0.12:8080/');
    venue.close();
  });

  it('watches a found box of this venue with the venue key; shows a foreign one unwatched; leaves out its own advertisement', async () => {
    const { venue, remote } = setUp();
    await pass(0);
    venue.found(box({}));
    venue.found(box({ id: 'Lobby._showclock._tcp.local', name: 'Lobby', addresses: ['10.0.0.20'], venueTag: 'abcdefabcdef' }));
    venue.found(box({ id: 'Other._showclock._tcp.local', name: 'Other', addresses: ['10.0.0.21'], venueTag: null }));
    venue.found(box({ id: 'Hall B._showclock._tcp.local', name: 'Hall B', addresses: ['10.0.0.11'], port: 8080 }));
    await pass(0);
    expect(remote.streams.map((s) => s.url)).toEqual([
      'http://10.0.0.12:8080/view/ViewerKeyOfHallA_0123456789/events?heartbeat=1',
      `http://10.0.0.14:8080/view/${VENUE_KEY}/events?heartbeat=1`,
    ]);
    remote.streams[1]?.send(stateEventText(viewerSnapshot({ activeLabel: 'Panel' })));
    await pass(0);
    const tiles = venue.tiles().tiles;
    expect(tiles.map((t) => [t.name, t.kind, t.status])).toEqual([
      ['Hall B', 'self', 'live'],
      ['10.0.0.12:8080', 'listed', 'connecting'],
      ['Hall C', 'found', 'live'],
      ['Lobby', 'foreign', 'foreign'],
      ['Other', 'foreign', 'foreign'],
    ]);
    expect(tiles[2]?.snapshot?.activeLabel).toBe('Panel');
    expect(tiles[3]?.message).toBe('found on the network, not of this venue (another venue key, or none)');
    expect(tiles[3]?.frontDoor).toBe('http://10.0.0.20:8080/');
    expect(tiles[3]?.snapshot).toBeNull();
    expect(JSON.stringify(tiles)).not.toContain(VENUE_KEY);
    // Gone: a foreign box leaves the overview; one of this venue stays, shown as its stream shows it.
    venue.gone('Lobby._showclock._tcp.local');
    venue.gone('Hall C._showclock._tcp.local');
    remote.streams[1]?.close();
    await pass(0);
    expect(venue.tiles().tiles.map((t) => [t.name, t.status])).toEqual([
      ['Hall B', 'live'],
      ['10.0.0.12:8080', 'connecting'],
      ['Hall C', 'lost'],
      ['Other', 'foreign'],
    ]);
    venue.close();
  });

  it('sends the venue key to a found box only once it proved it holds the key at the address it was reached at', async () => {
    const { venue, remote } = setUp();
    await pass(0);
    // A machine advertising the venue's tag without the key.
    remote.proofKey = 'SomeOtherKeyEntirely_0123456789';
    venue.found(box({}));
    await pass(0);
    let tile = venue.tiles().tiles[2];
    expect(tile?.status).toBe('refused');
    expect(tile?.message).toMatch(/did not prove it holds the venue key, so the key was not sent/);
    expect(remote.requests.filter((url) => url.includes('10.0.0.14')).every((url) => !url.includes(VENUE_KEY))).toBe(true);
    // One relaying a real box's proof: made for that box's address, not the address asked.
    remote.proofKey = VENUE_KEY;
    remote.proofHost = '10.0.0.99:8080';
    await pass(10_000);
    tile = venue.tiles().tiles[2];
    expect(tile?.status).toBe('refused');
    expect(remote.requests.filter((url) => url.includes('10.0.0.14')).every((url) => !url.includes(VENUE_KEY))).toBe(true);
    // The real thing: proven, then watched with the key.
    remote.proofHost = null;
    await pass(10_000);
    expect(remote.streams.filter((stream) => stream.url.includes('10.0.0.14')).map((stream) => stream.url)).toEqual([
      `http://10.0.0.14:8080/view/${VENUE_KEY}/events?heartbeat=1`,
    ]);
    venue.close();
  });

  it('takes only IP addresses and a port from an advertisement: nothing else makes a tile or a link', async () => {
    const { venue } = setUp();
    venue.found(box({ id: 'x1', addresses: ['evil.example/#'], venueTag: null }));
    venue.found(box({ id: 'x2', addresses: ['10.0.0.30'], port: 0, venueTag: null }));
    venue.found(box({ id: 'x3', addresses: ['javascript:alert(1)', '10.0.0.31'], venueTag: null }));
    await pass(0);
    expect(venue.tiles().tiles.slice(2).map((t) => t.frontDoor)).toEqual(['http://10.0.0.31:8080/']);
    venue.close();
  });

  it('a listed room that mDNS also finds is one tile, watched with the listed key, named as advertised until it names itself', async () => {
    const { venue, remote } = setUp();
    await pass(0);
    venue.found(box({ id: 'Hall A._showclock._tcp.local', name: 'Hall A (mDNS)', addresses: ['10.0.0.12', 'fe80::1'] }));
    await pass(0);
    expect(remote.streams).toHaveLength(1);
    let tiles = venue.tiles().tiles;
    expect(tiles.map((t) => [t.id, t.name])).toEqual([
      ['self', 'Hall B'],
      ['listed:http://10.0.0.12:8080', 'Hall A (mDNS)'],
    ]);
    remote.streams[0]?.send(stateEventText(viewerSnapshot()));
    await pass(500);
    tiles = venue.tiles().tiles;
    expect(tiles[1]?.name).toBe('Hall A');
    expect(tiles[1]?.status).toBe('live');
    // Gone from mDNS: the listed room stays.
    venue.gone('Hall A._showclock._tcp.local');
    expect(venue.tiles().tiles.map((t) => t.id)).toEqual(['self', 'listed:http://10.0.0.12:8080']);
    venue.close();
  });

  it('sends the tiles on change, a burst of changes as one list, and nothing while nothing changes', async () => {
    const { venue, service, remote } = setUp();
    const stream = venue.open();
    if (stream === null) throw new Error('no stream');
    const reader = stream.stream.getReader();
    const decoder = new TextDecoder();
    const events: VenueTiles[] = [];
    const read = async (): Promise<void> => {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        for (const block of decoder.decode(chunk.value).split('\n\n')) {
          const data = /^data: (.*)$/m.exec(block);
          if (data?.[1] !== undefined && block.includes('event: venue')) events.push(JSON.parse(data[1]) as VenueTiles);
        }
      }
    };
    void read();
    await pass(0);
    expect(events).toHaveLength(1);
    await pass(10_000);
    // The listed room went from connecting to lost; its retries failing alike send nothing more.
    expect(venue.tiles().tiles[1]?.status).toBe('lost');
    const quiet = events.length;
    await pass(10_000);
    expect(events.length).toBe(quiet);
    await pass(3_000 - (Date.now() % 1));
    const retried = remote.streams.length;
    for (let i = 0; i < 40 && remote.streams.length === retried; i += 1) await pass(100);
    remote.streams.at(-1)?.send(stateEventText(viewerSnapshot()));
    service.dispatch({ type: 'onair.set', on: true }, 'http-v1');
    service.dispatch({ type: 'onair.set', on: false }, 'http-v1');
    await pass(100);
    expect(events.length - quiet).toBe(1);
    expect(events.at(-1)?.tiles[0]?.snapshot?.onAir).toBe(false);
    expect(events.at(-1)?.tiles[1]?.status).toBe('live');
    await reader.cancel();
    venue.close();
  });
});
