// The edges of reading input (issue 11): lengths in characters, text that shows
// nothing or holds a control character, broken percent-encoding, form-encoded
// bodies, and a non-object body's message suggesting this operation's fields.
// Every answer is also checked against the OpenAPI document (call()).
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, errorOf, OpenApiChecker, servedDocument, stateOf } from '../helpers/openapi-check.js';
import { createTestApp, roomWithTimers, type TestAppOptions } from '../helpers/test-app.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

function setup(opts: TestAppOptions = {}) {
  const t = createTestApp(opts);
  return { t, api: apiClient(t, checker, 'v1') };
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('lengths count characters, not UTF-16 units', () => {
  it('a label of 101 emoji (202 UTF-16 units) is taken; 201 characters are not', async () => {
    const { api } = setup();
    const created = await api.post('/timers', { label: '😀'.repeat(101), speaker: '👩🏽‍🔬'.repeat(20) });
    expect(created.status).toBe(201);
    expect((created.body as { timer: { label: string } }).timer.label).toBe('😀'.repeat(101));
    expect(stateOf(await api.get(`/timer/t1/update?label=${encodeURIComponent('😀'.repeat(200))}`)).activeLabel).toBe('😀'.repeat(200));
    expect(errorOf(await api.get(`/timer/t1/update?label=${encodeURIComponent('😀'.repeat(201))}`), 400)).toMatch(/^label: at most 200 characters \(it has 201\)/);
    expect(errorOf(await api.post('/timers', { speaker: 'a'.repeat(201) }), 400)).toMatch(/^speaker: at most 200 characters/);
  });

  it('message text: 500 characters after trimming', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/message/set', { text: `  ${'😀'.repeat(500)}  ` })).message?.text).toBe('😀'.repeat(500));
    expect(errorOf(await api.post('/message/set', { text: '😀'.repeat(501) }), 400)).toMatch(/^text: at most 500 characters/);
  });
});

describe('text that shows nothing, or holds a control character, is refused naming the field', () => {
  it.each([
    ['only a zero-width space', '\u200B', /^text: shows nothing/],
    ['zero-width characters and spaces', ' \u200B\u200D\uFEFF ', /^text: shows nothing/],
    ['a NUL', '\u0000', /^text: contains a control character \(U\+0000\)/],
    ['text with an escape character', 'Wrap\u001bup', /^text: contains a control character \(U\+001B\)/],
    ['only spaces', '   ', /^text: is empty/],
  ])('%s, in a query and in JSON', async (_name, text, message) => {
    const { t, api } = setup();
    expect(errorOf(await api.get(`/message/set?text=${encodeURIComponent(text)}`), 400)).toMatch(message);
    expect(errorOf(await api.post('/message/set', { text }), 400)).toMatch(message);
    expect(errorOf(await apiClient(t, checker, 'v0').get(`/message?text=${encodeURIComponent(text)}`), 400)).toMatch(message);
    expect(stateOf(await api.get('/state'))).toMatchObject({ seq: 1, message: null });
  });

  it('labels and speakers: a control character is refused; tab, line feed and an empty speaker are fine', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/timer/t1/update', { label: 'Key\u0000note' }), 400)).toMatch(/^label: contains a control character \(U\+0000\)/);
    expect(errorOf(await api.get('/timer/t1/update?speaker=Ada%07'), 400)).toMatch(/^speaker: contains a control character \(U\+0007\)/);
    expect(stateOf(await api.post('/timer/t1/update', { label: 'Key\tnote', speaker: '' })).activeLabel).toBe('Key\tnote');
  });
});

describe('broken percent-encoding is refused naming the field, not stored raw', () => {
  it.each([
    ['/message/set?text=%E0%A4%A', 'text'],
    ['/message/set?text=100%', 'text'],
    ['/message/set?text=ok&color=%ZZ', 'color'],
    ['/adjust?ms=5%', 'ms'],
    ['/timer/t1/update?label=%C3', 'label'],
    ['/settings?zeroBehavior=stop%E2%80', 'zeroBehavior'],
  ])('GET %s is 400 naming %s, and nothing changes', async (path, field) => {
    const { api } = setup();
    expect(errorOf(await api.get(path), 400)).toMatch(new RegExp(`^${field}: broken percent-encoding in the query`));
    expect(stateOf(await api.get('/state')).seq).toBe(1);
  });

  it('good encodings still read as before: UTF-8, %25 for a percent sign, + for a space', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/message/set?text=%E0%A4%A8%20100%25+sure')).message?.text).toBe('न 100% sure');
  });

  it('names every bad field at once, the broken one first', async () => {
    const { api } = setup();
    const message = errorOf(await api.get('/message/set?text=%E0&color=mauve&flash=2'), 400);
    expect(message).toMatch(/^text: broken percent-encoding/);
    expect(message).toContain('color: must be one of');
    expect(message).toContain('flash: must be 0 or 1');
    expect(message).not.toContain('text: is required');
  });

  it('a parameter the operation does not use is ignored, broken or not', async () => {
    const { api } = setup();
    expect(stateOf(await api.get('/start?junk=%ZZ')).running).toBe(true);
    expect(stateOf(await api.get('/adjust?ms=1000&%ZZ=%ZZ')).remaining).toBe(601_000);
  });

  it('in the query of a POST too, unless the body gives the field', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/adjust?ms=%E0'), 400)).toMatch(/^ms: broken percent-encoding in the query/);
    expect(stateOf(await api.post('/adjust?ms=%E0', { ms: 1000 })).remaining).toBe(601_000);
  });
});

