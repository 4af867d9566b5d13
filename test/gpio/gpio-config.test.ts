// The `gpio` section of the config file, read through the real loader from a
// real file: what is accepted, and that every mistake names its field path.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { gpioConfigSchema } from '../../src/config/gpio-config.js';
import { stripJsonComments } from '../../src/config/json-comments.js';
import { buttonSpec } from '../../src/gpio/button-actions.js';
import { lampSpecs } from '../../src/gpio/gpio-adapter.js';

const dir = mkdtempSync(path.join(tmpdir(), 'showclock-gpio-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function load(text: string) {
  n += 1;
  const file = path.join(dir, `config-${n}.json`);
  writeFileSync(file, text);
  return loadConfig({ SHOWCLOCK_CONFIG: file }, dir);
}

function problem(gpio: unknown): string {
  try {
    load(JSON.stringify({ gpio }));
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** `gpio.buttons.2.holdMs` or `gpio.buttons[2].holdMs`: the loader decides the spelling of indexes. */
function at(...parts: (string | number)[]): RegExp {
  const source = parts.map((p) => (typeof p === 'number' ? `(\\.${p}|\\[${p}\\])` : `\\.${p}`)).join('');
  return new RegExp(`gpio${source}:`);
}

describe('the gpio config section', () => {
  it('accepts lamps and buttons and fills in the defaults', () => {
    const config = load(
      JSON.stringify({
        gpio: {
          lamp: { pin: 17, activeLow: true },
          lamps: [{ pin: 27, follows: 'warning', safeState: 'on' }],
          buttons: [
            { pin: 5, action: 'toggle' },
            { pin: 6, action: 'next', debounceMs: 50 },
            { pin: 13, action: 'adjust', ms: 60000, hold: 'adjust', holdAdjustMs: 300000, holdMs: 1000 },
            { pin: 19, hold: 'reset' },
          ],
          sysfsOffset: 512,
        },
      }),
    );
    expect(lampSpecs(config.gpio)).toEqual([
      { bcm: 17, signal: 'onAir', activeLow: true, safeOn: false, alsoFlash: false },
      { bcm: 27, signal: 'warning', activeLow: false, safeOn: true, alsoFlash: false },
    ]);
    const buttons = (config.gpio.buttons ?? []).map(buttonSpec);
    expect(buttons[0]).toEqual({ bcm: 5, debounceMs: 30, short: { action: 'toggle', command: { type: 'toggle' } }, long: null });
    expect(buttons[1]?.debounceMs).toBe(50);
    expect(buttons[2]).toEqual({
      bcm: 13,
      debounceMs: 30,
      short: { action: 'adjust', command: { type: 'adjust', ms: 60000 } },
      long: { action: 'adjust', command: { type: 'adjust', ms: 300000 }, holdMs: 1000 },
    });
    expect(buttons[3]).toEqual({ bcm: 19, debounceMs: 30, short: null, long: { action: 'reset', command: { type: 'reset' }, holdMs: 800 } });
    expect(config.gpio.sysfsOffset).toBe(512);
  });

  it('maps every action to the command of the same HTTP name', () => {
    const commands = (['toggle', 'start', 'pause', 'next', 'previous', 'toggle_blackout', 'toggle_onair', 'clear_message'] as const).map(
      (action, i) => buttonSpec({ pin: i, action }).short?.command.type,
    );
    expect(commands).toEqual(['toggle', 'start', 'pause', 'next', 'previous', 'blackout.toggle', 'onair.toggle', 'message.clear']);
  });

  it('names a pin that is not a BCM number', () => {
    expect(problem({ lamp: { pin: 40 } })).toMatch(at('lamp', 'pin'));
    expect(problem({ lamp: { pin: 40 } })).toMatch(/BCM pin number 0 to 27/);
    expect(problem({ lamp: { pin: '17' } })).toMatch(at('lamp', 'pin'));
    expect(problem({ buttons: [{ pin: 5.5, action: 'toggle' }] })).toMatch(at('buttons', 0, 'pin'));
  });

  it('refuses reset on a short press unless the config allows it', () => {
    const message = problem({ buttons: [{ pin: 5, action: 'toggle' }, { pin: 6, action: 'reset' }] });
    expect(message).toMatch(at('buttons', 1, 'action'));
    expect(message).toMatch(/"hold": "reset"/);
    expect(gpioConfigSchema().safeParse({ buttons: [{ pin: 6, action: 'reset', allowShortReset: true }] }).success).toBe(true);
    expect(gpioConfigSchema().safeParse({ buttons: [{ pin: 6, hold: 'reset' }] }).success).toBe(true);
    // The aux timer's reset likewise: a speaker's own stopwatch is not reset by a brush of the hand.
    expect(problem({ buttons: [{ pin: 6, action: 'aux_reset' }] })).toMatch(/aux_reset is a long press only.*"hold": "aux_reset"/);
    expect(gpioConfigSchema().safeParse({ buttons: [{ pin: 6, hold: 'aux_reset' }] }).success).toBe(true);
  });

  it("reads the issue's example as meant: a hold adjust with holdMs beyond any press time is the amount", () => {
    // `"hold": "adjust", "holdMs": 300000`: 300000 ms is no hold time anyone waits for, it is 5 minutes added.
    const parsed = gpioConfigSchema().parse({ buttons: [{ pin: 13, action: 'adjust', ms: 60000, hold: 'adjust', holdMs: 300000 }] });
    const spec = buttonSpec(parsed.buttons?.[0] as NonNullable<typeof parsed.buttons>[number]);
    expect(spec.long).toEqual({ action: 'adjust', command: { type: 'adjust', ms: 300000 }, holdMs: 800 });
    expect(spec.short).toMatchObject({ command: { type: 'adjust', ms: 60000 } });
  });

  it('tells holdMs (how long to hold) from holdAdjustMs (how much a long press adds) where holdMs could be a press time', () => {
    const message = problem({ buttons: [{ pin: 13, action: 'adjust', ms: 60000, hold: 'adjust', holdMs: 5000 }] });
    expect(message).toMatch(at('buttons', 0, 'holdAdjustMs'));
    expect(problem({ buttons: [{ pin: 13, hold: 'next', holdMs: 300000 }] })).toMatch(at('buttons', 0, 'holdMs'));
  });

  it('names the missing and the misplaced amounts of adjust', () => {
    expect(problem({ buttons: [{ pin: 13, action: 'adjust' }] })).toMatch(at('buttons', 0, 'ms'));
    expect(problem({ buttons: [{ pin: 13, action: 'next', ms: 1000 }] })).toMatch(at('buttons', 0, 'ms'));
    expect(problem({ buttons: [{ pin: 13, action: 'adjust', ms: 3600001 }] })).toMatch(at('buttons', 0, 'ms'));
    expect(problem({ buttons: [{ pin: 13, action: 'next', holdMs: 900 }] })).toMatch(at('buttons', 0, 'holdMs'));
    expect(problem({ buttons: [{ pin: 13 }] })).toMatch(at('buttons', 0, 'action'));
  });

  it('names unknown actions, unknown keys and a lamp that follows nothing', () => {
    expect(problem({ buttons: [{ pin: 5, action: 'explode' }] })).toMatch(at('buttons', 0, 'action'));
    expect(problem({ buttons: [{ pin: 5, action: 'toggle', debounce: 20 }] })).toMatch(/buttons(\.0|\[0\])(\.debounce|:)/);
    expect(problem({ lamps: [{ pin: 27 }] })).toMatch(at('lamps', 0, 'follows'));
    expect(problem({ lamps: [{ pin: 27, follows: 'applause' }] })).toMatch(at('lamps', 0, 'follows'));
    expect(problem({ lamp: { pin: 17, safeState: 'dim' } })).toMatch(at('lamp', 'safeState'));
  });

  it('names a pin used twice', () => {
    const message = problem({ lamp: { pin: 17 }, buttons: [{ pin: 5, action: 'toggle' }, { pin: 17, action: 'next' }] });
    expect(message).toMatch(at('buttons', 1, 'pin'));
    expect(message).toMatch(/BCM 17 is already used by gpio\.lamp\.pin/);
  });
});

describe('comments in the config file', () => {
  it('reads // and /* */ comments and keeps // inside strings', () => {
    const config = load(`{
      // the port people type
      "port": 8123, /* a block
      comment */ "host": "http://not-a-comment//here",
      "gpio": { "lamp": { "pin": 17 } } // the ON AIR lamp
    }`);
    expect(config.port).toBe(8123);
    expect(config.host).toBe('http://not-a-comment//here');
    expect(config.gpio.lamp?.pin).toBe(17);
  });

  it('keeps line and column of a JSON error after a comment', () => {
    const text = '{\n  // note\n  "port": ,\n}';
    const stripped = stripJsonComments(text);
    expect(stripped.length).toBe(text.length);
    expect(stripped.split('\n')[2]).toBe('  "port": ,');
    expect(stripJsonComments('{"a": "say \\"//hi\\""}')).toBe('{"a": "say \\"//hi\\""}');
  });
});
