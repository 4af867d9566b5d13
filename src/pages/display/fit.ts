// Fits the time, the message and the audience question into the boxes the layout
// gives them. CSS alone cannot do it on the kiosks' Chromium 70 (no min() or
// container units): a 500-character message or a 280-character question must
// shrink, wrap and at last clip, and the digits must stay inside what they leave
// them, on every screen shape. Whatever must be cut is cut by the page at a word end
// with an ellipsis (cutAtWordEnd), never clipped mid-word by the stylesheet; the
// title and the speaker wrap to a second line and shrink before that.

/** A screen's size in CSS pixels: the display's window, or the console's preview of it. */
export interface ScreenSize {
  readonly width: number;
  readonly height: number;
}

/** Below this a message stops shrinking and is clipped instead: still readable from a few metres (3vmin of the screen). */
function minMessagePx(screen: ScreenSize): number {
  return Math.max(12, Math.min(screen.width, screen.height) * 0.03);
}

/** The message's text (`full`): full size if it fits, else smaller, else cut at a word end with an ellipsis. */
export function fitMessage(box: HTMLElement, text: HTMLElement, full: string, screen: ScreenSize): void {
  fitBoxText(box, text, full, null, screen);
}

/**
 * The audience question, fitted as the message is (a 280-character question shrinks,
 * wraps, then is clipped with an ellipsis); its name line under it keeps its size and
 * its place, so the clipping leaves room for it.
 */
export function fitQuestion(box: HTMLElement, text: HTMLElement, name: HTMLElement, full: string, screen: ScreenSize): void {
  fitBoxText(box, text, full, name.hidden ? null : name, screen);
}

/** The line under a fitted text (the question's name) is never larger than this share of the text. */
const BELOW_SHARE = 0.8;

function fitBoxText(box: HTMLElement, text: HTMLElement, full: string, below: HTMLElement | null, screen: ScreenSize): void {
  if (box.hidden) return;
  text.style.fontSize = '';
  if (text.textContent !== full) text.textContent = full;
  if (below !== null) below.style.fontSize = '';
  const fits = (): boolean => box.scrollHeight <= box.clientHeight;
  if (fits()) return;
  const min = minMessagePx(screen);
  let size = parseFloat(getComputedStyle(text).fontSize);
  const belowSize = below === null ? 0 : parseFloat(getComputedStyle(below).fontSize);
  while (!fits() && size > min) {
    size = Math.max(min, size * 0.88);
    text.style.fontSize = `${size}px`;
    // A name larger than the question it signs reads as a heading: it shrinks along.
    if (below !== null && belowSize > size * BELOW_SHARE) below.style.fontSize = `${size * BELOW_SHARE}px`;
  }
  if (!fits()) cutAtWordEnd(text, full, fits);
}

/**
 * Sets `element`'s text to the longest start of `full` that `fits`, ended at a word and
 * marked with an ellipsis ("…backstage and…", never "…backstage and r"); a first word
 * too long for the room on its own is cut where it must be, still with the ellipsis.
 */
export function cutAtWordEnd(element: HTMLElement, full: string, fits: () => boolean): void {
  const words = full.split(' ');
  const wordsText = (n: number): string => `${words.slice(0, n).join(' ')}…`;
  // The most words that fit: binary search, a layout per step.
  let low = 0;
  let high = words.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    element.textContent = wordsText(mid);
    if (fits()) low = mid;
    else high = mid - 1;
  }
  if (low > 0) {
    element.textContent = wordsText(low);
    return;
  }
  let chars = 0;
  let most = (words[0] ?? '').length;
  while (chars < most) {
    const mid = Math.ceil((chars + most) / 2);
    element.textContent = `${full.slice(0, mid)}…`;
    if (fits()) chars = mid;
    else most = mid - 1;
  }
  element.textContent = `${full.slice(0, chars)}…`;
}

/** A title may take this many lines before it is made smaller, and a speaker's name as many. */
const TITLE_LINES = 2;
/** How far the title and the speaker shrink before they are cut: still read from across a room. */
const TITLE_MIN_SCALE = 0.7;

/**
 * The title and the speaker in the width they have: on one line at their size when they
 * fit, else wrapped to a second line, else smaller (to TITLE_MIN_SCALE), and only then cut
 * at a word end, each keeping at least its first line. `row` is the row that holds them:
 * where it has a fixed height (the lower third's band), they fit in that height too.
 */
