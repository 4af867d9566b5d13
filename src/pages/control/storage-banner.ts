// The banner that says the room is not being saved (a dead or full SD card).
// It cannot be dismissed: it stays while the box reports the problem, from the
// push channel's `storage` event and from the header on every API answer.
import { byId, setText } from './elements.js';

const HEADER = 'Showclock-Storage';

export class StorageBanner {
  readonly #box = byId('storage-banner', HTMLDivElement);
  readonly #text = byId('storage-banner-text', HTMLSpanElement);

  /** From the push channel's `storage` event: `{ saving, problem? }`. */
  fromEvent(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null) return;
    // No destructuring: esbuild cannot lower it for the Safari 12 target.
    const health = parsed as { saving?: unknown; problem?: unknown };
    if (health.saving === true) this.#show(null);
    else if (health.saving === false) this.#show(typeof health.problem === 'string' ? health.problem : 'the box cannot write its data directory');
  }

  /** A new push connection: it says so itself right after its first snapshot when the room is not being saved. */
  connected(): void {
    this.#show(null);
  }

  /** From any API answer: the header is there only while the room is not being saved. */
  fromAnswer(response: Response): void {
    const value = response.headers.get(HEADER);
    this.#show(value === null ? null : value.replace(/^failing; the room is not being saved: /, ''));
  }

  #show(problem: string | null): void {
    document.body.classList.toggle('not-saving', problem !== null);
    this.#box.hidden = problem === null;
    if (problem !== null) {
      setText(this.#text, `The room is NOT being saved (${problem}). The show goes on: start, pause, messages and switches work, but running-order changes are refused, and a restart would lose what changed. Check the SD card and its free space.`);
    }
  }
}
