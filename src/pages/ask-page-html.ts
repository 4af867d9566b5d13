// The audience's page, /ask/{audience_key}: a question and, optionally, a name.
// A plain HTML form that works on any phone without a script (it posts and the
// box answers with this page again, saying what happened); where scripts run,
// /assets/ask.js sends it with fetch and says so in place, keeping the page.
// Everything the person typed comes back only through escapeHtml: it is text.
import { QUESTION_NAME_MAX_CHARS, QUESTION_TEXT_MAX_CHARS } from '../domain/limits.js';
import { escapeHtml } from './control-page-html.js';
import { pageHead } from './page-head.js';

export const ASK_SCRIPT_SRC = '/assets/ask.js';
export const ASK_STYLE_HREF = '/assets/ask.css';

/** What the page says above the form: nothing yet, the question was received, or why it was not. */
export type AskOutcome =
  | { readonly kind: 'blank' }
  | { readonly kind: 'received' }
  | { readonly kind: 'refused'; readonly message: string; readonly text: string; readonly name: string };

export function renderAskPage(outcome: AskOutcome): string {
  const refill = outcome.kind === 'refused' ? outcome : { text: '', name: '' };
  const status =
    outcome.kind === 'received'
      ? '<p id="ask-status" class="ask-ok" role="status">Thank you: your question was received. The moderator picks the questions for the stage.</p>'
      : outcome.kind === 'refused'
        ? `<p id="ask-status" class="ask-error" role="alert">${escapeHtml(outcome.message)}</p>`
        : '<p id="ask-status" role="status" hidden></p>';
  return `${pageHead({ title: 'Ask a question', stylesheet: ASK_STYLE_HREF, script: ASK_SCRIPT_SRC })}
<body class="ask">
<main>
<h1>Ask a question</h1>
${status}
<form id="ask-form" method="post" autocomplete="off">
<label for="ask-text">Your question</label>
<textarea id="ask-text" name="text" rows="5" maxlength="${QUESTION_TEXT_MAX_CHARS}" required aria-describedby="ask-hint">${escapeHtml(refill.text)}</textarea>
<p id="ask-hint" class="ask-hint"><span id="ask-count">${QUESTION_TEXT_MAX_CHARS}</span> <span id="ask-count-unit">characters at most</span></p>
<label for="ask-name">Your name <span class="ask-optional">(optional)</span></label>
<input id="ask-name" name="name" type="text" maxlength="${QUESTION_NAME_MAX_CHARS}" value="${escapeHtml(refill.name)}" autocapitalize="words" autocomplete="name">
<button id="ask-send" type="submit">Send the question</button>
</form>
</main>
</body>
</html>
`;
}
