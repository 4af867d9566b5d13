// The box features on keys (issue 30): flash, chime test, start a given timer,
// the red threshold, a scheduled start, an end time and the tag on create and
// update, and timers and tags chosen in dropdowns that follow the room. Pure: a
// fake runner, snapshots made by the service's own domain code.
import type { CompanionInputFieldDropdown, SomeCompanionActionInputField } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { actionDefinitions } from '../../src/companion/actions.js';
import { feedbackDefinitions } from '../../src/companion/feedbacks.js';
import {
  parseFlashCount,
  parseOptionalDanger,
  parseOptionalInstant,
  parseTimerRef,
  TAG_NONE,
  TAG_UNCHANGED,
  tagValue,
  timerChoices,
  type ChoiceLists,
} from '../../src/companion/options.js';
import { toApiCall, type ApiCall, type ModuleAction } from '../../src/companion/requests.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { Tag } from '../../src/domain/types.js';
import { actionFiring } from './action-firing.js';
import { snapshot, WALL } from './snapshots.js';

const TAGS: Tag[] = [
  { id: 'main', name: 'Main stage', colour: '#ff0000' },
  { id: 'side', name: 'Side room', colour: '#00ff00' },
];

/** Three timers (t1..t3, "Talk N"), two tags, in Berlin: in June, 2 hours ahead of UTC. */
function berlinRoom(): Snapshot {
  const s = snapshot({ timers: 3 });
  return { ...s, tags: TAGS, settings: { ...s.settings, timeZone: 'Europe/Berlin' } };
}

const room = berlinRoom();
const lists: ChoiceLists = { timers: room.timers, tags: room.tags };

function call(action: ModuleAction, state: Snapshot | null = room, serverNow?: number): ApiCall {
  const built = toApiCall(action, state, serverNow);
  if (!built.ok) throw new Error(built.error);
  return built.call;
}

const request = (c: ApiCall) => ({ method: c.method, path: c.path, body: c.body });

function refusal(action: ModuleAction, state: Snapshot | null = room): string {
  const built = toApiCall(action, state);
  if (built.ok) throw new Error(`expected a refusal, got ${JSON.stringify(built.call)}`);
  return built.error;
}

function option(options: SomeCompanionActionInputField[] | undefined, id: string): SomeCompanionActionInputField {
  const found = options?.find((o) => o.id === id);
  if (found === undefined) throw new Error(`no option ${id}`);
  return found;
}

const dropdown = (options: SomeCompanionActionInputField[] | undefined, id: string) => option(options, id) as CompanionInputFieldDropdown;

