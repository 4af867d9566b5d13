// Fits the time and the message into the boxes the layout gives them. CSS alone
// cannot do it on the kiosks' Chromium 70 (no min() or container units): a 500-
// character message must shrink, wrap and at last clip, and the digits must stay
// inside what the message leaves them, on every screen shape.

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
  if (box.hidden) return;
  text.style.fontSize = '';
  text.style.webkitLineClamp = '';
  text.style.maxHeight = '';
  if (box.scrollHeight <= box.clientHeight) return;
  const min = minMessagePx(screen);
  let size = parseFloat(getComputedStyle(text).fontSize);
  while (box.scrollHeight > box.clientHeight && size > min) {
    size = Math.max(min, size * 0.88);
    text.style.fontSize = `${size}px`;
  }
  if (box.scrollHeight <= box.clientHeight) return;
  const style = getComputedStyle(box);
  const room = box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || size * 1.15;
  const lines = Math.max(1, Math.floor(room / lineHeight));
  text.style.webkitLineClamp = String(lines);
  text.style.maxHeight = `${lines * lineHeight}px`;
}

/** The digits as large as their class says, or smaller when the box left for them is smaller. */
export function fitTime(clock: HTMLElement, time: HTMLElement, mark: HTMLElement): void {
  time.style.fontSize = '';
  const width = time.offsetWidth;
  const height = time.offsetHeight;
  if (width === 0 || height === 0) return;
  const markHeight = mark.hidden ? 0 : mark.offsetHeight + parseFloat(getComputedStyle(mark).marginTop);
  const scale = Math.min(1, (clock.clientWidth * 0.96) / width, (clock.clientHeight - markHeight) / height);
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
