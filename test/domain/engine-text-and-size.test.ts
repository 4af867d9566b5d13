// The room's bounds that every input meets alike: a running order of at most
// MAX_TIMERS, text lengths as a person counts characters (an emoji is one), no
// control characters anywhere, and a message that shows something.
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { createRoom } from '../../src/domain/room.js';
import { LABEL_MAX_CHARS, MAX_TIMERS, MESSAGE_MAX_CHARS } from '../../src/domain/limits.js';
import type { Room } from '../../src/domain/types.js';
import { parseDocument, serializeDocument, toDocument } from '../../src/store/room-document.js';
import { at } from './now.js';

const message = (text: string) => ({ type: 'message.set' as const, message: { text, flash: false, color: 'white' as const, bold: false } });

function roomWithTimers(count: number): Room {
  let room = createRoom('t1');
  for (let i = 2; i <= count; i += 1) room = applyCommand(room, { type: 'timer.create', id: `t${i}`, fields: {} }, at(0)).room;
  return room;
}

describe('a bounded running order', () => {
  it(`holds ${MAX_TIMERS} timers; the next is refused in words, and nothing changes`, () => {
    const full = roomWithTimers(MAX_TIMERS);
    expect(full.timers).toHaveLength(MAX_TIMERS);
    const applied = applyCommand(full, { type: 'timer.create', id: 'one-more', fields: {} }, at(0));
    expect(applied.outcome).toEqual({ ok: false, error: { kind: 'invalid', message: expect.stringMatching(/running order is full: it holds at most 100 timers; delete one/) } });
    expect(applied.room).toBe(full);
    // Deleting one makes room again.
    const fewer = applyCommand(full, { type: 'timer.delete', id: 't50' }, at(0)).room;
    expect(applyCommand(fewer, { type: 'timer.create', id: 'one-more', fields: {} }, at(0)).outcome.ok).toBe(true);
  });
});

describe('text as a person counts it', () => {
  it('a label of 200 emoji is 200 characters (400 UTF-16 units) and is accepted; 201 are refused', () => {
    const room = createRoom('t1');
    const emoji = '🎤'.repeat(LABEL_MAX_CHARS);
    expect(emoji.length).toBe(2 * LABEL_MAX_CHARS);
    expect(applyCommand(room, { type: 'timer.update', id: 't1', fields: { label: emoji } }, at(0)).outcome.ok).toBe(true);
    const over = applyCommand(room, { type: 'timer.update', id: 't1', fields: { label: `${emoji}🎤` } }, at(0));
    expect(over.outcome).toMatchObject({ ok: false, error: { message: 'label: at most 200 characters (it has 201)' } });
  });

  it('a message of 500 emoji is accepted, and a room holding it reads back from its file', () => {
    const room = applyCommand(createRoom('t1'), message('⏱'.repeat(MESSAGE_MAX_CHARS)), at(0)).room;
    expect(room.message?.text).toHaveLength(MESSAGE_MAX_CHARS);
    const labelled = applyCommand(room, { type: 'timer.update', id: 't1', fields: { label: '🎤'.repeat(LABEL_MAX_CHARS) } }, at(0)).room;
    const text = serializeDocument(toDocument(labelled, { monoMs: 0, wallMs: 1_700_000_000_000 }, labelled.seq));
    expect(parseDocument(text).kind).toBe('ok');
  });

  it('a message of only invisible characters shows nothing and is refused, naming the field', () => {
    for (const text of ['\u200b', '\u200b\u200d\ufeff', ' \u2060 ', '\u00a0']) {
      const applied = applyCommand(createRoom('t1'), message(text), at(0));
      expect(applied.outcome, JSON.stringify(text)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^text: shows nothing/) } });
    }
    // A visible character among invisible ones is text.
    expect(applyCommand(createRoom('t1'), message('\u200bHi'), at(0)).outcome.ok).toBe(true);
  });

  it('control characters are refused in a message, a label and a speaker, naming the field and the character', () => {
    expect(applyCommand(createRoom('t1'), message('Wrap\u0000up'), at(0)).outcome).toMatchObject({
      ok: false,
      error: { message: 'text: contains a control character (U+0000); remove it' },
    });
    expect(applyCommand(createRoom('t1'), { type: 'timer.update', id: 't1', fields: { label: 'a\u001b[31mred' } }, at(0)).outcome).toMatchObject({
      ok: false,
      error: { message: 'label: contains a control character (U+001B); remove it' },
    });
    expect(applyCommand(createRoom('t1'), { type: 'timer.create', id: 't2', fields: { speaker: 'x\u0085' } }, at(0)).outcome).toMatchObject({
      ok: false,
      error: { message: 'speaker: contains a control character (U+0085); remove it' },
    });
    // Tab and line breaks are ordinary text.
    expect(applyCommand(createRoom('t1'), message('Line one\nLine two\tend'), at(0)).outcome.ok).toBe(true);
  });
});