describe('toApiCall: the new actions are the v1 requests', () => {
  it('flashes every screen `count` times and plays the chime test', () => {
    expect(request(call({ type: 'flash', count: 5 }))).toEqual({ method: 'POST', path: '/flash', body: { count: 5 } });
    expect(call({ type: 'flash', count: 3 }).name).toBe('flash 3 times');
    // Neither reads the room: sent before any state too.
    expect(request(call({ type: 'chime.test' }, null))).toEqual({ method: 'POST', path: '/chime', body: {} });
  });

  it('starts a given timer in one request, by position, id or the dropdown', () => {
    expect(request(call({ type: 'timer.start', timer: { by: 'position', position: 2 } }))).toEqual({ method: 'POST', path: '/timer/t2/start', body: {} });
    expect(call({ type: 'timer.start', timer: { by: 'id', id: 't3' } }).path).toBe('/timer/t3/start');
    expect(call({ type: 'timer.start', timer: { by: 'listed', id: 't1' } }).path).toBe('/timer/t1/start');
    expect(refusal({ type: 'timer.start', timer: { by: 'position', position: 9 } })).toBe('there is no timer at position 9: the running order has 3');
  });

  it('refuses a timer chosen in the dropdown that was deleted since, for every timer action, instead of sending it', () => {
    const gone = { by: 'listed', id: 'deleted1' } as const;
    const expected = 'the timer chosen in the list (id "deleted1") is no longer in the running order (deleted?): choose another timer in the action\'s options';
    const actions: ModuleAction[] = [
      { type: 'timer.select', timer: gone },
      { type: 'timer.start', timer: gone },
      { type: 'timer.update', timer: gone, fields: { label: 'X' } },
      { type: 'timer.delete', timer: gone },
      { type: 'timer.move', timer: gone, toPosition: 1 },
    ];
    for (const action of actions) expect(refusal(action), action.type).toBe(expected);
    expect(refusal({ type: 'timer.select', timer: { by: 'listed', id: 't1' } }, null)).toBe('no state from Showclock yet (not connected)');
  });

  it('sends dangerAt, scheduledAt and endsAt in ms and the tag id on create', () => {
    expect(
      request(
        call({
          type: 'timer.create',
          fields: { label: 'Keynote', dangerAt: 30_000, scheduledAt: { ms: 1_767_261_600_000 }, endsAt: { ms: 1_767_265_200_000 }, tagId: 'main' },
        }),
      ),
    ).toEqual({
      method: 'POST',
      path: '/timers',
      body: { label: 'Keynote', dangerAt: 30_000, scheduledAt: 1_767_261_600_000, endsAt: 1_767_265_200_000, tagId: 'main' },
    });
  });

  it("reads a time of day in the room's zone, its next occurrence after the box's now", () => {
    // WALL is 2025-06-01 09:00 UTC, 11:00 in Berlin.
    expect(room.serverNow).toBe(WALL);
    const evening = call({ type: 'timer.create', fields: { scheduledAt: { timeOfDay: '19:30' }, endsAt: { timeOfDay: '8:30 pm' } } });
    expect(evening.body).toEqual({ scheduledAt: Date.UTC(2025, 5, 1, 17, 30), endsAt: Date.UTC(2025, 5, 1, 18, 30) });
    // 10:00 in Berlin has passed at 11:00: tomorrow's.
    expect(call({ type: 'timer.create', fields: { scheduledAt: { timeOfDay: '10:00' } } }).body).toEqual({ scheduledAt: Date.UTC(2025, 5, 2, 8, 0) });
    expect(call({ type: 'timer.create', fields: { scheduledAt: { timeOfDay: '2025-12-24 18:00' } } }).body).toEqual({ scheduledAt: Date.UTC(2025, 11, 24, 17, 0) });
    // The box's now, when the connection gives it, rather than the last snapshot's: 19:30 has passed at 20:00 Berlin.
    expect(call({ type: 'timer.create', fields: { scheduledAt: { timeOfDay: '19:30' } } }, room, Date.UTC(2025, 5, 1, 18, 0)).body).toEqual({
      scheduledAt: Date.UTC(2025, 5, 2, 17, 30),
    });
    expect(refusal({ type: 'timer.create', fields: { scheduledAt: { timeOfDay: '19:30' } } }, null)).toBe(
      'start at "19:30" is a time of day in the room\'s time zone: no state from Showclock yet (not connected)',
    );
  });

  it('clears scheduledAt, endsAt and the tag with null on update, and dangerAt with 0', () => {
    expect(request(call({ type: 'timer.update', timer: { by: 'listed', id: 't2' }, fields: { scheduledAt: null, endsAt: null, tagId: null, dangerAt: 0 } }))).toEqual({
      method: 'POST',
      path: '/timer/t2/update',
      body: { scheduledAt: null, endsAt: null, tagId: null, dangerAt: 0 },
    });
  });

  it('refuses a tag deleted since it was chosen, and leaves an unknown room to the box', () => {
    expect(refusal({ type: 'timer.update', timer: { by: 'id', id: 't1' }, fields: { tagId: 'gone' } })).toBe(
      'the tag chosen in the list (id "gone") is no longer one of the room\'s tags (deleted?): choose another tag in the action\'s options',
    );
    expect(call({ type: 'timer.create', fields: { tagId: 'main' } }, null).body).toEqual({ tagId: 'main' });
  });
});

