// The audience page's script (/assets/ask.js): the server-rendered form works
// without it (ask-page-html.ts); with it the page counts characters as the box
// counts them, sends with fetch and says in place what happened, so the phone
// keeps the page, the name and, after a refusal, the question as typed.
import './ask.css';
import { charCount, QUESTION_TEXT_MAX_CHARS } from '../../domain/limits.js';
import { cleanAudienceText, submissionProblem } from '../../domain/questions.js';
import { sendQuestion } from './send.js';

/** The page says the same as the box's page does after a form post (ask-page-html.ts). */
const RECEIVED = 'Thank you: your question was received. The moderator picks the questions for the stage.';
/** The name is kept on this phone only, so the next question does not need it typed again. */
const NAME_KEY = 'showclock.ask.name';

function byId<T extends HTMLElement>(id: string, kind: { new (): T; prototype: T }): T | null {
  const found = document.getElementById(id);
  return found instanceof kind ? found : null;
}

// Storage can be off or full (private tabs of old Safari throw): the name is a convenience only.
function recallName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

function rememberName(name: string): void {
  try {
    if (name === '') localStorage.removeItem(NAME_KEY);
    else localStorage.setItem(NAME_KEY, name);
  } catch {
    // Not kept: typed again next time.
  }
}

function wire(): void {
  const form = byId('ask-form', HTMLFormElement);
  const text = byId('ask-text', HTMLTextAreaElement);
  const name = byId('ask-name', HTMLInputElement);
  const send = byId('ask-send', HTMLButtonElement);
  const status = byId('ask-status', HTMLElement);
  const count = byId('ask-count', HTMLElement);
  const unit = byId('ask-count-unit', HTMLElement);
  const hint = byId('ask-hint', HTMLElement);
  if (form === null || text === null || name === null || send === null || status === null || count === null || unit === null || hint === null) return;

  // The box checks and says why (in the page's own words, read out by screen
  // readers), not the browser's bubble. maxlength goes too: browsers count UTF-16
  // units before trimming, the box code points after, and the counter shows that.
  form.noValidate = true;
  text.removeAttribute('maxlength');
  if (name.value === '') name.value = recallName();
  const label = send.textContent ?? 'Send';
  let sending = false;

  const say = (ok: boolean, message: string): void => {
    status.className = ok ? 'ask-ok' : 'ask-error';
    status.setAttribute('role', ok ? 'status' : 'alert');
    status.textContent = message;
    status.hidden = false;
  };

  const recount = (): void => {
    const left = QUESTION_TEXT_MAX_CHARS - charCount(cleanAudienceText(text.value));
    count.textContent = String(Math.abs(left));
    unit.textContent = left < 0 ? (left === -1 ? 'character too many' : 'characters too many') : left === 1 ? 'character left' : 'characters left';
    hint.classList.toggle('ask-over', left < 0);
  };

  text.addEventListener('input', () => {
    recount();
    // An old refusal no longer describes what is being typed now.
    if (status.className === 'ask-error') status.hidden = true;
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (sending) return;
    const problem = submissionProblem(cleanAudienceText(text.value), cleanAudienceText(name.value));
    if (problem !== null) {
      say(false, problem);
      (problem.startsWith('name') ? name : text).focus();
      return;
    }
    sending = true;
    send.disabled = true;
    send.textContent = 'Sending…';
    void sendQuestion(location.pathname, text.value, name.value).then((result) => {
      sending = false;
      send.disabled = false;
      send.textContent = label;
      if (!result.ok) {
        say(false, result.message);
        return;
      }
      say(true, RECEIVED);
      rememberName(name.value.trim());
      text.value = '';
      recount();
    });
  });

  recount();
}

wire();
