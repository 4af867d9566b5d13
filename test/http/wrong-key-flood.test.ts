// Wrong keys from many addresses at once (issue 26, finding 6): each address has
// its own quota of wrong keys, and the box as a whole answers at most
// WRONG_KEYS_PER_BOX of them with 401 a minute; past that a wrong key is refused
// at once with 429 and Retry-After, before any per-address count. A request with
// the right key is never held up by either: the console keeps working through a flood.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WRONG_KEYS_PER_BOX } from '../../src/web/address-quota.js';
import { API_KEY, AUDIENCE_KEY, VIEWER_KEY, createTestApp, type TestApp } from '../helpers/test-app.js';
import { startSocketApp } from '../helpers/socket-app.js';

const ADDRESSES = 20;
const PER_ADDRESS = 110;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The doors a wrong key can knock at: the API, the console, the viewer link, the audience link. */
const WRONG_DOORS = ['/api/v1/WrongKey_0123456789abcdef/state', '/control/WrongKey_0123456789abcdef', '/view/WrongKey_0123456789abcdef', '/ask/WrongKey_0123456789abcdef'];

function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('a flood of wrong keys from many addresses (in process)', () => {
  const flood = async (t: TestApp, onHalf?: () => Promise<void>): Promise<Response[]> => {
    const answers: Response[] = [];
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      if (i === PER_ADDRESS / 2) await onHalf?.();
      for (let a = 0; a < ADDRESSES; a += 1) {
        answers.push(await t.request(WRONG_DOORS[(i + a) % WRONG_DOORS.length] ?? '', { client: `10.9.0.${a + 1}` }));
      }
    }
    return answers;
  };

  it(`answers at most ${WRONG_KEYS_PER_BOX} of 20 x 110 wrong keys with 401, the rest 429 with Retry-After, and the right keys still work`, async () => {
    const t = createTestApp();
    const valid: Response[] = [];
    const answers = await flood(t, async () => {
      // In the middle of the flood, once the box's wrong keys are spent: the console, its API calls, a viewer, the audience.
      valid.push(await t.request(`/control/${API_KEY}`, { client: '10.9.0.1' }));
      valid.push(await t.get('v1', '/state'));
      valid.push(await t.request(`/api/v1/${API_KEY}/start`, { client: '10.9.0.2' }));
      valid.push(await t.request(`/view/${VIEWER_KEY}`, { client: '10.9.0.3' }));
      valid.push(await t.request(`/ask/${AUDIENCE_KEY}`, { client: '10.9.0.4' }));
    });
    const counts = tally(answers.map((r) => r.status));
    expect(counts).toEqual({ 401: WRONG_KEYS_PER_BOX, 429: ADDRESSES * PER_ADDRESS - WRONG_KEYS_PER_BOX });
    expect(valid.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(t.service.room.transport.running).toBe(true);
    // Refused: 429 with Retry-After, no-store, saying that it is the box's limit and that a right key still works.
    const refused = answers.filter((r) => r.status === 429);
    for (const r of refused) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    const apiRefusal = answers.find((r, i) => r.status === 429 && i >= WRONG_KEYS_PER_BOX && i % WRONG_DOORS.length === 0);
    expect(((await apiRefusal?.json()) as { error: string }).error).toMatch(/wrong keys.*many addresses.*try again in \d+ s/);
  }, 60_000);

  it('a browser refused by the box-wide limit gets a page saying so', async () => {
    const t = createTestApp();
    for (let i = 0; i < WRONG_KEYS_PER_BOX; i += 1) expect((await t.request('/api/v1/nope/state', { client: `10.8.${i >> 6}.${i & 63}` })).status).toBe(401);
    const page = await t.request('/control/nope', { client: '10.7.0.1', headers: { Accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/Too many attempts[\s\S]*many addresses/);
  }, 60_000);

  it('gives wrong keys their 401 again once the minute has passed', async () => {
    const t = createTestApp();
    for (let i = 0; i < WRONG_KEYS_PER_BOX; i += 1) await t.request('/api/v1/nope/state', { client: `10.8.${i >> 6}.${i & 63}` });
    const refused = await t.request('/api/v1/nope/state', { client: '10.7.0.1' });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-reset')).toBe(String(wait));
    t.clock.advance(wait * 1000);
    expect((await t.request('/api/v1/nope/state', { client: '10.7.0.1' })).status).toBe(401);
  }, 60_000);

  it('an address that is already over its own quota spends none of the box-wide answers', async () => {
    const t = createTestApp({ limit: 5 });
    // One address hammering: 5 answers of 401, then its own 429s, which cost the others nothing.
    for (let i = 0; i < 2 * WRONG_KEYS_PER_BOX; i += 1) await t.request('/api/v1/nope/state', { client: '10.6.0.1' });
    expect((await t.request('/api/v1/nope/state', { client: '10.6.0.2' })).status).toBe(401);
  }, 60_000);
});

describe('a flood of wrong keys from 20 addresses over real sockets', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function start(): Promise<number> {
    const app = await startSocketApp();
    closers.push(() => app.close());
    return app.port;
  }

  function get(port: number, agent: http.Agent, path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
  }

  it(`caps the 401 answers at ${WRONG_KEYS_PER_BOX} and keeps the right key working`, async () => {
    const port = await start();
    // Each address its own loopback source address (Linux routes all of 127/8 to lo), 10 connections each.
    const agents = Array.from({ length: ADDRESSES }, (_, a) => new http.Agent({ keepAlive: true, maxSockets: 10, localAddress: `127.0.0.${a + 2}` }));
    const valid = new http.Agent({ keepAlive: true, localAddress: '127.0.0.1' });
    closers.push(async () => {
      for (const agent of [...agents, valid]) agent.destroy();
    });
    const startedMs = performance.now();
    let sent = 0;
    let validStatuses: Promise<number[]> | undefined;
    const statuses = await Promise.all(
      agents.flatMap((agent, a) =>
        Array.from({ length: PER_ADDRESS }, (_, i) => {
          sent += 1;
          // Halfway through sending, the console's page and one of its commands, from the box's own address.
          if (sent === (ADDRESSES * PER_ADDRESS) / 2) {
            validStatuses = Promise.all([get(port, valid, `/control/${API_KEY}`), get(port, valid, `/api/v1/${API_KEY}/start`), get(port, valid, `/view/${VIEWER_KEY}`)]);
          }
          return get(port, agent, WRONG_DOORS[(i + a) % WRONG_DOORS.length] ?? '');
        }),
      ),
    );
    const elapsedMs = performance.now() - startedMs;
    const counts = tally(statuses);
    // For the record (the figures): how many 401s, and how long the flood took.
    console.info(`20 x 110 wrong keys over sockets: ${JSON.stringify(counts)} in ${Math.round(elapsedMs)} ms`);
    expect(counts[401]).toBe(WRONG_KEYS_PER_BOX);
    expect(counts[429]).toBe(ADDRESSES * PER_ADDRESS - WRONG_KEYS_PER_BOX);
    expect(await validStatuses).toEqual([200, 200, 200]);
  }, 60_000);
});
