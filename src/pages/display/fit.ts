// Fits the time, the message and the audience question into the boxes the layout
// gives them. CSS alone cannot do it on the kiosks' Chromium 70 (no min() or
// container units): a 500-character message or a 280-character question must
// shrink, wrap and at last clip, and the digits must stay inside what they leave
// them, on every screen shape.

/** A screen's size in CSS pixels: the display's window, or the console's preview of it. */
export interface ScreenSize {
  readonly width: number;
  readonly height: number;
}

/** Below this a message stops shrinking and is clipped instead: still readable from a few metres (3vmin of the screen). */
function minMessagePx(screen: ScreenSize): number {
  return Math.max(12, Math.min(screen.width, screen.height) * 0.03);
}

/** The message's text: full size if it fits, else smaller, else clipped to whole lines with an ellipsis. */
export function fitMessage(box: HTMLElement, text: HTMLElement, screen: ScreenSize): void {
  fitBoxText(box, text, null, screen);
}

/**
 * The audience question, fitted as the message is (a 280-character question shrinks,
 * wraps, then is clipped with an ellipsis); its name line under it keeps its size and
 * its place, so the clipping leaves room for it.
 */
export function fitQuestion(box: HTMLElement, text: HTMLElement, name: HTMLElement, screen: ScreenSize): void {
  fitBoxText(box, text, name.hidden ? null : name, screen);
}

/** The line under a fitted text (the question's name) is never larger than this share of the text. */
const BELOW_SHARE = 0.8;

function fitBoxText(box: HTMLElement, text: HTMLElement, below: HTMLElement | null, screen: ScreenSize): void {
  if (box.hidden) return;
  text.style.fontSize = '';
  text.style.webkitLineClamp = '';
  text.style.maxHeight = '';
  if (below !== null) below.style.fontSize = '';
  if (box.scrollHeight <= box.clientHeight) return;
  const min = minMessagePx(screen);
  let size = parseFloat(getComputedStyle(text).fontSize);
  const belowSize = below === null ? 0 : parseFloat(getComputedStyle(below).fontSize);
  while (box.scrollHeight > box.clientHeight && size > min) {
    size = Math.max(min, size * 0.88);
    text.style.fontSize = `${size}px`;
    // A name larger than the question it signs reads as a heading: it shrinks along.
    if (below !== null && belowSize > size * BELOW_SHARE) below.style.fontSize = `${size * BELOW_SHARE}px`;
  }
  if (box.scrollHeight <= box.clientHeight) return;
  const style = getComputedStyle(box);
  const belowHeight = below === null ? 0 : below.offsetHeight + parseFloat(getComputedStyle(below).marginTop);
  const room = box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - belowHeight;
  const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || size * 1.15;
  const lines = Math.max(1, Math.floor(room / lineHeight));
  text.style.webkitLineClamp = String(lines);
  text.style.maxHeight = `${lines * lineHeight}px`;
}

/**
 * The digits as large as their class says, or smaller when the box left for them is smaller.
 * The box is the clock's content box: its padding is room kept for the audience link's code.
 */
export function fitTime(clock: HTMLElement, time: HTMLElement, mark: HTMLElement): void {
  time.style.fontSize = '';
  const width = time.offsetWidth;
  const height = time.offsetHeight;
  if (width === 0 || height === 0) return;
  const style = getComputedStyle(clock);
  const clockWidth = clock.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const clockHeight = clock.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const markHeight = mark.hidden ? 0 : mark.offsetHeight + parseFloat(getComputedStyle(mark).marginTop);
  const scale = Math.min(1, (clockWidth * 0.96) / width, (clockHeight - markHeight) / height);
  if (scale >= 1) return;
  time.style.fontSize = `${Math.max(1, Math.floor(parseFloat(getComputedStyle(time).fontSize) * scale))}px`;
}

/** Runs `then` once the bundled font has loaded (sizes change when it swaps in). */
export function whenFontsLoaded(then: () => void): void {
  const fonts = (document as Document & { fonts?: { ready: Promise<unknown> } }).fonts;
  if (fonts === undefined) return;
  fonts.ready.then(then, () => {
    // No font loaded: the fallback stays, sized already.
  });
}
