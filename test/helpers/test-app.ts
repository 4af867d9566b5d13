// An in-process Showclock HTTP app for tests: the real createApp and RoomService,
// with a fake clock (advanced by hand, running zero events as they fall due),
// fixed keys, a client address taken from a test header, and a log sink that
// keeps every line. Requests go through `app.request()`, no socket.
import type { ScreenControl } from '../../src/domain/screen.js';
import type { Hono } from 'hono';
import type { Clock, Scheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { logTimeNotice } from '../../src/app/time-notice-log.js';
import { createRoom } from '../../src/domain/room.js';
import type { Room } from '../../src/domain/types.js';
import type { LinkConfig } from '../../src/app/urls.js';
import type { BoxClock } from '../../src/domain/clock-sync.js';
import { createApp } from '../../src/http/app.js';
import type { AppEnv, Keys } from '../../src/web/env.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { LogoFiles } from '../../src/store/logo-files.js';

export const API_KEY = 'TestApiKey_0123456789-abcdefGH';
export const VIEWER_KEY = 'TestViewerKey_9876543210-zyxwVU';
export const AUDIENCE_KEY = 'TestAudienceKey_9876543210-zyxwVU';
/** Header the test app reads the client's address from (sockets do not exist in process). */
export const CLIENT_HEADER = 'x-test-client-address';
export const DEFAULT_CLIENT = '127.0.0.1';

/** A clock the test moves by hand; wall and monotonic move together unless told otherwise. */
export class FakeClock implements Clock {
  #monoMs: number;
  #wallMs: number;
  readonly #due: { atMonoMs: number; run: () => void; cancelled: boolean }[] = [];

  constructor(start: { monoMs?: number; wallMs?: number } = {}) {
    this.#monoMs = start.monoMs ?? 1_000_000;
    this.#wallMs = start.wallMs ?? Date.UTC(2025, 5, 1, 9, 0, 0);
  }

  monoMs = (): number => this.#monoMs;
  wallMs = (): number => this.#wallMs;

  readonly scheduler: Scheduler = {
    schedule: (atMonoMs, run) => {
      const entry = { atMonoMs, run, cancelled: false };
      this.#due.push(entry);
      return {
        cancel: () => {
          entry.cancelled = true;
        },
      };
    },
  };

  /** Moves both clocks forward, running every scheduled callback that falls due on the way, in order. */
  advance(ms: number): void {
    const targetMs = this.#monoMs + ms;
    for (;;) {
      const live = this.#due.filter((e) => !e.cancelled && e.atMonoMs <= targetMs).sort((a, b) => a.atMonoMs - b.atMonoMs);
      const first = live[0];
      if (first === undefined) break;
      this.#due.splice(this.#due.indexOf(first), 1);
      this.#wallMs += Math.max(0, first.atMonoMs - this.#monoMs);
      this.#monoMs = Math.max(this.#monoMs, first.atMonoMs);
      first.run();
    }
    this.#wallMs += targetMs - this.#monoMs;
    this.#monoMs = targetMs;
  }

  /** A wall-clock step (NTP) that the monotonic clock does not see. */
  stepWall(ms: number): void {
    this.#wallMs += ms;
  }
}

/** A screen that acknowledges every request and says it is on: for tests of everything the document lists answering 2xx. */
export const SCREEN_THAT_ACKNOWLEDGES: ScreenControl = { request: async () => ({ ok: true, report: { power: 'on', problem: null } }) };

export interface TestAppOptions {
  /** Rate limit per window; 100 as in production unless a test lowers it. */
  readonly limit?: number;
  readonly room?: Room;
  /** Log lines are scrubbed of the keys as in production unless a test turns it off. */
  readonly scrubKeys?: boolean;
  /** The logger's level; 'info' as in production unless a test wants the debug lines too. */
  readonly logLevel?: 'info' | 'debug';
  /** Where uploaded logos are stored; none unless a test gives one. */
  readonly dataDir?: string;
  /** What the links the box gives out start with (`publicUrl`, host, port); the box's own address on 8080 unless a test gives one. */
  readonly links?: LinkConfig;
  /** The box's clock (synchronised or not, set by hand); unknown and never set unless a test gives one. */
  readonly clock?: BoxClock;
  /** The screen over HDMI-CEC, made once the room service is; none (every /screen/* 409) unless a test gives one. */
  readonly screen?: (service: RoomService, clock: FakeClock) => ScreenControl;
}

export interface TestApp {
  readonly app: Hono<AppEnv>;
  readonly service: RoomService;
  readonly clock: FakeClock;
  readonly limiter: FixedWindowLimiter;
  readonly keys: Keys;
  /** Every log line written, raw, as the sink received it. */
  readonly logLines: string[];
  /** The log lines parsed. */
  logs(): Record<string, unknown>[];
  /** A request through the app; `client` sets the client address (default 127.0.0.1). */
  request(path: string, init?: RequestInit & { client?: string }): Promise<Response>;
  /** GET (or POST with a JSON body) under `/api/{version}/{API_KEY}`. */
  get(version: 'v0' | 'v1', path: string): Promise<Response>;
  post(version: 'v0' | 'v1', path: string, body?: unknown): Promise<Response>;
}

/** Timer ids t2, t3, ...: the next number not yet used in the running order. */
function counterIds(room: () => Room): () => string {
  let n = 1;
  return () => {
    do n += 1;
    while (room().timers.some((t) => t.id === `t${n}`));
    return `t${n}`;
  };
}

export function createTestApp(opts: TestAppOptions = {}): TestApp {
  const clock = new FakeClock();
  const keys: Keys = { apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY };
  const logLines: string[] = [];
  const logger = createLogger({
    level: opts.logLevel ?? 'info',
    secrets: () => (opts.scrubKeys === false ? [] : [keys.apiKey, keys.viewerKey, keys.audienceKey]),
    sink: { write: (line) => void logLines.push(line) },
  });
  const service = new RoomService({
    initialRoom: opts.room ?? createRoom('t1'),
    clock,
    scheduler: clock.scheduler,
    onTimeNotice: (notice) => logTimeNotice(logger, notice),
  });
  service.start();
  const limiter = new FixedWindowLimiter({ limit: opts.limit ?? 100, nowMs: clock.monoMs });
  const app = createApp({
    service,
    keys: () => keys,
    limiter,
    logger,
    newTimerId: counterIds(() => service.room),
    clientAddress: (c) => c.req.header(CLIENT_HEADER) ?? DEFAULT_CLIENT,
    ...(opts.dataDir === undefined ? {} : { logos: new LogoFiles({ dataDir: opts.dataDir }) }),
    ...(opts.links === undefined ? {} : { links: opts.links }),
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
    ...(opts.screen === undefined ? {} : { screen: opts.screen(service, clock) }),
  });

  const request = async (path: string, init: RequestInit & { client?: string } = {}): Promise<Response> => {
    const { client, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (client !== undefined) headers.set(CLIENT_HEADER, client);
    return app.request(path, { ...rest, headers });
  };

  return {
    app,
    service,
    clock,
    limiter,
    keys,
    logLines,
    logs: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    request,
    get: (version, path) => request(`/api/${version}/${API_KEY}${path}`),
    post: (version, path, body) =>
      request(`/api/${version}/${API_KEY}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
  };
}

/** A room with `count` timers t1..tN (durations 60 s, 120 s, ...), t1 active and paused. */
export function roomWithTimers(count: number): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = Array.from({ length: count }, (_, i) => ({
    ...first,
    id: `t${i + 1}`,
    label: `Timer ${i + 1}`,
    duration: 60_000 * (i + 1),
  }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: 60_000 } };
}
