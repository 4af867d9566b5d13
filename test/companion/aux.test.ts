// The second timer (aux) on the keys: its digits as the display draws them, its
// actions as the v1 requests they are, and its variables and feedbacks following
// the clock through the connection. Plain numbers for time (WALL is 09:00:00).
import type { CompanionActionDefinition, CompanionFeedbackDefinition, CompanionOptionValues } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { actionDefinitions } from '../../src/companion/actions.js';
import { auxViewAt } from '../../src/companion/aux-view.js';
import { ShowclockConnection } from '../../src/companion/connection.js';
import { feedbackDefinitions } from '../../src/companion/feedbacks.js';
import { AUX_COMMANDS, AUX_SET_PATH, toApiCall, type ModuleAction } from '../../src/companion/requests.js';
import { actionFiring } from './action-firing.js';
import { FakeHost, waitFor } from './fake-host.js';
import { fakeBox } from './fake-box.js';
import { fakeTime } from './fake-time.js';
import { snapshot, WALL } from './snapshots.js';

describe('auxViewAt: the aux digits as the display draws them', () => {
  it('counts down in whole seconds rounded up, on into overrun with +', () => {
    const s = snapshot({ aux: { label: 'Q&A', duration: 90_000, running: true, remainingMs: 90_000 } });
    expect(auxViewAt(s, WALL + 29_500)).toMatchObject({ time: '1:01', running: true, label: 'Q&A', duration: '1:30', overrun: false, nextChangeAt: WALL + 30_000 });
    expect(auxViewAt(s, WALL + 30_000).time).toBe('1:00');
    expect(auxViewAt(s, WALL + 90_000)).toMatchObject({ time: '0:00', overrun: true });
    expect(auxViewAt(s, WALL + 91_200)).toMatchObject({ time: '+0:01', overrun: true, nextChangeAt: WALL + 92_000 });
  });

  it('counts up from its start, and holds while paused', () => {
    const up = snapshot({ aux: { appearance: 'countup', duration: 300_000, running: true, remainingMs: 300_000 } });
    expect(auxViewAt(up, WALL + 61_400)).toMatchObject({ time: '1:01', overrun: false, nextChangeAt: WALL + 62_000 });
    // Past its duration a count-up goes on, red on the display as a countdown past zero.
    expect(auxViewAt(up, WALL + 299_000)).toMatchObject({ time: '4:59', overrun: false });
    expect(auxViewAt(up, WALL + 301_000)).toMatchObject({ time: '5:01', overrun: true });
    const paused = snapshot({ aux: { duration: 300_000, running: false, remainingMs: 125_000 } });
    expect(auxViewAt(paused, WALL + 99_000)).toMatchObject({ time: '2:05', running: false, nextChangeAt: null });
  });
});

describe('aux and show actions: the v1 requests', () => {
  const request = (action: ModuleAction) => {
    const built = toApiCall(action, null);
    return built.ok ? { method: built.call.method, path: built.call.path, body: built.call.body } : built.error;
  };

  it('sends each aux transport command to its own path, adjust with ms, the show reset, none needing a state', () => {
    for (const command of AUX_COMMANDS) expect(request({ type: 'aux', command })).toEqual({ method: 'POST', path: `/aux_${command}`, body: {} });
    expect(request({ type: 'aux.adjust', ms: -60_000 })).toEqual({ method: 'POST', path: '/aux_adjust', body: { ms: -60_000 } });
    expect(request({ type: 'show.reset' })).toEqual({ method: 'POST', path: '/show_reset', body: {} });
  });

  it('sets only the aux fields given, and refuses a set with none', () => {
    expect(request({ type: 'aux.set', change: { duration: 300_000, appearance: 'countup', label: 'Break' } })).toEqual({
      method: 'POST',
      path: AUX_SET_PATH,
      body: { duration: 300_000, appearance: 'countup', label: 'Break' },
    });
    expect(request({ type: 'aux.set', change: { label: 'Break' } })).toEqual({ method: 'POST', path: AUX_SET_PATH, body: { label: 'Break' } });
    expect(request({ type: 'aux.set', change: {} })).toMatch(/nothing to change/);
  });
});

