// The one snapshot the console renders: the newest by seq, wherever it came
// from (the push channel or the answer to our own request). Answers can arrive
// after newer pushed events when several consoles and button panels act at
// once; an older seq is never applied over a newer one.
import type { Snapshot } from '../../domain/snapshot.js';

export type SnapshotListener = (snapshot: Snapshot) => void;

export class LatestSnapshot {
  #current: Snapshot | null = null;
  readonly #listeners: SnapshotListener[] = [];

  get current(): Snapshot | null {
    return this.#current;
  }

  /** Applies `snapshot` when it is newer than what is shown; says whether it did. */
  offer(snapshot: Snapshot): boolean {
    if (this.#current !== null && snapshot.seq <= this.#current.seq) return false;
    this.#apply(snapshot);
    return true;
  }

  /**
   * The first snapshot of a new stream connection is the box's present even with
   * a lower seq: a box restarted without its saved state counts from 1 again.
   */
  replace(snapshot: Snapshot): void {
    this.#apply(snapshot);
  }

  subscribe(listener: SnapshotListener): void {
    this.#listeners.push(listener);
  }

  #apply(snapshot: Snapshot): void {
    this.#current = snapshot;
    for (const listener of this.#listeners) listener(snapshot);
  }
}
