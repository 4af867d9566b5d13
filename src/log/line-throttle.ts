// Keeps a flood from one client out of the journal. journald drops a service's
// lines past its burst limit (10 000 in 30 s by default) without saying which,
// so a scanner's 100 000 requests would take the lines that matter with them.
// At most `perWindow` lines per key (a client address) per window are written;
// the rest are counted, and one line per key says how many were left out, when
// its window ends (on the scheduler) or, at the latest, at its next line.
import type { Scheduler } from '../app/clock.js';

/** The key shared by new addresses while `maxKeys` windows are open, so memory stays bounded. */
export const OTHER_KEYS = 'other addresses';

interface Window {
  readonly startMs: number;
  written: number;
  suppressed: number;
}

export interface LineThrottleOptions {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly maxKeys: number;
  readonly nowMs: () => number;
  readonly scheduler: Scheduler;
  /** Called once for a window that left lines out, after it ended. */
  readonly report: (key: string, suppressed: number) => void;
}

export class LineThrottle {
  readonly #opts: LineThrottleOptions;
  /** In order of opening, oldest first. */
  readonly #windows = new Map<string, Window>();
  #wake: { readonly atMs: number; cancel(): void } | null = null;

  constructor(opts: LineThrottleOptions) {
    this.#opts = opts;
  }

  /** Whether a line for `key` may be written now; when not, it is counted for the summary. */
  allow(key: string): boolean {
    const nowMs = this.#opts.nowMs();
    const id = this.#windows.has(key) || this.#windows.size < this.#opts.maxKeys ? key : this.#makeRoom(nowMs, key);
    let window = this.#windows.get(id);
    if (window !== undefined && nowMs >= window.startMs + this.#opts.windowMs) {
      // Its summary comes before the line that opens the next window.
      this.#end(id, window);
      window = undefined;
    }
    if (window === undefined) {
      window = { startMs: nowMs, written: 0, suppressed: 0 };
      this.#windows.set(id, window);
    }
    if (window.written < this.#opts.perWindow) {
      window.written += 1;
      return true;
    }
    window.suppressed += 1;
    if (window.suppressed === 1) this.#wakeAt(window.startMs + this.#opts.windowMs);
    return false;
  }

  /** Open windows (for tests: memory stays bounded). */
  get size(): number {
    return this.#windows.size;
  }

  #makeRoom(nowMs: number, key: string): string {
    this.#sweep(nowMs);
    return this.#windows.size < this.#opts.maxKeys ? key : OTHER_KEYS;
  }

  #end(id: string, window: Window): void {
    this.#windows.delete(id);
    if (window.suppressed > 0) this.#opts.report(id, window.suppressed);
  }

  #sweep(nowMs: number): void {
    for (const [id, window] of this.#windows) {
      if (nowMs >= window.startMs + this.#opts.windowMs) this.#end(id, window);
    }
  }

  #wakeAt(atMs: number): void {
    if (this.#wake !== null && this.#wake.atMs <= atMs) return;
    this.#wake?.cancel();
    const handle = this.#opts.scheduler.schedule(atMs, () => {
      this.#wake = null;
      this.#sweep(this.#opts.nowMs());
      // Windows still open with lines left out: wake again when the first of them ends.
      let nextMs = Infinity;
      for (const window of this.#windows.values()) {
        if (window.suppressed > 0) nextMs = Math.min(nextMs, window.startMs + this.#opts.windowMs);
      }
      if (nextMs !== Infinity) this.#wakeAt(nextMs);
    });
    this.#wake = { atMs, cancel: () => handle.cancel() };
  }
}
