// The console talks to the box through the public API only, the same one button
// panels use, with POST and JSON bodies. Every failure comes back as words an
// operator can act on: the API's own error message where there is one.
import type { Snapshot } from '../../domain/snapshot.js';
import type { Timer } from '../../domain/types.js';
import type { ClockSync } from '../../domain/clock-sync.js';

export type ApiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

type Body = Readonly<Record<string, string | number | boolean | null>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isSnapshot(value: unknown): value is Snapshot {
  return isRecord(value) && typeof value.seq === 'number' && Array.isArray(value.timers);
}

function clockOf(answer: ApiResult<unknown>): ApiResult<ClockSync> {
  if (!answer.ok) return answer;
  const clock = isRecord(answer.value) ? answer.value.clock : undefined;
  return isRecord(clock) && 'synced' in clock ? { ok: true, value: clock as unknown as ClockSync } : { ok: false, error: 'the box sent an answer without its clock' };
}

export class ApiClient {
  readonly #base: string;
  readonly #onAnswer: (response: Response) => void;

  /** `onAnswer` sees every answer's headers (the storage warning rides on all of them). */
  constructor(apiKey: string, onAnswer: (response: Response) => void = () => {}) {
    this.#base = `/api/v1/${encodeURIComponent(apiKey)}`;
    this.#onAnswer = onAnswer;
  }

  /** A mutation answered with the State envelope. */
  async command(path: string, body: Body = {}): Promise<ApiResult<Snapshot>> {
    const answer = await this.#request('POST', path, body);
    if (!answer.ok) return answer;
    const state = isRecord(answer.value) ? answer.value.state : undefined;
    return isSnapshot(state) ? { ok: true, value: state } : { ok: false, error: 'the box sent an answer without a state' };
  }

  /**
   * A logo, uploaded as the raw body with its type (PNG, JPEG, SVG or WebP). The box checks
   * the content and the size; its 400 or 413 says what is wrong, in words.
   */
  async uploadLogo(file: Blob): Promise<ApiResult<Snapshot>> {
    // A file the browser cannot type still goes: the box names the problem.
    const answer = await this.#send('POST', '/display/logo', { headers: { 'Content-Type': file.type === '' ? 'application/octet-stream' : file.type }, body: file });
    if (!answer.ok) return answer;
    const state = isRecord(answer.value) ? answer.value.state : undefined;
    return isSnapshot(state) ? { ok: true, value: state } : { ok: false, error: 'the box sent an answer without a state' };
  }

  async createTimer(fields: Body = {}): Promise<ApiResult<Timer>> {
    const answer = await this.#request('POST', '/timers', fields);
    if (!answer.ok) return answer;
    const timer = isRecord(answer.value) ? answer.value.timer : undefined;
    return isRecord(timer) && typeof timer.id === 'string'
      ? { ok: true, value: timer as unknown as Timer }
      : { ok: false, error: 'the box sent an answer without the new timer' };
  }

  /** A CSV file appended to the running order as one change by the box: all its rows, or none (the refusal names the line). */
  async importCsv(text: string): Promise<ApiResult<number>> {
    const answer = await this.#send('POST', '/timers/import', { headers: { 'Content-Type': 'text/csv' }, body: text });
    if (!answer.ok) return answer;
    const imported = isRecord(answer.value) ? answer.value.imported : undefined;
    return typeof imported === 'number' ? { ok: true, value: imported } : { ok: false, error: 'the box sent an answer without the number imported' };
  }

  /** Where the box serves the running order as CSV (a download: the key is in the path, as in the console's own URL). */
  get csvUrl(): string {
    return `${this.#base}/timers.csv`;
  }

  async state(): Promise<ApiResult<Snapshot>> {
    const answer = await this.#request('GET', '/state');
    if (!answer.ok) return answer;
    const state = isRecord(answer.value) ? answer.value.state : undefined;
    return isSnapshot(state) ? { ok: true, value: state } : { ok: false, error: 'the box sent an answer without a state' };
  }

  /** Whether the box's clock is synchronised (GET /clock). */
  async clock(): Promise<ApiResult<ClockSync>> {
    return clockOf(await this.#request('GET', '/clock'));
  }

  /** Sets the box's clock to `atMs` (this device's Date.now()); the box refuses while it is synchronised. */
  async setClock(atMs: number): Promise<ApiResult<ClockSync>> {
    return clockOf(await this.#request('POST', '/clock/set', { at: atMs }));
  }

  #request(method: 'GET' | 'POST', path: string, body?: Body): Promise<ApiResult<unknown>> {
    return this.#send(method, path, method === 'POST' ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {});
  }

  async #send(method: 'GET' | 'POST', path: string, init: { headers?: Record<string, string>; body?: BodyInit }): Promise<ApiResult<unknown>> {
    let response: Response;
    try {
      response = await fetch(this.#base + path, { method, cache: 'no-store', credentials: 'omit', ...init });
    } catch {
      return { ok: false, error: 'the box did not answer: check that it is on and that this device is on its network' };
    }
    this.#onAnswer(response);
    let data: unknown;
    try {
      data = await response.json();
    } catch {
      return { ok: false, error: `the box answered HTTP ${response.status} without a readable message` };
    }
    if (isRecord(data) && data.ok === true && response.ok) return { ok: true, value: data };
    if (isRecord(data) && typeof data.error === 'string') return { ok: false, error: data.error };
    return { ok: false, error: `the box answered HTTP ${response.status}` };
  }
}
