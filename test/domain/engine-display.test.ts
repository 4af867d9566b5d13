// Message, blackout, ON AIR and settings transitions (remote-control-api.md §3,
// decisions.md "Inputs and bounds" and "Additions to v1").
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import type { Message } from '../../src/domain/types.js';
import { ok, refused, roomOf, started } from './room-fixtures.js';
import { at } from './now.js';

const message = (text: string, extra: Partial<Message> = {}): Message => ({ text, flash: false, color: 'white', bold: false, ...extra });

describe('message set and clear', () => {
  it('sets the message with its text trimmed and every field kept', () => {
    const room = roomOf([60_000]);
    const after = ok(room, { type: 'message.set', message: message('  Wrap up  ', { flash: true, color: 'red', bold: true }) }, 0);
    expect(after.message).toEqual({ text: 'Wrap up', flash: true, color: 'red', bold: true });
    expect(after.seq).toBe(room.seq + 1);
  });

  it('refuses empty and whitespace-only text, naming the field', () => {
    for (const text of ['', '   ', '\n\t ']) {
      const error = refused(roomOf([60_000]), { type: 'message.set', message: message(text) }, 0);
      expect(error.kind).toBe('invalid');
      expect(error.message).toMatch(/^text:/);
    }
  });

  it('accepts 500 characters after trimming and refuses 501', () => {
    const room = roomOf([60_000]);
    const padded = ` ${'x'.repeat(500)} `;
    expect(ok(room, { type: 'message.set', message: message(padded) }, 0).message?.text).toBe('x'.repeat(500));
    expect(refused(room, { type: 'message.set', message: message('x'.repeat(501)) }, 0).message).toMatch(/^text:.*500/);
  });

  it('setting the same message again changes nothing and leaves seq alone', () => {
    const withMessage = ok(roomOf([60_000]), { type: 'message.set', message: message('Hello') }, 0);
    expect(applyCommand(withMessage, { type: 'message.set', message: message(' Hello ') }, at(10)).room).toEqual(withMessage);
  });

  it('a different flag is a change', () => {
    const withMessage = ok(roomOf([60_000]), { type: 'message.set', message: message('Hello') }, 0);
    const after = ok(withMessage, { type: 'message.set', message: message('Hello', { flash: true }) }, 0);
    expect(after.message?.flash).toBe(true);
    expect(after.seq).toBe(withMessage.seq + 1);
  });

  it('clear sets message to null; clearing again changes nothing', () => {
    const withMessage = ok(roomOf([60_000]), { type: 'message.set', message: message('Hello') }, 0);
    const cleared = ok(withMessage, { type: 'message.clear' }, 0);
    expect(cleared.message).toBeNull();
    expect(cleared.seq).toBe(withMessage.seq + 1);
    expect(applyCommand(cleared, { type: 'message.clear' }, at(0)).room).toEqual(cleared);
  });

  it('does not touch the transport', () => {
    const running = started(roomOf([60_000]), 0);
    expect(ok(running, { type: 'message.set', message: message('Hi') }, 30_000).transport).toEqual(running.transport);
  });
});

describe('blackout and ON AIR', () => {
  it('blackout.set switches on and off; setting the current value changes nothing', () => {
    const room = roomOf([60_000]);
    const on = ok(room, { type: 'blackout.set', on: true }, 0);
    expect(on.blackout).toBe(true);
    expect(on.seq).toBe(room.seq + 1);
    expect(applyCommand(on, { type: 'blackout.set', on: true }, at(0)).room).toEqual(on);
    const off = ok(on, { type: 'blackout.set', on: false }, 0);
    expect(off.blackout).toBe(false);
    expect(off.seq).toBe(room.seq + 2);
  });

  it('blackout.toggle flips each time and counts each flip', () => {
    const room = roomOf([60_000]);
    const once = ok(room, { type: 'blackout.toggle' }, 0);
    const twice = ok(once, { type: 'blackout.toggle' }, 0);
    expect([once.blackout, twice.blackout]).toEqual([true, false]);
    expect(twice.seq).toBe(room.seq + 2);
  });

  it('onair.set switches on and off; setting the current value changes nothing', () => {
    const room = roomOf([60_000]);
    const on = ok(room, { type: 'onair.set', on: true }, 0);
    expect(on.onAir).toBe(true);
    expect(on.blackout).toBe(false);
    expect(applyCommand(on, { type: 'onair.set', on: true }, at(0)).room).toEqual(on);
    expect(ok(on, { type: 'onair.set', on: false }, 0).onAir).toBe(false);
    expect(applyCommand(room, { type: 'onair.set', on: false }, at(0)).room).toEqual(room);
  });

  it('onair.toggle flips each time', () => {
    const room = roomOf([60_000]);
    const once = ok(room, { type: 'onair.toggle' }, 0);
    const twice = ok(once, { type: 'onair.toggle' }, 0);
    expect([once.onAir, twice.onAir]).toEqual([true, false]);
    expect(twice.seq).toBe(room.seq + 2);
  });
});

describe('settings', () => {
  it('a new room runs with continue and no auto-advance', () => {
    expect(roomOf([60_000]).settings).toEqual({ zeroBehavior: 'continue', autoAdvance: false, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
  });

  it('sets one field and keeps the other', () => {
    const room = roomOf([60_000]);
    const stop = ok(room, { type: 'settings.set', zeroBehavior: 'stop' }, 0);
    expect(stop.settings).toEqual({ zeroBehavior: 'stop', autoAdvance: false, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
    const both = ok(stop, { type: 'settings.set', autoAdvance: true }, 0);
    expect(both.settings).toEqual({ zeroBehavior: 'stop', autoAdvance: true, timeZone: 'UTC', clockFormat: '24h', chimeAtZero: false, chimeAtWarning: false, chimeVolume: 70, plannedStart: null });
    expect(both.seq).toBe(room.seq + 2);
  });

  it('needs at least one field', () => {
    const error = refused(roomOf([60_000]), { type: 'settings.set' }, 0);
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain('zeroBehavior');
  });

  it('setting the current values changes nothing', () => {
    const room = roomOf([60_000]);
    expect(applyCommand(room, { type: 'settings.set', zeroBehavior: 'continue', autoAdvance: false }, at(0)).room).toEqual(room);
  });
});

describe('display.logo', () => {
  it('sets the stored logo\'s version as one change, keeps the other display settings, and clears it with null', () => {
    const room = roomOf([60_000]);
    const set = ok(room, { type: 'display.logo', logo: '0123456789abcdef.svg' }, 0);
    expect(set.display).toEqual({ ...room.display, logo: '0123456789abcdef.svg' });
    expect(set.seq).toBe(room.seq + 1);
    expect(ok(set, { type: 'display.logo', logo: null }, 0).display.logo).toBeNull();
  });

  it('refuses what is not a stored logo version (it names a file), and /display cannot set it', () => {
    for (const logo of ['../keys.json', '0123456789abcdef.gif', 'logo.png']) {
      expect(refused(roomOf([60_000]), { type: 'display.logo', logo }, 0).message).toBe('logo: not a stored logo version');
    }
    const room = roomOf([60_000]);
    expect(ok(room, { type: 'display.set', display: { showLogo: false, logo: '0123456789abcdef.png' } }, 0).display).toMatchObject({ showLogo: false, logo: null });
  });
});
