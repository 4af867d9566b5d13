// Issue 26, finding 1: one logo upload froze the whole box. The SVG check stripped
// comments, CDATA and instructions with lazy regexes, quadratic on an opener repeated
// and never closed: 64 KB blocked the event loop 0.47 s, 256 KB 6.7 s, 1 MB 156 s.
// The check is now one linear walk (src/commands/svg-scan.ts): every such body, up to the
// 1 MB a logo may be, is refused in milliseconds, and a real server answers /healthz
// throughout the upload.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, timeoutScheduler } from '../../src/app/clock.js';
import { RoomService } from '../../src/app/room-service.js';
import { createRoom } from '../../src/domain/room.js';
import { createApp } from '../../src/http/app.js';
import { checkLogo, MAX_LOGO_BYTES } from '../../src/commands/logo-content.js';
import { FixedWindowLimiter } from '../../src/app/rate-limit.js';
import { createLogger } from '../../src/log/logger.js';
import { LogoFiles } from '../../src/store/logo-files.js';
import { LOGO_FIXTURES } from '../helpers/logo-fixtures.js';

const HEAD = '<svg xmlns="http://www.w3.org/2000/svg">';
const KB = 1024;

/** `head` then `unit` repeated, cut to exactly `bytes` (all ASCII: one byte a character). */
const filled = (head: string, unit: string, bytes: number) => head + unit.repeat(Math.ceil((bytes - head.length) / unit.length)).slice(0, bytes - head.length);

/** The bodies that were quadratic (an opener never closed) and the ones that make a tag long. */
const BOMBS: Record<string, (bytes: number) => string> = {
  'unclosed <!-- repeated': (bytes) => filled(HEAD, '<!--', bytes),
  'unclosed <![CDATA[ repeated': (bytes) => filled(HEAD, '<![CDATA[', bytes),
  'unclosed <? repeated': (bytes) => filled(HEAD, '<?', bytes),
  'a tag of attribute-like text': (bytes) => filled('<svg xmlns="http://www.w3.org/2000/svg"', ' a="b" c=\'d\' e', bytes),
  'a tag of spaces': (bytes) => filled('<svg', ' ', bytes),
  'a tag of attribute names': (bytes) => filled('<svg', ' a', bytes),
  'a value never closed': (bytes) => filled('<svg a="', 'x>', bytes),
};

const bytesOf = (text: string) => new TextEncoder().encode(text);

/**
 * The check's time, best of three tries: the check takes milliseconds and a busy CI
 * machine may stop the process for a while during one. A check that takes seconds
 * (what this guards against) is not tried again.
 */
function bestCheckMs(body: Uint8Array): { ms: number; message: string } {
  let best = Number.POSITIVE_INFINITY;
  let message = '';
  for (let attempt = 0; attempt < 3 && (attempt === 0 || (best >= 50 && best < 1000)); attempt += 1) {
    const started = performance.now();
    const checked = checkLogo('image/svg+xml', body);
    best = Math.min(best, performance.now() - started);
    message = checked.ok ? 'accepted' : checked.message;
  }
  return { ms: best, message };
}

describe('the SVG check on a bomb', () => {
  const sizes = [64 * KB, 256 * KB, MAX_LOGO_BYTES];
  const cases = Object.keys(BOMBS).flatMap((kind) => sizes.map((size) => [kind, size] as const));

  it.each(cases)('%s, %i bytes: refused in under 50 ms', (kind, size) => {
    const body = bytesOf(BOMBS[kind]?.(size) ?? '');
    expect(body.length).toBe(size);
    const { ms, message } = bestCheckMs(body);
    expect(message).toMatch(/^body: declared image\/svg\+xml but it is not well-formed XML \(a malformed tag\)$/);
    expect(ms).toBeLessThan(50);
  });

  it('takes a 1 MB well-formed SVG of 20 000 elements in under 50 ms too', () => {
    const unit = '<g id="a" class=\'b\'><!-- c --><![CDATA[ d ]]><?e f?><rect width="1"/>text</g>';
    const text = `${HEAD}${unit.repeat(Math.floor((MAX_LOGO_BYTES - HEAD.length - 6) / unit.length))}</svg>`;
    const { ms, message } = bestCheckMs(bytesOf(text));
    expect(message).toBe('accepted');
    expect(ms).toBeLessThan(50);
  });

  it('refuses 1 MB of nested open elements in under 100 ms (350 000 of them: the most work a body can ask for)', () => {
    const { ms, message } = bestCheckMs(bytesOf(filled('<svg>', '<g>', MAX_LOGO_BYTES)));
    expect(message).toMatch(/is never closed|a malformed tag/);
    expect(ms).toBeLessThan(100);
  });
});

