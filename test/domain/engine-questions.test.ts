// Audience questions in the room (issue 16): submitted, moderated, one on the
// screens at a time, at most MAX_QUESTIONS kept, and text as the room keeps it.
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/domain/engine.js';
import { MAX_QUESTIONS } from '../../src/domain/limits.js';
import { cleanAudienceText, shownQuestion } from '../../src/domain/questions.js';
import { toSnapshot } from '../../src/domain/snapshot.js';
import type { Question, Room } from '../../src/domain/types.js';
import { at, WALL_EPOCH_MS } from './now.js';
import { ok, refused, roomOf } from './room-fixtures.js';

function submitted(room: Room, id: string, text = `Question ${id}?`, name = ''): Room {
  return ok(room, { type: 'question.submit', id, text, name }, 1_000);
}

function withQuestions(...ids: string[]): Room {
  return ids.reduce((room, id) => submitted(room, id), roomOf([60_000]));
}

const stateOf = (room: Room, id: string): Question['state'] | undefined => room.questions.find((q) => q.id === id)?.state;

describe('submitting a question', () => {
  it('keeps it as new, with its text, name and the time it was received; seq rises by one', () => {
    const room = roomOf([60_000]);
    const after = ok(room, { type: 'question.submit', id: 'q1', text: '  How long did it take?  ', name: ' Ada ' }, 2_500);
    expect(after.questions).toEqual([{ id: 'q1', text: 'How long did it take?', name: 'Ada', receivedAt: WALL_EPOCH_MS + 2_500, state: 'new', nameShown: false }]);
    expect(after.seq).toBe(room.seq + 1);
  });

  it('strips control characters, turns line breaks into spaces, and drops bidi overrides', () => {
    expect(cleanAudienceText('a\u0007b\nc\r\n\td\u202Ee\u0000')).toBe('ab c de');
    const after = ok(roomOf([60_000]), { type: 'question.submit', id: 'q1', text: 'Why\u0007\nnow?', name: 'Bo\u001bb' }, 0);
    expect(after.questions[0]).toMatchObject({ text: 'Why now?', name: 'Bob' });
  });

  it('takes 280 characters (an emoji is one) and refuses 281, naming the field', () => {
    const room = roomOf([60_000]);
    const emoji = '👏'.repeat(280);
    expect(ok(room, { type: 'question.submit', id: 'q1', text: emoji, name: '' }, 0).questions[0]?.text).toBe(emoji);
    expect(refused(room, { type: 'question.submit', id: 'q1', text: 'x'.repeat(281), name: '' }, 0).message).toBe('text: at most 280 characters (it has 281)');
  });

  it('refuses an empty question, one of only spaces or invisible characters, and a name over 60', () => {
    const room = roomOf([60_000]);
    for (const text of ['', '   ', '\n\u0007', '\u200b\u200b']) {
      const error = refused(room, { type: 'question.submit', id: 'q1', text, name: '' }, 0);
      expect(error.kind, JSON.stringify(text)).toBe('invalid');
      expect(error.message, JSON.stringify(text)).toMatch(/^text: /);
    }
    expect(refused(room, { type: 'question.submit', id: 'q1', text: 'Why?', name: 'n'.repeat(61) }, 0).message).toBe('name: at most 60 characters (it has 61)');
    expect(room.questions).toEqual([]);
  });

  it('keeps markup as the text it is (the screens render text, never HTML)', () => {
    const text = '<script>alert(1)</script><b>bold</b>';
    expect(ok(roomOf([60_000]), { type: 'question.submit', id: 'q1', text, name: '<i>me</i>' }, 0).questions[0]).toMatchObject({ text, name: '<i>me</i>' });
  });

  it('refuses an id the room already has', () => {
    expect(refused(withQuestions('q1'), { type: 'question.submit', id: 'q1', text: 'Again?', name: '' }, 0).message).toMatch(/^questionId: "q1" is taken/);
  });
});

describe('the 500-question limit', () => {
  function full(state: (index: number) => Question['state']): Room {
    const questions: Question[] = Array.from({ length: MAX_QUESTIONS }, (_, i) => ({
      id: `q${i}`,
      text: `Q${i}?`,
      name: '',
      receivedAt: WALL_EPOCH_MS + i,
      state: state(i),
      nameShown: false,
    }));
    return { ...roomOf([60_000]), questions };
  }

  it('makes way by dropping the oldest answered or hidden question', () => {
    const room = full((i) => (i === 7 ? 'answered' : i === 3 ? 'hidden' : 'new'));
    const after = submitted(room, 'fresh');
    expect(after.questions).toHaveLength(MAX_QUESTIONS);
    expect(after.questions.some((q) => q.id === 'q3')).toBe(false);
    expect(after.questions.some((q) => q.id === 'q7')).toBe(true);
    expect(after.questions.at(-1)?.id).toBe('fresh');
  });

  it('refuses as full when none is answered or hidden: nothing still to be looked at is ever dropped', () => {
    const room = full((i) => (i % 2 === 0 ? 'new' : 'approved'));
    const error = refused(room, { type: 'question.submit', id: 'fresh', text: 'Me too?', name: '' }, 0);
    expect(error.kind).toBe('full');
    expect(error.message).toMatch(/^the question box is full: it keeps 500 questions/);
  });
});

