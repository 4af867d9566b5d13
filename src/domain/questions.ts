// Audience questions: submitted from the /ask page, moderated from the console
// (or any API client), one at a time on the screens. The rules live here, so the
// audience page, the API and any later adapter clean, check and refuse alike.
import { MAX_QUESTIONS, QUESTION_ID_MAX_CHARS, QUESTION_NAME_MAX_CHARS, QUESTION_TEXT_MAX_CHARS } from './limits.js';
import { textProblem } from './text-rules.js';
import type { CommandError, Question, QuestionState, Room } from './types.js';

export type QuestionReduced = { readonly ok: true; readonly room: Room } | { readonly ok: false; readonly error: CommandError };

/** What the screens show of the question on them: the name only when the moderator chose to show it. */
export interface ShownQuestion {
  readonly id: string;
  readonly text: string;
  /** Null when the name is not shown (none given, or the moderator left it out). */
  readonly name: string | null;
}

// Line breaks and tabs become a space: a question is one paragraph on a stage screen.
const LINE_BREAKS = /[\t\n\r\u2028\u2029]+/g;
// The other C0 and C1 controls, and the bidi embedding, override and isolate
// controls, which could turn the rest of a screen's line around: removed.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** What the audience typed, as the room keeps it: control characters stripped (not refused: a phone keyboard can slip one in), trimmed. */
export function cleanAudienceText(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(CONTROLS, '').trim();
}

const fail = (kind: CommandError['kind'], message: string): QuestionReduced => ({ ok: false, error: { kind, message } });

/** Named as a field of the request (400), as an unknown tag is: `{id}` in a path is a timer's. */
function notFound(id: string): QuestionReduced {
  return fail('invalid', `questionId: no question with id "${id.slice(0, QUESTION_ID_MAX_CHARS)}"; GET /questions lists them`);
}

/** The problem with a question as the audience sent it, or null; `text` and `name` already cleaned. */
export function submissionProblem(text: string, name: string): string | null {
  if (text.length === 0) return 'text: is empty; type a question';
  return (
    textProblem('text', text, { maxChars: QUESTION_TEXT_MAX_CHARS, mustShow: true }) ??
    textProblem('name', name, { maxChars: QUESTION_NAME_MAX_CHARS, mustShow: false })
  );
}

export function submitQuestion(room: Room, id: string, rawText: string, rawName: string, receivedAt: number): QuestionReduced {
  const text = cleanAudienceText(rawText);
  const name = cleanAudienceText(rawName);
  const problem = submissionProblem(text, name);
  if (problem !== null) return fail('invalid', problem);
  if (id.length === 0 || id.length > QUESTION_ID_MAX_CHARS || room.questions.some((q) => q.id === id)) return fail('invalid', `questionId: "${id}" is taken`);
  let kept = room.questions;
  if (kept.length >= MAX_QUESTIONS) {
    // The oldest one already dealt with makes way; questions still to be looked at never do.
    const gone = kept.findIndex((q) => q.state === 'answered' || q.state === 'hidden');
    if (gone < 0) {
      return fail(
        'full',
        `the question box is full: it keeps ${MAX_QUESTIONS} questions and none of them is answered or hidden, so none can make way; ` +
          'the moderator can mark some answered, hide or delete them',
      );
    }
    kept = kept.filter((_, index) => index !== gone);
  }
  const question: Question = { id, text, name, receivedAt, state: 'new', nameShown: false };
  return { ok: true, room: { ...room, questions: [...kept, question] } };
}

function withState(room: Room, id: string, state: QuestionState, nameShown = false): QuestionReduced {
  if (!room.questions.some((q) => q.id === id)) return notFound(id);
  return {
    ok: true,
    room: {
      ...room,
      questions: room.questions.map((q) => {
        if (q.id === id) return q.state === state && q.nameShown === nameShown ? q : { ...q, state, nameShown };
        // One question on the screens at a time: the one shown before has been taken (it was answered on stage).
        if (state === 'shown' && q.state === 'shown') return { ...q, state: 'answered', nameShown: false };
        return q;
      }),
    },
  };
}

export function approveQuestion(room: Room, id: string): QuestionReduced {
  return withState(room, id, 'approved');
}

export function hideQuestion(room: Room, id: string): QuestionReduced {
  return withState(room, id, 'hidden');
}

export function answerQuestion(room: Room, id: string): QuestionReduced {
  return withState(room, id, 'answered');
}

export function showQuestion(room: Room, id: string, withName: boolean): QuestionReduced {
  return withState(room, id, 'shown', withName);
}

/** Whatever is on the screens goes back to approved (kept for later); nothing shown is no change. */
export function unshowQuestion(room: Room): QuestionReduced {
  const shown = room.questions.find((q) => q.state === 'shown');
  return shown === undefined ? { ok: true, room } : withState(room, shown.id, 'approved');
}

export function deleteQuestion(room: Room, id: string): QuestionReduced {
  if (!room.questions.some((q) => q.id === id)) return notFound(id);
  return { ok: true, room: { ...room, questions: room.questions.filter((q) => q.id !== id) } };
}

export function clearAnsweredQuestions(room: Room): QuestionReduced {
  const kept = room.questions.filter((q) => q.state !== 'answered');
  return { ok: true, room: kept.length === room.questions.length ? room : { ...room, questions: kept } };
}

export function shownQuestion(room: Room): ShownQuestion | null {
  const shown = room.questions.find((q) => q.state === 'shown');
  if (shown === undefined) return null;
  return { id: shown.id, text: shown.text, name: shown.nameShown && shown.name !== '' ? shown.name : null };
}
