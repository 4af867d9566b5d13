// Action to request: each module action's options (variables filled in) become
// the ModuleAction, and each ModuleAction the v1 request a `curl` of the README
// sends. Pure: no network, a fake runner and a fake variable parser.
import { describe, expect, it } from 'vitest';
import { adjustMs, parseOptionalDuration, parseSignedMs, parseTimerRef } from '../../src/companion/options.js';
import { toApiCall, TRANSPORT_COMMANDS, type ApiCall, type ModuleAction } from '../../src/companion/requests.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { actionFiring } from './action-firing.js';
import { olderBox, question, snapshot } from './snapshots.js';

const room = snapshot({ timers: 3, message: { text: 'Wrap up', color: 'red', flash: true, bold: false } });

function call(action: ModuleAction, state = room): ApiCall {
  const built = toApiCall(action, state);
  if (!built.ok) throw new Error(built.error);
  return built.call;
}

const request = (c: ApiCall) => ({ method: c.method, path: c.path, body: c.body });

describe('toApiCall: every action is the v1 request of the README', () => {
  it('sends each transport command to its own path', () => {
    for (const command of TRANSPORT_COMMANDS) expect(request(call({ type: 'transport', command }))).toEqual({ method: 'POST', path: `/${command}`, body: {} });
  });

  it('adjusts by signed ms, sets and clears messages', () => {
    expect(request(call({ type: 'adjust', ms: -30_000 }))).toEqual({ method: 'POST', path: '/adjust', body: { ms: -30_000 } });
    const message = { text: 'Five minutes', color: 'green', flash: true, bold: true } as const;
    expect(request(call({ type: 'message.set', message }))).toEqual({ method: 'POST', path: '/message/set', body: message });
    expect(call({ type: 'message.clear' }).path).toBe('/message/clear');
  });

  it('toggles a message: clears it when this text shows, shows it otherwise', () => {
    const wrap = { text: 'Wrap up', color: 'red', flash: true, bold: false } as const;
    expect(call({ type: 'message.toggle', message: wrap }).path).toBe('/message/clear');
    expect(call({ type: 'message.toggle', message: { ...wrap, text: 'Other' } }).path).toBe('/message/set');
    expect(call({ type: 'message.toggle', message: wrap }, snapshot({ message: null })).path).toBe('/message/set');
    expect(toApiCall({ type: 'message.toggle', message: wrap }, null)).toMatchObject({ ok: false });
  });

  it('switches blackout and ON AIR with on=1/0 or their toggles', () => {
    expect(request(call({ type: 'blackout', mode: 'on' }))).toEqual({ method: 'POST', path: '/blackout', body: { on: '1' } });
    expect(request(call({ type: 'blackout', mode: 'off' }))).toEqual({ method: 'POST', path: '/blackout', body: { on: '0' } });
    expect(call({ type: 'blackout', mode: 'toggle' }).path).toBe('/toggle_blackout');
    expect(request(call({ type: 'onair', mode: 'on' }))).toEqual({ method: 'POST', path: '/onair', body: { on: '1' } });
    expect(call({ type: 'onair', mode: 'toggle' }).path).toBe('/toggle_onair');
  });

  it('sets zero behaviour and auto-advance through /settings, computing the auto-advance flip', () => {
    expect(request(call({ type: 'zero-behavior', zeroBehavior: 'stop' }))).toEqual({ method: 'POST', path: '/settings', body: { zeroBehavior: 'stop' } });
    expect(call({ type: 'auto-advance', mode: 'on' }).body).toEqual({ autoAdvance: true });
    expect(call({ type: 'auto-advance', mode: 'toggle' }, snapshot({ autoAdvance: true })).body).toEqual({ autoAdvance: false });
    expect(toApiCall({ type: 'auto-advance', mode: 'toggle' }, null)).toMatchObject({ ok: false });
  });

  it('names timers by id or by 1-based position, and refuses a position past the end', () => {
    expect(request(call({ type: 'timer.select', timer: { by: 'position', position: 2 } }))).toEqual({ method: 'POST', path: '/timer/t2/select', body: {} });
    expect(call({ type: 'timer.select', timer: { by: 'id', id: 'a b/c' } }).path).toBe('/timer/a%20b%2Fc/select');
    expect(toApiCall({ type: 'timer.select', timer: { by: 'position', position: 4 } }, room)).toEqual({
      ok: false,
      error: 'there is no timer at position 4: the running order has 3',
    });
    expect(toApiCall({ type: 'timer.select', timer: { by: 'position', position: 1 } }, null)).toMatchObject({ ok: false });
  });

  it('creates, updates, deletes and moves timers', () => {
    expect(request(call({ type: 'timer.create', fields: { label: 'Keynote', duration: 1_200_000 } }))).toEqual({
      method: 'POST',
      path: '/timers',
      body: { label: 'Keynote', duration: 1_200_000 },
    });
    expect(request(call({ type: 'timer.update', timer: { by: 'position', position: 3 }, fields: { warnAt: 120_000, appearance: 'countup' } }))).toEqual({
      method: 'POST',
      path: '/timer/t3/update',
      body: { warnAt: 120_000, appearance: 'countup' },
    });
    expect(toApiCall({ type: 'timer.update', timer: { by: 'position', position: 1 }, fields: {} }, room)).toMatchObject({ ok: false });
    expect(call({ type: 'timer.delete', timer: { by: 'id', id: 't1' } }).path).toBe('/timer/t1/delete');
    expect(request(call({ type: 'timer.move', timer: { by: 'position', position: 3 }, toPosition: 1 }))).toEqual({
      method: 'POST',
      path: '/timer/t3/move',
      body: { to: 0 },
    });
  });

  it('takes the question off the screens and deletes the answered ones, whatever the last snapshot holds', () => {
    const unshow = { method: 'POST', path: '/question/unshow', body: {} };
    const clear = { method: 'POST', path: '/questions/clear_answered', body: {} };
    const withQuestions = snapshot({ questions: [question('q1', 'shown'), question('q2', 'answered')] });
    // The box decides what is shown and answered: the same request with questions, with none, from an older box, before any state.
    const cases: [string, Snapshot | null][] = [
      ['questions', withQuestions],
      ['no questions', room],
      ['older box', olderBox(withQuestions)],
      ['no state yet', null],
    ];
    for (const [what, state] of cases) {
      const unshown = toApiCall({ type: 'question.unshow' }, state);
      const cleared = toApiCall({ type: 'questions.clear-answered' }, state);
      expect(unshown.ok && { ...request(unshown.call), name: unshown.call.name }, what).toEqual({ ...unshow, name: 'take question off screen' });
      expect(cleared.ok && { ...request(cleared.call), name: cleared.call.name }, what).toEqual({ ...clear, name: 'delete answered questions' });
    }
  });
});

