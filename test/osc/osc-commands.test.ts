// The OSC/plain-text command table: every command of the list, the
// argument types senders use, and every bad-input path, each refused with the
// message HTTP gives for the same value (the HTTP app answers beside it).
import type { OscArgOutputOrArray } from 'osc-min';
import { describe, expect, it } from 'vitest';
import type { ArgValue } from '../../src/osc/arg-value.js';
import { OSC_COMMAND_NAMES, resolveCommand, type Resolution } from '../../src/osc/osc-commands.js';
import { oscArgValue } from '../../src/osc/osc-arguments.js';
import { createTestApp } from '../helpers/test-app.js';

const order = { timers: [{ id: 't1' }, { id: 't2' }, { id: 'keynote' }] };

function resolve(address: string, args: readonly ArgValue[] = []): Resolution {
  return resolveCommand(address.slice(1).split('/'), args, order);
}

function commandOf(address: string, args: readonly ArgValue[] = []): unknown {
  const resolution = resolve(address, args);
  if (resolution.kind !== 'command') throw new Error(`${address}: ${JSON.stringify(resolution)}`);
  return resolution.command;
}

function errorOf(address: string, args: readonly ArgValue[] = []): string {
  const resolution = resolve(address, args);
  if (resolution.kind !== 'bad-input' && resolution.kind !== 'unknown-command') throw new Error(`${address} was not refused: ${JSON.stringify(resolution)}`);
  return resolution.error;
}

/** HTTP's 400 message for the same input, from the real app. */
async function httpError(path: string): Promise<string> {
  const answer = await createTestApp().get('v1', path);
  expect(answer.status).toBe(400);
  return ((await answer.json()) as { error: string }).error;
}

