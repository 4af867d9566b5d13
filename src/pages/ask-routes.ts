// The audience's door: /ask/{audience_key}. GET is the page (ask-page-html.ts);
// POST takes one question, as JSON `{ "text", "name" }` (the page's script) or as
// a form (the page without a script), and answers 201 with its id only once it is
// on disk, as a running-order edit is. The audience key can do nothing else.
//
// Nothing here spends the API key's quota. Wrong keys count per address like
// wrong viewer links. Questions are limited per address (ASK_PER_ADDRESS a
// minute) and for the whole box (ASK_PER_BOX a minute), so a crowd or a script
// cannot queue up saves without end; input that is refused counts per address in
// the bucket of wrong keys, so a loop of bad posts is slowed down too. The text
// rules are the room's (domain/questions.ts): this adapter only translates.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { NotDone, type RoomService } from '../app/room-service.js';
import { QUESTION_TEXT_MAX_CHARS } from '../domain/limits.js';
import { cleanAudienceText, submissionProblem } from '../domain/questions.js';
import type { AppEnv, Keys } from '../web/env.js';
import { statusOfRefusal } from '../web/refusal-status.js';
import { addAnswerHeaders, answer, jsonAnswer } from '../web/answer.js';
import { hitForAddress } from '../web/address-quota.js';
import { renderAskPage, type AskOutcome } from './ask-page-html.js';
import { MAX_BODY_BYTES } from '../commands/body-size.js';
import { wantsHtml, wrongLinkRefusal } from './error-page.js';
import { pageHeaders } from './page-headers.js';
import { FixedWindowLimiter, rateLimitHeaders } from '../app/rate-limit.js';
import { sameSecret } from '../app/secret-match.js';
import { decodeUrlEncoded } from '../commands/url-encoded.js';

/** Questions one phone (one address) may send a minute: more than a person types, fewer than a script. */
export const ASK_PER_ADDRESS = 5;
/**
 * Questions the whole box takes a minute. Each is saved before it is answered,
 * one save at a time; this bounds that queue whatever the number of phones, so
 * the saves of running-order edits never wait long behind a crowd.
 */
export const ASK_PER_BOX = 300;

export interface AskDeps {
  readonly service: RoomService;
  readonly keys: () => Keys;
  /** The API's limiter: wrong keys and refused input count per address there, as wrong links do; its clock counts the questions too. */
  readonly limiter: FixedWindowLimiter;
  readonly clientAddress: (c: Context) => string;
  readonly newQuestionId: () => string;
}

type Submission = { readonly ok: true; readonly text: string; readonly name: string; readonly form: boolean } | { readonly ok: false; readonly message: string; readonly form: boolean };

function isForm(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/** The question as sent: JSON or a form, `text` required, `name` optional, both strings. */
function readSubmission(contentType: string | undefined, body: string): Submission {
  if (isForm(contentType)) {
    const fields = decodeUrlEncoded(body);
    const text = fields.text;
    const name = fields.name;
    if (text === undefined) return { ok: false, message: 'text: is required: type a question', form: true };
    if (!text.ok || (name !== undefined && !name.ok)) return { ok: false, message: 'the form arrived damaged (bad percent-encoding); send it again', form: true };
    return { ok: true, text: text.value, name: name?.ok === true ? name.value : '', form: true };
  }
  if (!(contentType ?? '').toLowerCase().startsWith('application/json')) {
    return { ok: false, message: 'send the question as JSON ({"text": "...", "name": "..."}, Content-Type: application/json) or as a form', form: false };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, message: 'the body is not valid JSON: send {"text": "your question", "name": "optional name"}', form: false };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, message: 'the body must be a JSON object: {"text": "your question", "name": "optional name"}', form: false };
  }
  const { text, name } = json as { text?: unknown; name?: unknown };
  if (text === undefined) return { ok: false, message: 'text: is required: type a question', form: false };
  if (typeof text !== 'string') return { ok: false, message: 'text: must be a string', form: false };
  if (name !== undefined && name !== null && typeof name !== 'string') return { ok: false, message: 'name: must be a string, or left out', form: false };
  return { ok: true, text, name: typeof name === 'string' ? name : '', form: false };
}

