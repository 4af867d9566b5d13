// The audience's door over HTTP (issue 16), in process: /ask/{audience_key} serves
// a form that works with no script, takes a question as JSON or as that form,
// refuses each bad input with a status and a message naming the problem, keeps
// what was typed as text (never markup), and limits questions per phone without
// touching the API key's quota.
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/commands/body-size.js';
import type { Question } from '../../src/domain/types.js';
import { AUDIENCE_KEY, createTestApp, type TestApp } from '../helpers/test-app.js';

const ASK = `/ask/${AUDIENCE_KEY}`;
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function postJson(t: TestApp, body: unknown, opts: { client?: string; raw?: boolean } = {}): Promise<Response> {
  return t.request(ASK, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: opts.raw === true ? String(body) : JSON.stringify(body),
    ...(opts.client === undefined ? {} : { client: opts.client }),
  });
}

/** As a phone's browser posts the form with no script: urlencoded, asking for a page. */
function postForm(t: TestApp, fields: Record<string, string>): Promise<Response> {
  return t.request(ASK, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: HTML },
    body: new URLSearchParams(fields).toString(),
  });
}

async function questions(t: TestApp): Promise<Question[]> {
  const response = await t.get('v1', '/questions');
  expect(response.status).toBe(200);
  return ((await response.json()) as { questions: Question[] }).questions;
}

async function refusal(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { ok: boolean; error: string };
  expect(body.ok).toBe(false);
  return body.error;
}

/** The question box of a rendered page, as the HTML source holds it (escaped). */
function textareaSource(html: string): string {
  const match = /<textarea id="ask-text"[^>]*>([\s\S]*?)<\/textarea>/.exec(html);
  if (match === null) throw new Error('no question box in the page');
  return match[1] ?? '';
}