// ---- A real server on 127.0.0.1, the upload and the /healthz requests over its socket.
const API_KEY = 'BombApiKey_0123456789abcdefGH';
let server: Server;
let service: RoomService;
let port: number;
let dataDir: string;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-logo-bomb-'));
  service = new RoomService({ initialRoom: createRoom('t1'), clock: systemClock, scheduler: timeoutScheduler(systemClock) });
  service.start();
  let n = 1;
  const app = createApp({
    service,
    keys: () => ({ apiKey: API_KEY, viewerKey: 'BombViewerKey_9876543210zyxwVU', audienceKey: 'BombAudienceKey_9876543210zyxwVU' }),
    limiter: new FixedWindowLimiter({ limit: 100_000, nowMs: systemClock.monoMs }),
    logger: createLogger({ level: 'fatal', secrets: () => [API_KEY], sink: { write: () => {} } }),
    newTimerId: () => `b${(n += 1)}`,
    logos: new LogoFiles({ dataDir }),
  });
  server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  agent.destroy();
  service.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** One request over the socket: its status and body. */
function send(method: string, where: string, body?: Uint8Array, type?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = body === undefined ? {} : { 'Content-Type': type ?? 'application/octet-stream', 'Content-Length': body.length };
    const req = request({ host: '127.0.0.1', port, method, path: where, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : Buffer.from(body.buffer, body.byteOffset, body.length));
  });
}

const upload = (body: Uint8Array, type = 'image/svg+xml') => send('POST', `/api/v1/${API_KEY}/display/logo`, body, type);

interface Watched {
  readonly status: number;
  readonly text: string;
  /** The slowest /healthz answer among those asked while the upload was under way, and how many there were. */
  readonly healthzMaxMs: number;
  readonly healthzCount: number;
  /** The longest the event loop (server and client: one process) was held up meanwhile. */
  readonly loopDelayMaxMs: number;
}

/**
 * Uploads `body` while asking /healthz all along, each answer timed: one request always
 * under way (the next one asked as soon as an answer comes, so whenever the server is
 * held up, one is waiting), and one more every 2 ms.
 */
async function uploadWatched(body: Uint8Array): Promise<Watched> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let uploading = true;
  const ask = (chained: boolean) => {
    const started = performance.now();
    pending.push(
      send('GET', '/healthz').then(({ status }) => {
        expect(status).toBe(200);
        latencies.push(performance.now() - started);
        if (chained && uploading) ask(true);
      }),
    );
  };
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  ask(true);
  const ticker = setInterval(() => {
    if (uploading) ask(false);
  }, 2);
  const answer = await upload(body);
  uploading = false;
  clearInterval(ticker);
  await Promise.all(pending);
  delay.disable();
  return {
    ...answer,
    healthzMaxMs: Math.max(...latencies),
    healthzCount: latencies.length,
    loopDelayMaxMs: delay.max / 1e6,
  };
}

/** The longest /healthz answer, and event-loop delay, that still counts as a box answering during the upload. */
const STILL_ANSWERING_MS = 100;

describe('a 1 MB bomb uploaded to a real server', () => {
  beforeAll(async () => {
    // The routes once each, so the measured requests are not the first ones.
    expect((await send('GET', '/healthz')).status).toBe(200);
    expect((await upload(bytesOf('<html/>'))).status).toBe(400);
  });

  it.each(['unclosed <!-- repeated', 'unclosed <![CDATA[ repeated', 'unclosed <? repeated', 'a tag of attribute-like text'])(
    '%s: refused with 400 while /healthz answers within 100 ms throughout',
    async (kind) => {
      const body = bytesOf(BOMBS[kind]?.(MAX_LOGO_BYTES) ?? '');
      expect(body.length).toBe(MAX_LOGO_BYTES);
      // Best of three uploads, for the same reason as the check's time above: a busy
      // CI machine can hold the whole process up for a while (26 to 36 ms seen on two
      // cores running the suite). The bound is far below what this is about, a check
      // that blocks for seconds, which is not tried again.
      const tries: Watched[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const watched = await uploadWatched(body);
        tries.push(watched);
        expect(watched.status).toBe(400);
        expect(JSON.parse(watched.text)).toMatchObject({ ok: false, error: 'body: declared image/svg+xml but it is not well-formed XML (a malformed tag)' });
        expect(watched.healthzCount).toBeGreaterThan(0);
        if ((watched.healthzMaxMs <= STILL_ANSWERING_MS && watched.loopDelayMaxMs <= STILL_ANSWERING_MS) || watched.healthzMaxMs > 1000) break;
      }
      const best = tries.reduce((a, b) => (Math.max(b.healthzMaxMs, b.loopDelayMaxMs) < Math.max(a.healthzMaxMs, a.loopDelayMaxMs) ? b : a));
      expect(best.healthzMaxMs, JSON.stringify(tries.map(({ text: _text, ...t }) => t))).toBeLessThanOrEqual(STILL_ANSWERING_MS);
      expect(best.loopDelayMaxMs, JSON.stringify(tries.map(({ text: _text, ...t }) => t))).toBeLessThanOrEqual(STILL_ANSWERING_MS);
      expect(service.room.display.logo).toBeNull();
      expect(readdirSync(dataDir)).toEqual([]);
    },
  );

  it('still takes a real SVG logo afterwards', async () => {
    const { status } = await upload(LOGO_FIXTURES['image/svg+xml']);
    expect(status).toBe(200);
    expect(service.room.display.logo).toMatch(/^[0-9a-f]{16}\.svg$/);
  });
});