describe('form-encoded bodies are read by the query\'s rules', () => {
  it('what curl -d sends works: values in query spelling, + for a space', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/adjust', 'ms=5000', { headers: FORM })).remaining).toBe(605_000);
    expect(stateOf(await api.post('/adjust', 'ms=+60000', { headers: FORM })).remaining).toBe(665_000);
    const state = stateOf(await api.post('/message/set', 'text=Wrap+up%21&flash=1&color=red', { headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' } }));
    expect(state.message).toEqual({ text: 'Wrap up!', flash: true, color: 'red', bold: false });
    expect(stateOf(await api.post('/settings', 'autoAdvance=1', { headers: FORM })).settings.autoAdvance).toBe(true);
    const created = await api.post('/timers', 'label=Q%26A&duration=300000', { headers: FORM });
    expect(created.body).toMatchObject({ timer: { label: 'Q&A', duration: 300_000 } });
  });

  it('a form body is not JSON: JSON spellings are refused naming the field', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/message/set', 'text=Hi&flash=true', { headers: FORM }), 400)).toMatch(/^flash: must be 0 or 1/);
    expect(errorOf(await api.post('/adjust', 'ms=5%', { headers: FORM }), 400)).toMatch(/^ms: broken percent-encoding in the body/);
  });

  it('JSON sent as a form (curl -d without a Content-Type) is refused, not read as no fields', async () => {
    const { t, api } = setup();
    const before = t.service.snapshot();
    // Every field of POST /timers is optional: read as a form, this body would make a default timer.
    const refused = errorOf(await api.post('/timers', '{"label":"Intro","duration":300000}', { headers: FORM }), 400);
    expect(refused).toMatch(/^body: looks like JSON but came as a form \(Content-Type: application\/x-www-form-urlencoded/);
    expect(refused).toContain('send it with Content-Type: application/json, e.g. {');
    expect(errorOf(await api.post('/adjust?ms=5000', ' \n{"ms": 5000}', { headers: FORM }), 400)).toMatch(/^body: looks like JSON/);
    expect(errorOf(await api.post('/timers', '[{"label":"Intro"}]', { headers: FORM }), 400)).toMatch(/^body: looks like JSON/);
    // Nothing happened: no timer, no change of time, seq where it was.
    const after = t.service.snapshot();
    expect(after.timers).toEqual(before.timers);
    expect(after.seq).toBe(before.seq);
    // The same JSON labelled as JSON goes through; a real form still does.
    expect((await api.post('/timers', { label: 'Intro', duration: 300_000 })).body).toMatchObject({ timer: { label: 'Intro', duration: 300_000 } });
    expect(stateOf(await api.post('/adjust', 'ms=5000', { headers: FORM })).seq).toBeGreaterThan(before.seq);
  });

  it('the body wins over the query; the query fills in what the body lacks', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/adjust?ms=1000', 'ms=2000', { headers: FORM })).remaining).toBe(602_000);
    expect(stateOf(await api.post('/message/set?color=green', 'text=Go', { headers: FORM })).message).toMatchObject({ text: 'Go', color: 'green' });
  });

  it('an operation without input ignores a form body', async () => {
    const { api } = setup();
    expect(stateOf(await api.post('/start', 'anything=%ZZ', { headers: FORM })).running).toBe(true);
  });
});

describe('a body that is not a JSON object: the message suggests this operation\'s own fields', () => {
  it.each([
    ['/adjust', '{"ms": 60000}'],
    ['/message/set', '{"text": "Wrap up please"}'],
    ['/message', '{"text": "Wrap up please"}'],
    ['/timer/t1/update', '{"label": "Keynote"}'],
    ['/timer/t1/move', '{"to": 0}'],
    ['/settings', '{"zeroBehavior": "continue"}'],
    ['/blackout', '{"on": "1"}'],
    ['/timers', '{"label": "Keynote"}'],
  ])('POST %s suggests %s', async (path, example) => {
    const { api } = setup({ room: roomWithTimers(2) });
    for (const body of ['[1, 2]', '"text"', '5000', 'null']) {
      expect(errorOf(await api.post(path, body), 400)).toBe(`body: must be a JSON object such as ${example}`);
    }
    expect(errorOf(await api.post(path, '{oops'), 400)).toMatch(new RegExp(`^body: not valid JSON \\(.*\\); send an object such as ${example.replace(/[{}]/g, '\\$&')}$`));
  });

  it('an operation without input says so', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/start', '[]'), 400)).toBe('body: must be a JSON object, or no body: this operation takes no input');
    expect(errorOf(await api.post('/start', '{oops'), 400)).toMatch(/; this operation takes no input: send no body$/);
  });
});
