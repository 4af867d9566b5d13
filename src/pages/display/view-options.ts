// What a screen's own link may ask for, beside the room's display settings:
// `?layout=minimal` (a phone) and `?show=aux` (the second timer as the screen's
// main time, for the person who runs to it). The room's settings stay as they
// are. Read by the page and checked by the box when the page is asked for
// (viewer-routes.ts), so a mistyped link gets a page saying what to write
// instead of a screen quietly showing something else.
// Page code: no destructuring (esbuild targets old browsers).
import { DISPLAY_LAYOUTS, type DisplayLayout } from '../../domain/types.js';

/** Which timer is the screen's main time: the running order's active one, or the aux. */
export const SHOWN_TIMERS = ['main', 'aux'] as const;
export type ShownTimer = (typeof SHOWN_TIMERS)[number];

export interface ViewOptions {
  /** The link's own layout, or null for the room's. */
  readonly layout: DisplayLayout | null;
  readonly show: ShownTimer;
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | null {
  for (let i = 0; i < allowed.length; i += 1) if (allowed[i] === value) return value as T;
  return null;
}

/** The options of a page's query (`location.search`); anything the box would refuse reads as not given. */
export function viewOptions(search: string): ViewOptions {
  const query = new URLSearchParams(search);
  return { layout: oneOf(DISPLAY_LAYOUTS, query.get('layout')), show: oneOf(SHOWN_TIMERS, query.get('show')) ?? 'main' };
}

/** A value as a refusal quotes it: short, so a pasted paragraph does not fill the page. */
function quoted(value: string): string {
  return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
}

/** What is wrong with a screen link's options, in words a person can act on; null when nothing is. */
export function viewOptionsProblem(layout: string | undefined, show: string | undefined): string | null {
  if (layout !== undefined && oneOf(DISPLAY_LAYOUTS, layout) === null) {
    return `layout: ${quoted(layout)} is not a layout; use one of ${DISPLAY_LAYOUTS.join(', ')}, or leave it out for the room's own`;
  }
  if (show !== undefined && oneOf(SHOWN_TIMERS, show) === null) {
    return `show: ${quoted(show)} is not a timer to show; use aux for the second timer as the main time, or leave it out for the running order's`;
  }
  return null;
}
