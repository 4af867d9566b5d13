// What the console's Questions panel shows and sends, without the DOM: the order
// of the list, the counts, which buttons a question in each state offers, and the
// request each button makes. Pure, so it is tested without a browser.
// Page code: no destructuring (esbuild targets old browsers).
import { QUESTION_STATES, type Question, type QuestionState } from '../../domain/types.js';
import type { TimeOfDaySettings } from '../../client/time-of-day.js';
import { instantText } from './time-of-day-text.js';

/** Every question, or those in one state. */
export type QuestionFilter = 'all' | QuestionState;

export const QUESTION_FILTERS: readonly QuestionFilter[] = ['all', ...QUESTION_STATES];

export const STATE_WORDS: Readonly<Record<QuestionState, string>> = {
  new: 'New',
  approved: 'Approved',
  shown: 'On screen',
  answered: 'Answered',
  hidden: 'Hidden',
};

export function filterWords(filter: QuestionFilter): string {
  return filter === 'all' ? 'All' : STATE_WORDS[filter];
}

/**
 * The groups of "All", in this order: the new ones first (the moderator's work),
 * then those kept for later, the one on the screens, and the ones dealt with.
 */
const GROUP_RANK: Readonly<Record<QuestionState, number>> = { new: 0, approved: 1, shown: 2, answered: 3, hidden: 4 };

/**
 * The questions the list shows, in its order: grouped by state (new first), and in
 * each group in the order they came (the room keeps them oldest first), so the
 * moderator reads the hall's questions as they were asked.
 */
export function listedQuestions(questions: readonly Question[], filter: QuestionFilter): Question[] {
  const picked: { readonly question: Question; readonly index: number }[] = [];
  for (let i = 0; i < questions.length; i += 1) {
    const question = questions[i] as Question;
    if (filter === 'all' || question.state === filter) picked.push({ question, index: i });
  }
  // Sorted by rank, then by place in the room: stable on every engine, old ones included.
  picked.sort((a, b) => GROUP_RANK[a.question.state] - GROUP_RANK[b.question.state] || a.index - b.index);
  return picked.map((p) => p.question);
}

export type QuestionCounts = Readonly<Record<QuestionState, number>>;

export function questionCounts(questions: readonly Question[]): QuestionCounts {
  const counts: Record<QuestionState, number> = { new: 0, approved: 0, shown: 0, answered: 0, hidden: 0 };
  for (let i = 0; i < questions.length; i += 1) counts[(questions[i] as Question).state] += 1;
  return counts;
}

/** How many a filter's button counts. */
export function filterCount(filter: QuestionFilter, counts: QuestionCounts, total: number): number {
  return filter === 'all' ? total : counts[filter];
}

/** "1 new question", "12 new questions"; '' when there are none (the badge hides). */
export function newQuestionsText(count: number): string {
  if (count <= 0) return '';
  return count === 1 ? '1 new question' : `${count} new questions`;
}

export type QuestionAction = 'approve' | 'show' | 'unshow' | 'answered' | 'hide' | 'delete';

/** The buttons of a row, in this order, each shown only where it changes something. */
export const QUESTION_ACTIONS: readonly QuestionAction[] = ['approve', 'show', 'unshow', 'answered', 'hide', 'delete'];

export const ACTION_WORDS: Readonly<Record<QuestionAction, string>> = {
  approve: 'Approve',
  show: 'Show on screen',
  unshow: 'Take off screen',
  answered: 'Answered',
  hide: 'Hide',
  delete: 'Delete',
};

/** What a question in `state` can become from the console (a button that would change nothing is not offered). */
export function questionActions(state: QuestionState): readonly QuestionAction[] {
  switch (state) {
    case 'new':
      return ['approve', 'show', 'answered', 'hide', 'delete'];
    case 'approved':
      return ['show', 'answered', 'hide', 'delete'];
    case 'shown':
      return ['unshow', 'answered', 'hide', 'delete'];
    case 'answered':
      // Back to the list (approve) or on the screens again, say for a follow-up.
      return ['approve', 'show', 'delete'];
    case 'hidden':
      // Hidden means "not for the stage": it is approved again before it can be shown.
      return ['approve', 'delete'];
    default: {
      const unknown: never = state;
      throw new Error(`unknown question state ${String(unknown)}`);
    }
  }
}

export interface QuestionRequest {
  /** Names the action in an error: "Approve the question: …". */
  readonly what: string;
  readonly path: string;
  readonly body: Readonly<Record<string, string | boolean>>;
}

/** The v1 request behind a button; `withName` matters only to `show`. */
export function questionRequest(action: QuestionAction, questionId: string, withName: boolean): QuestionRequest {
  switch (action) {
    case 'approve':
      return { what: 'Approve the question', path: '/question/approve', body: { questionId } };
    case 'show':
      return { what: withName ? 'Show the question with the name' : 'Show the question', path: '/question/show', body: { questionId, withName } };
    case 'unshow':
      // Whatever is on the screens comes off: the moderator sees that one as shown.
      return { what: 'Take the question off the screens', path: '/question/unshow', body: {} };
    case 'answered':
      return { what: 'Mark the question answered', path: '/question/answered', body: { questionId } };
    case 'hide':
      return { what: 'Hide the question', path: '/question/hide', body: { questionId } };
    case 'delete':
      return { what: 'Delete the question', path: '/question/delete', body: { questionId } };
    default: {
      const unknown: never = action;
      throw new Error(`unknown question action ${String(unknown)}`);
    }
  }
}

/**
 * When the box received it, in the room's zone and clock format (not this device's):
 * "19:30" today, with the date once it is more than a day off the server's now.
 */
export function receivedText(receivedAt: number, serverNow: number, settings: TimeOfDaySettings): string {
  return instantText(receivedAt, serverNow, settings);
}