describe('aux action definitions: options to ModuleAction', () => {
  const { sent, fire } = actionFiring({ '$(internal:custom_break)': '15' });

  it('reads the aux transport, adjust and show reset', async () => {
    for (const command of AUX_COMMANDS) expect(await fire(`aux_${command}`, {})).toEqual({ type: 'aux', command });
    expect(await fire('aux_adjust', { sign: '-', minutes: 1, seconds: 30 })).toEqual({ type: 'aux.adjust', ms: -90_000 });
    expect(await fire('aux_adjust_ms', { ms: '+5000' })).toEqual({ type: 'aux.adjust', ms: 5_000 });
    expect(await fire('show_reset', {})).toEqual({ type: 'show.reset' });
  });

  it('reads a duration as the console writes it (variables filled in), leaving empty fields out', async () => {
    expect(await fire('aux_set', { duration: '$(internal:custom_break)', appearance: 'countdown', label: ' Break ' })).toEqual({
      type: 'aux.set',
      change: { duration: 900_000, appearance: 'countdown', label: 'Break' },
    });
    expect(await fire('aux_set', { duration: '', appearance: 'countup', label: '' })).toEqual({ type: 'aux.set', change: { appearance: 'countup' } });
  });

  it('sends nothing and says why for a duration it cannot read, or nothing to change', async () => {
    expect(await fire('aux_set', { duration: 'soon', appearance: 'unchanged', label: '' })).toMatch(/^Aux timer: set duration, appearance, label: duration "soon" is not a duration: .*; nothing was sent$/);
    expect(await fire('aux_set', { duration: '', appearance: 'unchanged', label: '' })).toBe(
      'Aux timer: set duration, appearance, label: nothing to change: give a duration, an appearance or a label; nothing was sent',
    );
    expect(await fire('aux_adjust', { sign: '+', minutes: 0, seconds: 0 })).toMatch(/adjust by 0/);
    expect(sent).toEqual([]);
  });
});

describe('through the connection', () => {
  async function connected() {
    const time = fakeTime(5_000);
    const box = fakeBox('k');
    const host = new FakeHost();
    const connection = new ShowclockConnection(host, { fetch: box.fetch, perfNow: time.perfNow, timers: time.timers, silenceMs: 1e12 });
    connection.configure({ ok: true, target: { origin: 'http://box.test', apiKey: 'k' } });
    await waitFor(() => box.streaming(), 5_000, 'the push stream');
    return { time, box, host, connection };
  }

  it('sends the aux actions as their requests to the box', async () => {
    const { box, host, connection } = await connected();
    box.push(snapshot());
    await waitFor(() => host.variables.aux_time === '5:00', 5_000, 'the first snapshot');
    const actions = actionDefinitions(connection);
    const press = async (id: string, options: CompanionOptionValues = {}) =>
      (actions[id] as CompanionActionDefinition).callback(
        { id: 'a', controlId: 'c', actionId: id, options, surfaceId: undefined },
        { parseVariablesInString: async (t) => t, setCustomVariableValue: () => {} },
      );
    await press('aux_toggle');
    await press('aux_adjust', { sign: '+', minutes: 2, seconds: 0 });
    await press('aux_set', { duration: '10:00', appearance: 'countup', label: 'Break' });
    await press('show_reset');
    expect(box.requests).toEqual([
      { method: 'POST', path: '/aux_toggle', body: {} },
      { method: 'POST', path: '/aux_adjust', body: { ms: 120_000 } },
      { method: 'POST', path: AUX_SET_PATH, body: { duration: 600_000, appearance: 'countup', label: 'Break' } },
      { method: 'POST', path: '/show_reset', body: {} },
    ]);
    connection.destroy();
  });

  it('counts the aux timer down on the keys while the main timer is paused, and lights past zero', async () => {
    const { time, box, host, connection } = await connected();
    box.push(snapshot({ running: false, aux: { label: 'Break', duration: 90_000, running: true, remainingMs: 90_000 } }));
    await waitFor(() => host.variables.aux_time === '1:30', 5_000, 'the first snapshot');
    expect(host.variables).toMatchObject({ aux_label: 'Break', aux_running: true, aux_duration: '1:30', remaining: '10:00' });
    const feedbacks = feedbackDefinitions(connection);
    const lit = (id: 'aux_running' | 'aux_overrun') =>
      (feedbacks[id] as CompanionFeedbackDefinition).callback({ id: 'f', type: 'boolean', feedbackId: id, controlId: 'c', options: {} }, { parseVariablesInString: async (text: string) => text });
    expect([lit('aux_running'), lit('aux_overrun')]).toEqual([true, false]);

    time.advance(30_000);
    expect(host.variables.aux_time).toBe('1:00');
    const before = host.checks.length;
    time.advance(61_000);
    expect(host.variables.aux_time).toBe('+0:01');
    expect(lit('aux_overrun')).toBe(true);
    expect(host.checks.slice(before).some((c) => c.value.includes('aux_overrun'))).toBe(true);

    // Paused by someone: the next snapshot holds it, and nothing ticks for it any more.
    box.push(snapshot({ seq: 8, running: false, aux: { label: 'Break', duration: 90_000, running: false, remainingMs: -1_500 } }));
    await waitFor(() => host.variables.aux_running === false, 5_000, 'the paused aux');
    expect(host.variables.aux_time).toBe('+0:01');
    expect(lit('aux_running')).toBe(false);
    connection.destroy();
  });
});