describe('option parsers', () => {
  it('reads positions, ids, signed ms, minutes/seconds and durations as operators type them', () => {
    expect(parseTimerRef('position', ' 2 ')).toEqual({ ok: true, value: { by: 'position', position: 2 } });
    expect(parseTimerRef('position', '0')).toMatchObject({ ok: false });
    expect(parseTimerRef('position', 'two')).toMatchObject({ ok: false });
    expect(parseTimerRef('id', 'ab12')).toEqual({ ok: true, value: { by: 'id', id: 'ab12' } });
    expect(parseSignedMs('+60000')).toEqual({ ok: true, value: 60_000 });
    expect(parseSignedMs('-30000')).toEqual({ ok: true, value: -30_000 });
    expect(parseSignedMs('1.5')).toMatchObject({ ok: false });
    expect(adjustMs('-', 1, 30)).toEqual({ ok: true, value: -90_000 });
    expect(adjustMs('+', 0, 0)).toMatchObject({ ok: false });
    expect(parseOptionalDuration('', 'duration')).toEqual({ ok: true, value: undefined });
    expect(parseOptionalDuration('1:30:00', 'duration')).toEqual({ ok: true, value: 5_400_000 });
    expect(parseOptionalDuration('5m', 'duration')).toEqual({ ok: true, value: 300_000 });
    expect(parseOptionalDuration('soon', 'duration')).toMatchObject({ ok: false });
  });
});

