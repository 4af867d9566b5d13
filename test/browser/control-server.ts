// A real Showclock HTTP server for the console's browser tests: the real app,
// room service, push hub and system clock, on 127.0.0.1 at a free port, with
// the page bundles built fresh into a temporary directory. And Debian's
// chromium, driven by playwright-core.
import type { ScreenControl } from '../../src/domain/screen.js';
import type { BoxClock } from '../../src/domain/clock-sync.js';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ARTIFACTS, CHROMIUM, launchChromium } from './browser-kit.js';
import { buildPages } from '../../scripts/build.mjs';
import { systemClock, timeoutScheduler, type Clock } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { newTimerIdFor } from '../../src/app/timer-ids.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { createRoom } from '../../src/domain/room.js';
import type { Room, Timer } from '../../src/domain/types.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { PushHub } from '../../src/push/push-hub.js';
import { storageEvent } from '../../src/push/sse-format.js';
import type { AtomicFileOps } from '../../src/store/atomic-file.js';
import { RoomStore } from '../../src/store/room-store.js';

export const API_KEY = 'BrowserApiKey_0123456789-abcdEF';
export const VIEWER_KEY = 'BrowserViewerKey_9876543210-zyXW';
export const AUDIENCE_KEY = 'BrowserAudienceKey_9876543210-zyXW';

export { CHROMIUM, launchChromium };

/** Builds the page bundles once into a temporary directory; returns it and a cleanup. */
/**
 * A room whose running order is these labels (ids t1, t2, ...), the first active and
 * ready; `each` gives a timer's speaker and duration by its place (10 min, no speaker by default).
 */
export function roomWithTimers(labels: readonly string[], each: (i: number) => Partial<Pick<Timer, 'speaker' | 'duration'>> = () => ({})): Room {
  const base = createRoom('t1');
  const first = base.timers[0];
  if (first === undefined) throw new Error('createRoom gave no timer');
  const timers = labels.map((label, i) => ({ ...first, id: `t${i + 1}`, label, duration: 600_000, ...each(i) }));
  return { ...base, timers, activeTimerId: 't1', transport: { running: false, remainingMs: timers[0]?.duration ?? 600_000 } };
}

export async function buildPagesOnce(): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'showclock-pages-'));
  await buildPages({ outdir: dir });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens the console in `context`, live and with a snapshot shown; `problems` collects the page's script errors. */
export async function openConsole(context: BrowserContext, controlUrl: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(controlUrl);
  await page.waitForSelector('#connection.live');
  await page.waitForSelector('body[data-seq]');
  return { page, problems };
}

/** What a browser test file works with: Chromium, and the page bundles built for it. */
export interface BrowserRig {
  readonly browser: Browser;
  readonly pagesDir: string;
}

/**
 * Builds the pages and starts Chromium before the file's tests (call it at the top
 * of the file, before its own hooks) and removes both after them.
 */
export function useBrowserRig(): BrowserRig {
  let browser: Browser | undefined;
  let pages: { dir: string; remove: () => void } | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [pages, browser] = await Promise.all([buildPagesOnce(), launchChromium()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    pages?.remove();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the browser rig is used before its beforeAll ran');
    return value;
  };
  return {
    get browser() {
      return ready(browser);
    },
    get pagesDir() {
      return ready(pages).dir;
    },
  };
}

export interface ControlServer {
  readonly base: string;
  readonly port: number;
  readonly controlUrl: string;
  readonly service: RoomService;
  /** An API call as a button panel would make it (a plain fetch, not the browser). */
  api(pathAndQuery: string, body?: Readonly<Record<string, unknown>>): Promise<{ status: number; body: Record<string, unknown> }>;
  state(): Promise<Snapshot>;
  close(): Promise<void>;
}

export async function startControlServer(opts: {
  pagesDir: string;
  room: Room;
  limit?: number;
  port?: number;
  /** A real state store in this directory, wired as src/main.ts wires it; `ops` may fail writes on purpose. */
  store?: { dataDir: string; ops?: AtomicFileOps };
  /** The box's clock (synchronised or not, set by hand); unknown and never set when not given. */
  clock?: BoxClock;
  /** The service's clocks; the system's unless a test steps the wall clock. */
  serviceClock?: Clock;
  /** The screen over HDMI-CEC, made once the room service is; none (every /screen/* 409) when not given. */
  screen?: (service: RoomService) => ScreenControl;
}): Promise<ControlServer> {
  const scheduler = timeoutScheduler(systemClock);
  const logger = createLogger({ level: 'warn', secrets: () => [API_KEY, VIEWER_KEY] });
  const store = opts.store === undefined ? undefined : new RoomStore({ dataDir: opts.store.dataDir, ops: opts.store.ops, clock: systemClock, scheduler, logger });
  const initialRoom = store === undefined ? opts.room : await store.start(opts.room);
  const service = new RoomService({ initialRoom, clock: opts.serviceClock ?? systemClock, scheduler, ...(store === undefined ? {} : { persistence: store }) });
  service.start();
  const hub = new PushHub({ source: service });
  hub.start();
  store?.onHealthChange((health) => hub.setNotice(storageEvent(health)));
  const keys = { apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY };
  const app = createApp({
    service,
    keys: () => keys,
    limiter: new FixedWindowLimiter({ limit: opts.limit ?? 10_000, nowMs: systemClock.monoMs }),
    logger,
    newTimerId: newTimerIdFor(() => service.room),
    ...(store === undefined ? {} : { storage: () => store.health() }),
    viewer: { hub, pagesDirs: [opts.pagesDir] },
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
    ...(opts.screen === undefined ? {} : { screen: opts.screen(service) }),
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  const api: ControlServer['api'] = async (pathAndQuery, body) => {
    const res = await fetch(`${base}/api/v1/${API_KEY}${pathAndQuery}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  return {
    base,
    port,
    controlUrl: `${base}/control/${API_KEY}`,
    service,
    api,
    state: async () => (await api('/state')).body.state as Snapshot,
    close: async () => {
      hub.close();
      service.close();
      await store?.close().catch(() => {});
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
  };
}
