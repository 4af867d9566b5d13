// Keyboard shortcuts for the main actions, listed on the page. They never act
// while the operator types in a field, nor with Ctrl/Alt/Cmd held (browser
// shortcuts stay the browser's). Space on a focused button means start/pause,
// not "press that button again": after clicking Next, Space must not skip twice.
import { isTextEntry } from './elements.js';

export interface ShortcutActions {
  readonly startPause: () => void;
  readonly next: () => void;
  readonly previous: () => void;
  readonly blackout: () => void;
  readonly onAir: () => void;
}

export function installShortcuts(actions: ShortcutActions): void {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
    if (isTextEntry(event.target)) return;
    const action = actionFor(event.key, actions);
    if (action === null) return;
    event.preventDefault();
    action();
  });
  // A focused button fires its click on Space's keyup; the keydown above did the work.
  document.addEventListener('keyup', (event) => {
    if ((event.key === ' ' || event.key === 'Spacebar') && !isTextEntry(event.target)) event.preventDefault();
  });
}

function actionFor(key: string, actions: ShortcutActions): (() => void) | null {
  switch (key) {
    case ' ':
    case 'Spacebar':
      return actions.startPause;
    case 'n':
    case 'N':
      return actions.next;
    case 'p':
    case 'P':
      return actions.previous;
    case 'b':
    case 'B':
      return actions.blackout;
    case 'o':
    case 'O':
      return actions.onAir;
    default:
      return null;
  }
}
