// Drag-and-drop reordering of the running order, with pointer events: mouse,
// pen and touch alike (HTML5 drag events never fire on a tablet or phone). The
// row's number cell is the handle, so dragging never fights text editing in the
// fields; on a touch screen only the handle drags (touch-action: none there),
// and the rest of the row scrolls the page as usual. The arrow buttons stay for
// the keyboard. A drop becomes one `/timer/{id}/move` with the final position,
// decided by the room's running order as shown: the box then says where the row
// really went.

/** `to` is the dragged timer's index after the move, as `/timer/{id}/move` takes it. */
export type DropHandler = (id: string, to: number) => void;

/** A row's vertical extent on screen (clientY), in the order the rows are shown. */
export interface RowBand {
  readonly top: number;
  readonly bottom: number;
}

export interface DropSpot {
  /** The row the pointer is over (the first above the rows, the last below them). */
  readonly index: number;
  /** Its lower half: the dragged row goes after it. */
  readonly after: boolean;
}

/** A press that moves less than this is a tap or a click, not a drag (a finger wobbles a little). */
const DRAG_START_PX = 6;
/** Within this of the visible area's top or bottom edge, a drag scrolls the page. */
const EDGE_PX = 48;
/** The fastest edge scroll, pixels per frame, reached at the very edge. */
const MAX_SCROLL_PX = 18;

const DROP_CLASSES = ['drop-before', 'drop-after'];

/** Where a drop on `targetIndex` (before or after it) puts the row now at `fromIndex`. */
export function dropIndex(fromIndex: number, targetIndex: number, after: boolean): number {
  const slot = targetIndex + (after ? 1 : 0);
  return fromIndex < slot ? slot - 1 : slot;
}

/** The row under a pointer at `clientY`; null when there are no rows. */
export function dropSpot(rows: readonly RowBand[], clientY: number): DropSpot | null {
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as RowBand;
    if (clientY < row.bottom) return { index: i, after: clientY > (row.top + row.bottom) / 2 };
  }
  return rows.length === 0 ? null : { index: rows.length - 1, after: true };
}

/** How far to scroll this frame with the pointer at `clientY` in the visible band [top, bottom]: negative up, 0 none. */
export function edgeScroll(clientY: number, top: number, bottom: number): number {
  if (clientY < top + EDGE_PX) return -Math.ceil((MAX_SCROLL_PX * Math.min(EDGE_PX, top + EDGE_PX - clientY)) / EDGE_PX);
  if (clientY > bottom - EDGE_PX) return Math.ceil((MAX_SCROLL_PX * Math.min(EDGE_PX, clientY - (bottom - EDGE_PX))) / EDGE_PX);
  return 0;
}

interface Press {
  readonly id: string;
  readonly tr: HTMLTableRowElement;
  readonly handle: HTMLElement;
  readonly pointerId: number;
  readonly startX: number;
  readonly startY: number;
  clientY: number;
  dragging: boolean;
  frame: number | null;
}

export class RowDrag {
  readonly #order: () => readonly string[];
  readonly #onDrop: DropHandler;
  readonly #visibleTop: () => number;
  #press: Press | null = null;
  #marked: HTMLElement | null = null;

