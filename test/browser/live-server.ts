// A real Showclock server in process for browser tests: the real app, room
// service and push hub on the system clock, listening on 127.0.0.1, serving the
// page bundles from a directory the test built them into.
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { systemClock, timeoutScheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import type { Command, Room } from '../../src/domain/types.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { PushHub } from '../../src/push/push-hub.js';
import { LogoFiles } from '../../src/store/logo-files.js';
import { buildDisplayBundle, launchChromium } from './browser-kit.js';

export const API_KEY = 'BrowserApiKey_0123456789abcdefGH';
export const VIEWER_KEY = 'BrowserViewerKey_9876543210zyxwVU';
export const AUDIENCE_KEY = 'BrowserAudienceKey_9876543210zyxwVU';

export interface LiveServer {
  readonly port: number;
  readonly service: RoomService;
  readonly hub: PushHub;
  url(path: string): string;
  /** Applies commands as the API would, one after another (an edit happens once saved), failing the test on a refused one. */
  run(...commands: Command[]): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveServer(opts: { pagesDir: string; port?: number; room?: Room; dataDir?: string }): Promise<LiveServer> {
  const service = new RoomService({ initialRoom: opts.room ?? createRoom('t1'), clock: systemClock, scheduler: timeoutScheduler(systemClock) });
  service.start();
  const hub = new PushHub({ source: service });
  hub.start();
  let n = 1;
  const app = createApp({
    service,
    keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
    limiter: new FixedWindowLimiter({ limit: 1000, nowMs: systemClock.monoMs }),
    logger: createLogger({ level: 'fatal', secrets: () => [API_KEY, VIEWER_KEY], sink: { write: () => {} } }),
    newTimerId: () => `b${(n += 1)}`,
    viewer: { hub, pagesDirs: [opts.pagesDir] },
    ...(opts.dataDir === undefined ? {} : { logos: new LogoFiles({ dataDir: opts.dataDir }) }),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    service,
    hub,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    run: async (...commands) => {
      for (const command of commands) {
        const { outcome, durable } = service.dispatch(command, 'http-v1');
        if (!outcome.ok) throw new Error(`${command.type}: ${outcome.error.message}`);
        await durable;
      }
    },
    close: async () => {
      hub.close();
      service.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a display test file works with: Chromium, and a live server with the display bundle built for it. */
export interface DisplayRig {
  readonly browser: Browser;
  readonly server: LiveServer;
  /** The display bundle's directory, for a second server of the test's own. */
  readonly pagesDir: string;
}

/**
 * Builds the display bundle, starts Chromium and a live server before the file's
 * tests (call it at the top of the file, before its own hooks) and removes all
 * three after them.
 */
export function useDisplayRig(): DisplayRig {
  let browser: Browser | undefined;
  let pagesDir: string | undefined;
  let server: LiveServer | undefined;
  beforeAll(async () => {
    [pagesDir, browser] = await Promise.all([buildDisplayBundle(), launchChromium()]);
    server = await startLiveServer({ pagesDir });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await browser?.close();
    if (pagesDir !== undefined) rmSync(pagesDir, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the display rig is used before its beforeAll ran');
    return value;
  };
  return {
    get browser() {
      return ready(browser);
    },
    get server() {
      return ready(server);
    },
    get pagesDir() {
      return ready(pagesDir);
    },
  };
}

/**
 * Waits until a display page has drawn its first time in the box's own font (the digits'
 * widths depend on it) and, when given, in that layout.
 */
export async function untilDisplayDrawn(page: Page, layout?: string): Promise<void> {
  await page.waitForFunction(() => (document.getElementById('time')?.textContent ?? '').trim() !== '');
  await page.waitForFunction(() => document.fonts.status === 'loaded');
  if (layout !== undefined) await page.waitForFunction((l) => document.getElementById('screen')?.className.includes(`layout-${l}`) === true, layout);
}
