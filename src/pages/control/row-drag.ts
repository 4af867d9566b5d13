// Drag-and-drop reordering of the running order (HTML5 drag and drop, mouse and
// trackpad). The row's number cell is the handle, so dragging never fights text
// selection in the fields; the arrow buttons stay for the keyboard and for touch
// screens, where HTML5 drag and drop does not start. A drop becomes one
// `/timer/{id}/move` with the final position, decided by the room's running
// order as shown: the box then says where the row really went.

/** `to` is the dragged timer's index after the move, as `/timer/{id}/move` takes it. */
export type DropHandler = (id: string, to: number) => void;

const DROP_CLASSES = ['drop-before', 'drop-after'];

function clearDropMarks(tr: HTMLElement): void {
  for (const name of DROP_CLASSES) tr.classList.remove(name);
}

/** Where a drop on `targetIndex` (before or after it) puts the row now at `fromIndex`. */
export function dropIndex(fromIndex: number, targetIndex: number, after: boolean): number {
  const slot = targetIndex + (after ? 1 : 0);
  return fromIndex < slot ? slot - 1 : slot;
}

export class RowDrag {
  readonly #order: () => readonly string[];
  readonly #onDrop: DropHandler;
  #dragging: string | null = null;

  /** `order` is the running order's ids as shown now. */
  constructor(order: () => readonly string[], onDrop: DropHandler) {
    this.#order = order;
    this.#onDrop = onDrop;
  }

  /** Makes `handle` drag `tr` (timer `id`), and `tr` a drop target. */
  attach(tr: HTMLTableRowElement, handle: HTMLElement, id: string): void {
    handle.setAttribute('draggable', 'true');
    handle.title = 'Drag to reorder';
    handle.addEventListener('dragstart', (event) => {
      this.#dragging = id;
      tr.classList.add('dragging');
      if (event.dataTransfer !== null) {
        event.dataTransfer.effectAllowed = 'move';
        // Some browsers start no drag without data.
        event.dataTransfer.setData('text/plain', id);
        event.dataTransfer.setDragImage(tr, 12, 12);
      }
    });
    handle.addEventListener('dragend', () => {
      this.#dragging = null;
      tr.classList.remove('dragging');
    });
    tr.addEventListener('dragover', (event) => {
      if (this.#dragging === null) return;
      event.preventDefault();
      if (event.dataTransfer !== null) event.dataTransfer.dropEffect = 'move';
      const after = this.#isLowerHalf(tr, event.clientY);
      tr.classList.toggle('drop-after', after);
      tr.classList.toggle('drop-before', !after);
    });
    tr.addEventListener('dragleave', () => clearDropMarks(tr));
    tr.addEventListener('drop', (event) => {
      clearDropMarks(tr);
      const dragged = this.#dragging;
      this.#dragging = null;
      if (dragged === null) return;
      event.preventDefault();
      const ids = this.#order();
      const from = ids.indexOf(dragged);
      const target = ids.indexOf(id);
      if (from < 0 || target < 0) return;
      const to = dropIndex(from, target, this.#isLowerHalf(tr, event.clientY));
      if (to !== from) this.#onDrop(dragged, to);
    });
  }

  #isLowerHalf(tr: HTMLElement, clientY: number): boolean {
    const rect = tr.getBoundingClientRect();
    return clientY > rect.top + rect.height / 2;
  }
}