describe('option parsers for the new fields', () => {
  it('checks the flash count as the API does, in its words', () => {
    expect(parseFlashCount(3)).toEqual({ ok: true, value: 3 });
    expect(parseFlashCount('10')).toEqual({ ok: true, value: 10 });
    expect(parseFlashCount(0)).toEqual({ ok: false, error: '0 is too small: how many times the screens flash, 1 to 10 (default 3)' });
    expect(parseFlashCount(11)).toEqual({ ok: false, error: '11 is too large: how many times the screens flash, 1 to 10 (default 3)' });
    expect(parseFlashCount(1.5)).toEqual({ ok: false, error: 'count must be a whole number: how many times the screens flash, 1 to 10 (default 3); got 1.5' });
    expect(parseFlashCount('lots')).toEqual({ ok: false, error: 'count must be a whole number: how many times the screens flash, 1 to 10 (default 3); got "lots"' });
  });

  it('reads start and end times: empty not given, none/clear clears, ms as they are, a time of day kept for the press', () => {
    expect(parseOptionalInstant('', 'start at')).toEqual({ ok: true, value: undefined });
    expect(parseOptionalInstant(' none ', 'start at')).toEqual({ ok: true, value: null });
    expect(parseOptionalInstant('CLEAR', 'start at')).toEqual({ ok: true, value: null });
    expect(parseOptionalInstant('1767261600000', 'start at')).toEqual({ ok: true, value: { ms: 1_767_261_600_000 } });
    for (const typed of ['19:30', '7:30 pm', '7:30PM', '2026-11-24 09:00', '9']) {
      expect(parseOptionalInstant(typed, 'start at'), typed).toEqual({ ok: true, value: { timeOfDay: typed } });
    }
    expect(parseOptionalInstant('25:00', 'end at')).toEqual({
      ok: false,
      error: 'end at "25:00" is not a time of day: write 19:30, 7:30 pm or 2026-11-24 09:00 (the room\'s time zone), milliseconds since the epoch, or none to clear',
    });
    expect(parseOptionalInstant('tonight', 'start at')).toMatchObject({ ok: false });
  });

  it('reads the red threshold as a duration, none or 0 for no red', () => {
    expect(parseOptionalDanger('')).toEqual({ ok: true, value: undefined });
    expect(parseOptionalDanger('0:30')).toEqual({ ok: true, value: 30_000 });
    expect(parseOptionalDanger('none')).toEqual({ ok: true, value: 0 });
    expect(parseOptionalDanger('0')).toEqual({ ok: true, value: 0 });
    const bad = parseOptionalDanger('red');
    expect(!bad.ok && bad.error).toMatch(/^red from "red" is not a duration: write minutes:seconds/);
  });

  it('reads the timer dropdown and keeps the typed position and id', () => {
    expect(parseTimerRef('list', 'ignored', 't2')).toEqual({ ok: true, value: { by: 'listed', id: 't2' } });
    expect(parseTimerRef('list', '1', '')).toEqual({ ok: false, error: "no timer chosen in the list: choose one in the action's options" });
    expect(parseTimerRef('position', '2', 't3')).toEqual({ ok: true, value: { by: 'position', position: 2 } });
    expect(parseTimerRef('id', 't1', 't3')).toEqual({ ok: true, value: { by: 'id', id: 't1' } });
  });

  it('reads the tag dropdown: unchanged, no tag, a tag', () => {
    expect(tagValue(TAG_UNCHANGED)).toBeUndefined();
    expect(tagValue('')).toBeUndefined();
    expect(tagValue(TAG_NONE)).toBeNull();
    expect(tagValue('main')).toBe('main');
  });
});

describe('dropdowns made from the running order and the tags', () => {
  it('labels the running order "N. Label", the value the timer id', () => {
    const renamed = [{ ...room.timers[0]!, label: '' }, ...room.timers.slice(1)];
    expect(timerChoices(renamed)).toEqual([
      { id: 't1', label: '1. (no label)' },
      { id: 't2', label: '2. Talk 2' },
      { id: 't3', label: '3. Talk 3' },
    ]);
  });

  it('offers the running order in every timer action and the timer_active feedback, the dropdown shown only when chosen', () => {
    const defs = actionDefinitions({ run: async () => {}, reject: () => {} }, lists);
    for (const id of ['timer_select', 'timer_start', 'timer_update', 'timer_delete', 'timer_move']) {
      const options = defs[id]?.options;
      expect(dropdown(options, 'by').choices.map((c) => c.id), id).toEqual(['list', 'position', 'id']);
      expect(dropdown(options, 'timerId'), id).toMatchObject({ default: 't1', isVisibleExpression: "$(options:by) == 'list'" });
      expect(dropdown(options, 'timerId').choices, id).toEqual(timerChoices(room.timers));
      expect(option(options, 'timer'), id).toMatchObject({ type: 'textinput', isVisibleExpression: "$(options:by) != 'list'" });
    }
    const feedback = feedbackDefinitions({ snapshot: () => room, view: () => null, isConnected: () => true }, lists).timer_active;
    expect((feedback.options.find((o) => o.id === 'timerId') as CompanionInputFieldDropdown).choices).toEqual(timerChoices(room.timers));
    // Before any room: empty lists, nothing to choose yet.
    expect(dropdown(actionDefinitions({ run: async () => {}, reject: () => {} }).timer_select?.options, 'timerId').choices).toEqual([]);
  });

  it("offers the room's tags: no tag on create; unchanged (the default) and no tag on update", () => {
    const defs = actionDefinitions({ run: async () => {}, reject: () => {} }, lists);
    expect(dropdown(defs.timer_create?.options, 'tagId')).toMatchObject({
      default: TAG_NONE,
      choices: [
        { id: TAG_NONE, label: 'No tag' },
        { id: 'main', label: 'Main stage' },
        { id: 'side', label: 'Side room' },
      ],
    });
    expect(dropdown(defs.timer_update?.options, 'tagId')).toMatchObject({
      default: TAG_UNCHANGED,
      choices: [
        { id: TAG_UNCHANGED, label: 'Unchanged' },
        { id: TAG_NONE, label: 'No tag (clear it)' },
        { id: 'main', label: 'Main stage' },
        { id: 'side', label: 'Side room' },
      ],
    });
  });
});

