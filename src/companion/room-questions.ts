// What the keys show of the audience questions (issue 16). Pure. A box from
// before questions sends neither `questions` nor `shownQuestion`; it reads as a
// room with no questions (counts 0, nothing on the screens), so the module keeps
// working with it unchanged.
import type { Snapshot } from '../domain/snapshot.js';

export interface RoomQuestions {
  /** Questions in the `new` state: not yet looked at by the moderator. */
  readonly newCount: number;
  /** Questions in the `approved` state: kept for later. */
  readonly approvedCount: number;
  /** The question on the screens, its name only when the screens show it; null when none. */
  readonly shown: Snapshot['shownQuestion'];
}

/**
 * The question fields as the wire may carry them: the Snapshot type says the
 * box always sends them, but an older box does not, so they are read as optional.
 */
type QuestionFields = Partial<Pick<Snapshot, 'questions' | 'shownQuestion'>>;

export function questionsOf(state: Snapshot): RoomQuestions {
  const fields: QuestionFields = state;
  const questions = fields.questions ?? [];
  // Filters, not a switch over the states: a later box may add a state, which must count as neither, not stop the module.
  return {
    newCount: questions.filter((q) => q.state === 'new').length,
    approvedCount: questions.filter((q) => q.state === 'approved').length,
    shown: fields.shownQuestion ?? null,
  };
}
