// The real HTTP app on a loopback socket (port 0), with the real room service
// and push hub and the test keys, for tests that need real connections: the
// Host header as sent, many client addresses. Closed by the returned closer.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { systemClock, timeoutScheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import type { LinkConfig } from '../../src/app/urls.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { PushHub } from '../../src/push/push-hub.js';
import { API_KEY, AUDIENCE_KEY, VIEWER_KEY } from './test-app.js';

export interface SocketApp {
  readonly port: number;
  readonly service: RoomService;
  close(): Promise<void>;
}

export async function startSocketApp(opts: { links?: LinkConfig } = {}): Promise<SocketApp> {
  const service = new RoomService({ initialRoom: createRoom('t1'), clock: systemClock, scheduler: timeoutScheduler(systemClock) });
  service.start();
  const hub = new PushHub({ source: service });
  hub.start();
  const app = createApp({
    service,
    keys: () => ({ apiKey: API_KEY, viewerKey: VIEWER_KEY, audienceKey: AUDIENCE_KEY }),
    limiter: new FixedWindowLimiter({ limit: 100, nowMs: systemClock.monoMs }),
    logger: createLogger({ level: 'fatal', secrets: () => [API_KEY, VIEWER_KEY, AUDIENCE_KEY], sink: { write: () => {} } }),
    newTimerId: () => 'x2',
    viewer: { hub },
    ...(opts.links === undefined ? {} : { links: opts.links }),
  });
  const server = await new Promise<http.Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as http.Server));
  });
  return {
    port: (server.address() as AddressInfo).port,
    service,
    close: async () => {
      hub.close();
      service.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