describe('every command of the list', () => {
  it.each([
    ['/start', { type: 'start' }],
    ['/pause', { type: 'pause' }],
    ['/stop', { type: 'pause' }],
    ['/toggle', { type: 'toggle' }],
    ['/reset', { type: 'reset' }],
    ['/next', { type: 'next' }],
    ['/previous', { type: 'previous' }],
    ['/clear_message', { type: 'message.clear' }],
    ['/toggle_blackout', { type: 'blackout.toggle' }],
    ['/toggle_onair', { type: 'onair.toggle' }],
    ['/blackout', { type: 'blackout.set', on: true }],
    ['/onair', { type: 'onair.set', on: true }],
    ['/timer/keynote/select', { type: 'timer.select', id: 'keynote' }],
    ['/timer/index/1/select', { type: 'timer.select', id: 't1' }],
    ['/timer/index/3/select', { type: 'timer.select', id: 'keynote' }],
    ['/show_reset', { type: 'show.reset' }],
    ['/aux_start', { type: 'aux.start' }],
    ['/aux_pause', { type: 'aux.pause' }],
    ['/aux_toggle', { type: 'aux.toggle' }],
    ['/aux_reset', { type: 'aux.reset' }],
  ])('%s takes no argument', (address, command) => {
    expect(commandOf(address)).toEqual(command);
  });

  it('adjust, message, blackout, onair and the settings take their arguments in order', () => {
    expect(commandOf('/adjust', [60_000])).toEqual({ type: 'adjust', ms: 60_000 });
    expect(commandOf('/adjust', [-30_000])).toEqual({ type: 'adjust', ms: -30_000 });
    expect(commandOf('/message', ['Wrap up'])).toEqual({ type: 'message.set', message: { text: 'Wrap up', color: 'white', flash: false, bold: false } });
    expect(commandOf('/message', ['Wrap up', 'red', 1, true])).toEqual({ type: 'message.set', message: { text: 'Wrap up', color: 'red', flash: true, bold: true } });
    expect(commandOf('/message', ['Wrap up', 'green', '0', false])).toEqual({ type: 'message.set', message: { text: 'Wrap up', color: 'green', flash: false, bold: false } });
    expect(commandOf('/blackout', [0])).toEqual({ type: 'blackout.set', on: false });
    expect(commandOf('/blackout', [1])).toEqual({ type: 'blackout.set', on: true });
    expect(commandOf('/onair', [false])).toEqual({ type: 'onair.set', on: false });
    expect(commandOf('/onair', [true])).toEqual({ type: 'onair.set', on: true });
    expect(commandOf('/onair', ['0'])).toEqual({ type: 'onair.set', on: false });
    expect(commandOf('/settings/zeroBehavior', ['stop'])).toEqual({ type: 'settings.set', zeroBehavior: 'stop' });
    expect(commandOf('/settings/autoAdvance', [1])).toEqual({ type: 'settings.set', autoAdvance: true });
    expect(commandOf('/settings/autoAdvance', [false])).toEqual({ type: 'settings.set', autoAdvance: false });
  });

  it('the aux timer: adjust by ms, and one set-up field per address', () => {
    expect(commandOf('/aux_adjust', [-60_000])).toEqual({ type: 'aux.adjust', ms: -60_000 });
    expect(commandOf('/aux_adjust', ['+30000'])).toEqual({ type: 'aux.adjust', ms: 30_000 });
    expect(commandOf('/aux/duration', [300_000])).toEqual({ type: 'aux.set', duration: 300_000 });
    expect(commandOf('/aux/duration', [oscArgValue({ type: 'float', value: 90_000 })])).toEqual({ type: 'aux.set', duration: 90_000 });
    expect(commandOf('/aux/appearance', ['countup'])).toEqual({ type: 'aux.set', appearance: 'countup' });
    expect(commandOf('/aux/label', ['Break'])).toEqual({ type: 'aux.set', label: 'Break' });
    // From a push button: its release does nothing, as for every command without arguments.
    expect(resolve('/aux_toggle', [0])).toEqual({ kind: 'release', name: '/aux_toggle' });
  });

  it('lists every command for an unknown one', () => {
    expect(OSC_COMMAND_NAMES).toEqual([
      '/start', '/pause', '/stop', '/toggle', '/reset', '/next', '/previous', '/adjust', '/message', '/clear_message', '/blackout', '/onair',
      '/toggle_blackout', '/toggle_onair', '/show_reset', '/aux_start', '/aux_pause', '/aux_toggle', '/aux_reset', '/aux_adjust',
      '/timer/{id}/select', '/timer/index/{n}/select', '/settings/zeroBehavior', '/settings/autoAdvance', '/aux/duration', '/aux/appearance', '/aux/label',
    ]);
    expect(errorOf('/status')).toBe(`unknown command "/status"; commands: ${OSC_COMMAND_NAMES.join(', ')}`);
  });

  it('a trailing slash names the same command', () => {
    expect(commandOf('/start/')).toEqual({ type: 'start' });
  });
});

describe('argument types senders use', () => {
  it('int, integral float, double, 64-bit int and string digits are the same number', () => {
    for (const value of [60_000, '60000', '+60000']) expect(commandOf('/adjust', [value])).toEqual({ type: 'adjust', ms: 60_000 });
    expect(commandOf('/adjust', [oscArgValue({ type: 'float', value: 60_000 })])).toEqual({ type: 'adjust', ms: 60_000 });
    expect(commandOf('/adjust', [oscArgValue({ type: 'double', value: -1_000 })])).toEqual({ type: 'adjust', ms: -1_000 });
    expect(commandOf('/adjust', [oscArgValue({ type: 'bigint', value: 5_000n })])).toEqual({ type: 'adjust', ms: 5_000 });
    expect(commandOf('/adjust', [oscArgValue({ type: 'float', value: -0 })])).toEqual({ type: 'adjust', ms: 0 });
  });

  it('OSC true/false are flags, and switch on/off', () => {
    expect(oscArgValue({ type: 'true', value: true })).toBe(true);
    expect(oscArgValue({ type: 'false', value: false })).toBe(false);
    expect(commandOf('/blackout', [oscArgValue({ type: 'false', value: false })])).toEqual({ type: 'blackout.set', on: false });
  });

  it('a 32-bit float reads with the digits it carries', () => {
    expect(oscArgValue({ type: 'float', value: Math.fround(0.1) })).toBe(0.1);
    expect(oscArgValue({ type: 'float', value: Math.fround(1.5) })).toBe(1.5);
  });

  it('a push button: its release (0, 0.0, false) does nothing on a command without arguments; its press acts', () => {
    for (const release of [0, false] as const) expect(resolve('/next', [release])).toEqual({ kind: 'release', name: '/next' });
    expect(resolve('/timer/index/2/select', [0])).toEqual({ kind: 'release', name: '/timer/index/{n}/select' });
    expect(commandOf('/next', [1])).toEqual({ type: 'next' });
    expect(commandOf('/toggle', [true])).toEqual({ type: 'toggle' });
    expect(commandOf('/start', ['go'])).toEqual({ type: 'start' });
  });
});

