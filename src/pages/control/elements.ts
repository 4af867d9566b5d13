// Small DOM helpers for the console: no framework, nothing an old browser lacks.

/** The element with this id, checked to be of the expected kind, or a clear error. */
export function byId<T extends HTMLElement>(id: string, kind: { new (): T; prototype: T }): T {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new Error(`control page: #${id} is missing or of the wrong kind`);
  return found;
}

export function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  opts: { className?: string; text?: string; attrs?: Readonly<Record<string, string>> } = {},
  children: readonly Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (opts.className !== undefined) node.className = opts.className;
  if (opts.text !== undefined) node.textContent = opts.text;
  if (opts.attrs !== undefined) {
    for (const name of Object.keys(opts.attrs)) node.setAttribute(name, opts.attrs[name] as string);
  }
  for (const child of children) node.appendChild(child);
  return node;
}

/** Sets text only when it differs, so an unchanged value costs no layout. */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

export function setPressed(button: HTMLElement, pressed: boolean): void {
  const value = pressed ? 'true' : 'false';
  if (button.getAttribute('aria-pressed') !== value) button.setAttribute('aria-pressed', value);
}

/** Fields where keys are typed: shortcuts stay out of them and snapshots never overwrite them while focused. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(target.type);
  }
  return target instanceof HTMLElement && target.isContentEditable;
}