export function mountAsk(app: Hono<AppEnv>, deps: AskDeps): void {
  // Accepted questions are counted apart from everything else: never the API key's quota.
  const nowMs = () => deps.limiter.nowMs();
  const perAddress = new FixedWindowLimiter({ limit: ASK_PER_ADDRESS, nowMs });
  const perBox = new FixedWindowLimiter({ limit: ASK_PER_BOX, nowMs });
  const keyIsRight = (c: Context<AppEnv>): boolean => sameSecret(c.req.param('audienceKey') ?? '', deps.keys().audienceKey);
  const wrongKey = (c: Context<AppEnv>): Response => {
    const decision = hitForAddress(c, deps.limiter, 'address', deps.clientAddress(c));
    return wrongLinkRefusal(c, decision, 'question', 'this question link is not valid (it may have been changed): scan the code on the screen again, or ask the organisers for the current link');
  };

  app.get('/ask/:audienceKey', (c) => {
    c.set('route', 'GET /ask/{audience_key}');
    addAnswerHeaders(c, { 'Referrer-Policy': 'no-referrer' });
    if (!keyIsRight(c)) return wrongKey(c);
    return answer(c, renderAskPage({ kind: 'blank' }), 200, askPageHeaders());
  });

  /** A page for a form sent from a browser, JSON for everything else. */
  const replier = (c: Context<AppEnv>) => {
    const contentType = c.req.header('content-type');
    const form = isForm(contentType) && wantsHtml(c);
    const reply = (status: number, outcome: AskOutcome, json: Record<string, unknown>): Response =>
      form ? answer(c, renderAskPage(outcome), status, askPageHeaders()) : jsonAnswer(c, json, status);
    const refuse = (status: number, message: string, text = '', name = ''): Response =>
      reply(status, { kind: 'refused', message, text, name }, { ok: false, error: message });
    return { contentType, reply, refuse };
  };
  const checkKey: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('route', 'POST /ask/{audience_key}');
    addAnswerHeaders(c, { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' });
    if (!keyIsRight(c)) return wrongKey(c);
    return next();
  };
  // Stops reading at the limit, with or without a Content-Length: the audience key is on a slide in the hall.
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => replier(c).refuse(413, `too long: a question is at most ${QUESTION_TEXT_MAX_CHARS} characters`),
  });

  app.post('/ask/:audienceKey', checkKey, limitBody, async (c) => {
    const { contentType, reply, refuse } = replier(c);
    const body = await c.req.text();
    const address = deps.clientAddress(c);
    const submission = readSubmission(contentType, body);
    const problem = submission.ok ? submissionProblem(cleanAudienceText(submission.text), cleanAudienceText(submission.name)) : submission.message;
    if (problem !== null) {
      const decision = hitForAddress(c, deps.limiter, 'address', address);
      if (!decision.allowed) return refuse(429, `too many attempts from your phone; try again in ${decision.resetSeconds} s`);
      return submission.ok ? refuse(400, problem, submission.text, submission.name) : refuse(400, problem);
    }
    if (!submission.ok) return refuse(400, submission.message);
    const mine = perAddress.hit(address);
    if (!mine.allowed) {
      addAnswerHeaders(c, rateLimitHeaders(mine));
      return refuse(429, `you sent ${ASK_PER_ADDRESS} questions in the last minute; try again in ${mine.resetSeconds} s`, submission.text, submission.name);
    }
    const box = perBox.hit('box');
    if (!box.allowed) {
      addAnswerHeaders(c, { 'Retry-After': String(box.resetSeconds) });
      return refuse(503, `the box is taking many questions right now; try again in ${box.resetSeconds} s`, submission.text, submission.name);
    }

    const id = deps.newQuestionId();
    const { outcome, durable } = deps.service.dispatch({ type: 'question.submit', id, text: submission.text, name: submission.name }, 'audience');
    if (!outcome.ok) return refuse(statusOfRefusal(outcome.error), outcome.error.message, submission.text, submission.name);
    try {
      await durable;
    } catch (error) {
      if (!(error instanceof NotDone)) throw error;
      const message =
        error.kind === 'refused' && error.error !== undefined
          ? error.message
          : error.kind === 'stopping'
            ? 'the box is restarting, so your question was not received; try again in a minute'
            : 'your question could not be saved, so it was not received; try again in a moment';
      const status = error.kind === 'refused' && error.error !== undefined ? statusOfRefusal(error.error) : 503;
      return refuse(status, message, submission.text, submission.name);
    }
    // The room's own time of receipt; a moderator may have deleted it in the moment since, and it was received all the same.
    const question = deps.service.room.questions.find((q) => q.id === id);
    return reply(201, { kind: 'received' }, { ok: true, id, receivedAt: question?.receivedAt ?? Date.now() });
  });
}

/** The page's own policy: the form may post back to the box (the other pages allow no form at all). */
function askPageHeaders(): Record<string, string> {
  const headers = pageHeaders({ keyInUrl: true });
  return { ...headers, 'Content-Security-Policy': (headers['Content-Security-Policy'] ?? '').replace("form-action 'none'", "form-action 'self'") };
}
