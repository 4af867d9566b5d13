// "Copy" next to each key and link. The async clipboard exists only on secure
// origins (https, localhost), and the box is reached over plain http on the LAN,
// so the old select-and-copy path is the one that usually runs.
import { setText } from './elements.js';

const CONFIRM_MS = 1_500;

function copyBySelection(field: HTMLInputElement): boolean {
  field.focus();
  field.select();
  field.setSelectionRange(0, field.value.length);
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  field.blur();
  return copied;
}

async function copy(field: HTMLInputElement): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard !== undefined) {
    try {
      await navigator.clipboard.writeText(field.value);
      return true;
    } catch {
      // Permission refused: fall through to the selection.
    }
  }
  return copyBySelection(field);
}

export function installCopyButtons(): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>('button[data-copy]');
  for (let i = 0; i < buttons.length; i += 1) {
    const button = buttons[i] as HTMLButtonElement;
    const field = document.getElementById(button.getAttribute('data-copy') ?? '');
    if (!(field instanceof HTMLInputElement)) continue;
    // Clicking into the field selects all of it, ready for Ctrl+C where copying is refused.
    field.addEventListener('focus', () => field.select());
    button.addEventListener('click', () => {
      void copy(field).then((copied) => {
        setText(button, copied ? 'Copied' : 'Press Ctrl+C');
        if (!copied) {
          field.focus();
          field.select();
        }
        setTimeout(() => setText(button, 'Copy'), CONFIRM_MS);
      });
    });
  }
}
