// The `venue` section of the config file and its environment variables: the box's name
// on the network, mDNS on by default, the venue key and the listed rooms checked at
// start with the field named, and neither the key nor a listed viewer key ever printed.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { defaultVenueName, parseVenueRoomLink, venueTag } from '../../src/config/venue-config.js';
import { configCommandOutput, installScriptExample, useConfigDir } from './config-dir.js';

const configs = useConfigDir('showclock-venue-config-');
const KEY = '0123456789abcdef0123456789abcdef';
const VIEWER = 'viewerkey-of-room-b-123';

describe('venue config', () => {
  it('names the room after the host and advertises it, with no venue key and no listed rooms', () => {
    const { venue } = loadConfig({}, configs.path());
    expect(venue).toEqual({ name: defaultVenueName(), advertise: true, key: undefined, rooms: [] });
    expect(defaultVenueName('stage-a.local')).toBe('stage-a');
    expect(defaultVenueName('')).toBe('Showclock');
  });

  it('reads the file, and the environment on top', () => {
    const { venue } = configs.load(
      { venue: { name: 'Main hall', advertise: false, key: KEY, rooms: [`http://10.0.0.12:8080/view/${VIEWER}`, `https://studio-b.example/view/${VIEWER}x/`] } },
      { SHOWCLOCK_VENUE_NAME: 'Saal 2 (groß)', SHOWCLOCK_VENUE_ADVERTISE: 'true' },
    );
    expect(venue.name).toBe('Saal 2 (groß)');
    expect(venue.advertise).toBe(true);
    expect(venue.key).toBe(KEY);
    expect(venue.rooms.map((room) => [room.origin, room.viewerKey])).toEqual([
      ['http://10.0.0.12:8080', VIEWER],
      ['https://studio-b.example', `${VIEWER}x`],
    ]);
    expect(loadConfig({ SHOWCLOCK_VENUE_KEY: KEY, SHOWCLOCK_VENUE_ADVERTISE: 'off' }, configs.path()).venue).toMatchObject({ key: KEY, advertise: false });
  });

  it('names the field of every bad value', () => {
    expect(configs.problem({ venue: { name: '' } })).toContain('venue.name: expected a name for this room');
    expect(configs.problem({ venue: { name: 'Hall\n2' } })).toContain('venue.name: expected a name without control characters');
    expect(configs.problem({ venue: { name: 'ü'.repeat(32) } })).toContain('venue.name: expected at most 63 bytes');
    expect(configs.problem({ venue: { key: 'short' } })).toContain('venue.key: expected 16 to 128 characters');
    expect(configs.problem({ venue: { advertise: 'yes' } })).toContain('venue.advertise: expected true or false');
    expect(configs.problem({ venue: { rooms: 'http://x/view/abc' } })).toContain('venue.rooms: expected a list of viewer links');
    expect(configs.problem({ venue: { rooms: [`http://10.0.0.12/control/${VIEWER}`] } })).toContain('venue.rooms[0]: expected a viewer link, ending /view/<viewer key>');
    expect(configs.problem({ venue: { rooms: [`ftp://10.0.0.12/view/${VIEWER}`] } })).toContain('venue.rooms[0]: expected http:// or https://');
    expect(configs.problem({ venue: { rooms: [`http://10.0.0.12/view/${VIEWER}?layout=minimal`] } })).toContain('venue.rooms[0]: expected nothing after the key');
    expect(configs.problem({ venue: { rooms: ['http://10.0.0.12/view/short'] } })).toContain('venue.rooms[0]: the viewer key in the link is not one a box makes');
    expect(configs.problem({ venue: { rooms: [`http://10.0.0.12/view/${VIEWER}`, `http://10.0.0.12/view/${VIEWER}2`] } })).toContain(
      'venue.rooms[1]: http://10.0.0.12 is listed twice',
    );
    expect(configs.problem({ venue: { room: 'x' } })).toContain('venue.room: unknown key');
    expect(configs.problem({}, { SHOWCLOCK_VENUE_KEY: 'has space in it 12345' })).toContain('environment SHOWCLOCK_VENUE_KEY: expected 16 to 128 characters');
    expect(configs.problem({}, { SHOWCLOCK_VENUE_ADVERTISE: 'maybe' })).toContain('environment SHOWCLOCK_VENUE_ADVERTISE: expected true or false');
    expect(configs.problem({}, { SHOWCLOCK_VENUE_NAME: ' ' })).toContain('environment SHOWCLOCK_VENUE_NAME: expected a name');
    expect(configs.problem({}, { SHOWCLOCK_VENUE_KEY: KEY, SHOWCLOCK_VIEWER_KEY: KEY })).toContain('venue.key: must differ from the room');
  });

  it('tags a venue key without giving it away: the same key the same tag, another key another', () => {
    expect(venueTag(KEY)).toMatch(/^[0-9a-f]{12}$/);
    expect(venueTag(KEY)).toBe(venueTag(KEY));
    expect(venueTag(`${KEY}x`)).not.toBe(venueTag(KEY));
    expect(KEY).not.toContain(venueTag(KEY));
  });

  it('parses a viewer link the control room gives out', () => {
    expect(parseVenueRoomLink(`http://[fe80::1]:8080/view/${VIEWER}`)).toMatchObject({ origin: 'http://[fe80::1]:8080', viewerKey: VIEWER });
    expect(parseVenueRoomLink('not a link')).toContain('expected a viewer link such as');
  });
});

describe('the install script', () => {
  it('has a commented venue example that is valid once uncommented', () => {
    const { venue } = configs.load(JSON.parse(installScriptExample('venue')));
    expect(venue).toMatchObject({ name: 'Main hall', key: '0123456789abcdef0123456789abcdef', advertise: true });
    expect(venue.rooms).toHaveLength(1);
  });
});

describe('showclock config', () => {
  it('says the venue key is set and never prints it or a listed viewer key', () => {
    const config = configs.load({ venue: { name: 'Main hall', key: KEY, rooms: [`http://10.0.0.12:8080/view/${VIEWER}`] } });
    const [all, venue] = configCommandOutput(config, [], ['venue']);
    expect(`${all}${venue}`).not.toContain(KEY);
    expect(`${all}${venue}`).not.toContain(VIEWER);
    expect(JSON.parse(venue ?? '')).toEqual({ name: 'Main hall', advertise: true, key: '(set)', rooms: ['http://10.0.0.12:8080/view/(set)'] });
  });
});
