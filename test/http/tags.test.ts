// Tags over HTTP (v1 addition): made, renamed, recoloured and deleted; a timer
// carries one by `tagId` (set on create and update, empty clears it); an unknown
// tag, a bad colour or a bad name is 400 naming the field; deleting a tag clears
// it from its timers in the same change (seq + 1). Every answer is checked
// against the OpenAPI document.
import { describe, expect, it } from 'vitest';
import { mustBeSavedFirst } from '../../src/app/room-service.js';
import { errorOf, stateOf, useCheckedApp } from '../helpers/openapi-check.js';

const setup = useCheckedApp();

describe('tags', () => {
  it('are made with a name and a colour (default blue), renamed and recoloured, one change each', async () => {
    const { api } = setup();
    const before = stateOf(await api.get('/state'));
    expect(before.tags).toEqual([]);
    const made = stateOf(await api.post('/tags', { name: '  Main stage ', colour: '#FF9F0A' }));
    expect(made.seq).toBe(before.seq + 1);
    expect(made.tags).toEqual([{ id: expect.any(String) as unknown, name: 'Main stage', colour: '#ff9f0a' }]);
    const id = made.tags[0]!.id;
    // A button panel's form body, no colour: the default.
    const second = stateOf(await api.post('/tags', 'name=Breakout', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }));
    expect(second.tags[1]).toMatchObject({ name: 'Breakout', colour: '#0a84ff' });

    const renamed = stateOf(await api.get(`/tag/update?tagId=${id}&name=Hall%20A`));
    expect(renamed.tags[0]).toEqual({ id, name: 'Hall A', colour: '#ff9f0a' });
    // In a query the # may be left out (or sent as %23).
    expect(stateOf(await api.get(`/tag/update?tagId=${id}&colour=30d158`)).tags[0]?.colour).toBe('#30d158');
    expect(stateOf(await api.post('/tag/update', { tagId: id, colour: '#123ABC' })).tags[0]?.colour).toBe('#123abc');
  });

  it('are carried by timers through tagId on create and update; empty or null clears it', async () => {
    const { api } = setup();
    const id = stateOf(await api.post('/tags', { name: 'Keynotes', colour: '#ff3b30' })).tags[0]!.id;
    const created = await api.post('/timers', { label: 'Opening', tagId: id });
    expect(created.status).toBe(201);
    expect((created.body as { timer: { tagId: string | null } }).timer.tagId).toBe(id);
    expect(stateOf(await api.get(`/timer/t1/update?tagId=${id}`)).timers[0]?.tagId).toBe(id);
    expect(stateOf(await api.get('/timer/t1/update?tagId=')).timers[0]?.tagId).toBeNull();
    expect(stateOf(await api.post('/timer/t1/update', { tagId: id })).timers[0]?.tagId).toBe(id);
    expect(stateOf(await api.post('/timer/t1/update', { tagId: null })).timers[0]?.tagId).toBeNull();
    expect(stateOf(await api.post('/timer/t1/update', { tagId: '' })).timers[0]?.tagId).toBeNull();
  });

  it('deleting a tag clears it from its timers in the same change', async () => {
    const { api } = setup();
    const tags = stateOf(await api.post('/tags', { name: 'Panel' })).tags;
    const panel = tags[0]!.id;
    const other = stateOf(await api.post('/tags', { name: 'Music' })).tags[1]!.id;
    await api.get(`/timer/t1/update?tagId=${panel}`);
    const t2 = ((await api.post('/timers', { tagId: panel })).body as { timer: { id: string } }).timer.id;
    const t3 = ((await api.post('/timers', { tagId: other })).body as { timer: { id: string } }).timer.id;
    const before = stateOf(await api.get('/state'));
    const after = stateOf(await api.get(`/tag/delete?tagId=${panel}`));
    expect(after.seq).toBe(before.seq + 1);
    expect(after.tags.map((t) => t.id)).toEqual([other]);
    expect(after.timers.map((t) => [t.id, t.tagId])).toEqual([
      ['t1', null],
      [t2, null],
      [t3, other],
    ]);
  });

  it('an unknown tag is 400 naming tagId, and nothing changes', async () => {
    const { api } = setup();
    const seq = stateOf(await api.get('/state')).seq;
    expect(errorOf(await api.post('/timers', { tagId: 'nope' }), 400)).toMatch(/^tagId: no tag with id "nope"/);
    expect(errorOf(await api.get('/timer/t1/update?tagId=nope'), 400)).toMatch(/^tagId: no tag with id "nope"/);
    expect(errorOf(await api.get('/tag/update?tagId=nope&name=X'), 400)).toMatch(/^tagId: no tag with id "nope"/);
    expect(errorOf(await api.get('/tag/delete?tagId=nope'), 400)).toMatch(/^tagId: no tag with id "nope"/);
    expect(errorOf(await api.get('/tag/delete?tagId='), 400)).toMatch(/^tagId: give the id/);
    expect(errorOf(await api.get('/tag/delete'), 400)).toMatch(/^tagId: is required/);
    expect(errorOf(await api.get('/timer/t1/update?tagId=bad%20id'), 400)).toMatch(/^tagId: /);
    expect(errorOf(await api.post('/timers', { tagId: 7 }), 400)).toMatch(/^tagId: /);
    expect(stateOf(await api.get('/state')).seq).toBe(seq);
  });

  it.each([
    ['orange', /^colour: /],
    ['#ff9f0', /^colour: /],
    ['#gg0000', /^colour: /],
    ['', /^colour: /],
  ])('a bad colour %j is 400 naming colour', async (colour, message) => {
    const { api } = setup();
    expect(errorOf(await api.post('/tags', { name: 'X', colour }), 400)).toMatch(message);
    const id = stateOf(await api.post('/tags', { name: 'Y' })).tags[0]!.id;
    expect(errorOf(await api.get(`/tag/update?tagId=${id}&colour=${encodeURIComponent(colour)}`), 400)).toMatch(message);
  });

  it('a bad name, a missing name or an update with nothing to change is 400 naming the field', async () => {
    const { api } = setup();
    expect(errorOf(await api.post('/tags', { name: '   ' }), 400)).toMatch(/^name: /);
    expect(errorOf(await api.post('/tags', { name: 'x'.repeat(41) }), 400)).toMatch(/^name: /);
    expect(errorOf(await api.post('/tags', { colour: '#ffffff' }), 400)).toMatch(/^name: is required/);
    const id = stateOf(await api.post('/tags', { name: 'Ok' })).tags[0]!.id;
    expect(errorOf(await api.get(`/tag/update?tagId=${id}`), 400)).toMatch(/at least one field: name or colour/);
  });

  it('holds at most 32 tags', async () => {
    const { api } = setup();
    for (let i = 0; i < 32; i += 1) expect((await api.post('/tags', { name: `Tag ${i}` })).status).toBe(200);
    expect(errorOf(await api.post('/tags', { name: 'One more' }), 400)).toMatch(/^the room's tags are full: at most 32/);
  });

  it('tag changes are running-order edits: on disk before they happen', () => {
    expect(mustBeSavedFirst({ type: 'tag.create', id: 'k', name: 'n', colour: '#000000' })).toBe(true);
    expect(mustBeSavedFirst({ type: 'tag.update', id: 'k', name: 'n' })).toBe(true);
    expect(mustBeSavedFirst({ type: 'tag.delete', id: 'k' })).toBe(true);
  });
});
