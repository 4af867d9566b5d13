// The module's HTTP to the box, with Node's own fetch (Companion runs modules on
// Node 18+): one request, its status, its JSON and the rate-limit headers. The
// key is in every URL, so no URL ever goes into a message or the log.
import type { Snapshot } from '../domain/snapshot.js';
import type { ApiCall } from './requests.js';

export type Fetch = typeof fetch;

export interface Target {
  /** `http://host:port`, no path. */
  readonly origin: string;
  readonly apiKey: string;
}

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
  /** `RateLimit-Reset` (or `Retry-After`), whole seconds; null when absent. */
  readonly resetSeconds: number | null;
  readonly remaining: number | null;
}

/** A refused request's own words: the API's `error`, or the status when it gave none. */
export function errorText(answer: ApiAnswer): string {
  const body = answer.body;
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') return body.error;
  return `HTTP ${answer.status}`;
}

function headerNumber(headers: Headers, name: string): number | null {
  const text = headers.get(name);
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

export function rateHeaders(headers: Headers): { resetSeconds: number | null; remaining: number | null } {
  return {
    resetSeconds: headerNumber(headers, 'RateLimit-Reset') ?? headerNumber(headers, 'Retry-After'),
    remaining: headerNumber(headers, 'RateLimit-Remaining'),
  };
}

export function apiUrl(target: Target, path: string): string {
  return `${target.origin}/api/v1/${encodeURIComponent(target.apiKey)}${path}`;
}

/** Why a request never got an answer, in words for the log: Node's fetch hides the reason in `cause`. */
export function networkReason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'no answer in time';
    if (error.name === 'AbortError') return 'cancelled';
    const cause: unknown = error.cause;
    if (typeof cause === 'object' && cause !== null) {
      const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : null;
      switch (code) {
        case 'ECONNREFUSED':
          return 'connection refused (is Showclock running on that port?)';
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
          return 'host name not found';
        case 'EHOSTUNREACH':
        case 'ENETUNREACH':
          return 'host unreachable';
        case 'ETIMEDOUT':
        case 'UND_ERR_CONNECT_TIMEOUT':
          return 'connection timed out';
        case 'ECONNRESET':
        case 'UND_ERR_SOCKET':
          return 'connection reset';
        default:
          if (code !== null) return code;
      }
    }
    return error.message;
  }
  return String(error);
}

/** The header that tells the box until when a request may happen (src/commands/deadline.ts on the box). */
export const DEADLINE_HEADER = 'Showclock-Deadline';

/**
 * Reads the whole answer. Throws only when no answer came (network, or `signal` gave up).
 * `deadline`: the box's time (ms) after which it must refuse the request; none for reads.
 */
export async function send(
  fetchImpl: Fetch,
  url: string,
  call: Pick<ApiCall, 'method' | 'body'>,
  signal: AbortSignal,
  deadline: number | null = null,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (call.body !== null) headers['Content-Type'] = 'application/json';
  if (deadline !== null) headers[DEADLINE_HEADER] = String(deadline);
  const response = await fetchImpl(url, {
    method: call.method,
    headers,
    ...(call.body === null ? {} : { body: JSON.stringify(call.body) }),
    signal,
  });
  return answerOf(response);
}

/** A response read whole: status, JSON body (null if none or not JSON), rate-limit headers. */
export async function answerOf(response: Response): Promise<ApiAnswer> {
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    body = null;
  }
  return { status: response.status, body, ...rateHeaders(response.headers) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isNumberOrNull = (value: unknown): boolean => value === null || typeof value === 'number';

/** The fields the module reads, checked, so a stranger's JSON never becomes a room. */
export function isSnapshot(value: unknown): value is Snapshot {
  if (!isRecord(value)) return false;
  return (
    typeof value.seq === 'number' &&
    typeof value.serverNow === 'number' &&
    typeof value.running === 'boolean' &&
    isNumberOrNull(value.endAt) &&
    isNumberOrNull(value.remainingAtPause) &&
    typeof value.zeroBehavior === 'string' &&
    typeof value.blackout === 'boolean' &&
    typeof value.onAir === 'boolean' &&
    typeof value.activeTimerId === 'string' &&
    typeof value.duration === 'number' &&
    typeof value.warnAt === 'number' &&
    (value.message === null || isRecord(value.message)) &&
    Array.isArray(value.timers) &&
    isRecord(value.settings) &&
    // Absent from a box older than audience questions (read as none); when present, the module reads them.
    (value.shownQuestion === undefined || value.shownQuestion === null || isRecord(value.shownQuestion)) &&
    (value.questions === undefined || (Array.isArray(value.questions) && value.questions.every(isRecord))) &&
    // Absent from a box older than the schedule and the aux timer (read as nothing recorded, no aux).
    (value.actuals === undefined || (Array.isArray(value.actuals) && value.actuals.every(isRecord))) &&
    (value.aux === undefined || isRecord(value.aux))
  );
}

/** The state of a State envelope `{ ok, state }`, or null. */
export function snapshotIn(body: unknown): Snapshot | null {
  return isRecord(body) && isSnapshot(body.state) ? body.state : null;
}