describe('moderation', () => {
  it('approve, hide and answered set the state; an unknown id is refused naming questionId', () => {
    const room = withQuestions('q1', 'q2', 'q3');
    expect(stateOf(ok(room, { type: 'question.approve', id: 'q1' }, 0), 'q1')).toBe('approved');
    expect(stateOf(ok(room, { type: 'question.hide', id: 'q2' }, 0), 'q2')).toBe('hidden');
    expect(stateOf(ok(room, { type: 'question.answered', id: 'q3' }, 0), 'q3')).toBe('answered');
    for (const type of ['question.approve', 'question.hide', 'question.answered', 'question.delete'] as const) {
      expect(refused(room, { type, id: 'nope' }, 0).message).toBe('questionId: no question with id "nope"; GET /questions lists them');
    }
    expect(refused(room, { type: 'question.show', id: 'nope', withName: false }, 0).kind).toBe('invalid');
  });

  it('shows one question at a time: the one shown before is marked answered', () => {
    let room = withQuestions('q1', 'q2');
    room = ok(room, { type: 'question.show', id: 'q1', withName: true }, 0);
    expect(room.questions.map((q) => [q.id, q.state, q.nameShown])).toEqual([
      ['q1', 'shown', true],
      ['q2', 'new', false],
    ]);
    room = ok(room, { type: 'question.show', id: 'q2', withName: false }, 0);
    expect(room.questions.map((q) => [q.id, q.state, q.nameShown])).toEqual([
      ['q1', 'answered', false],
      ['q2', 'shown', false],
    ]);
  });

  it('the snapshot shows the shown question, with its name only when the moderator chose so', () => {
    let room = submitted(roomOf([60_000]), 'q1', 'What next?', 'Ada');
    expect(toSnapshot(room, 0, WALL_EPOCH_MS).shownQuestion).toBeNull();
    room = ok(room, { type: 'question.show', id: 'q1', withName: false }, 0);
    expect(shownQuestion(room)).toEqual({ id: 'q1', text: 'What next?', name: null });
    room = ok(room, { type: 'question.show', id: 'q1', withName: true }, 0);
    expect(toSnapshot(room, 0, WALL_EPOCH_MS).shownQuestion).toEqual({ id: 'q1', text: 'What next?', name: 'Ada' });
  });

  it('a shown question leaves the screens when approved, hidden, answered, deleted or unshown', () => {
    const shown = ok(withQuestions('q1'), { type: 'question.show', id: 'q1', withName: false }, 0);
    for (const command of [
      { type: 'question.approve', id: 'q1' },
      { type: 'question.hide', id: 'q1' },
      { type: 'question.answered', id: 'q1' },
      { type: 'question.delete', id: 'q1' },
      { type: 'question.unshow' },
    ] as const) {
      expect(shownQuestion(ok(shown, command, 0)), command.type).toBeNull();
    }
    expect(stateOf(ok(shown, { type: 'question.unshow' }, 0), 'q1')).toBe('approved');
  });

  it('a step that changes nothing leaves seq alone', () => {
    const approved = ok(withQuestions('q1'), { type: 'question.approve', id: 'q1' }, 0);
    expect(applyCommand(approved, { type: 'question.approve', id: 'q1' }, at(0)).room).toBe(approved);
    expect(applyCommand(approved, { type: 'question.unshow' }, at(0)).room).toBe(approved);
    expect(applyCommand(approved, { type: 'question.clearAnswered' }, at(0)).room).toBe(approved);
  });

  it('delete removes one; clear answered removes every answered one and nothing else', () => {
    let room = withQuestions('q1', 'q2', 'q3', 'q4');
    room = ok(room, { type: 'question.delete', id: 'q2' }, 0);
    expect(room.questions.map((q) => q.id)).toEqual(['q1', 'q3', 'q4']);
    room = ok(room, { type: 'question.answered', id: 'q1' }, 0);
    room = ok(room, { type: 'question.answered', id: 'q4' }, 0);
    room = ok(room, { type: 'question.hide', id: 'q3' }, 0);
    room = ok(room, { type: 'question.clearAnswered' }, 0);
    expect(room.questions.map((q) => [q.id, q.state])).toEqual([['q3', 'hidden']]);
  });

  it('questions leave the timer alone: a submit changes no transport, timer or message', () => {
    const room = roomOf([60_000]);
    const after = submitted(room, 'q1');
    expect({ ...after, questions: [], seq: 0 }).toEqual({ ...room, questions: [], seq: 0 });
  });
});
