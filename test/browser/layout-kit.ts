// Layout checks every screen's test can run in the browser it drives: text contrast
// computed the way WCAG 2 defines it (relative luminance of the text's colour
// against the colour actually behind it, alpha and opacity composited up the
// tree), elements that stick out of the element that holds them, and text cut
// short. Each returns the faults it finds, described so a failing test names the
// element, its text and the numbers; an empty list is a pass. Each check's page
// function goes to the browser as its own source text, so the small describe/visible
// helpers are written inside each rather than shared.
import type { Page } from 'playwright-core';

/** The sizes a show meets: HDMI 1080p and 720p, an old 4:3 projector, a phone upright and on its side. */
export const SCREEN_SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
  { width: 844, height: 390 },
] as const;
export type ScreenSize = (typeof SCREEN_SIZES)[number];

export function sizeName(size: { width: number; height: number }): string {
  return `${size.width}x${size.height}`;
}

/** WCAG 2.x: 4.5:1 for text, 3:1 for large text (at least 24 px, or 18.66 px bold). */
export const AA_TEXT = 4.5;
export const AA_LARGE_TEXT = 3;

type Rgb = readonly [number, number, number];

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(rgb: Rgb): number {
  return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2]);
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export interface ContrastFault {
  readonly text: string;
  readonly where: string;
  readonly ratio: number;
  readonly needed: number;
  readonly color: string;
  readonly background: string;
}

interface SampledText {
  readonly text: string;
  readonly where: string;
  readonly fg: readonly [number, number, number, number];
  readonly bg: Rgb;
  readonly large: boolean;
  /** True when something behind the text is an image or gradient: its colour cannot be known from CSS. */
  readonly overImage: boolean;
}

/**
 * Every visible piece of text inside `scope` (a CSS selector, default the body) and
 * the ratio of its colour to what is behind it; faults are those below AA. Text over
 * an image or gradient is skipped (its background is not a CSS colour) unless
 * `imageBackground` gives the colour to assume there.
 */
