// The front door (/): turns a typed key, or a pasted control or viewer link, into
// the link to open. The key goes only into the address this browser navigates to:
// nothing is sent anywhere else, and the page never shows a key it did not get.
import { keyFrom } from './key-text.js';

function wire(formId: string, inputId: string, problemId: string, kind: 'control' | 'view', what: string): void {
  const form = document.getElementById(formId);
  const input = document.getElementById(inputId);
  const problem = document.getElementById(problemId);
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement) || problem === null) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = keyFrom(input.value, kind);
    if (key === null) {
      problem.textContent = `That is not ${what}: it is a run of letters, digits, - and _ (npm run key on the box prints it).`;
      problem.hidden = false;
      input.focus();
      return;
    }
    problem.hidden = true;
    location.assign(`/${kind}/${key}`);
  });
}

wire('control-form', 'control-key', 'control-problem', 'control', 'an API key or control link');
wire('viewer-form', 'viewer-key', 'viewer-problem', 'view', 'a viewer key or viewer link');