describe('action definitions: options to ModuleAction', () => {
  // Companion fills in variables; this stand-in knows two.
  const { sent, defs, fire } = actionFiring({ '$(internal:custom_pos)': '2', '$(internal:custom_text)': 'From a variable' });

  it('offers every v1 command and operation', () => {
    expect(Object.keys(defs).sort()).toEqual(
      [
        ...TRANSPORT_COMMANDS,
        'adjust',
        'adjust_ms',
        'message_set',
        'message_clear',
        'message_toggle',
        'blackout',
        'onair',
        'zero_behavior',
        'auto_advance',
        'timer_select',
        'timer_create',
        'timer_update',
        'timer_delete',
        'timer_move',
        'question_unshow',
        'questions_clear_answered',
        'show_reset',
        'aux_start',
        'aux_pause',
        'aux_toggle',
        'aux_reset',
        'aux_adjust',
        'aux_adjust_ms',
        'aux_set',
        'timer_start',
        'flash',
        'chime_test',
        'screen',
      ].sort(),
    );
  });

  it('fills in variables where text is entered', async () => {
    expect(await fire('timer_select', { by: 'position', timer: '$(internal:custom_pos)' })).toEqual({ type: 'timer.select', timer: { by: 'position', position: 2 } });
    expect(await fire('message_set', { text: '$(internal:custom_text)', color: 'green', flash: true, bold: false })).toEqual({
      type: 'message.set',
      message: { text: 'From a variable', color: 'green', flash: true, bold: false },
    });
  });

  it('reads adjust as minutes/seconds with a sign, or as ms', async () => {
    expect(await fire('adjust', { sign: '-', minutes: 5, seconds: 0 })).toEqual({ type: 'adjust', ms: -300_000 });
    expect(await fire('adjust_ms', { ms: '10000' })).toEqual({ type: 'adjust', ms: 10_000 });
  });

  it('reads timer fields, leaving empty ones out of an update', async () => {
    expect(await fire('timer_create', { label: 'Panel', speaker: '', duration: '45', warnAt: '2:00', appearance: 'countdown' })).toEqual({
      type: 'timer.create',
      fields: { label: 'Panel', duration: 2_700_000, warnAt: 120_000, appearance: 'countdown' },
    });
    expect(await fire('timer_update', { by: 'id', timer: 't2', label: '', speaker: 'Ada', duration: '', warnAt: '', appearance: 'unchanged' })).toEqual({
      type: 'timer.update',
      timer: { by: 'id', id: 't2' },
      fields: { speaker: 'Ada' },
    });
    expect(await fire('timer_move', { by: 'position', timer: '3', to: '1' })).toEqual({ type: 'timer.move', timer: { by: 'position', position: 3 }, toPosition: 1 });
  });

  it('offers the question steps that need no question id, with no options', async () => {
    expect(await fire('question_unshow', {})).toEqual({ type: 'question.unshow' });
    expect(await fire('questions_clear_answered', {})).toEqual({ type: 'questions.clear-answered' });
    expect(defs.question_unshow?.options).toEqual([]);
    expect(defs.questions_clear_answered?.options).toEqual([]);
    expect(defs.question_unshow?.description).toBe('Take the audience question off the screens (it goes back to approved, kept for later)');
    expect(defs.questions_clear_answered?.description).toBe('Delete the answered questions');
  });

  it('sends nothing and says why when an option cannot be read', async () => {
    expect(await fire('message_set', { text: '   ', color: 'white', flash: false, bold: false })).toBe('Message: show: message text is empty; nothing was sent');
    expect(await fire('timer_create', { label: '', speaker: '', duration: 'soon', warnAt: '', appearance: 'countdown' })).toMatch(/duration "soon" is not a duration/);
    expect(sent).toEqual([]);
  });
});
