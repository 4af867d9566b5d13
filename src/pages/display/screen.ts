// Puts a Face on the page. Writes to the DOM only what differs from the last
// face, so a redraw where nothing visible changed costs no layout or paint.
import type { Face, FaceMessage, Tone } from './face.js';

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`display page: #${id} is missing`);
  return found;
}

/** Font size classes by length, so h:mm:ss, +m:ss and a 12 h "12:04:18 PM" still fit the width. */
function lengthClass(text: string): string {
  return `time len-${Math.min(11, Math.max(4, text.length))}`;
}

export interface Screen {
  render(face: Face): void;
  setLink(up: boolean): void;
}

export function createScreen(): Screen {
  const screen = element('screen');
  const time = element('time');
  const label = element('label');
  const speaker = element('speaker');
  const bar = element('bar');
  const message = element('message');
  const onair = element('onair');
  const blackout = element('blackout');
  const link = element('link');

  let last: Face | null = null;
  let lastMessage: FaceMessage | null = null;

  const setTone = (tone: Tone, danger: boolean, inverted: boolean): void => {
    screen.className = `screen tone-${tone}${danger ? ' tone-danger' : ''}${inverted ? ' inverted' : ''}`;
  };

  return {
    render(face) {
      const prev = last;
      if (prev === null || prev.blackout !== face.blackout) blackout.hidden = !face.blackout;
      if (prev === null || prev.time !== face.time) {
        time.textContent = face.time;
        const cls = lengthClass(face.time);
        if (time.className !== cls) time.className = cls;
      }
      if (prev === null || prev.tone !== face.tone || prev.danger !== face.danger || prev.inverted !== face.inverted) {
        setTone(face.tone, face.danger, face.inverted);
      }
      if (prev === null || prev.label !== face.label) label.textContent = face.label;
      if (prev === null || prev.speaker !== face.speaker) speaker.textContent = face.speaker;
      if (prev === null || prev.progress !== face.progress) {
        const bared = face.progress !== null;
        if (bar.parentElement !== null) bar.parentElement.hidden = !bared;
        // A transform, not a width: it does not lay out the page again.
        if (bared) bar.style.transform = `scaleX(${face.progress})`;
      }
      if (prev === null || prev.onAir !== face.onAir) onair.hidden = !face.onAir;

      const m = face.message;
      const lm = lastMessage;
      if (m === null) {
        if (lm !== null || prev === null) message.hidden = true;
      } else {
        if (lm === null || lm.text !== m.text) message.textContent = m.text;
        if (lm === null || lm.color !== m.color || lm.bold !== m.bold || lm.lit !== m.lit) {
          message.className = `message color-${m.color}${m.bold ? ' bold' : ''}${m.lit ? '' : ' dark'}`;
        }
        if (lm === null) message.hidden = false;
      }
      lastMessage = m;
      last = face;
    },
    setLink(up) {
      link.hidden = up;
    },
  };
}