export async function contrastFaults(page: Page, scope = 'body', options: { imageBackground?: Rgb } = {}): Promise<ContrastFault[]> {
  const samples = await page.evaluate((scopeSelector): SampledText[] => {
    function parse(color: string): [number, number, number, number] {
      const m = /rgba?\(([^)]+)\)/.exec(color);
      if (m === null || m[1] === undefined) return [0, 0, 0, 0];
      const parts = m[1].split(/[\s,/]+/).filter((p) => p !== '').map(Number);
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    }
    function over(top: [number, number, number, number], under: [number, number, number]): [number, number, number] {
      const a = top[3];
      return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a)];
    }
    function describe(el: Element): string {
      const id = el.id === '' ? '' : `#${el.id}`;
      const cls = typeof el.className === 'string' && el.className.trim() !== '' ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id}${cls}`;
    }
    function visible(el: Element): boolean {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      for (let e: Element | null = el; e !== null; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return false;
      }
      return true;
    }
    const out: SampledText[] = [];
    const root = document.querySelector(scopeSelector);
    if (root === null) return out;
    const all = [root, ...Array.from(root.querySelectorAll('*'))];
    for (const el of all) {
      if (el instanceof HTMLInputElement && (el.type === 'hidden' || el.type === 'file' || el.type === 'checkbox' || el.type === 'radio' || el.type === 'range' || el.type === 'color')) continue;
      const own = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      const fieldText = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value || el.placeholder : '';
      const text = own !== '' ? own : fieldText;
      if (text === '' || !visible(el)) continue;
      if (el.closest('svg') !== null) continue;
      const style = getComputedStyle(el);
      const fg = parse(style.color);
      let opacity = 1;
      for (let e: Element | null = el; e !== null; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      fg[3] *= opacity;
      // The backgrounds from the element out to the page, composited from the back.
      const layers: [number, number, number, number][] = [];
      let overImage = false;
      for (let e: Element | null = el; e !== null; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.backgroundImage !== 'none' && s.backgroundImage !== '') overImage = true;
        const c = parse(s.backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let bg: [number, number, number] = [255, 255, 255];
      for (let i = layers.length - 1; i >= 0; i -= 1) {
        const layer = layers[i];
        if (layer !== undefined) bg = over(layer, bg);
      }
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      out.push({ text: text.slice(0, 60), where: describe(el), fg, bg, large: size >= 24 || (bold && size >= 18.66), overImage });
    }
    return out;
  }, scope);
  const faults: ContrastFault[] = [];
  for (const s of samples) {
    if (s.overImage && options.imageBackground === undefined) continue;
    const under = s.overImage && options.imageBackground !== undefined ? options.imageBackground : s.bg;
    const a = s.fg[3];
    const fg: Rgb = [s.fg[0] * a + under[0] * (1 - a), s.fg[1] * a + under[1] * (1 - a), s.fg[2] * a + under[2] * (1 - a)];
    const ratio = contrastRatio(fg, under);
    const needed = s.large ? AA_LARGE_TEXT : AA_TEXT;
    if (ratio < needed) {
      const css = (c: Rgb): string => `rgb(${c.map((v) => Math.round(v)).join(', ')})`;
      faults.push({ text: s.text, where: s.where, ratio: Math.round(ratio * 100) / 100, needed, color: css(fg), background: css(under) });
    }
  }
  return faults;
}

export interface SpillFault {
  readonly where: string;
  readonly text: string;
  readonly container: string;
  /** How far past each side of the container, in CSS px (only the sides it passes). */
  readonly past: string;
}

/**
 * Visible elements inside `scope` whose box passes the box of the element that holds
 * them (the nearest ancestor that clips with overflow other than visible, or the
 * viewport) by more than `tolerance` px: what a reader sees clipped, or lying over
 * something else. Elements matching `ignore` (and what they hold) are left out.
 */
export async function spillFaults(page: Page, scope = 'body', options: { tolerance?: number; ignore?: string } = {}): Promise<SpillFault[]> {
  return page.evaluate(
    (args) => {
      function describe(el: Element): string {
        const id = el.id === '' ? '' : `#${el.id}`;
        const cls = typeof el.className === 'string' && el.className.trim() !== '' ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        return `${el.tagName.toLowerCase()}${id}${cls}`;
      }
      function visible(el: Element): boolean {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) return false;
        for (let e: Element | null = el; e !== null; e = e.parentElement) {
          const s = getComputedStyle(e);
          if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return false;
        }
        return true;
      }
      const root = document.querySelector(args.scope);
      if (root === null) return [];
      const faults: { where: string; text: string; container: string; past: string }[] = [];
      // The page in the rectangles' frame (the window's): as wide as the window (a page that
      // scrolls sideways is a fault), as tall as it scrolls, wherever it is scrolled to now.
      const doc = document.documentElement;
      const viewport = { left: -window.scrollX, top: -window.scrollY, right: doc.clientWidth - window.scrollX, bottom: Math.max(doc.clientHeight, doc.scrollHeight) - window.scrollY };
      for (const el of Array.from(root.querySelectorAll('*'))) {
        if (args.ignore !== '' && el.closest(args.ignore) !== null) continue;
        if (el.closest('svg') !== null && el.tagName.toLowerCase() !== 'svg') continue;
        if (!visible(el)) continue;
        const r = el.getBoundingClientRect();
        let holder: Element | null = el.parentElement;
        while (holder !== null && holder !== document.body && getComputedStyle(holder).overflow === 'visible') holder = holder.parentElement;
        const h =
          holder === null || holder === document.body
            ? viewport
            : (() => {
                const b = holder.getBoundingClientRect();
                return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
              })();
        const t = args.tolerance;
        const past: string[] = [];
        if (r.left < h.left - t) past.push(`left ${Math.round(h.left - r.left)}`);
        if (r.right > h.right + t) past.push(`right ${Math.round(r.right - h.right)}`);
        if (r.top < h.top - t) past.push(`top ${Math.round(h.top - r.top)}`);
        if (r.bottom > h.bottom + t) past.push(`bottom ${Math.round(r.bottom - h.bottom)}`);
        // A scrolling holder shows what passes it by scrolling: not a fault.
        if (past.length > 0 && holder !== null && holder !== document.body) {
          const s = getComputedStyle(holder);
          if (s.overflow === 'auto' || s.overflow === 'scroll' || s.overflowX === 'auto' || s.overflowY === 'auto') continue;
        }
        if (past.length > 0) {
          faults.push({ where: describe(el), text: (el.textContent ?? '').trim().slice(0, 40), container: holder === null || holder === document.body ? 'the page' : describe(holder), past: past.join(', ') });
        }
      }
      return faults;
    },
    { scope, tolerance: options.tolerance ?? 1, ignore: options.ignore ?? '' },
  );
}

export interface CutText {
  readonly where: string;
  readonly text: string;
  /** The width the whole text needs, and what it has. */
  readonly needs: number;
  readonly has: number;
}

/**
 * Elements inside `scope` whose own text is cut (by ellipsis, clipping or line
 * clamping): its scroll size exceeds its client size. A test decides whether the cut
 * was needed (the text could not have fitted) or came with room to spare.
 */
export async function cutTexts(page: Page, scope = 'body'): Promise<CutText[]> {
  return page.evaluate((scopeSelector) => {
    const root = document.querySelector(scopeSelector);
    if (root === null) return [];
    const out: { where: string; text: string; needs: number; has: number }[] = [];
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (!(el instanceof HTMLElement) || el.offsetParent === null) continue;
      const s = getComputedStyle(el);
      if (s.overflow === 'visible' || s.overflow === 'auto' || s.overflow === 'scroll') continue;
      const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!own) continue;
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
        const id = el.id === '' ? '' : `#${el.id}`;
        out.push({ where: `${el.tagName.toLowerCase()}${id}`, text: (el.textContent ?? '').trim().slice(0, 60), needs: el.scrollWidth, has: el.clientWidth });
      }
    }
    return out;
  }, scope);
}