  /**
   * `order` is the running order's ids as shown now; `visibleTop` is where the page's
   * visible area starts (below a sticky header), for scrolling at the edge while dragging.
   */
  constructor(order: () => readonly string[], onDrop: DropHandler, visibleTop: () => number = () => 0) {
    this.#order = order;
    this.#onDrop = onDrop;
    this.#visibleTop = visibleTop;
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#press !== null && this.#press.dragging) this.#end(null);
    });
  }

  /** Makes `handle` drag `tr` (timer `id`). */
  attach(tr: HTMLTableRowElement, handle: HTMLElement, id: string): void {
    handle.classList.add('drag-handle');
    handle.title = 'Drag to reorder';
    handle.addEventListener('pointerdown', (event) => {
      if (!event.isPrimary || event.button !== 0 || this.#press !== null) return;
      this.#press = { id, tr, handle, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, clientY: event.clientY, dragging: false, frame: null };
      // Moves and the release come here even when the pointer leaves the handle (and the window).
      handle.setPointerCapture(event.pointerId);
    });
    handle.addEventListener('pointermove', (event) => {
      const press = this.#press;
      if (press === null || press.pointerId !== event.pointerId) return;
      press.clientY = event.clientY;
      if (!press.dragging) {
        if (Math.hypot(event.clientX - press.startX, event.clientY - press.startY) < DRAG_START_PX) return;
        this.#start(press);
      }
      event.preventDefault();
      this.#mark(press);
    });
    handle.addEventListener('pointerup', (event) => {
      const press = this.#press;
      if (press === null || press.pointerId !== event.pointerId) return;
      press.clientY = event.clientY;
      this.#end(press.dragging ? press : null);
    });
    // The browser took the pointer (a system gesture) or the row left the page: no drop.
    handle.addEventListener('pointercancel', () => this.#end(null));
    handle.addEventListener('lostpointercapture', () => {
      if (this.#press !== null && this.#press.handle === handle) this.#end(null);
    });
  }

  #start(press: Press): void {
    press.dragging = true;
    press.tr.classList.add('dragging');
    // No text selection grows while the row is dragged (a mouse press began one on the id).
    document.body.classList.add('row-dragging');
    const selection = window.getSelection();
    if (selection !== null) selection.removeAllRanges();
    // Near the top or bottom edge the page scrolls, a little each frame, for as long as the drag lasts.
    const loop = (): void => {
      if (this.#press !== press) return;
      const by = edgeScroll(press.clientY, Math.max(0, this.#visibleTop()), window.innerHeight);
      if (by !== 0) {
        window.scrollBy(0, by);
        // The rows moved under a pointer held still: the drop spot moves with them.
        this.#mark(press);
      }
      press.frame = window.requestAnimationFrame(loop);
    };
    press.frame = window.requestAnimationFrame(loop);
  }

  /** The rows as shown, with where they are now. */
  #rows(press: Press): { ids: string[]; bands: RowBand[]; trs: HTMLTableRowElement[] } {
    const trs: HTMLTableRowElement[] = [];
    const body = press.tr.parentElement;
    if (body !== null) {
      for (let i = 0; i < body.children.length; i += 1) {
        const child = body.children[i];
        if (child instanceof HTMLTableRowElement && child.hasAttribute('data-id')) trs.push(child);
      }
    }
    return {
      trs,
      ids: trs.map((tr) => tr.getAttribute('data-id') ?? ''),
      bands: trs.map((tr) => {
        const rect = tr.getBoundingClientRect();
        return { top: rect.top, bottom: rect.bottom };
      }),
    };
  }

  #mark(press: Press): void {
    // No destructuring in this class: the bundle's old-browser target lowers it badly beside private fields.
    const rows = this.#rows(press);
    const spot = dropSpot(rows.bands, press.clientY);
    const target = spot === null ? null : (rows.trs[spot.index] ?? null);
    if (this.#marked !== null && this.#marked !== target) for (const name of DROP_CLASSES) this.#marked.classList.remove(name);
    this.#marked = target;
    if (target === null || spot === null) return;
    target.classList.toggle('drop-after', spot.after);
    target.classList.toggle('drop-before', !spot.after);
  }

  /** Ends the press; `drop` is the press to drop where it is, null to drop nothing. */
  #end(drop: Press | null): void {
    const press = this.#press;
    if (press === null) return;
    this.#press = null;
    if (press.frame !== null) window.cancelAnimationFrame(press.frame);
    press.tr.classList.remove('dragging');
    document.body.classList.remove('row-dragging');
    if (this.#marked !== null) for (const name of DROP_CLASSES) this.#marked.classList.remove(name);
    this.#marked = null;
    if (press.handle.hasPointerCapture(press.pointerId)) press.handle.releasePointerCapture(press.pointerId);
    if (drop === null) return;
    const rows = this.#rows(drop);
    const spot = dropSpot(rows.bands, drop.clientY);
    const target = spot === null ? undefined : rows.ids[spot.index];
    if (spot === null || target === undefined) return;
    const order = this.#order();
    const from = order.indexOf(drop.id);
    const onto = order.indexOf(target);
    if (from < 0 || onto < 0) return;
    const to = dropIndex(from, onto, spot.after);
    if (to !== from) this.#onDrop(drop.id, to);
  }
}
