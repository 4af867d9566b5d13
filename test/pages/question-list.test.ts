// The console's Questions panel, its pure parts, without a browser: the order of
// the list, the counts, the buttons each state offers, the request each button
// sends, and the received time in the room's zone.
import { describe, expect, it } from 'vitest';
import { QUESTION_STATES, type Question, type QuestionState } from '../../src/domain/types.js';
import {
  filterCount,
  filterWords,
  listedQuestions,
  newQuestionsText,
  QUESTION_ACTIONS,
  QUESTION_FILTERS,
  questionActions,
  questionCounts,
  questionRequest,
  receivedText,
} from '../../src/pages/control/question-list.js';

const NOW = Date.UTC(2026, 6, 1, 15, 0, 0);

function question(id: string, state: QuestionState, name = ''): Question {
  return { id, text: `Question ${id}`, name, receivedAt: NOW - 60_000, state, nameShown: false };
}

// As the room keeps them: oldest first, states mixed.
const ROOM: readonly Question[] = [
  question('a', 'answered'),
  question('b', 'new'),
  question('c', 'approved', 'Ada'),
  question('d', 'hidden'),
  question('e', 'new', 'Lin'),
  question('f', 'shown'),
  question('g', 'approved'),
];

describe('the Questions panel list', () => {
  it('groups "All" by state, new first, each group in the order the questions came', () => {
    expect(listedQuestions(ROOM, 'all').map((q) => q.id)).toEqual(['b', 'e', 'c', 'g', 'f', 'a', 'd']);
  });

  it('filters by one state, in the order they came', () => {
    expect(listedQuestions(ROOM, 'new').map((q) => q.id)).toEqual(['b', 'e']);
    expect(listedQuestions(ROOM, 'approved').map((q) => q.id)).toEqual(['c', 'g']);
    expect(listedQuestions(ROOM, 'shown').map((q) => q.id)).toEqual(['f']);
    expect(listedQuestions(ROOM, 'hidden').map((q) => q.id)).toEqual(['d']);
    expect(listedQuestions([], 'all')).toEqual([]);
  });

  it('has a filter for every state and one for all, each counted', () => {
    expect(QUESTION_FILTERS).toEqual(['all', ...QUESTION_STATES]);
    const counts = questionCounts(ROOM);
    expect(counts).toEqual({ new: 2, approved: 2, shown: 1, answered: 1, hidden: 1 });
    expect(QUESTION_FILTERS.map((f) => `${filterWords(f)} (${filterCount(f, counts, ROOM.length)})`)).toEqual([
      'All (7)',
      'New (2)',
      'Approved (2)',
      'On screen (1)',
      'Answered (1)',
      'Hidden (1)',
    ]);
  });

  it('says the count of new ones in words, nothing when there are none', () => {
    expect(newQuestionsText(0)).toBe('');
    expect(newQuestionsText(1)).toBe('1 new question');
    expect(newQuestionsText(12)).toBe('12 new questions');
  });

  it('offers in each state only the buttons that change something', () => {
    expect(questionActions('new')).toEqual(['approve', 'show', 'answered', 'hide', 'delete']);
    expect(questionActions('approved')).toEqual(['show', 'answered', 'hide', 'delete']);
    expect(questionActions('shown')).toEqual(['unshow', 'answered', 'hide', 'delete']);
    expect(questionActions('answered')).toEqual(['approve', 'show', 'delete']);
    expect(questionActions('hidden')).toEqual(['approve', 'delete']);
    for (const state of QUESTION_STATES) {
      const offered = questionActions(state);
      // In the row's order, every one deletable, "take off" only for the one on the screens.
      expect(QUESTION_ACTIONS.filter((a) => offered.includes(a))).toEqual(offered);
      expect(offered).toContain('delete');
      expect(offered.includes('unshow')).toBe(state === 'shown');
      expect(offered.includes('show')).toBe(state !== 'shown' && state !== 'hidden');
    }
  });

  it('sends each button as its v1 operation, the name only when asked for', () => {
    expect(questionRequest('approve', 'q1', true)).toEqual({ what: 'Approve the question', path: '/question/approve', body: { questionId: 'q1' } });
    expect(questionRequest('show', 'q1', false)).toEqual({ what: 'Show the question', path: '/question/show', body: { questionId: 'q1', withName: false } });
    expect(questionRequest('show', 'q1', true)).toEqual({ what: 'Show the question with the name', path: '/question/show', body: { questionId: 'q1', withName: true } });
    expect(questionRequest('unshow', 'q1', false)).toEqual({ what: 'Take the question off the screens', path: '/question/unshow', body: {} });
    expect(questionRequest('answered', 'q1', false).path).toBe('/question/answered');
    expect(questionRequest('hide', 'q1', false).path).toBe('/question/hide');
    expect(questionRequest('delete', 'q1', false).path).toBe('/question/delete');
  });

  it('gives the received time in the room zone and format, the date once it is a day old', () => {
    const at = Date.UTC(2026, 6, 1, 14, 5);
    expect(receivedText(at, NOW, { timeZone: 'Europe/Berlin', clockFormat: '24h' })).toBe('16:05');
    expect(receivedText(at, NOW, { timeZone: 'America/New_York', clockFormat: '12h' })).toBe('10:05 AM');
    expect(receivedText(at - 2 * 86_400_000, NOW, { timeZone: 'UTC', clockFormat: '24h' })).toBe('2026-06-29 14:05');
  });
});