export function fitTitles(row: HTMLElement, items: readonly { readonly element: HTMLElement; readonly full: string }[]): void {
  row.classList.remove(CROWDED);
  if (fitTitlesIn(row, items)) return;
  // Even one line of each does not fit above the rest (the lower third with ON AIR, the tag,
  // the extras row and long titles at once): the row is arranged tighter (screen.css: ON AIR
  // beside the titles rather than above them) and they are fitted again.
  row.classList.add(CROWDED);
  fitTitlesIn(row, items);
}

/** The class fitTitles gives a row too full for its titles as it is laid out (screen.css). */
const CROWDED = 'crowded';

/** One pass of fitTitles: whether the row holds what it shows at the end. */
function fitTitlesIn(row: HTMLElement, items: readonly { readonly element: HTMLElement; readonly full: string }[]): boolean {
  const shown: { element: HTMLElement; full: string; size: number }[] = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as { readonly element: HTMLElement; readonly full: string };
    item.element.style.fontSize = '';
    if (item.element.textContent !== item.full) item.element.textContent = item.full;
    // Switched off, or the layout shows no titles: nothing to fit.
    if (item.element.offsetWidth === 0 || item.full === '') continue;
    shown.push({ element: item.element, full: item.full, size: parseFloat(getComputedStyle(item.element).fontSize) });
  }
  if (shown.length === 0) return true;
  const fitsLines = (element: HTMLElement, lines: number): boolean => {
    const style = getComputedStyle(element);
    const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    return element.scrollWidth <= element.clientWidth + 1 && element.scrollHeight <= lines * lineHeight + 1;
  };
  // What the row holds lies within its height (a content taller than a centring row passes it at the top too, which its scrollHeight would not count).
  const rowFits = (): boolean => {
    const box = row.getBoundingClientRect();
    for (let i = 0; i < row.children.length; i += 1) {
      const r = (row.children[i] as Element).getBoundingClientRect();
      if (r.height > 0 && (r.top < box.top - 1 || r.bottom > box.bottom + 1)) return false;
    }
    return true;
  };
  const allFit = (): boolean => {
    for (let i = 0; i < shown.length; i += 1) if (!fitsLines((shown[i] as { element: HTMLElement }).element, TITLE_LINES)) return false;
    return rowFits();
  };
  if (allFit()) return true;
  let scale = 1;
  while (!allFit() && scale > TITLE_MIN_SCALE) {
    scale = Math.max(TITLE_MIN_SCALE, scale * 0.9);
    for (let i = 0; i < shown.length; i += 1) {
      const s = shown[i] as { element: HTMLElement; size: number };
      s.element.style.fontSize = `${s.size * scale}px`;
    }
  }
  if (allFit()) return true;
  for (let i = 0; i < shown.length; i += 1) {
    const s = shown[i] as { element: HTMLElement; full: string };
    if (!fitsLines(s.element, TITLE_LINES)) cutAtWordEnd(s.element, s.full, () => fitsLines(s.element, TITLE_LINES));
  }
  // A band of fixed height still too full: the speaker down to one line, then the title.
  // Each keeps its first line (its first words and the ellipsis), never less: a bare "…"
  // says nothing. What else gives way for them is the layout's: the lower third's band
  // grows when the extras row shows (screen.css), and a row still too full is `crowded`.
  for (let i = shown.length - 1; i >= 0 && !rowFits(); i -= 1) {
    const s = shown[i] as { element: HTMLElement; full: string };
    if (!fitsLines(s.element, 1)) cutAtWordEnd(s.element, s.full, () => fitsLines(s.element, 1));
  }
  // Both down to one line may have left room for a second line of one of them, the title first.
  for (let i = 0; i < shown.length; i += 1) {
    const s = shown[i] as { element: HTMLElement; full: string };
    const before = s.element.textContent ?? '';
    if (before === s.full || !rowFits()) continue;
    cutAtWordEnd(s.element, s.full, () => fitsLines(s.element, TITLE_LINES) && rowFits());
    if ((s.element.textContent ?? '').length < before.length) s.element.textContent = before;
  }
  return rowFits();
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
