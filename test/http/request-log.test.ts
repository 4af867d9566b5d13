// The request log: one pino line per request with method, route pattern, status
// and duration, and never either key, not even a near miss of one: paths hold
// keys, so the log names route patterns only. Commands, refusals and errors are
// at info, what a stage manager reads in the journal after a show; reads that
// answered (state, timers, health, the OpenAPI document, preflights) at debug.
// (Lines of wrong keys and unknown paths past 20 a minute from one address are
// counted in a summary instead: unknown-paths.test.ts.)
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../../src/log/logger.js';
import { API_KEY, createTestApp, VIEWER_KEY, type TestApp } from '../helpers/test-app.js';

interface RequestLine {
  level: number;
  msg: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

function requestLines(t: TestApp): RequestLine[] {
  return t.logs().filter((line) => line.msg === 'request') as unknown as RequestLine[];
}

const k = API_KEY;
const nearMisses = [`${k.slice(0, -1)}X`, k.slice(1), `${k}${k}`, k.toUpperCase(), `${k.slice(0, 12)}-${k.slice(12)}`];

/** Every substring of `secret` this long counts as a leak of it. */
function windows(secret: string, length: number): string[] {
  return Array.from({ length: secret.length - length + 1 }, (_, i) => secret.slice(i, i + length));
}

/** A varied run: every kind of answer, with keys and near misses wherever a client could put them. */
async function busyRun(t: TestApp): Promise<number> {
  const json = { 'Content-Type': 'application/json' };
  const requests: [string, RequestInit?][] = [
    [`/api/v1/${k}/state`],
    [`/api/v1/${k}/timers`],
    [`/api/v1/${k}/timers`, { method: 'POST', headers: json, body: JSON.stringify({ label: k, speaker: VIEWER_KEY }) }],
    [`/api/v1/${k}/start`],
    [`/api/v1/${k}/adjust?ms=${k}`],
    [`/api/v1/${k}/adjust`, { method: 'POST', headers: json, body: JSON.stringify({ ms: k }) }],
    [`/api/v1/${k}/adjust`, { method: 'POST', headers: json, body: `{"ms": ${k}` }],
    [`/api/v1/${k}/message?text=${k}&color=${VIEWER_KEY}`],
    [`/api/v1/${k}/message?text=${VIEWER_KEY}`],
    [`/api/v0/${k}/message?text=${k}`],
    [`/api/v1/${k}/${k}`],
    [`/api/v1/${k}/${VIEWER_KEY}?key=${k}`],
    [`/api/v1/${k}/timer/${k}/select`],
    [`/api/v1/${k}/timer/${VIEWER_KEY}/update?label=${k}`],
    [`/api/v1/${k}/timer/%E0%A4%A/select`],
    [`/api/v1/${k}%E0%A4%A/start`],
    [`/api/v0/${k}/start`, { method: 'POST' }],
    [`/api/v1/${k}/start`, { method: 'PUT' }],
    [`/api/v1/${k}/adjust`, { method: 'POST', headers: json, body: JSON.stringify({ ms: 1, pad: k.repeat(1_000) }) }],
    [`/api/v1/${VIEWER_KEY}/state`],
    [`/api/v9/${k}/state`],
    [`/api/v1/${k}/state`, { method: 'OPTIONS', headers: { Origin: 'http://x', 'Access-Control-Request-Method': 'GET' } }],
    ['/api/v1/openapi.json'],
    ['/healthz'],
    [`/${k}`],
    [`/control/${k}?k=${VIEWER_KEY}`],
    [`/view/${VIEWER_KEY}`],
    [`/view/${k}`],
  ];
  for (const miss of nearMisses) {
    requests.push([`/api/v1/${miss}/start`], [`/api/v0/${miss}/status`], [`/api/v1/${miss}/timer/t1/select`]);
  }
  // Enough wrong-key requests from one address to be refused with 429.
  for (let i = 0; i < 12; i += 1) requests.push([`/api/v1/${nearMisses[0]}/state`]);
  for (const [path, init] of requests) await t.request(path, { ...init, client: '10.9.9.9' });
  // And the room's own quota spent: 429s with the right key.
  let extra = 0;
  while ((await t.request(`/api/v1/${k}/status`)).status !== 429) extra += 1;
  return requests.length + extra + 1;
}

/** pino's numbers for the two levels a request line has. */
const DEBUG = 20;
const INFO = 30;

describe('one line per request', () => {
  it('with method, route pattern, status and duration', async () => {
    const t = createTestApp({ logLevel: 'debug' });
    const cases: [string, RequestInit, string, number][] = [
      [`/api/v1/${k}/state`, {}, 'GET /api/v1/{api_key}/state', 200],
      [`/api/v1/${k}/timers`, { method: 'POST' }, 'POST /api/v1/{api_key}/timers', 201],
      [`/api/v1/${k}/timer/t1/select`, {}, 'GET /api/v1/{api_key}/timer/{id}/select', 200],
      [`/api/v1/${k}/timer/nope/select`, {}, 'GET /api/v1/{api_key}/timer/{id}/select', 404],
      [`/api/v1/${k}/adjust?ms=x`, {}, 'GET /api/v1/{api_key}/adjust', 400],
      [`/api/v1/${k}/adjust`, { method: 'POST', body: 'x'.repeat(17_000) }, 'POST /api/v1/{api_key}/adjust', 413],
      [`/api/v0/${k}/status`, {}, 'GET /api/v0/{api_key}/status', 200],
      [`/api/v0/${k}/start`, { method: 'POST' }, 'POST /api/v0/{api_key}/{cmd}', 404],
      [`/api/v1/${k}/launch`, {}, 'GET /api/v1/{api_key}/{cmd}', 404],
      [`/api/v1/${k}/timer/t1/explode`, {}, 'GET /api/v1/{api_key}/{unmatched}', 404],
      ['/api/v1/wrong-key/state', {}, 'GET /api/v1/{api_key}/{unmatched}', 401],
      ['/api/v7/wrong-key/state', {}, 'GET /api/{version}/{api_key}/{unmatched}', 401],
      ['/api/v1/openapi.json', {}, 'GET /api/v1/openapi.json', 200],
      ['/healthz', {}, 'GET /healthz', 200],
      [`/api/v1/${k}/timer/t1/select`, { method: 'OPTIONS' }, 'OPTIONS /api/v1/{api_key}/timer/{id}/select', 204],
      [`/api/v0/${k}/start`, { method: 'OPTIONS' }, 'OPTIONS /api/v0/{api_key}/start', 204],
      [`/api/v1/${k}/launch`, { method: 'OPTIONS' }, 'OPTIONS /api/v1/{api_key}/{unmatched}', 404],
      ['/api/v1/openapi.json', { method: 'OPTIONS' }, 'OPTIONS /api/v1/openapi.json', 204],
      ['/no/such/page', {}, 'unmatched', 404],
    ];
    for (const [path, init] of cases) await t.request(path, init);
    const lines = requestLines(t);
    expect(lines.map((l) => [l.route, l.status])).toEqual(cases.map(([, , route, status]) => [route, status]));
    // Reads that answered are at debug; commands and every refusal at info.
    const reads = new Set([0, 6, 12, 13, 14, 15, 17]);
    expect(lines.map((l) => l.level)).toEqual(cases.map((_, i) => (reads.has(i) ? DEBUG : INFO)));
    for (const [i, line] of lines.entries()) {
      expect(line.method).toBe(cases[i]![1].method ?? 'GET');
      expect(typeof line.durationMs).toBe('number');
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
      expect(line.durationMs).toBeLessThan(10_000);
    }
  });

  it('a 429 is logged as such, at info even for a read', async () => {
    const t = createTestApp({ limit: 1 });
    await t.request(`/api/v1/${k}/state`);
    await t.request(`/api/v1/${k}/state`);
    expect(requestLines(t).map((l) => [l.status, l.level])).toEqual([[429, INFO]]);
  });

  it('at info (the default): every command, refusal and error, none of the reads that answered', async () => {
    const t = createTestApp();
    await t.request(`/api/v1/${k}/state`);
    await t.request(`/api/v1/${k}/timers`);
    await t.request(`/api/v0/${k}/status`);
    await t.request('/healthz');
    await t.request('/api/v1/openapi.json');
    await t.request(`/api/v1/${k}/state`, { method: 'OPTIONS' });
    await t.request(`/api/v1/${k}/start`);
    await t.request(`/api/v1/${k}/adjust`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"ms":1000}' });
    await t.request(`/api/v1/${k}/next`);
    await t.request(`/api/v1/${k}/timer/nope/select`);
    await t.request('/api/v1/wrong-key/state');
    expect(requestLines(t).map((l) => [l.route, l.status, l.level])).toEqual([
      ['GET /api/v1/{api_key}/start', 200, INFO],
      ['POST /api/v1/{api_key}/adjust', 200, INFO],
      ['GET /api/v1/{api_key}/next', 400, INFO],
      ['GET /api/v1/{api_key}/timer/{id}/select', 404, INFO],
      ['GET /api/v1/{api_key}/{unmatched}', 401, INFO],
    ]);
  });

  it('every request of a long varied run gives exactly one line or is counted in a summary, with a pattern for a route', async () => {
    const t = createTestApp({ limit: 10, logLevel: 'debug' });
    let count = await busyRun(t);
    // Its wrong keys and unknown paths came from one address, past the lines it may
    // write a minute: the next one after the minute brings the summary of the rest.
    t.clock.advance(60_000);
    await t.request('/api/v1/wrong-key/state', { client: '10.9.9.9' });
    count += 1;
    const lines = requestLines(t);
    const summaries = t.logs().filter((line) => /^suppressed \d+ request lines from 10\.9\.9\.9/.test(String(line.msg)));
    expect(summaries).toHaveLength(1);
    const suppressed = Number(summaries[0]?.suppressed);
    expect(suppressed).toBeGreaterThan(0);
    expect(lines.length + suppressed).toBe(count);
    for (const line of lines) {
      // A pattern: literal segments the API defines, and placeholders in braces; never a client's text.
      // (Both keys and every near miss hold capitals or digits, so none could pass for a pattern.)
      expect(line.route).toMatch(/^(unmatched|[A-Z]+ (\/([a-z0-9_.]+|\{[a-z_]+\}))+)$/);
    }
  }, 60_000);
});

describe('no key in any log line', () => {
  function expectNoKeys(lines: readonly string[]): void {
    expect(lines.length).toBeGreaterThan(0);
    const leaks = [API_KEY, VIEWER_KEY, ...nearMisses, ...windows(API_KEY, 10), ...windows(VIEWER_KEY, 10)];
    for (const line of lines) {
      for (const leak of leaks) expect(line.includes(leak), `log line holds ${JSON.stringify(leak)}: ${line}`).toBe(false);
    }
  }

  it('the request log never carries a path, so nothing needs scrubbing (scrubbing turned off)', async () => {
    const t = createTestApp({ limit: 10, scrubKeys: false });
    await busyRun(t);
    expectNoKeys(t.logLines);
  }, 60_000);

  it('nor with the production logger, which has nothing to redact', async () => {
    const t = createTestApp({ limit: 10 });
    await busyRun(t);
    expectNoKeys(t.logLines);
    for (const line of t.logLines) expect(line).not.toContain(REDACTED);
  }, 60_000);

  it('the scrubber, the second guard, removes both keys from any line, read at every line', () => {
    const lines: string[] = [];
    let keys = [API_KEY, VIEWER_KEY];
    const logger = createLogger({ secrets: () => keys, sink: { write: (line) => void lines.push(line) } });
    logger.info({ path: `/api/v1/${API_KEY}/start`, viewer: `/view/${VIEWER_KEY}` }, `oops ${API_KEY}`);
    logger.error({ err: new Error(`failed at /control/${API_KEY}`) }, 'request failed');
    const rotated = 'RotatedKey_abcdefghijklmnop';
    keys = [rotated, VIEWER_KEY];
    logger.warn(`rotated ${rotated}`);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain(`/api/v1/${REDACTED}/start`);
    expect(lines[0]).toContain(`oops ${REDACTED}`);
    expect(lines[0]).toContain(`/view/${REDACTED}`);
    expect(lines[1]).toContain(`/control/${REDACTED}`);
    expect(lines[2]).toContain(`rotated ${REDACTED}`);
    for (const line of lines) {
      expect(line).not.toContain(API_KEY);
      expect(line).not.toContain(VIEWER_KEY);
      expect(line).not.toContain(rotated);
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('the scrubber also catches a key JSON-escaped or percent-encoded (a hand-edited keys.json may hold any character)', () => {
    const lines: string[] = [];
    const odd = 'odd"key\\with/slash-é-0123456789';
    const logger = createLogger({ secrets: () => [odd], sink: { write: (line) => void lines.push(line) } });
    logger.info({ key: odd, url: `/api/v1/${encodeURIComponent(odd)}/start` }, 'odd');
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    const parsed = JSON.parse(line) as { key: string; url: string };
    expect(parsed.key).toBe(REDACTED);
    expect(parsed.url).toBe(`/api/v1/${REDACTED}/start`);
    expect(line).not.toContain('0123456789');
  });
});