describe('the new actions fired as Companion fires them', () => {
  const { sent, fire } = actionFiring({ '$(internal:start)': '19:30', '$(internal:pos)': '3' }, lists);

  it('flashes `count` times, refusing a count the box would refuse', async () => {
    expect(await fire('flash', { count: 5 })).toEqual({ type: 'flash', count: 5 });
    expect(await fire('flash', {})).toEqual({ type: 'flash', count: 3 });
    expect(await fire('flash', { count: 11 })).toBe('Flash the screens: 11 is too large: how many times the screens flash, 1 to 10 (default 3); nothing was sent');
    expect(await fire('chime_test', {})).toEqual({ type: 'chime.test' });
  });

  it('starts a timer chosen in the dropdown, or by a typed position as saved buttons do', async () => {
    expect(await fire('timer_start', { by: 'list', timerId: 't2', timer: '1' })).toEqual({ type: 'timer.start', timer: { by: 'listed', id: 't2' } });
    expect(await fire('timer_start', { by: 'position', timer: '$(internal:pos)' })).toEqual({ type: 'timer.start', timer: { by: 'position', position: 3 } });
    // A button saved before the dropdown: `by` and `timer` only.
    expect(await fire('timer_select', { by: 'id', timer: 't1' })).toEqual({ type: 'timer.select', timer: { by: 'id', id: 't1' } });
    expect(await fire('timer_delete', { by: 'list', timerId: '', timer: '1' })).toBe("Timer: delete: no timer chosen in the list: choose one in the action's options; nothing was sent");
  });

  it('creates a timer with a red threshold, a start and an end time (variables allowed) and a tag', async () => {
    expect(
      await fire('timer_create', {
        label: 'Keynote',
        speaker: '',
        duration: '20:00',
        warnAt: '2:00',
        dangerAt: '0:30',
        scheduledAt: '$(internal:start)',
        endsAt: '1767265200000',
        tagId: 'main',
        appearance: 'countdown',
      }),
    ).toEqual({
      type: 'timer.create',
      fields: {
        label: 'Keynote',
        duration: 1_200_000,
        warnAt: 120_000,
        dangerAt: 30_000,
        appearance: 'countdown',
        scheduledAt: { timeOfDay: '19:30' },
        endsAt: { ms: 1_767_265_200_000 },
        tagId: 'main',
      },
    });
    // "No tag" and "none" on create are the box's defaults: left out.
    expect(await fire('timer_create', { label: 'Plain', scheduledAt: 'none', tagId: TAG_NONE, appearance: 'countdown' })).toEqual({
      type: 'timer.create',
      fields: { label: 'Plain', appearance: 'countdown' },
    });
  });

  it('updates: empty and "unchanged" leave a field alone, none and "no tag" clear it', async () => {
    expect(
      await fire('timer_update', { by: 'list', timerId: 't3', label: '', dangerAt: 'none', scheduledAt: 'none', endsAt: '', tagId: TAG_NONE, appearance: 'unchanged' }),
    ).toEqual({ type: 'timer.update', timer: { by: 'listed', id: 't3' }, fields: { dangerAt: 0, scheduledAt: null, tagId: null } });
    expect(await fire('timer_update', { by: 'list', timerId: 't3', endsAt: '21:00', tagId: TAG_UNCHANGED, appearance: 'unchanged' })).toEqual({
      type: 'timer.update',
      timer: { by: 'listed', id: 't3' },
      fields: { endsAt: { timeOfDay: '21:00' } },
    });
  });

  it('says what to write for a time it cannot read, and sends nothing', async () => {
    expect(await fire('timer_update', { by: 'list', timerId: 't1', scheduledAt: 'half past seven', tagId: TAG_UNCHANGED })).toBe(
      'Timer: update: start at "half past seven" is not a time of day: write 19:30, 7:30 pm or 2026-11-24 09:00 (the room\'s time zone), milliseconds since the epoch, or none to clear; nothing was sent',
    );
    expect(sent).toEqual([]);
  });
});