describe('every bad input, with the message HTTP gives', () => {
  it('a missing argument', async () => {
    expect(errorOf('/adjust')).toBe(await httpError('/adjust'));
    expect(errorOf('/message')).toBe(await httpError('/message'));
  });

  it('a number that is no whole number, too large, or not a number', async () => {
    expect(errorOf('/adjust', [1.5])).toBe(await httpError('/adjust?ms=1.5'));
    expect(errorOf('/adjust', [oscArgValue({ type: 'float', value: Math.fround(1.5) })])).toBe(await httpError('/adjust?ms=1.5'));
    expect(errorOf('/adjust', [3_600_001])).toBe(await httpError('/adjust?ms=3600001'));
    expect(errorOf('/adjust', ['soon'])).toBe(await httpError('/adjust?ms=soon'));
  });

  it('text the room refuses', async () => {
    expect(errorOf('/message', ['   '])).toBe(await httpError('/message?text=%20%20%20'));
    expect(errorOf('/message', ['a'.repeat(501)])).toBe(await httpError(`/message?text=${'a'.repeat(501)}`));
    expect(errorOf('/message', ['bell\u0007'])).toBe(await httpError('/message?text=bell%07'));
    expect(errorOf('/message', ['\u200b'])).toBe(await httpError('/message?text=%E2%80%8B'));
  });

  it('a colour, a flag or a setting out of its list', async () => {
    expect(errorOf('/message', ['Hi', 'purple'])).toBe(await httpError('/message?text=Hi&color=purple'));
    expect(errorOf('/message', ['Hi', 'red', 2])).toBe(await httpError('/message?text=Hi&color=red&flash=2'));
    expect(errorOf('/message', ['Hi', 'red', 1, 'yes'])).toBe(await httpError('/message?text=Hi&color=red&flash=1&bold=yes'));
    expect(errorOf('/settings/zeroBehavior', ['explode'])).toBe(await httpError('/settings?zeroBehavior=explode'));
    expect(errorOf('/settings/autoAdvance', [2])).toBe(await httpError('/settings?autoAdvance=2'));
  });

  it('the aux timer out of range, as HTTP refuses it', async () => {
    expect(errorOf('/aux_adjust')).toBe(await httpError('/aux_adjust'));
    expect(errorOf('/aux_adjust', [3_600_001])).toBe(await httpError('/aux_adjust?ms=3600001'));
    expect(errorOf('/aux_adjust', [1.5])).toBe(await httpError('/aux_adjust?ms=1.5'));
    expect(errorOf('/aux/duration', [999])).toBe(await httpError('/aux?duration=999'));
    expect(errorOf('/aux/duration', [86_400_001])).toBe(await httpError('/aux?duration=86400001'));
    expect(errorOf('/aux/duration', ['5 minutes'])).toBe(await httpError('/aux?duration=5%20minutes'));
    // The aux counts down or up: a time of day is the main timer's alone.
    expect(errorOf('/aux/appearance', ['clock'])).toBe(await httpError('/aux?appearance=clock'));
    expect(errorOf('/aux/label', ['bell\u0007'])).toBe(await httpError('/aux?label=bell%07'));
    expect(errorOf('/aux/label', ['a'.repeat(201)])).toBe(await httpError(`/aux?label=${'a'.repeat(201)}`));
  });

  it('an aux field without its value, or more than one', () => {
    expect(errorOf('/aux/duration')).toMatch(/^duration: is required: /);
    expect(errorOf('/aux/appearance')).toMatch(/^appearance: is required: must be one of countdown, countup/);
    expect(errorOf('/aux/duration', [60_000, 'countup'])).toBe('/aux/duration takes 1 argument (duration); got 2');
    expect(errorOf('/aux/speaker', ['x'])).toMatch(/^unknown command "\/aux\/speaker"/);
  });

  it('every problem at once, as HTTP names them', async () => {
    expect(errorOf('/message', ['', 'purple', 7])).toBe(await httpError('/message?text=&color=purple&flash=7'));
  });

  it('a setting without its value', () => {
    expect(errorOf('/settings/zeroBehavior')).toBe('zeroBehavior: is required: must be one of continue, stop, hide');
    expect(errorOf('/settings/autoAdvance')).toBe('autoAdvance: is required: must be 0 or 1');
  });

  it('too many arguments', () => {
    expect(errorOf('/adjust', [1, 2])).toBe('/adjust takes 1 argument (ms); got 2');
    expect(errorOf('/message', ['a', 'red', 1, 1, 1])).toBe('/message takes at most 4 arguments (text, color, flash, bold); got 5');
    expect(errorOf('/blackout', [1, 1])).toBe('/blackout takes at most 1 argument (on); got 2');
  });

  it('an OSC type no command takes, named, with the other problems', () => {
    const blob = oscArgValue({ type: 'blob', value: new DataView(new ArrayBuffer(4)) });
    expect(errorOf('/adjust', [blob])).toBe('ms: an OSC blob is not taken here; send an int, a float with a whole value, a string, or true/false');
    expect(errorOf('/message', ['Hi', oscArgValue({ type: 'null', value: null }), 5])).toBe(
      'color: an OSC null is not taken here; send an int, a float with a whole value, a string, or true/false; flash: must be 0 or 1; got "5"',
    );
    const others: OscArgOutputOrArray[] = [
      { type: 'midi', value: [0, 1, 2, 3] },
      { type: 'color', value: { red: 0, green: 0, blue: 0, alpha: 0 } },
      { type: 'bang', value: 'bang' },
      { type: 'timetag', value: [0, 1] },
      { type: 'array', value: [] },
    ];
    for (const arg of others) {
      expect(errorOf('/adjust', [oscArgValue(arg)])).toBe(`ms: an OSC ${arg.type} is not taken here; send an int, a float with a whole value, a string, or true/false`);
    }
    expect(errorOf('/adjust', [oscArgValue({ type: 'float', value: Number.NaN })])).toContain('ms: an OSC float NaN is not taken here');
    expect(errorOf('/adjust', [oscArgValue({ type: 'bigint', value: 2n ** 60n })])).toContain('ms: an OSC 64-bit integer beyond 2^53 is not taken here');
  });

  it('a timer position that is not one', () => {
    expect(errorOf('/timer/index/0/select')).toBe(
      'index: must be the timer\'s 1-based position in the running order, 1 to 3, e.g. /timer/index/1/select for the first; got "0"',
    );
    expect(errorOf('/timer/index/first/select')).toContain('index: must be the timer\'s 1-based position in the running order, 1 to 3');
    expect(errorOf('/timer/index/4/select')).toBe(
      'index: no timer at position 4: the running order has 3; give the timer\'s 1-based position in the running order, 1 to 3, e.g. /timer/index/1/select for the first',
    );
  });

  it('unknown commands and paths, echoed at most 64 characters and how long they were', () => {
    for (const address of ['/', '/Start', '/timer', '/timer/t1', '/timer/t1/delete', '/timer//select', '/timer/index/1', '/settings', '/settings/sound', '/message/set/extra']) {
      expect(errorOf(address)).toMatch(/^unknown command "/);
    }
    expect(errorOf(`/${'x'.repeat(200)}`)).toContain(`unknown command "/${'x'.repeat(63)}… (201 characters)"; commands: /start, `);
    expect(errorOf(`/timer/index/${'9'.repeat(100)}/select`)).toContain(`; got "${'9'.repeat(64)}… (100 characters)"`);
  });
});
