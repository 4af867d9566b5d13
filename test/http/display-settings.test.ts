// Display settings over HTTP (v1 addition): part of the room, `display` in every
// snapshot, set with GET or POST /display (at least one field, the others kept),
// one change each (seq + 1, pushed); bad values are 400 naming the field and
// change nothing. The defaults are the look the display always had.
import { describe, expect, it } from 'vitest';
import { DISPLAY_DEFAULTS } from '../../src/domain/room.js';
import { errorOf, stateOf, useCheckedApp } from '../helpers/openapi-check.js';

const setup = useCheckedApp();

describe('/display', () => {
  it('starts at the defaults: the display as it always looked', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/state')).display).toEqual({
      layout: 'full',
      background: '#000000',
      normalColour: '#ffffff',
      warningColour: '#ff9f0a',
      overrunColour: '#ff3b30',
      timeSize: 100,
      showTitle: true,
      showSpeaker: true,
      showProgress: true,
      showTimeOfDay: false,
      showNext: false,
      showTag: true,
      showMessage: true,
      showLogo: true,
      showQuestion: true,
      showAskLink: false,
      showOverUnder: false,
      showShowEnd: false,
      showAux: false,
      logo: null,
    });
    expect(DISPLAY_DEFAULTS.layout).toBe('full');
  });

  it('GET with a query and POST with JSON change the fields given and keep the others, one change each', async () => {
    const { t, api } = setup();
    const seq = stateOf(await api.get('/state')).seq;
    const pushed: number[] = [];
    const unsubscribe = t.service.subscribe((change) => pushed.push(change.room.seq));
    const first = stateOf(await api.get('/display?layout=lowerThird&background=00B140&showNext=1&timeSize=120'));
    expect(first.seq).toBe(seq + 1);
    expect(first.display).toMatchObject({ layout: 'lowerThird', background: '#00b140', showNext: true, timeSize: 120, normalColour: '#ffffff', showTitle: true });
    const second = stateOf(await api.post('/display', { normalColour: '#FFCC00', showTitle: false, showProgress: false }));
    expect(second.seq).toBe(seq + 2);
    expect(second.display).toMatchObject({ layout: 'lowerThird', background: '#00b140', normalColour: '#ffcc00', showTitle: false, showProgress: false, timeSize: 120 });
    expect(pushed).toEqual([seq + 1, seq + 2]);
    unsubscribe();
  });

  it('switches the schedule\'s elements and the aux timer on and off, GET with 0/1 and POST with booleans', async () => {
    const { api } = setup();
    const on = stateOf(await api.get('/display?showOverUnder=1&showShowEnd=1&showAux=1')).display;
    expect(on).toMatchObject({ showOverUnder: true, showShowEnd: true, showAux: true, showTitle: true });
    const off = stateOf(await api.post('/display', { showShowEnd: false, showAux: false })).display;
    expect(off).toMatchObject({ showOverUnder: true, showShowEnd: false, showAux: false });
  });

  it.each([
    ['showOverUnder=yes', /^showOverUnder: must be 0 or 1/],
    ['showShowEnd=2', /^showShowEnd: must be 0 or 1/],
    ['showAux=true', /^showAux: must be 0 or 1/],
    ['layout=sideways', /^layout: /],
    ['background=green', /^background: /],
    ['normalColour=%23fff', /^normalColour: /],
    ['warningColour=', /^warningColour: /],
    ['overrunColour=12345g', /^overrunColour: /],
    ['timeSize=49', /^timeSize: /],
    ['timeSize=151', /^timeSize: /],
    ['timeSize=1.5', /^timeSize: /],
    ['showTitle=yes', /^showTitle: /],
    ['showMessage=2', /^showMessage: /],
  ])('refuses %s naming the field, and nothing changes', async (query, message) => {
    const { api } = setup();
    const before = stateOf(await api.get('/state'));
    expect(errorOf(await api.get(`/display?${query}`), 400)).toMatch(message);
    const after = stateOf(await api.get('/state'));
    expect(after.seq).toBe(before.seq);
    expect(after.display).toEqual(before.display);
  });

  it('refuses JSON of the wrong type naming the field, and an empty change naming what it takes', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/display', { showTag: 'yes' }), 400)).toMatch(/^showTag: /);
    expect(errorOf(await api.post('/display', { showAux: 1 }), 400)).toMatch(/^showAux: must be true or false/);
    expect(errorOf(await api.post('/display', { timeSize: '120' }), 400)).toMatch(/^timeSize: /);
    expect(errorOf(await api.post('/display', { background: null }), 400)).toMatch(/^background: /);
    const none = errorOf(await api.get('/display'), 400);
    for (const name of ['layout', 'background', 'timeSize', 'showTimeOfDay', 'showMessage']) expect(none).toContain(name);
  });
});