describe('the audience page', () => {
  it('is served for the right key: the form with its ids, its own script and style, a CSP that lets it post back, no Referer', async () => {
    const t = createTestApp();
    const response = await t.request(ASK, { headers: { Accept: HTML } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer');
    const csp = response.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain("form-action 'none'");
    expect(csp).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toMatch(/<form id="ask-form" method="post"/);
    for (const id of ['ask-text', 'ask-count', 'ask-name', 'ask-send', 'ask-status']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('name="text"');
    expect(html).toContain('name="name"');
    expect(html).toContain('src="/assets/ask.js"');
    expect(html).toContain('href="/assets/ask.css"');
    // Nothing from the internet, and the key appears nowhere in the page.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toContain(AUDIENCE_KEY);
  });

  it('refuses a wrong key with 401: JSON for fetch, a page for a browser', async () => {
    const t = createTestApp();
    const json = await t.request('/ask/not-the-audience-key');
    expect(await refusal(json, 401)).toMatch(/question link is not valid/);
    const page = await t.request('/ask/not-the-audience-key', { headers: { Accept: HTML } });
    expect(page.status).toBe(401);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(await page.text()).toContain('question link is not valid');
    const posted = await t.request('/ask/not-the-audience-key', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"text":"Hello?"}' });
    expect(await refusal(posted, 401)).toMatch(/not valid/);
    expect(await questions(t)).toEqual([]);
  });
});

describe('sending a question', () => {
  it('as JSON: 201 with its id and time, and the moderator sees it as new', async () => {
    const t = createTestApp();
    const response = await postJson(t, { text: '  What comes after the keynote?  ', name: ' Ada ' });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { ok: boolean; id: string; receivedAt: number };
    expect(body).toMatchObject({ ok: true, receivedAt: t.clock.wallMs() });
    expect(typeof body.id).toBe('string');
    expect(await questions(t)).toEqual([{ id: body.id, text: 'What comes after the keynote?', name: 'Ada', receivedAt: t.clock.wallMs(), state: 'new', nameShown: false }]);
  });

  it('as the form with no script: 201 and the page saying it was received, the box empty again', async () => {
    const t = createTestApp();
    const response = await postForm(t, { text: 'Will the slides be shared?', name: 'Grace' });
    expect(response.status).toBe(201);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(response.headers.get('Content-Security-Policy')).toContain("form-action 'self'");
    const html = await response.text();
    expect(html).toContain('your question was received');
    expect(textareaSource(html)).toBe('');
    expect((await questions(t)).map((q) => [q.text, q.name, q.state])).toEqual([['Will the slides be shared?', 'Grace', 'new']]);
  });

  it('strips control characters and turns line breaks into spaces: "a\\u0007b\\nc" is kept as "ab c"', async () => {
    const t = createTestApp();
    expect((await postJson(t, { text: 'a\u0007b\nc', name: 'N\u0000o\u001bra' })).status).toBe(201);
    expect((await questions(t)).map((q) => [q.text, q.name])).toEqual([['ab c', 'Nora']]);
  });
});

describe('bad input', () => {
  const cases: { what: string; send: (t: TestApp) => Promise<Response>; status: number; error: RegExp }[] = [
    { what: 'an empty question', send: (t) => postJson(t, { text: '', name: 'Ada' }), status: 400, error: /^text: is empty/ },
    { what: 'only spaces', send: (t) => postJson(t, { text: '   \n\t  ' }), status: 400, error: /^text: is empty/ },
    { what: '281 characters', send: (t) => postJson(t, { text: 'x'.repeat(281) }), status: 400, error: /^text: at most 280 characters \(it has 281\)/ },
    { what: 'a name of 61 characters', send: (t) => postJson(t, { text: 'Why?', name: 'n'.repeat(61) }), status: 400, error: /^name: at most 60 characters/ },
    { what: 'no text at all', send: (t) => postJson(t, { name: 'Ada' }), status: 400, error: /^text: is required/ },
    { what: 'text that is not a string', send: (t) => postJson(t, { text: 42 }), status: 400, error: /^text: must be a string/ },
    { what: 'a name that is not a string', send: (t) => postJson(t, { text: 'Why?', name: ['Ada'] }), status: 400, error: /^name: must be a string/ },
    { what: 'a body that is not JSON', send: (t) => postJson(t, '{"text": "Why?"', { raw: true }), status: 400, error: /not valid JSON/ },
    { what: 'a JSON array', send: (t) => postJson(t, [{ text: 'Why?' }]), status: 400, error: /must be a JSON object/ },
    {
      what: 'a wrong content type',
      send: (t) => t.request(ASK, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"text":"Why?"}' }),
      status: 400,
      error: /as JSON .*Content-Type: application\/json.* or as a form/,
    },
    {
      what: `a body over ${MAX_BODY_BYTES} bytes`,
      send: (t) => postJson(t, { text: 'y'.repeat(MAX_BODY_BYTES) }),
      status: 413,
      error: /too long: a question is at most 280 characters/,
    },
  ];
  for (const c of cases) {
    it(`${c.what}: ${c.status}, saying what is wrong, and nothing kept`, async () => {
      const t = createTestApp();
      expect(await refusal(await c.send(t), c.status)).toMatch(c.error);
      expect(await questions(t)).toEqual([]);
    });
  }

  it('a 280-character question is taken, markup and all, and kept as text', async () => {
    const t = createTestApp();
    const markup = '<script>alert(1)</script>';
    const text = `${markup}${'q'.repeat(280 - markup.length - 1)}?`;
    expect([...text].length).toBe(280);
    expect((await postJson(t, { text, name: '<b>Bold</b>' })).status).toBe(201);
    expect((await questions(t)).map((q) => [q.text, q.name])).toEqual([[text, '<b>Bold</b>']]);
  });

  it('a refused form comes back as the page with the reason and the question refilled, escaped', async () => {
    const t = createTestApp();
    const markup = '<script>alert(1)</script>';
    const text = `${markup}${'q'.repeat(280 - markup.length)}`;
    const name = `"><script>alert(2)</script>${'n'.repeat(40)}`;
    const response = await postForm(t, { text, name });
    expect(response.status).toBe(400);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/id="ask-status" class="ask-error" role="alert">name: at most 60 characters/);
    expect(html).not.toContain('<script>alert');
    expect(textareaSource(html)).toBe(`&#60;script&#62;alert(1)&#60;/script&#62;${'q'.repeat(280 - markup.length)}`);
    expect(html).toContain(`value="&#34;&#62;&#60;script&#62;alert(2)&#60;/script&#62;${'n'.repeat(40)}"`);
    expect(await questions(t)).toEqual([]);
  });

  it('an empty form comes back as the page saying the question is missing', async () => {
    const t = createTestApp();
    const response = await postForm(t, { text: '   ', name: 'Ada' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('text: is empty; type a question');
    expect(html).toContain('value="Ada"');
  });
});

describe('questions per phone', () => {
  const remainingOfApi = async (t: TestApp): Promise<number> => Number((await t.get('v1', '/state')).headers.get('RateLimit-Remaining'));

  it('the 6th in a minute is 429 with Retry-After, spends none of the API quota, and the window passing lets it in', async () => {
    const t = createTestApp();
    const before = await remainingOfApi(t);
    for (let i = 1; i <= 5; i += 1) expect((await postJson(t, { text: `Question ${i}?` }, { client: '10.0.0.7' })).status).toBe(201);
    t.clock.advance(20_000);
    const sixth = await postJson(t, { text: 'Question 6?' }, { client: '10.0.0.7' });
    expect(await refusal(sixth, 429)).toMatch(/you sent 5 questions in the last minute; try again in 40 s/);
    expect(sixth.headers.get('Retry-After')).toBe('40');
    // Another phone is not held up by this one.
    expect((await postJson(t, { text: 'From the back row?' }, { client: '10.0.0.8' })).status).toBe(201);
    // One API call since `before`: its own. Questions, accepted or refused, took nothing.
    expect(await remainingOfApi(t)).toBe(before - 1);

    t.clock.advance(39_999);
    expect((await postJson(t, { text: 'Still too soon?' }, { client: '10.0.0.7' })).status).toBe(429);
    t.clock.advance(1);
    expect((await postJson(t, { text: 'Question 6, again?' }, { client: '10.0.0.7' })).status).toBe(201);
    expect((await questions(t)).map((q) => q.text)).toEqual(['Question 1?', 'Question 2?', 'Question 3?', 'Question 4?', 'Question 5?', 'From the back row?', 'Question 6, again?']);
  });
});
